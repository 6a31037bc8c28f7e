"""What a store made by an older Engram answers: the reads recorded beside tests/data/stores/*.db.

``answers`` runs only public Memory reads that every release since schema 9 has, so the same
function records the answers with the old code (tests/data/stores/make_schema9.py) and asks
them again of the current code (tests/store/test_old_store.py).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from engram.errors import NotFound
from engram.memory import Memory

READ_AT = datetime(2024, 9, 1, 12, tzinfo=UTC)
"""The moment the answers are read at (queries such as "last week" depend on it)."""

EPISODE_QUERIES = ("Alice Berlin", "chess", "预算", "last week", "budget", "where does Caroline live")
FACT_SEARCHES: tuple[dict[str, Any], ...] = (
    {"query": "Alice"},
    {"query": "Alice", "include_history": True},
    {"query": "Alice lives", "include_history": True, "include_archived": True},
    {"query": "", "include_history": True},
    {"query": "", "include_history": True, "include_archived": True},
    {"query": "budget"},
    {"query": "chess Bobby"},
    {"query": "Caroline", "include_history": True, "include_archived": True},
    {"query": "", "as_of": "2024-01-15T00:00:00Z"},
)


class Clock:
    """A clock that moves 1 ms per reading unless frozen (``jump`` moves it further)."""

    def __init__(self, now: datetime, *, frozen: bool = False) -> None:
        self.now = now
        self.frozen = frozen

    def __call__(self) -> datetime:
        if not self.frozen:
            self.now += timedelta(milliseconds=1)
        return self.now

    def jump(self, delta: timedelta) -> None:
        self.now += delta


def export_counts(memory: Memory, group_id: str) -> dict[str, int]:
    """Return how many rows of each kind the group's export holds (header and end line aside)."""
    kinds = Counter(str(item["record"]) for item in memory.export_group(group_id))
    return {kind: n for kind, n in sorted(kinds.items()) if kind not in ("engram-export", "end")}


def answers(memory: Memory, moments: dict[str, str]) -> dict[str, Any]:
    """Return what the public reads answer about every group, as JSON-ready data.

    Export counts come first: fact searches record hits, which the export carries.
    ``moments`` name past transaction times (ISO text) the episode and entity reads are repeated at.
    """
    out: dict[str, Any] = {"groups": memory.groups()}
    for group in out["groups"]:
        out[f"{group} export counts"] = export_counts(memory, group)
    for group in out["groups"]:
        dump = list(memory.export_group(group))
        episode_ids = sorted({str(i["id"]) for i in dump if i["record"] == "episode"})
        entity_ids = sorted({str(i["id"]) for i in dump if i["record"] == "entity"})
        times: list[tuple[str, datetime | None]] = [("now", None)]
        times += [(label, datetime.fromisoformat(at)) for label, at in moments.items()]
        for label, at in times:
            for episode_id in episode_ids:
                try:
                    found: Any = memory.get_episode(episode_id, group, known_at=at).model_dump(mode="json")
                except NotFound as exc:
                    found = exc.detail
                out[f"{group} episode {episode_id} {label}"] = found
            for entity_id in entity_ids:
                try:
                    found = memory.get_entity(entity_id, group, known_at=at).model_dump(mode="json")
                except NotFound as exc:
                    found = exc.detail
                out[f"{group} entity {entity_id} {label}"] = found
            page = memory.list_episodes(group, limit=100, known_at=at)
            out[f"{group} list {label}"] = page.model_dump(mode="json")
        second = memory.list_episodes(group, limit=2, cursor=memory.list_episodes(group, limit=2).next_cursor)
        out[f"{group} list page 2"] = [e.id for e in second.items]
        out[f"{group} list intent note"] = [e.id for e in memory.list_episodes(group, intent=["note"]).items]
        out[f"{group} operations"] = memory.list_operations(group, limit=500).model_dump(mode="json")
        out[f"{group} candidates"] = [c.model_dump(mode="json") for c in memory.merge_candidates(group)]
    for group in out["groups"]:
        for query in EPISODE_QUERIES:
            for channels in (None, ["bm25"]):
                found = memory.search_episodes({"query": query, "group_id": group}, channels=channels)
                out[f"{group} search {query!r} {channels}"] = [hit.episode.id for hit in found.results]
        for search in FACT_SEARCHES:
            response = memory.search_facts({**search, "group_id": group, "limit": 50})
            out[f"{group} facts {search}"] = response.model_dump(mode="json")
    return out


def as_old(new: Any, old: Any) -> Any:
    """Return ``new`` cut to the shape of ``old``: keys added since the old code are left out.

    Fields later releases add (an entity's provenance, a fact's status reason) are new
    information, not a changed answer; every key the old answer had must still agree.
    """
    if isinstance(old, dict) and isinstance(new, dict):
        return {key: as_old(new[key], value) if key in new else None for key, value in old.items()}
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [as_old(n, o) for n, o in zip(new, old, strict=True)]
    return new
