"""What the builtin extractor knows while it reads a message: its text (a JSON episode's strings),
its sentences, the sentence being read (mentions, clauses, subject candidates) and what the message
has given so far.

Used by ``engram.ingest.builtin`` (the reading order) and ``engram.ingest.objects`` (what a
pattern's object becomes).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engram.ingest.clauses import Lang, clause_at, clause_bounds
from engram.ingest.mentions import Mention
from engram.ingest.subjects import Candidate, Speaker, candidates
from engram.models.graph import EntityIn, FactIn

# The lookahead first: the abbreviation lookbehinds then run at punctuation only (3x faster).
_SENTENCE = re.compile(
    r"(?=[.!?])(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bvs)[.!?]+['\")]*(?=\s)|[。！？；]+|\n+"
)


def sentences(text: str) -> list[tuple[int, str]]:
    """Return ``(offset, sentence)`` pairs, stripped, empty ones dropped."""
    out: list[tuple[int, str]] = []
    position = 0
    for match in [*_SENTENCE.finditer(text), None]:
        end = match.end() if match else len(text)
        chunk = text[position:end]
        stripped = chunk.strip()
        if stripped:
            out.append((position + chunk.index(stripped), stripped))
        position = end
    return out


@dataclass(slots=True)
class Sentence:
    """One sentence being read: its text, language, mentions, clauses and subject candidates
    (clauses and candidates are worked out when a pattern first matches: most sentences have none)."""

    text: str
    lang: Lang
    mentions: list[Mention]
    speaker: Speaker
    claimed: list[tuple[int, int]] = field(default_factory=list)
    antecedents: list[tuple[int, str]] = field(default_factory=list)
    _clauses: list[tuple[int, int]] | None = None
    _candidates: list[Candidate] | None = None

    @property
    def clauses(self) -> list[tuple[int, int]]:
        if self._clauses is None:
            self._clauses = clause_bounds(self.text, self.lang)
        return self._clauses

    @property
    def candidates(self) -> list[Candidate]:
        if self._candidates is None:
            self._candidates = candidates(self.text, self.lang, self.mentions, self.speaker)
        return self._candidates

    def add_mention(self, mention: Mention) -> None:
        """Add a mention a pattern made (豆豆 in 叫豆豆): later clauses may take it as their subject."""
        self.mentions.append(mention)
        if self._candidates is not None:
            self._candidates.append(
                Candidate(mention.start, mention.end, "mention", mention.name, 0.95, mention)
            )
            self._candidates.sort(key=lambda c: (c.start, -c.end))

    def clause_of(self, position: int) -> tuple[int, int]:
        return self.clauses[clause_at(self.clauses, position)]


_PRIVATE = frozenset({"kin", "said_as", "pair"})
"""Mention attributes the extractor reads itself, never stored on the entity."""


@dataclass(slots=True)
class Message:
    """What one message has given so far: entities, facts, relatives and who is who."""

    speaker: Speaker
    at: datetime | None
    announced: bool = False
    """The message is addressed to a whole team (@全体, "Reminder: …"): what it says the team does
    without a subject is its writer's, for the organisation (engram.ingest.speaker.announcement)."""
    minutes: bool = False
    """The message records a meeting (a first line such as 预算评审会): its items are the meeting's
    (engram.ingest.speaker.minutes)."""
    account_note: bool = False
    """The message is a Chinese sales note about one customer (恒泽新能源 拜访。…): the tools and interests
    its sentences give with no subject are the customer's (engram.ingest.speaker.account_note)."""
    to_a_child: bool = False
    """The message speaks fondly to its reader ("That's fine honey"): "Mom" and "Dad" said bare may be the
    reader's parents, not the writer's (engram.ingest.relatives.to_a_child)."""
    entities: dict[tuple[str, str], EntityIn] = field(default_factory=dict)
    facts: dict[tuple[Any, ...], FactIn] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    relatives: dict[str, tuple[Mention, str]] = field(default_factory=dict)
    """Each relative the speaker named, with the sentence that named them."""
    employer_before: dict[str, str | None] = field(default_factory=dict)
    """Each person named, with the last organisation (not a department) named before them."""
    topic_person: str | None = None
    """The relative the last Chinese sentence opening with one was about (我儿子…。他…): a sentence
    naming nobody goes on about them, as Chinese drops a subject it keeps (not in a meeting's
    numbered points, whose people are no topic)."""
    note_contact: str | None = None
    """The person a Chinese contact note is about (CRM备注：万象零售 蒋晨 采购总监…。偏好微信。): whose
    tastes, birthday and habits its subjectless sentences tell, not its writer's."""
    topics: list[Mention] = field(default_factory=list)
    """The projects, deals, organisations, events, products and documents earlier sentences named:
    what a later sentence without its own is about (会议纪要：X项目，…；预算暂按150万走)."""
    rivals: tuple[str, ...] = ()
    """What the message says a customer chose instead (went with Corvida, 换成了金蝶的): no price is theirs
    (``engram.ingest.topics.chosen_instead``)."""
    heading_topics: int | None = None
    """How many of ``topics`` the message's first sentence named (its heading: "Project Atlas sync, Feb
    6"); None until that sentence is read."""

    def add_entity(self, mention: Mention) -> None:
        key = (mention.name, mention.type)
        existing = self.entities.get(key)
        if existing is None:
            self.entities[key] = EntityIn(
                name=mention.name,
                type=mention.type,
                aliases=list(mention.aliases),
                attributes={k: v for k, v in mention.attributes.items() if k not in _PRIVATE},
            )
            return
        existing.attributes.update(
            {
                k: v
                for k, v in mention.attributes.items()
                if k not in existing.attributes and k not in _PRIVATE
            }
        )
        existing.aliases.extend(a for a in mention.aliases if a not in existing.aliases)

    def states(self, subject: str, predicate: str) -> bool:
        """Return True when a fact of ``predicate`` about ``subject`` was read already."""
        return any(f.subject == subject and f.predicate == predicate for f in self.facts.values())

    def full_name(self, first: str) -> str | None:
        """Return the one person named earlier whose first name ``first`` (one Latin word) is
        ("Arjun Mehta … Arjun reports to me"), else None."""
        if " " in first or not first.isascii():
            return None
        fuller = {
            n for n, kind in self.entities if kind == "person" and n.split(" ", 1)[0] == first and n != first
        }
        return fuller.pop() if len(fuller) == 1 else None

    def drop_facts(self, dropped: list[FactIn], pieces: set[str]) -> None:
        """Remove the ``dropped`` facts, and the entities named ``pieces`` no fact names any more."""
        gone = {id(f) for f in dropped}
        self.facts = {key: f for key, f in self.facts.items() if id(f) not in gone}
        named = {n for f in self.facts.values() for n in (f.subject, f.object) if n}
        self.used -= pieces - named
        self.entities = {key: e for key, e in self.entities.items() if e.name not in pieces - named}

    def add_fact(self, fact: FactIn) -> None:
        key = (fact.subject, fact.predicate, fact.object, fact.value, tuple(fact.conditions.items()))
        self.facts.setdefault(key, fact)
        self.used.update(n for n in (fact.subject, fact.object) if n)


def json_text(content: str) -> str:
    """Return the string values of a JSON episode, one per line (the raw text if it is not JSON)."""
    try:
        data = json.loads(content)
    except json.JSONDecodeError:
        return content

    def strings(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        items = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
        return [text for item in items for text in strings(item)]

    return "\n".join(strings(data))
