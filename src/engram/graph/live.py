"""The live facts an episode's claims are arbitrated against, read once per episode.

engram.graph.build asks, for each claim, the current and disputed facts of its subject with the
predicates it may update or end. On PostgreSQL each such read is a round trip; here they are
one read per episode, kept current as the build writes, so each claim still sees what the
claims before it wrote.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engram.models.graph import Fact
from engram.storage.protocol import Txn


@dataclass(slots=True)
class LiveFacts:
    """The current and disputed facts of an episode's subjects, for the predicates its claims may
    touch: read once (Txn.facts_about, a round trip per call on PostgreSQL) and kept as the
    build writes, so each claim sees what the claims before it wrote."""

    subjects: frozenset[str]
    predicates: frozenset[str]
    facts: dict[str, Fact]

    @classmethod
    def read(cls, txn: Txn, group: str, wanted: Mapping[str, set[str]]) -> LiveFacts:
        """Read the live facts of each subject of ``wanted`` (subject id → predicate names)."""
        predicates = frozenset(name for names in wanted.values() for name in names)
        found = txn.facts_about(group, list(wanted), sorted(predicates)) if wanted else []
        return cls(frozenset(wanted), predicates, {fact.id: fact for fact in found})

    def about(self, subject: str, predicates: Sequence[str]) -> list[Fact]:
        """Return what Txn.facts_about would: the subject's live facts of ``predicates``, by id."""
        found = [f for f in self.facts.values() if f.subject == subject and f.predicate in predicates]
        return sorted(found, key=lambda fact: fact.id)

    def put(self, txn: Txn, fact: Fact, index_text: str) -> None:
        """Store a fact version (Txn.put_fact) and keep it here while it is live and asked about."""
        txn.put_fact(fact, index_text)
        self.facts.pop(fact.id, None)
        if (
            fact.subject in self.subjects
            and fact.predicate in self.predicates
            and fact.expired_at is None
            and fact.status in ("current", "disputed")
        ):
            self.facts[fact.id] = fact
