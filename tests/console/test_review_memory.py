"""Memory's review methods on both backends: each decision is an operation, previews match undos."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import timedelta
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from conftest import free_port
from console.seed import T0, Seeded, say, seed
from engram import Conflict, InvalidInput, Memory, NotFound, PreconditionFailed, Settings
from fakes.openai_server import ChatReply, serve_fake_openai


@pytest.fixture
def memory(backend: dict[str, Any]) -> Iterator[Memory]:
    """A memory on each backend (BM25 only), seeded."""
    with Memory.open(settings=Settings(**backend, embedder="none")) as mem:
        yield mem


@pytest.fixture
def seeded(memory: Memory) -> Seeded:
    return seed(memory)


def test_the_taxonomy_has_its_intents_labelled_in_both_languages(memory: Memory) -> None:
    intents = memory.intents()
    packaged = json.loads(files("engram.models").joinpath("intents.json").read_text("utf-8"))
    assert [i.name for i in intents] == [i["name"] for i in packaged["intents"]]
    assert len({i.name for i in intents}) == len(intents) >= 12
    assert all(i.labels["en"] and i.labels["zh"] and i.label("zh") != i.label("en") for i in intents)
    follow_up = next(i for i in intents if i.name == "follow_up")
    assert (follow_up.label("zh"), follow_up.label("fr")) == ("跟进", "Follow up")


def test_entity_attributes_are_edited_as_a_version_with_the_version_check(
    memory: Memory, seeded: Seeded
) -> None:
    before = memory.get_entity(seeded.acme).entity
    view = memory.update_entity(
        seeded.acme, {"city": "Hangzhou", "size": 120}, expected_version=before.version, actor="console:amy"
    )
    assert view.entity.version == before.version + 1
    assert {k: v["value"] for k, v in view.entity.attributes.items()} == {"city": "Hangzhou", "size": 120}
    with pytest.raises(PreconditionFailed) as stale:
        memory.update_entity(seeded.acme, {"city": "Ningbo"}, expected_version=before.version)
    assert stale.value.current_version == view.entity.version
    removed = memory.update_entity(seeded.acme, {"size": None}, expected_version=view.entity.version)
    assert list(removed.entity.attributes) == ["city"]
    edits = memory.list_operations(kind=["entity_update"]).items
    assert [op.actor for op in edits] == [None, "console:amy"] and edits[0].details["attributes"] == ["size"]
    memory.revert_operation(edits[0].id)
    assert memory.get_entity(seeded.acme).entity.attributes["size"]["value"] == 120, "an edit is undone"
    with pytest.raises(InvalidInput) as bad:
        memory.update_entity(
            seeded.acme, {"": "x"}, expected_version=memory.get_entity(seeded.acme).entity.version
        )
    assert bad.value.field == "attributes."
    with pytest.raises(NotFound):
        memory.update_entity("en_nope", {"a": "b"}, expected_version=1)


def test_not_the_same_is_an_operation_and_the_pair_leaves_review(memory: Memory, seeded: Seeded) -> None:
    [evidence] = memory.merge_evidence()
    pair = {evidence.candidate.entity.id, evidence.candidate.candidate.id}
    assert pair == {seeded.caroline, seeded.carolyn}
    assert [e.name for e in evidence.shared_neighbours] == ["Acme"], "both work at Acme"
    operation = memory.mark_distinct(seeded.caroline, seeded.carolyn, actor="console:amy")
    assert memory.merge_candidates() == [] and memory.merge_evidence() == []
    stored = memory.get_operation(operation.id)
    assert stored.operation.kind == "distinct" and stored.operation.actor == "console:amy"
    assert stored.operation.details == {"entity": seeded.caroline, "candidate": seeded.carolyn}
    assert memory.health().pending_candidates == 0
    with pytest.raises(NotFound) as missing:
        memory.mark_distinct(seeded.caroline, "en_nope")
    assert missing.value.field == "candidate"


def test_not_the_same_is_undone_and_the_undo_undone(memory: Memory, seeded: Seeded) -> None:
    pair = {seeded.caroline, seeded.carolyn}
    distinct = memory.mark_distinct(seeded.caroline, seeded.carolyn, actor="console:amy")
    preview = memory.preview_revert(distinct.id)
    assert preview.revertible and [(c.action, c.now, c.after) for c in preview.changes] == [
        (
            "judge",
            {"distinct_from": max(pair), "distinct": True},
            {"distinct_from": max(pair), "distinct": False},
        )
    ]
    undo = memory.revert_operation(distinct.id, actor="console:amy").operation
    assert undo.details["pair"] == sorted(pair) and undo.details["distinct"] is False
    assert [{c.entity.id, c.candidate.id} for c in memory.merge_candidates()] == [pair], "back in review"
    with pytest.raises(Conflict) as twice:
        memory.revert_operation(distinct.id)
    assert twice.value.field == "id" and undo.id in str(twice.value)
    assert not memory.preview_revert(distinct.id).revertible
    memory.revert_operation(undo.id)
    assert memory.merge_candidates() == [], "undoing the undo judges them distinct again"


def test_a_later_judgement_of_the_pair_needs_force(memory: Memory, seeded: Seeded) -> None:
    first = memory.mark_distinct(seeded.caroline, seeded.carolyn)
    memory.mark_distinct(seeded.carolyn, seeded.caroline)
    assert memory.preview_revert(first.id).later_operations
    with pytest.raises(Conflict) as refused:
        memory.revert_operation(first.id)
    assert refused.value.field == "id"
    memory.revert_operation(first.id, force=True)
    assert len(memory.merge_candidates()) == 1


def test_a_dispute_is_settled_keeping_one_or_both_and_undone(memory: Memory, seeded: Seeded) -> None:
    [dispute] = memory.disputes()
    assert dispute.subject is not None and dispute.subject.id == seeded.project
    values = {hit.fact.value: hit.fact.id for hit in dispute.facts}
    assert set(values) == {500000, 800000} and memory.health().disputed_facts == 1
    assert {h.fact.value: h.fact.status for h in dispute.facts} == {500000: "current", 800000: "disputed"}
    operation = memory.resolve_dispute(seeded.project, "BUDGET", [values[500000]], actor="console:amy")
    statuses = {h.fact.value: (h.fact.status, h.fact.superseded_by) for h in _history(memory, seeded.project)}
    assert statuses == {500000: ("current", None), 800000: ("superseded", values[500000])}
    assert memory.disputes() == [] and memory.get_operation(operation.id).operation.kind == "arbitrate"
    with pytest.raises(Conflict):
        memory.resolve_dispute(seeded.project, "BUDGET", [values[500000]])
    memory.revert_operation(operation.id)
    reopened = {h.fact.value: h.fact.status for h in _history(memory, seeded.project)}
    assert reopened == {500000: "current", 800000: "disputed"}, "the undo re-opens it"
    memory.resolve_dispute(seeded.project, "BUDGET", list(values.values()))
    assert {h.fact.status for h in _history(memory, seeded.project)} == {"current"}, "keep both"
    with pytest.raises(InvalidInput):
        memory.resolve_dispute(seeded.project, "BUDGET", [])
    with pytest.raises(NotFound, match="en_nope"):  # not "someone settled it"
        memory.resolve_dispute("en_nope", "BUDGET", ["fa_nope"])


def _history(memory: Memory, subject: str) -> list[Any]:
    return memory.search_facts({"subject": subject, "include_history": True}).results


def test_an_episode_lists_its_versions_and_the_graph_it_supports(memory: Memory, seeded: Seeded) -> None:
    [caroline_episode] = memory.search_episodes({"query": "Caroline works"}).results[:1]
    episode = caroline_episode.episode
    memory.update_episode(episode.id, {"metadata": {"priority": "high"}}, expected_version=1)
    versions = memory.episode_versions(episode.id)
    assert [v.version for v in versions] == [1, 2] and versions[0].expired_at is not None
    assert versions[1].metadata == {"session": 1, "priority": "high"}
    support = memory.episode_support(episode.id)
    assert {e.name for e in support.entities} == {"Caroline", "Acme"}
    assert [(h.subject_name, h.fact.predicate, h.object_name) for h in support.facts] == [
        ("Caroline", "WORKS_AT", "Acme")
    ]
    assert [e.id for e in memory.unclassified_episodes()] == [seeded.unclassified]
    with pytest.raises(NotFound):
        memory.episode_versions("ep_nope")


def test_the_undo_preview_says_what_the_revert_then_does(memory: Memory, seeded: Seeded) -> None:
    survivor = memory.merge_entities(seeded.carolyn, seeded.caroline, actor="console:amy")
    [merge] = memory.list_operations(kind=["merge"]).items
    preview = memory.preview_revert(merge.id)
    assert preview.revertible and preview.later_operations == []
    actions = {(c.kind, c.id): c for c in preview.changes}
    assert actions[("entity", seeded.carolyn)].action == "restore", "the merged entity comes back"
    assert actions[("entity", seeded.carolyn)].now is not None
    assert actions[("entity", seeded.carolyn)].now["expired_at"] is not None
    restored = actions[("entity", seeded.caroline)]
    assert "Carolyn" in restored.now["aliases"] and "Carolyn" not in restored.after["aliases"]
    moved = [c for c in preview.changes if c.kind == "fact"]
    assert moved and all(c.now["subject"] == seeded.caroline for c in moved)
    assert {c.after["subject"] for c in moved} == {seeded.carolyn}
    assert survivor.entity.id == seeded.caroline
    # A later operation on the same object is announced before the undo refuses it.
    memory.update_entity(seeded.caroline, {"team": "sales"}, expected_version=survivor.entity.version)
    blocked = memory.preview_revert(merge.id)
    assert [op.kind for op in blocked.later_operations] == ["entity_update"]
    with pytest.raises(Conflict) as conflict:
        memory.revert_operation(merge.id)
    assert conflict.value.operations == [op.id for op in blocked.later_operations]
    memory.revert_operation(merge.id, force=True)
    after = memory.get_entity(seeded.caroline).entity
    assert (
        after.aliases == restored.after["aliases"]
        and memory.get_entity(seeded.carolyn).entity.name == "Carolyn"
    )
    again = memory.preview_revert(merge.id)
    assert not again.revertible and "already reverted" in (again.reason or "")


def test_previews_of_operations_that_cannot_be_undone_say_why(memory: Memory, seeded: Seeded) -> None:
    episode = memory.create_episode({"content": "a note to purge"}).episode
    purge, _ = memory.purge_episode(episode.id)
    preview = memory.preview_revert(purge.id)
    assert not preview.revertible and preview.changes == [] and preview.reason
    [ingest] = memory.list_operations(kind=["ingest"], episode_id=seeded.complaint).items
    retract = memory.preview_revert(ingest.id)
    assert [(c.kind, c.id, c.action) for c in retract.changes] == [("episode", seeded.complaint, "retract")]
    with pytest.raises(NotFound):
        memory.preview_revert("op_nope")


def test_operations_filter_by_actor_across_pages(memory: Memory, seeded: Seeded) -> None:
    for n in range(3):
        say(memory, f"note {n}", 6 + n)
        memory.create_episode({"content": f"by amy {n}"}, actor="console:amy")
    first = memory.list_operations(actor="console:amy", limit=2)
    assert [op.actor for op in first.items] == ["console:amy"] * 2 and first.next_cursor
    rest = memory.list_operations(actor="console:amy", limit=2, cursor=first.next_cursor)
    ids = [op.id for op in first.items + rest.items if op.kind == "ingest"]
    assert len(ids) == 3 and len(set(ids)) == 3
    assert memory.list_operations(actor="nobody").items == []


def test_health_counts_volumes_duplicates_failures_and_errors(
    backend: dict[str, Any], tmp_path: Path
) -> None:
    with serve_fake_openai(free_port()) as fake:
        settings = Settings(
            **backend,
            extractor="llm",
            llm_base_url=fake.base_url,
            llm_model="fake",
            llm_max_retries=0,
            embedder="none",
        )
        with Memory.open(settings=settings, clock=lambda: T0 + timedelta(days=10)) as memory:
            fake.script(ChatReply(status=503))
            failed = say(memory, "I live in Hangzhou", 0, intent="request_info", source="email")
            fake.script(ChatReply(content='{"entities": [], "facts": []}'))
            say(memory, "Any update on the quote?", 1, intent="follow_up", source="email")
            fake.script(ChatReply(content='{"entities": [], "facts": []}'))
            say(memory, "Any update on the quote?", 1, intent="follow_up", source="email")  # a duplicate
            report = memory.health()
    assert report.total.by_intent == {"request_info": 1, "follow_up": 1}
    assert report.total.by_source == {"email": 2}
    assert [sum(w.by_intent.values()) for w in report.weeks] == [0] * 6 + [2, 0], "weeks end tomorrow"
    assert report.weeks[-2].by_source == {"email": 2} and report.weeks[-1].end == T0 + timedelta(
        days=11, hours=-9
    )
    assert (report.created, report.deduplicated, report.duplicate_rate) == (2, 1, pytest.approx(1 / 3))
    assert [e.id for e in report.extraction_failures] == [failed]
    assert any("extraction failed" in r.message and r.level == "WARNING" for r in report.recent_errors)


def test_recent_errors_stop_listening_when_the_memory_closes(tmp_path: Path) -> None:
    memory = Memory.open(settings=Settings(data_dir=tmp_path / "d", embedder="none"))
    logging.getLogger("engram.test").error("boom %s", 1)
    assert [r.message for r in memory.health().recent_errors] == ["boom 1"]
    memory.close()
    # This memory's handler is gone (another test's open memory may still have its own).
    assert memory._recent_errors not in logging.getLogger("engram").handlers
