"""People's corrections to the graph, each one operation: entity attributes, "not the same", disputes.

Also the reads a reviewer works from: merge candidates with their evidence (minus the pairs
already judged distinct), disputed facts grouped by subject and predicate, and what an
episode stands behind (the entities it mentions, the facts it is evidence for).

"Not the same" records a ``distinct`` operation naming both entities; it writes no version. The
candidate list leaves the pair out while that judgement stands; undoing it brings the pair back
(engram.graph.judgements).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from engram.errors import Conflict, InvalidInput, NotFound, PreconditionFailed, shown
from engram.graph.build import fact_index_text
from engram.graph.entities import edit, keys_of
from engram.graph.judgements import distinct_pairs
from engram.graph.service import GraphService
from engram.models.episodes import Operation
from engram.models.graph import AliasChanges, Entity, EntityPatch, EntityView, Fact, MergeCandidateView
from engram.models.review import Dispute, EpisodeSupport, MergeEvidence
from engram.storage.protocol import Storage, Txn
from engram.storage.types import FactQuery


class ReviewService:
    """Corrections and review reads over a store (see the module docstring)."""

    def __init__(
        self,
        store: Storage,
        graph: GraphService,
        *,
        clock: Callable[[], datetime],
    ) -> None:
        self._store = store
        self._graph = graph
        self._clock = clock

    # -- entities ------------------------------------------------------------------------------

    def update_entity(
        self,
        group_id: str,
        entity_id: str,
        patch: EntityPatch,
        expected_version: int,
        actor: str | None,
    ) -> EntityView:
        """Apply a person's ``patch`` to the entity as a new version; one ``entity_update`` operation.

        Attributes merge (None removes a key), aliases are added or removed (each added one
        records this operation as its source), the summary is replaced (null removes it), the
        type changes. Nothing changes → no version and no operation. Raises NotFound,
        PreconditionFailed (``expected_version`` is stale), InvalidInput (an alias equal to the
        name, field ``aliases.add``; attribute bounds are the model's: ``EntityPatch``), Conflict (an
        alias that already names another entity of the group, field ``aliases.add``).
        """
        aliases = patch.aliases or AliasChanges()

        def update(txn: Txn) -> None:
            operation = txn.begin(group_id, "entity_update", f"update entity {entity_id}", self._clock, actor)
            current = txn.entity(group_id, entity_id)
            if current is None:
                raise NotFound(f"no entity with id {entity_id!r} in group {group_id!r}", field="id")
            if current.version != expected_version:
                raise PreconditionFailed(
                    f"entity {entity_id!r} is at version {current.version}, not {expected_version}",
                    current_version=current.version,
                )
            if current.name in aliases.add:
                raise InvalidInput(
                    f"{current.name!r} is the entity's name, not an alias", field="aliases.add"
                )
            for other in txn.entities_named(group_id, keys_of(aliases.add)):
                if other.id != entity_id:  # one name for two entities: resolution could not tell them apart
                    raise Conflict(
                        f"an alias to add already names entity {other.id} ({other.name!r}): merge the two "
                        f"(POST /v1/entities/{entity_id}/merge) or choose another alias",
                        field="aliases.add",
                    )
            before = dict(current.attributes)
            updated, changed = edit(
                txn,
                current,
                operation,
                attributes=patch.attributes or {},
                add_aliases=aliases.add,
                remove_aliases=aliases.remove,
                summary=patch.summary,
                clear_summary="summary" in patch.model_fields_set and patch.summary is None,
                type_=patch.type,
            )
            if not changed:
                return
            details: dict[str, object] = {"entity": entity_id, "version": updated.version, "changed": changed}
            details["attributes"] = sorted(
                k for k in (patch.attributes or {}) if updated.attributes.get(k) != before.get(k)
            )
            details["aliases_added"] = [a for a in updated.aliases if a not in current.aliases]
            details["aliases_removed"] = [a for a in current.aliases if a not in updated.aliases]
            txn.record_operation(operation, details)

        self._store.write(update)
        return self._graph.get_entity(group_id, entity_id, None)

    # -- merge candidates ----------------------------------------------------------------------

    def mark_distinct(self, group_id: str, entity_id: str, other_id: str, actor: str | None) -> Operation:
        """Record that two entities are not the same, as a ``distinct`` operation.

        Raises NotFound, InvalidInput.
        """
        if entity_id == other_id:
            raise InvalidInput("an entity is always the same as itself", field="candidate")

        def record(txn: Txn) -> Operation:
            operation = txn.begin(group_id, "distinct", f"{entity_id} is not {other_id}", self._clock, actor)
            for field, object_id in (("id", entity_id), ("candidate", other_id)):
                if txn.entity(group_id, object_id) is None:
                    raise NotFound(f"no entity with id {object_id!r} in group {group_id!r}", field=field)
            txn.record_operation(operation, {"entity": entity_id, "candidate": other_id})
            return operation

        return self._store.write(record)

    def distinct_pairs(self, group_id: str) -> set[frozenset[str]]:
        """Return the pairs of entities people judged not the same (and did not undo)."""
        return distinct_pairs(lambda q, n, key: self._store.list_operations(group_id, q, n, key))

    def merge_candidates(self, group_id: str) -> list[MergeCandidateView]:
        """Return the possible duplicates still to review, best first (pairs judged distinct left out)."""
        distinct = self.distinct_pairs(group_id)
        return [
            view
            for view in self._graph.merge_candidates(group_id)
            if frozenset((view.entity.id, view.candidate.id)) not in distinct
        ]

    def merge_evidence(self, group_id: str, limit: int) -> list[MergeEvidence]:
        """Return up to ``limit`` candidates to review with the neighbours both entities share."""
        evidence = []
        for view in self.merge_candidates(group_id)[:limit]:
            shared = self._neighbours(group_id, view.entity.id) & self._neighbours(
                group_id, view.candidate.id
            )
            entities = [self._store.get_entity(group_id, entity_id) for entity_id in sorted(shared)]
            evidence.append(
                MergeEvidence(candidate=view, shared_neighbours=[e for e in entities if e is not None])
            )
        return evidence

    def _neighbours(self, group_id: str, entity_id: str) -> set[str]:
        facts = self._store.find_facts(group_id, FactQuery(subject=entity_id), 200)
        linked = {f.subject for f in facts} | {f.object for f in facts if f.object is not None}
        return linked - {entity_id}

    # -- disputes ------------------------------------------------------------------------------

    def disputes(self, group_id: str, limit: int) -> list[Dispute]:
        """Return the disputed facts (up to ``limit``) grouped by subject and predicate, each group with
        the current facts of that subject and predicate they contest."""
        groups: dict[tuple[str, str], list[Fact]] = {}
        for fact in self._store.disputed_facts(group_id, limit):
            groups.setdefault((fact.subject, fact.predicate), []).append(fact)
        disputes = []
        for (subject, predicate), facts in groups.items():
            query = FactQuery(subject=subject, predicate=predicate)
            rivals = [
                f
                for f in self._store.find_facts(group_id, query, 200)
                if f.subject == subject
                and f.status == "current"
                and any(f.conditions == d.conditions for d in facts)
            ]
            disputes.append(
                Dispute(
                    subject=self._store.get_entity(group_id, subject),
                    predicate=predicate,
                    facts=self._graph.hits(group_id, [*rivals, *facts]),
                )
            )
        return disputes

    def resolve_dispute(
        self, group_id: str, subject: str, predicate: str, keep: list[str], actor: str | None
    ) -> Operation:
        """Settle the disputed facts of ``subject`` and ``predicate`` as one ``arbitrate`` operation.

        The dispute is the disputed facts and the current ones they contest. Facts in ``keep``
        become current; the others are superseded by the first kept. Keeping all of them keeps
        both sides current. Raises InvalidInput (``keep`` empty or naming a fact not in the
        dispute), NotFound (no such subject), Conflict (nothing is disputed there any more:
        someone settled it).
        """
        if not keep:
            raise InvalidInput("choose the fact(s) to keep", field="keep")

        def settle(txn: Txn) -> Operation:
            operation = txn.begin(
                group_id, "arbitrate", f"settle {predicate} of {subject}", self._clock, actor
            )
            if txn.entity(group_id, subject) is None:
                detail = f"no entity with id {shown(subject)} in group {shown(group_id)}"
                raise NotFound(detail, field="subject")
            live = txn.facts_about(group_id, [subject], [predicate])
            if not any(f.status == "disputed" for f in live):
                raise Conflict(
                    f"no fact of {subject} {predicate} is disputed now; it was settled", field="keep"
                )
            conditions = [f.conditions for f in live if f.status == "disputed"]
            disputed = [f for f in live if f.conditions in conditions]
            ids = {f.id for f in disputed}
            unknown = sorted(set(keep) - ids)
            if unknown:
                raise InvalidInput(f"fact {unknown[0]} is not disputed here", field="keep")
            winner = next(f.id for f in disputed if f.id in keep)
            superseded = []
            for fact in disputed:
                changes: dict[str, Any] = {"status": "current", "status_reason": "kept by a reviewer"}
                if fact.id not in keep:
                    changes = {
                        "status": "superseded",
                        "superseded_by": winner,
                        "status_reason": f"a reviewer kept {winner}",
                    }
                    superseded.append(fact.id)
                updated = fact.model_copy(
                    update={
                        **changes,
                        "version": fact.version + 1,
                        "recorded_at": operation.created_at,
                        "operation_id": operation.id,
                    }
                )
                txn.put_fact(updated, fact_index_text(txn, group_id, updated))
            kept = [f.id for f in disputed if f.id in keep]
            txn.record_operation(
                operation,
                {"subject": subject, "predicate": predicate, "kept": kept, "superseded": superseded},
            )
            return operation

        return self._store.write(settle)

    # -- episodes ------------------------------------------------------------------------------

    def episode_support(self, group_id: str, episode_id: str) -> EpisodeSupport:
        """Return the entities an episode mentions and every fact (any status) it is evidence for."""
        entities: list[Entity] = []
        facts: dict[str, Fact] = {}
        for entity_id in self._store.mentioned_entities(group_id, episode_id):
            entity = self._store.get_entity(group_id, entity_id)
            if entity is None:
                continue
            entities.append(entity)
            query = FactQuery(subject=entity_id, include_history=True)
            for fact in self._store.find_facts(group_id, query, 200):
                if episode_id in fact.episodes:
                    facts.setdefault(fact.id, fact)
        return EpisodeSupport(entities=entities, facts=self._graph.hits(group_id, list(facts.values())))
