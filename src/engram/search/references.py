"""Find the episodes citing a document: resolve what was asked (an id or a name), list its versions.

What a person asks for is tried, in order, as: a reference id the group's episodes cite (or are
part of); a configured name (``ENGRAM_REFERENCE_NAMES_FILE``); a name the importers learned
(``metadata.reference_names``); the document id a file name or title gives
(engram.nlp.reference_ids.document_id). The first that the held episodes know wins.

A document's versions are ordered by version number (``final`` last) when every version is a
number, else by when each was first cited (episode timestamp: a page's content hash says nothing
of order); a version-less citation comes first. The last is the latest. Asking for the document
without a version lists the episodes of every version; asking for one version lists its
episodes, and the answer says which version is the latest.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime

from engram.errors import InvalidInput, NotFound, shown
from engram.models.episodes import Episode
from engram.models.references import (
    MAX_REFERENCE_CHARS,
    ReferenceCitation,
    ReferenceHead,
    ReferenceVersion,
    ResolvedBy,
    name_key,
    name_text,
)
from engram.nlp.reference_ids import document_id, split_reference, unique
from engram.storage.protocol import Storage
from engram.storage.types import CitedReference, PageKey


def _number(version: str) -> tuple[int, ...] | None:
    """Return a version as numbers (``1-3`` → (1, 3), ``final`` after any number), or None (a hash)."""
    if version == "final":
        return (10**9,)
    parts = version.split("-")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


def in_version_order(cited: list[CitedReference]) -> list[CitedReference]:
    """Return a document's cited versions oldest first: a version-less citation first, then by version
    number when every version is a number, else by first citation (episode timestamp)."""
    versions = {c.reference: split_reference(c.reference)[1] for c in cited}
    numbers = {ref: _number(v) for ref, v in versions.items() if v is not None}
    numeric = all(n is not None for n in numbers.values())

    def key(c: CitedReference) -> tuple[bool, tuple[int, ...], datetime]:
        number = numbers.get(c.reference) or ()
        return versions[c.reference] is not None, number if numeric else (), c.first_seen

    return sorted(cited, key=key)


class ReferenceLookup:
    """Resolve references and names in one group of a store, as held now or at ``known_at``."""

    def __init__(self, store: Storage, configured: Mapping[str, str]) -> None:
        self._store = store
        self._configured = configured

    def _candidates(self, group_id: str, query: str, at: datetime | None) -> Iterator[tuple[str, ResolvedBy]]:
        yield query, "id"
        key = name_key(query)
        if key in self._configured:
            yield self._configured[key], "configured name"
        named = self._store.references_named(group_id, name_text(query), at)
        learned = unique(ref for ref, _ in named)
        documents = unique(split_reference(ref)[0] for ref in learned)
        if len(documents) > 1:
            raise InvalidInput(
                f"the name {shown(query)} names {len(documents)} documents ({', '.join(learned)}); "
                "ask for one by its reference id",
                field="ref",
            )
        if learned:
            yield (learned[0] if len(learned) == 1 else documents[0]), "learned name"
        yield document_id(query), "document name"

    def _known(
        self, group_id: str, resolved: str, at: datetime | None
    ) -> tuple[str, list[CitedReference], list[str]]:
        """Return (document, its cited versions in order, the references asked for among them)."""
        document, version = split_reference(resolved)
        known = in_version_order(
            [
                cited
                for cited in self._store.document_references(group_id, document, at)
                if cited.reference == document or split_reference(cited.reference)[0] == document
            ]
        )
        if version is None:
            return document, known, [cited.reference for cited in known]
        return document, known, [resolved] if any(c.reference == resolved for c in known) else []

    def head(self, group_id: str, query: str, at: datetime | None) -> tuple[ReferenceHead, list[str]]:
        """Return what ``query`` resolves to with every known version, and the references to list.

        Raises InvalidInput (empty, too long, a name of several documents) or NotFound (field ``ref``).
        """
        query = query.strip()
        if not query or len(query) > MAX_REFERENCE_CHARS:
            raise InvalidInput(f"ref must be 1-{MAX_REFERENCE_CHARS} characters", field="ref")
        for resolved, by in self._candidates(group_id, query, at):
            document, known, wanted = self._known(group_id, resolved, at)
            if wanted:
                return self._head(group_id, query, (resolved, by), document, known, at), wanted
        then = "" if at is None else f" at {at.isoformat()}"
        raise NotFound(
            f"no episode in group {shown(group_id)} cites {shown(query)}{then} "
            "(tried as a reference id, a name and a document name)",
            field="ref",
        )

    def _head(
        self,
        group_id: str,
        query: str,
        resolution: tuple[str, ResolvedBy],
        document: str,
        known: list[CitedReference],
        at: datetime | None,
    ) -> ReferenceHead:
        resolved, by = resolution
        latest = known[-1].reference
        names: dict[str, list[str]] = {}
        for ref, name in self._store.reference_names(group_id, [c.reference for c in known], at):
            names.setdefault(ref, []).append(name)
        versions = [
            ReferenceVersion(
                reference=cited.reference,
                version=split_reference(cited.reference)[1] if cited.reference != document else None,
                latest=cited.reference == latest,
                episodes=cited.episodes,
                first_seen=cited.first_seen,
                last_seen=cited.last_seen,
                names=names.get(cited.reference, []),
            )
            for cited in known
        ]
        note = None
        if resolved not in (document, latest):
            note = f"{resolved} is not the latest version of {document}: {latest} is"
        return ReferenceHead(
            query=query,
            resolved=resolved,
            resolved_by=by,
            document=document,
            versions=versions,
            latest=latest,
            note=note,
        )

    def citations(
        self,
        group_id: str,
        head: ReferenceHead,
        wanted: list[str],
        limit: int,
        after_key: PageKey | None,
        at: datetime | None,
    ) -> list[ReferenceCitation]:
        """Return up to ``limit`` episodes citing (or part of) ``wanted``, newest first, each labelled."""
        episodes = self._store.episodes_citing(group_id, wanted, limit, after_key, at)
        return [citation(episode, set(wanted), head.latest) for episode in episodes]


def citation(episode: Episode, wanted: set[str], latest: str) -> ReferenceCitation:
    """Return ``episode`` labelled with the versions of ``wanted`` it cites or is part of."""
    cites = [ref for ref in episode.references if ref in wanted]
    source = episode.metadata.get("reference_id")
    part_of = source if isinstance(source, str) and source in wanted else None
    return ReferenceCitation(
        episode=episode,
        cites=cites,
        part_of=part_of,
        latest=latest in cites or part_of == latest,
        citation=f"[source: {episode.id}]",
    )
