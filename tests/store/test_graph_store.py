"""The Storage contract on every backend (through the ``store`` fixture): transactions, versions, reads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram.models.episodes import EpisodeFilters
from engram.models.graph import Entity, Fact
from engram.nlp.names import normalise_name
from engram.storage.protocol import Storage, Txn
from engram.storage.types import FactQuery, MergeCandidate
from store.test_contract import new_episode, operation

T0 = datetime(2024, 5, 8, 9, tzinfo=UTC)


def entity(entity_id: str, name: str, version: int = 1, *, minutes: int = 0, op: str = "op_1") -> Entity:
    at = T0 + timedelta(minutes=minutes)
    return Entity(
        id=entity_id,
        group_id="g1",
        version=version,
        name=name,
        type="person",
        aliases=[f"{name} alias"],
        attributes={"city": {"value": "杭州", "episode": "e1"}},
        first_seen=T0,
        last_seen=at,
        recorded_at=at,
        operation_id=op,
    )


def fact(fact_id: str, value: object, version: int = 1, *, minutes: int = 0, op: str = "op_1") -> Fact:
    at = T0 + timedelta(minutes=minutes)
    return Fact(
        id=fact_id,
        group_id="g1",
        version=version,
        subject="en_a",
        predicate="BUDGET",
        value=value,  # type: ignore[arg-type]
        fact=f"Ann's budget is {value}",
        conditions={"when": "2024"},
        confidence=0.8,
        source_kind="stated",
        episodes=["e1"],
        valid_at=at,
        recorded_at=at,
        operation_id=op,
    )


@pytest.fixture
def graph(store: Storage) -> Storage:
    """Return the store as a Storage, with one episode stored (mentions join episodes)."""
    store.insert_episodes(
        [new_episode("e1", "Ann's budget"), new_episode("e2", "Ann again", minutes=5)], operation()
    )
    return store


def test_writes_are_one_transaction_and_read_their_own_writes(graph: Storage) -> None:
    def write(txn: Txn) -> list[str]:
        txn.put_entity(entity("en_a", "Ann"), ["ann", "ann alias"])
        txn.add_mentions("g1", "e1", ["en_a", "en_a"], "op_1")
        seen = [e.id for e in txn.entities_named("g1", ["ann alias"])]
        assert txn.entity("g1", "en_a") is not None
        assert txn.episodes_mentioning("g1", ["en_a"], 10) == ["e1"]
        return seen

    assert graph.write(write) == ["en_a"]

    def failing(txn: Txn) -> None:
        txn.put_entity(entity("en_b", "Bob"), ["bob"])
        txn.put_fact(fact("fa_1", 500), "ann budget 500")
        raise RuntimeError("extractor broke")

    with pytest.raises(RuntimeError):
        graph.write(failing)
    assert graph.entities_with_names("g1", ["bob"]) == []
    assert graph.find_facts("g1", FactQuery(include_history=True), 10) == []
    assert graph.mentioned_entities("g1", "e1") == ["en_a"]


def test_an_entity_read_or_written_in_a_transaction_is_the_callers_to_change(graph: Storage) -> None:
    """The transaction remembers entities it read or wrote; what a caller does to the copy it
    got (or to the model it wrote) does not change what the next read returns."""

    def write(txn: Txn) -> Entity | None:
        written = entity("en_a", "Ann")
        txn.put_entity(written, ["ann"])
        written.attributes["city"]["value"] = "上海"
        written.aliases.append("Annie")
        read = txn.entity("g1", "en_a")
        assert read is not None
        read.attributes["city"]["value"] = "北京"
        read.aliases.clear()
        return txn.entity("g1", "en_a")

    again = graph.write(write)
    assert again is not None and again.aliases == ["Ann alias"]
    assert again.attributes == {"city": {"value": "杭州", "episode": "e1"}}


def test_reads_inside_a_pipeline_see_the_writes_sent_before_them(graph: Storage) -> None:
    """In a pipeline (PostgreSQL sends the block's statements without waiting) a read still
    returns rows, and sees what the block wrote before it; nested blocks are one block."""

    def write(txn: Txn) -> tuple[list[int], list[str], list[Fact]]:
        with txn.pipeline():
            txn.put_entity(entity("en_a", "Ann"), ["ann"])
            txn.put_fact(fact("fa_1", 500), "ann budget 500")
            with txn.pipeline():
                txn.put_fact(fact("fa_1", 800, 2, minutes=10, op="op_2"), "ann budget 800")
            versions = [ref.version for ref in txn.versions("g1", "fact", "fa_1")]
            named = [e.id for e in txn.entities_named("g1", ["ann"])]
            return versions, named, txn.facts_about("g1", ["en_a"], ["BUDGET"])

    versions, named, live = graph.write(write)
    assert versions == [1, 2] and named == ["en_a"]
    assert [(f.id, f.version, f.value) for f in live] == [("fa_1", 2, 800)]
    assert [(f.version, f.value) for f in graph.find_facts("g1", FactQuery(), 10)] == [(2, 800)]


def test_versions_close_with_the_operation_and_time_travel(graph: Storage) -> None:
    graph.write(lambda txn: txn.put_entity(entity("en_a", "Ann"), ["ann"]))
    graph.write(lambda txn: txn.put_fact(fact("fa_1", 500), "ann budget 500"))

    def update(txn: Txn) -> None:
        txn.put_entity(entity("en_a", "Ann Lee", 2, minutes=10, op="op_2"), ["ann lee"])
        txn.put_fact(fact("fa_1", 800.5, 2, minutes=10, op="op_2"), "ann budget 800")

    graph.write(update)
    history = graph.entity_history("g1", "en_a")
    assert [(e.version, e.name, e.expired_at) for e in history] == [
        (1, "Ann", T0 + timedelta(minutes=10)),
        (2, "Ann Lee", None),
    ]
    assert history[1].attributes == {"city": {"value": "杭州", "episode": "e1"}}
    assert history[0].recorded_at.tzinfo is not None
    then = graph.get_entity("g1", "en_a", T0 + timedelta(minutes=5))
    assert then is not None and then.version == 1
    assert graph.entities_with_names("g1", ["ann"]) == [], "names follow the current version"
    [now] = graph.find_facts("g1", FactQuery(), 10)
    assert (now.version, now.value, now.conditions) == (2, 800.5, {"when": "2024"})
    [old] = graph.find_facts("g1", FactQuery(known_at=T0 + timedelta(minutes=5)), 10)
    assert (old.version, old.value, old.expired_at) == (1, 500, T0 + timedelta(minutes=10))
    assert len(graph.find_facts("g1", FactQuery(include_history=True, known_at=None), 10)) == 1
    [(hit, score)] = graph.search_facts("g1", ["budget"], FactQuery(), 10)
    assert hit.version == 2 and score > 0

    graph.write(lambda txn: txn.close_entity("g1", "en_a", T0 + timedelta(minutes=20), "op_3"))
    assert graph.get_entity("g1", "en_a") is None
    assert graph.search_entities("g1", ["ann"], [], 10) == []


def test_search_facts_ranks_rare_words_and_entities_match_literally(graph: Storage) -> None:
    def write(txn: Txn) -> None:
        txn.put_entity(entity("en_a", "Ann Lee"), ["ann lee"])
        txn.put_entity(entity("en_b", "Bob"), ["bob"])
        for n in range(6):
            txn.put_fact(fact(f"fa_{n}", n), f"ann budget {n} common words")
        txn.put_fact(fact("fa_z", 9), "ann budget zebra")
        txn.add_merge_candidate(
            "g1", MergeCandidate("en_a", "en_b", 0.5, {"name": 0.1}, T0 + timedelta(minutes=1))
        )

    graph.write(write)
    found = graph.search_facts("g1", ["zebra", "common"], FactQuery(), 3)
    assert found[0][0].id == "fa_z", "the rare word outweighs the common one"
    assert [e.id for e in graph.search_entities("g1", ["LEE"], ["person"], 10)] == ["en_a"]
    assert [e.id for e in graph.search_entities("g1", ["ann_lee"], [], 10)] == ["en_a"]
    assert graph.search_entities("g1", ["bob"], ["place"], 10) == []
    graph.write(lambda txn: txn.put_entity(entity("en_e", "Émile Ｚola"), [normalise_name("Émile Ｚola")]))
    for asked in ("ÉMILE", "émile zola", "ｚｏｌａ", "ZOLA"):
        assert [e.id for e in graph.search_entities("g1", [asked], [], 10)] == ["en_e"], asked
    assert [e.id for e in graph.entities_with_names("g1", [normalise_name("ÉMILE ZOLA")])] == ["en_e"]
    [candidate] = graph.merge_candidates("g1")
    assert (candidate.score, candidate.parts, candidate.created_at) == (
        0.5,
        {"name": 0.1},
        T0 + timedelta(minutes=1),
    )


def test_reads_build_the_models_written_field_for_field_in_their_order(graph: Storage) -> None:
    """Rows are decoded straight from tuples into models: each read equals what was written, dumps
    the same JSON (field order included), and marks every field set, on every read path."""
    ann, budget = entity("en_a", "Ann"), fact("fa_1", 500)
    ann.alias_sources = {"Ann alias": {"episode": "e1", "operation": "op_1"}}
    budget.object, budget.status_reason = "en_b", "stated twice"

    def write(txn: Txn) -> None:
        txn.put_entity(ann, ["ann"])
        txn.put_entity(entity("en_b", "Bob"), ["bob"])
        txn.put_fact(budget, "ann budget 500")

    graph.write(write)
    episode = graph.get_episode("g1", "e1")
    assert episode is not None and episode.actor is not None
    reads = [
        (graph.get_entity("g1", "en_a"), ann),
        (graph.entities_with_names("g1", ["ann"])[0], ann),
        (graph.find_facts("g1", FactQuery(subject="en_a"), 5)[0], budget),
        (graph.search_facts("g1", ["budget"], FactQuery(), 5)[0][0], budget),
        (graph.list_episodes("g1", EpisodeFilters(), 5)[-1], episode),
        (episode.actor, episode.actor.model_validate(episode.actor.model_dump())),
    ]
    for read, written in reads:
        assert read == written
        assert read.model_dump_json() == type(written).model_validate(written.model_dump()).model_dump_json()
        assert read.model_fields_set == set(type(written).model_fields)
