"""What a write transaction remembers instead of reading again answers as the tables would
(every backend, through the ``store`` fixture): the live facts of entities it created, the pool of
recently seen names of a type, and the names of an entity version that keeps its names."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial

from engram.models.graph import Entity, Fact
from engram.storage.protocol import Storage, Txn
from store.test_contract import new_episode, operation

T0 = datetime(2024, 5, 8, 9, tzinfo=UTC)
PREDICATES = ["LIKES", "LIVES_IN", "BUDGET"]


def person(entity_id: str, name: str, version: int = 1, *, seen: int = 0, type_: str = "person") -> Entity:
    return Entity(
        id=entity_id,
        group_id="g1",
        version=version,
        name=name,
        type=type_,
        first_seen=T0 - timedelta(days=1),
        last_seen=T0 + timedelta(minutes=seen),
        recorded_at=T0 + timedelta(minutes=seen),
        operation_id=f"op_{entity_id}_{version}",
    )


def claim(fact_id: str, subject: str, predicate: str, value: str, version: int = 1, **more: object) -> Fact:
    return Fact(
        id=fact_id,
        group_id="g1",
        version=version,
        subject=subject,
        predicate=predicate,
        value=value,
        fact=f"{subject} {predicate} {value}",
        confidence=0.8,
        source_kind="stated",
        episodes=["e1"],
        recorded_at=T0 + timedelta(minutes=version),
        operation_id=f"op_{fact_id}_{version}",
        **more,  # type: ignore[arg-type]
    )


def live(facts: list[Fact]) -> list[tuple[str, int, str, str, str]]:
    return [(f.id, f.version, f.subject, str(f.value), f.status) for f in facts]


def stored(store: Storage) -> Storage:
    store.insert_episodes([new_episode("e1", "Ann and Bo")], operation())
    return store


def test_live_facts_of_entities_made_in_the_transaction_are_the_tables(store: Storage) -> None:
    """The live facts of an entity the transaction created are what it wrote: a superseded
    version gives way to the new one, a closed fact and one moved to another subject leave,
    a disputed one stays, other predicates are not returned; asked with an older entity beside
    it, the answer joins both in id order; a subject named twice gives its facts once. The same
    question asked after commit, read from the tables, gets the same answer."""
    store = stored(store)

    def older(txn: Txn) -> None:
        txn.put_entity(person("en_old", "Bo"), ["bo"])
        txn.put_fact(claim("fa_0", "en_old", "LIKES", "tea"), "bo tea")

    store.write(older)

    def write(txn: Txn) -> list[list[tuple[str, int, str, str, str]]]:
        txn.put_entity(person("en_new", "Ann"), ["ann"])
        txn.put_fact(claim("fa_1", "en_new", "BUDGET", "500"), "ann 500")
        txn.put_fact(claim("fa_1", "en_new", "BUDGET", "800", version=2), "ann 800")
        txn.put_fact(claim("fa_2", "en_new", "LIKES", "jazz", status="disputed"), "ann jazz")
        txn.put_fact(claim("fa_3", "en_new", "LIVES_IN", "Paris"), "ann paris")
        txn.close_fact("g1", "fa_3", T0 + timedelta(minutes=9), "op_close")
        txn.put_fact(claim("fa_4", "en_new", "LIKES", "chess"), "ann chess")
        txn.put_fact(claim("fa_4", "en_old", "LIKES", "chess", version=2), "bo chess")  # merged over
        txn.put_fact(claim("fa_5", "en_new", "GOAL", "run"), "ann run")
        return [
            live(txn.facts_about("g1", ["en_new"], PREDICATES)),
            live(txn.facts_about("g1", ["en_new", "en_old"], PREDICATES)),
            live(txn.facts_about("g1", ["en_new", "en_new"], PREDICATES)),
        ]

    inside = store.write(write)
    after = store.write(
        lambda txn: [
            live(txn.facts_about("g1", ["en_new"], PREDICATES)),
            live(txn.facts_about("g1", ["en_new", "en_old"], PREDICATES)),
            live(txn.facts_about("g1", ["en_new", "en_new"], PREDICATES)),
        ]
    )
    assert inside == after
    assert (
        inside[0]
        == inside[2]
        == [("fa_1", 2, "en_new", "800", "current"), ("fa_2", 1, "en_new", "jazz", "disputed")]
    )
    assert [row[0] for row in inside[1]] == ["fa_0", "fa_1", "fa_2", "fa_4"]


def test_the_pool_of_recent_names_follows_the_transactions_writes(store: Storage) -> None:
    """names_of_type is read once a transaction and kept as its writes change it: an entity
    seen again moves up, a new one enters and pushes the last out, one retyped or merged away
    leaves (and the next one down, never read, is read then), one seen earlier than before
    (a revert) sinks below entities never read. Each answer equals a read after commit."""
    store = stored(store)
    seen = {"a": 0, "b": 1, "c": 2, "d": 3, "f": -1}
    store.write(
        lambda txn: [txn.put_entity(person(f"en_{n}", n.upper(), seen=at), [n]) for n, at in seen.items()]
    )

    def pool(txn: Txn) -> list[str]:
        return [names[0] for _, names in txn.names_of_type("g1", "person", 3)]

    steps = [
        lambda txn: None,
        lambda txn: txn.put_entity(person("en_a", "A", 2, seen=10), ["a"]),  # seen again
        lambda txn: txn.put_entity(person("en_e", "E", seen=8), ["e"]),  # new: D pushed out
        lambda txn: txn.put_entity(person("en_e", "E", 2, seen=8, type_="place"), ["e"]),  # retyped
        lambda txn: txn.close_entity("g1", "en_a", T0 + timedelta(minutes=20), "op_merge"),
        lambda txn: txn.put_entity(person("en_d", "D", 2, seen=-5), ["d"]),  # seen earlier: a revert
    ]

    def write(step: Callable[[Txn], object], txn: Txn) -> list[str]:
        pool(txn)  # read before the write, as resolution does
        step(txn)
        return pool(txn)

    inside, after = [], []
    for step in steps:
        inside.append(store.write(partial(write, step)))
        after.append(store.write(pool))
    assert inside == after
    assert inside == [
        ["D", "C", "B"],
        ["A", "D", "C"],
        ["A", "E", "D"],
        ["A", "D", "C"],
        ["D", "C", "B"],
        ["C", "B", "F"],
    ]


def test_a_version_that_keeps_its_names_is_still_found_by_them(store: Storage) -> None:
    """A version that only moves the last sighting keeps the stored names (they are not
    rewritten); one that adds an alias is found by it, one that drops an alias no longer is."""
    store = stored(store)

    def put(version: Entity, keys: list[str], txn: Txn) -> None:
        txn.entity("g1", "en_a")  # the version it follows is known, as in a build
        txn.put_entity(version, keys)

    def named(key: str) -> list[str]:
        return store.write(lambda txn: [e.id for e in txn.entities_named("g1", [key])])

    store.write(partial(put, person("en_a", "Ann"), ["ann"]))
    store.write(partial(put, person("en_a", "Ann", 2, seen=5), ["ann"]))
    assert named("ann") == ["en_a"]
    with_alias = person("en_a", "Ann", 3, seen=6).model_copy(update={"aliases": ["Annie"]})
    store.write(partial(put, with_alias, ["ann", "annie"]))
    assert named("annie") == ["en_a"]
    store.write(partial(put, person("en_a", "Ann", 4, seen=7), ["ann"]))
    assert named("annie") == [] and named("ann") == ["en_a"]
