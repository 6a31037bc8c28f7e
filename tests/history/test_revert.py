"""Revert through Memory: a wrong merge restored exactly, arbitration undone, conflicts, re-apply."""

from __future__ import annotations

from typing import Any

import pytest

from engram import Memory
from engram.errors import Conflict, NotFound
from engram.nlp.names import normalise_name
from history_support import budget, say

VOLATILE = {"version", "recorded_at", "expired_at", "operation_id"}


def entity_id(memory: Memory, name: str) -> str:
    found = [e for e in memory.search_entities(name) if e.name == name]
    assert len(found) == 1, found
    return found[0].id


def snapshot(memory: Memory, entity: str) -> dict[str, Any]:
    """Return what a user can read about an entity (minus version bookkeeping), field by field."""
    view = memory.get_entity(entity)
    store: Any = memory.store
    return {
        "entity": view.entity.model_dump(exclude=VOLATILE),
        "facts": sorted(
            (
                h.fact.id,
                h.fact.subject,
                h.fact.object,
                h.fact.fact,
                h.fact.status,
                tuple(h.fact.episodes),
                h.subject_name,
                h.object_name,
            )
            for h in view.facts
        ),
        "mentions": sorted(store.episodes_mentioning("default", [entity], 100)),
        "resolves": {
            name: [e.id for e in store.entities_with_names("default", [normalise_name(name)])]
            for name in [view.entity.name, *view.entity.aliases]
        },
    }


def two_companies(memory: Memory) -> tuple[str, str]:
    say(
        memory,
        "Acme GmbH signed the Berlin lease",
        days=0,
        entities=[
            {
                "name": "Acme GmbH",
                "type": "organization",
                "aliases": ["Acme Berlin"],
                "attributes": {"city": "Berlin"},
            },
            {"name": "Berlin", "type": "place"},
        ],
        facts=[
            {
                "subject": "Acme GmbH",
                "predicate": "LOCATED_IN",
                "object": "Berlin",
                "fact": "Acme GmbH is in Berlin",
            }
        ],
    )
    say(
        memory,
        "Acme Inc raised 5M in Austin",
        days=1,
        entities=[
            {"name": "Acme Inc", "type": "organization", "attributes": {"city": "Austin", "ceo": "Jo"}},
            {"name": "Austin", "type": "place"},
        ],
        facts=[
            {
                "subject": "Acme Inc",
                "predicate": "LOCATED_IN",
                "object": "Austin",
                "fact": "Acme Inc is in Austin",
            },
            {"subject": "Acme Inc", "predicate": "BUDGET", "value": 5000000, "fact": "Acme Inc raised 5M"},
        ],
    )
    return entity_id(memory, "Acme GmbH"), entity_id(memory, "Acme Inc")


def test_reverting_a_wrong_merge_restores_both_companies_exactly(memory: Memory) -> None:
    gmbh, inc = two_companies(memory)
    before = {gmbh: snapshot(memory, gmbh), inc: snapshot(memory, inc)}

    merged = memory.merge_entities(inc, gmbh)
    assert "Acme Inc" in merged.entity.aliases and len(merged.facts) == 3
    with pytest.raises(NotFound):
        memory.get_entity(inc)
    merge = memory.list_operations(kind=["merge"]).items[0]

    revert = memory.revert_operation(merge.id)

    assert revert.operation.kind == "revert" and revert.operation.details["target"] == merge.id
    assert {gmbh: snapshot(memory, gmbh), inc: snapshot(memory, inc)} == before
    # Every version the merge made was closed by the revert, and nothing else changed.
    closed = {(c.kind, c.id, c.version) for c in revert.closed}
    assert closed == {(c.kind, c.id, c.version) for c in memory.get_operation(merge.id).created}
    # The timeline keeps the merge: v1, merged v2, restored v3.
    assert [e.aliases for e in memory.get_entity(gmbh).timeline] == [
        ["Acme Berlin"],
        ["Acme Berlin", "Acme Inc"],
        ["Acme Berlin"],
    ]


def test_reverting_a_revert_reapplies_and_a_second_revert_conflicts(memory: Memory) -> None:
    gmbh, inc = two_companies(memory)
    memory.merge_entities(inc, gmbh)
    merged = snapshot(memory, gmbh)
    merge = memory.list_operations(kind=["merge"]).items[0]
    revert = memory.revert_operation(merge.id)

    with pytest.raises(Conflict, match="already reverted by") as conflict:
        memory.revert_operation(merge.id)
    assert conflict.value.operations == [revert.operation.id]

    memory.revert_operation(revert.operation.id)
    assert snapshot(memory, gmbh) == merged
    with pytest.raises(NotFound):
        memory.get_entity(inc)


def test_revert_refuses_to_undo_later_changes_unless_forced(memory: Memory) -> None:
    episode = say(memory, "Kickoff notes", days=0)
    first = memory.update_episode(episode, {"metadata": {"stage": "draft"}}, expected_version=1)
    second = memory.update_episode(episode, {"metadata": {"owner": "li"}}, expected_version=2)

    with pytest.raises(Conflict) as conflict:
        memory.revert_operation(first.operation_id)
    assert conflict.value.operations == [second.operation_id]
    assert memory.get_episode(episode).metadata == {"stage": "draft", "owner": "li"}, "nothing written"

    forced = memory.revert_operation(first.operation_id, force=True)
    assert forced.operation.details["forced_over"] == [second.operation_id]
    restored = memory.get_episode(episode)
    assert restored.metadata == {} and restored.version == 4

    memory.revert_operation(forced.operation.id)
    assert memory.get_episode(episode).metadata == {"stage": "draft", "owner": "li"}


def test_a_later_change_undone_since_is_not_offered_for_reverting(memory: Memory) -> None:
    episode = say(memory, "Kickoff notes", days=0)
    first = memory.update_episode(episode, {"metadata": {"stage": "draft"}}, expected_version=1)
    second = memory.update_episode(episode, {"metadata": {"owner": "li"}}, expected_version=2)
    undo = memory.revert_operation(second.operation_id)

    with pytest.raises(Conflict) as conflict:
        memory.revert_operation(first.operation_id)
    detail = conflict.value.detail
    assert f"{second.operation_id} (reverted by {undo.operation.id})" in detail
    assert "revert them first" not in detail, "reverting it again would be refused as already reverted"
    assert memory.revert_operation(first.operation_id, force=True).operation.kind == "revert"


def test_reverting_an_arbitration_restores_the_previous_current_fact(memory: Memory) -> None:
    acme = [{"name": "ACME", "type": "organization"}]
    say(memory, "ACME budget is 500k", days=0, entities=acme, facts=budget(500000))
    say(memory, "ACME budget is now 800k", days=30, facts=budget(800000))
    assert [h.fact.value for h in memory.search_facts({}).results] == [800000]
    update = memory.list_operations(kind=["extract"]).items[0]

    memory.revert_operation(update.id)

    current = memory.search_facts({}).results
    assert [(h.fact.value, h.fact.status, h.fact.invalid_at, h.fact.superseded_by) for h in current] == [
        (500000, "current", None, None)
    ]
    # The 800k fact has no current version: it is only in history.
    assert 800000 not in [h.fact.value for h in memory.search_facts({"include_history": True}).results]


def test_revert_errors(memory: Memory) -> None:
    with pytest.raises(NotFound) as missing:
        memory.revert_operation("op_nope")
    assert missing.value.field == "id"
    episode = say(memory, "hello Zebulon", days=0, entities=[{"name": "Zebulon", "type": "person"}])
    deleted = memory.delete_episode(episode)
    purged, report = memory.purge_episode(episode)
    assert report.entities == 1, "the entity only the deleted episode mentioned goes with it"
    assert memory.search_entities("Zebulon") == []
    with pytest.raises(Conflict, match="purge cannot be reverted"):
        memory.revert_operation(purged.id)
    with pytest.raises(Conflict, match="changed nothing that can still be reverted"):
        memory.revert_operation(deleted.operation.id)  # the purge took what it closed and removed
    assert memory.list_operations(kind=["revert"]).items == [], "nothing half-written"


def test_revert_of_an_ingest_retracts_its_episodes_and_their_graph(memory: Memory) -> None:
    keep = say(memory, "budget talk one", days=0)
    acme = [{"name": "ACME", "type": "organization"}]
    created = memory.create_episodes(
        [
            {"content": "budget talk two", "entities": acme, "facts": budget(500000)},
            {"content": "budget talk three"},
        ],
        kind="import",
    )
    with_fact = created[0].episode.id
    store: Any = memory.store
    mentioned = store.mentioned_entities("default", with_fact)
    assert len(mentioned) == 1 and [h.fact.value for h in memory.search_facts({}).results] == [500000]
    imported = memory.list_operations(kind=["import"]).items[0]

    revert = memory.revert_operation(imported.id)

    found = [h.episode.id for h in memory.search_episodes({"query": "budget talk"}).results]
    assert found == [keep]
    assert sorted(r["episode"] for r in revert.operation.details["retracted"]) == sorted(
        c.episode.id for c in created
    )
    assert memory.search_facts({}).results == [] and store.mentioned_entities("default", with_fact) == []

    memory.revert_operation(revert.operation.id)
    assert len(memory.search_episodes({"query": "budget talk"}).results) == 3
    assert [h.fact.value for h in memory.search_facts({}).results] == [500000]
    assert store.mentioned_entities("default", with_fact) == mentioned
