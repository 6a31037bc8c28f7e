"""Extract entities and facts from an episode offline: mentions, relatives, patterns, dates.

Per sentence: entity mentions (``engram.ingest.mentions``), the relatives the speaker names
(``engram.ingest.subjects``), then the patterns (``engram.ingest.patterns``) whose trigger
words the message contains. Each match gives one fact per object (coordinated objects give
one each): its subject is found by ``engram.ingest.subjects`` (first person → the actor;
"my brother" → a person of its own; he/she → the last person named; you/they → no fact);
its object is read as the pattern says (an entity, a value, an amount, a date resolved
against the episode's time, a phone number…); a "no longer / 不再 / stopped" or "not / 不"
before the cue turns the predicate into its stop or negated form (USES → STOPPED_USING, LIKES
→ DISLIKES), or drops the statement when there is none. Conditions keep the text's words
(周末, "on Fridays"); a date said in the fact's clause sets ``valid_at`` (and ``invalid_at``
for a range), a leading time clause ("Last year, …") dates every clause, no other clause's
date does; ``fact`` is the sentence, ``source_kind`` "stated", or "inferred" with half the
confidence when the clause hedges ("might be", "I think", 可能, 好像, 听说). Pure: no store, no
network; a few hundred microseconds per conversational turn.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engram.ingest.clauses import (
    Lang,
    clause_bounds,
    find_conditions,
    hedged,
    is_future,
    is_past,
    negation,
    shared_head,
    split_objects,
    trim_object,
)
from engram.ingest.frames import Pattern
from engram.ingest.mentions import DEFAULT_GAZETTEER, Mention, MentionFinder, is_first_name, overlaps
from engram.ingest.patterns import PATTERNS, index
from engram.ingest.subjects import (
    Candidate,
    Speaker,
    candidates,
    find_relatives,
    nearest_subject,
)
from engram.ingest.subjects import (
    cjk_person as _cjk_person,
)
from engram.models.episodes import Episode
from engram.models.graph import EntityIn, Extraction, FactIn, Scalar, SourceKind
from engram.models.predicates import REGISTRY
from engram.nlp.amounts import cn_to_int, parse_amount
from engram.nlp.dates import date_value, fact_dates, scoped_dates
from engram.nlp.references import ReferenceTable
from engram.nlp.tokenize import has_cjk

# The lookahead first: the abbreviation lookbehinds then run at punctuation only (3x faster).
_SENTENCE = re.compile(
    r"(?=[.!?])(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bvs)[.!?]+['\")]*(?=\s)|[。！？；]+|\n+"
)
_LEFT_TYPES = frozenset({"person", "organisation", "animal", "thing"})
_PERSON_TYPES = frozenset({"person", "animal", "thing"})
_PERSONAL = frozenset(
    {
        *("HAS_ROLE", "WORKS_AT", "REPORTS_TO", "STUDIES_AT", "STUDIES", "MARRIED_TO", "PARTNER_OF"),
        *("SIBLING_OF", "CHILD_OF", "FRIEND_OF", "AGE", "BIRTHDAY", "LIKES", "DISLIKES", "PREFERS"),
        *("INTERESTED_IN", "GOAL", "HAS_PET", "ALLERGIC_TO", "DIET", "COMES_FROM", "LEFT_ROLE"),
        *("ASSIGNED_TO", "UNASSIGNED_FROM", "LEFT_ORGANISATION", "VOLUNTEERS_AT", "ATTENDED", "CREATED"),
        "RESPONSIBLE_FOR",
    }
)
"""Predicates whose subject is a person (or a pet), never an organisation."""
_TOPIC_TYPES: Mapping[str, frozenset[str]] = {
    "BUDGET": frozenset({"project", "deal", "organisation", "event"}),
    "PRICE": frozenset({"deal", "product", "organisation", "project", "thing"}),
    "DISCOUNT": frozenset({"deal", "product", "organisation"}),
    "DEADLINE": frozenset({"deal", "project", "organisation", "product", "document", "event", "thing"}),
    "LAUNCH_DATE": frozenset({"project", "product", "thing"}),
    "EXPIRES_ON": frozenset({"document", "deal", "product", "thing"}),
    "MEETING_AT": frozenset({"project", "deal", "event"}),
    "STATUS": frozenset({"document", "deal", "project", "organisation", "invoice", "purchase_order"}),
    "QUANTITY": frozenset({"deal"}),
    "HAS_ISSUE": frozenset({"product"}),
    "CANCELLED": frozenset({"organisation", "person"}),
    "PAID": frozenset({"organisation"}),
    "ORDERED": frozenset({"organisation"}),
    "CONTACT": frozenset({"organisation"}),
}
"""The entity types a topic predicate is about, nearest first; a deal in the sentence wins."""
_SPEAKER_FALLBACK = frozenset({"BUDGET", "MEETING_AT", "DEADLINE"})
_LEFT_TOPICS: Mapping[str, frozenset[str]] = {
    "CANCELLED": frozenset({"organisation", "person", "thing"}),
    "ORDERED": frozenset({"organisation", "person", "thing"}),
    "PAID": frozenset({"organisation", "thing"}),
    "CONTACT": frozenset({"organisation", "thing"}),
    "STATUS": frozenset({"person", "organisation"}),
}
"""Topic predicates whose subject may also be the organisation or person that acts."""
"""Topic predicates that fall back to the speaker (lower confidence) when no topic is named."""
_NAMES_OF_TEXTS = frozenset(
    {"document", "url", "email", "reference", "contract", "invoice", "purchase_order"}
    | {"role", "organisation", "place"}
)
"""A cue word inside one of these names is no cue (报价 in 报价单_v2.pdf, 学 in 中学老师); inside a project's
or a deal's name it still is ("the Nimbus launch slipped to …")."""
_NAMED_TYPES = frozenset({"place", "organisation", "product"})
_PERSON_PRONOUNS = frozenset({"他", "她", "him", "her"})
_STRICT_PLACES = frozenset({"LIVES_IN", "MOVED_FROM", "COMES_FROM"})
_TASTES = frozenset({"LIKES", "PREFERS", "INTERESTED_IN", "DISLIKES"})
_VERB_PHRASES = frozenset({"PLANS_TO", "GOAL", "WORKS_ON"})
_ANTECEDENT = frozenset({"LIKES", "USES", "PREFERS", "INTERESTED_IN", "LIVES_IN", "WORKS_AT"})
_EN_BARE_START = re.compile(
    r"^(?:(?:yeah|yes|oh|wow|so|well|haha|lol|and|but|also|actually|honestly|plus|btw|just|still|"
    r"recently|lately|finally|totally|really)[,!]?\s+)*(?:gonna|been|just|went|got|love|loved|started|"
    r"finished|had|made|joined|signed|took|bought|visited|ran|tried|learning|working|planning|thinking|"
    r"hoping|going|heading|can't wait|never|always|used to)\b",
    re.I,
)
_RECURRING = re.compile(
    r"每(?:周|星期|礼拜|天|年|月)|\bevery\b|\bon (?:mon|tues|wednes|thurs|fri|satur|sun)days\b", re.I
)
"""A recurring time ("每周五", "every Friday") is a condition, not when a fact started."""
_HEDGE_WEIGHT = 0.5
"""A guess or hearsay keeps half the confidence: a later stated fact wins, an earlier one stays."""
_SIGHTSEEING = re.compile(
    r"\s*(?:看|玩|旅游|旅行|度假|逛|参观|游览|游玩|拍|吃|$)|\s*(?:to )?(?:visit|see|sightsee|tour|explore|$)",
    re.I,
)
_MONEY = re.compile(
    r"[$€£¥]|元|块|万|亿|千|百|k\b|m\b|bn\b|usd|eur|rmb|dollars?|euros?|bucks|million|thousand", re.I
)
_COUNTED = re.compile(r"\s*(?:[a-z]{3,}|台|套|个|件|份|箱|张|部|辆|人)", re.I)
"""A bare number before a noun ("200 laptops", 200台) counts things."""
_MAX_WORDS = 8
_MAX_CJK = 12


def _sentences(text: str) -> list[tuple[int, str]]:
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
class _Sentence:
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
        for start, end in self.clauses:
            if start <= position < end:
                return start, end
        return self.clauses[-1]


@dataclass(slots=True)
class _Message:
    """What one message has given so far: entities, facts, relatives and who is who."""

    speaker: Speaker
    at: datetime | None
    entities: dict[tuple[str, str], EntityIn] = field(default_factory=dict)
    facts: dict[tuple[Any, ...], FactIn] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    relatives: dict[str, tuple[Mention, str]] = field(default_factory=dict)
    """Each relative the speaker named, with the sentence that named them."""

    def add_entity(self, mention: Mention) -> None:
        key = (mention.name, mention.type)
        existing = self.entities.get(key)
        if existing is None:
            self.entities[key] = EntityIn(
                name=mention.name,
                type=mention.type,
                aliases=list(mention.aliases),
                attributes={k: v for k, v in mention.attributes.items() if k != "kin"},
            )
            return
        existing.attributes.update(
            {k: v for k, v in mention.attributes.items() if k not in existing.attributes and k != "kin"}
        )
        existing.aliases.extend(a for a in mention.aliases if a not in existing.aliases)

    def add_fact(self, fact: FactIn) -> None:
        key = (fact.subject, fact.predicate, fact.object, fact.value, tuple(fact.conditions.items()))
        self.facts.setdefault(key, fact)
        self.used.update(n for n in (fact.subject, fact.object) if n)


class BuiltinExtractor:
    """Find entities and facts with rules; deterministic, offline, a few hundred µs per turn.

    ``gazetteer`` (name → entity type) extends the defaults; ``references`` are rules for
    :class:`~engram.nlp.references.ReferenceTable` (tried before the defaults); ``patterns``
    are extra :class:`~engram.ingest.frames.Pattern` objects tried before the built-in ones.
    ``use_defaults=False`` drops the default gazetteer, reference rules and patterns.
    """

    name = "builtin"

    def __init__(
        self,
        *,
        gazetteer: Mapping[str, str] | None = None,
        references: Sequence[Mapping[str, str]] = (),
        patterns: Sequence[Pattern] = (),
        use_defaults: bool = True,
    ) -> None:
        self._mentions = MentionFinder({**(DEFAULT_GAZETTEER if use_defaults else {}), **(gazetteer or {})})
        self._references = ReferenceTable(references, use_defaults=use_defaults)
        chosen = [*patterns, *(PATTERNS if use_defaults else ())]
        self._index = {"en": index(chosen, "en"), "zh": index(chosen, "zh")}

    def close(self) -> None:
        """Release nothing: the rules hold no connections."""

    def extract(self, episode: Episode) -> Extraction:
        """Return the entities and facts ``episode`` states; empty for chit-chat.

        Relative dates ("next Monday", 月底) are resolved against ``episode.timestamp``.
        """
        actor = (episode.actor.name or episode.actor.id) if episode.actor else None
        text = episode.content
        if episode.source_type == "json":
            text = _json_text(text)
        return self.extract_text(text, actor=actor, references=episode.references, at=episode.timestamp)

    def extract_text(
        self,
        text: str,
        *,
        actor: str | None = None,
        references: Sequence[str] = (),
        at: datetime | None = None,
    ) -> Extraction:
        """Return what ``text`` says, with ``actor`` as the subject of first-person statements
        and relative dates resolved against ``at`` (left as said without it)."""
        message = _Message(Speaker(actor), at)
        refs = self._references.find(text)
        for ref in self._references.resolve(references):
            message.add_entity(Mention(0, 0, ref.name, ref.type, dict(ref.attributes), [ref.id]))
        for offset, sentence in _sentences(text):
            local = [
                Mention(r.start - offset, r.end - offset, r.name, r.type, {**r.attributes, "ref_id": r.id},
                         [r.id] if r.id != r.name else [])
                for r in refs
                if offset <= r.start and r.end <= offset + len(sentence)
            ]  # fmt: skip
            reading = self._read_sentence(sentence, local, message)
            elliptical: list[tuple[Pattern, re.Match[str]]] = []
            for pattern in self._index[reading.lang].candidates(sentence.lower()):
                for match in pattern.regex.finditer(sentence):
                    if pattern.antecedent and not match.group("obj").strip():
                        elliptical.append((pattern, match))  # read once the earlier objects are known
                        continue
                    for fact in self._facts(pattern, match, reading, message):
                        message.add_fact(fact)
            for pattern, match in elliptical:
                for fact in self._facts(pattern, match, reading, message):
                    message.add_fact(fact)
            self._observe(reading, message)
        self._kin_facts(message)
        for mention, _ in message.relatives.values():
            if mention.name in message.used:
                message.add_entity(mention)
        if actor and actor in message.used:
            message.add_entity(Mention(0, 0, actor, "person"))
        return Extraction(
            entities=list(message.entities.values())[:256], facts=list(message.facts.values())[:512]
        )

    def _read_sentence(self, sentence: str, local: list[Mention], message: _Message) -> _Sentence:
        lang: Lang = "zh" if has_cjk(sentence) else "en"
        actor = message.speaker.actor
        mentions = self._mentions.find(sentence, local, actor)
        relatives = find_relatives(sentence, lang, actor, mentions)
        if relatives:
            spans = [(r.start, r.end) for r in relatives]
            mentions = sorted(
                [m for m in mentions if not overlaps(m.start, m.end, spans)] + relatives,
                key=lambda m: m.start,
            )
        for mention in mentions:
            if mention.vocative and message.speaker.addressee is None and mention.type == "person":
                message.speaker.addressee = mention.name
            if mention.relative:
                message.relatives.setdefault(mention.name, (mention, sentence))
        return _Sentence(sentence, lang, mentions, message.speaker)

    def _observe(self, reading: _Sentence, message: _Message) -> None:
        """Add the sentence's named entities, and remember its last person and organisation."""
        for mention in reading.mentions:
            if mention.vocative or mention.type == "group":
                continue
            if mention.type == "person" and mention.name != message.speaker.actor:
                message.speaker.last_person = mention.name
            if mention.relative:
                continue
            message.add_entity(mention)
            if mention.type == "organisation":
                message.speaker.organisations.append(mention.name)

    # ── one match → facts ────────────────────────────────────────────────────────────────

    def _facts(
        self, pattern: Pattern, match: re.Match[str], reading: _Sentence, message: _Message
    ) -> list[FactIn]:
        if "obj" not in pattern.regex.groupindex or match.start("obj") < 0:
            return []
        sentence, lang = reading.text, reading.lang
        obj_start, obj_end = match.span("obj")
        cue = match.end("obj") if obj_start == match.start() and obj_end < match.end() else match.start()
        if "subj" in pattern.regex.groupindex and match.start("subj") == match.start():
            cue = match.end("subj")
        if any(m.start <= cue < m.end and m.type in _NAMES_OF_TEXTS for m in reading.mentions):
            return []  # the cue is part of a document's name (报价 in 报价单_v2.pdf)
        if "prev" in pattern.regex.groupindex and any(
            match.start("prev") <= m.start < match.end("prev") and m.type == "product"
            for m in reading.mentions
        ):
            return []  # "switched from Jira to Linear": a change of tools, not of projects
        clause = reading.clause_of(cue)
        predicate, confidence = pattern.predicate, pattern.confidence
        registered = REGISTRY.get(predicate)
        kind = pattern.kind or (registered.object_kind if registered else "value")
        if pattern.past and is_past(sentence[clause[0] : clause[1]], lang):
            predicate = pattern.past
        if pattern.future and is_future(sentence[clause[0] : max(cue, obj_start)], lang):
            predicate = pattern.future
        if pattern.negatable and kind not in ("date", "birthday", "amount", "number", "phone", "email"):
            cue_text = sentence[clause[0] : max(obj_start, cue) if obj_start > cue else cue + 1]
            said = negation(cue_text, sentence[obj_start:], lang)
            if said is None and obj_start == match.start() and obj_start > clause[0]:  # 不再负责华东区的
                said = negation(sentence[clause[0] : obj_start], sentence[obj_start:], lang)
            if said:
                mapped = (pattern.stop if said == "stop" else pattern.negated) or (
                    (registered.stop if said == "stop" else registered.negation) if registered else None
                )
                if predicate in _ANTECEDENT and (said_object := trim_object(match.group("obj"), lang)):
                    reading.antecedents.append((obj_start, said_object))
                if mapped is None:
                    return []
                predicate, confidence = mapped, confidence - (0.15 if said == "not" else 0.0)
        source_kind: SourceKind = "stated"
        if hedged(sentence[clause[0] : clause[1]], lang):  # "might be COO", 可能搬去苏州了: a guess
            source_kind, confidence = "inferred", confidence * _HEDGE_WEIGHT
        limit = cue
        leading = next(
            (c for c in reading.candidates if c.start == match.start() and c.end <= obj_start), None
        )
        if leading is not None:  # "I'm vegetarian", "my favourite band is…": the subject opens the match
            limit = leading.end
        subject = self._subject(pattern, predicate, match, limit, reading, message)
        if subject is None:
            return []
        subject_name, weight = subject
        items: list[tuple[str | None, Scalar | None, tuple[int, int]]]
        if pattern.subject == "addressee":  # "Thanks for being a great friend": the addressee and the speaker
            if not message.speaker.actor:
                return []
            items = [(message.speaker.actor, None, match.span("obj"))]
        else:
            items = self._objects(pattern, predicate, kind, match, reading, message)
        facts = []
        for item in items:
            target, value, span = item
            if target == subject_name:
                continue
            out_subject, out_object = subject_name, target
            if pattern.inverse and out_object is not None:
                out_subject, out_object = out_object, out_subject
            region_end = clause[1]
            following = pattern.regex.search(sentence, match.end())
            if following is not None and following.start() < region_end:
                region_end = following.start()
            blanked = sentence[: span[0]] + " " * (span[1] - span[0]) + sentence[span[1] :]
            conditions = (
                find_conditions(blanked[match.start() : region_end])
                or find_conditions(blanked[clause[0] : clause[1]])
                or _leading_condition(sentence, clause[0], lang)
            )
            valid_at, invalid_at = (None, None)
            if (
                kind not in ("date", "birthday")
                and predicate != "AGE"
                and not _RECURRING.search(sentence[clause[0] : clause[1]])
            ):  # the object's clause's own date, or a leading "Last year, …" (never another clause's)
                valid_at, invalid_at = fact_dates(scoped_dates(sentence, message.at, position=span[0]))
            if not (predicate == "COMES_FROM" and match.group().startswith("老家")):
                reading.claimed.append(span)  # 回老家厦门: the hometown is also where the verb goes
            facts.append(
                FactIn(
                    subject=out_subject,
                    predicate=predicate,
                    object=out_object,
                    value=value if out_object is None else None,
                    fact=sentence[:2000],
                    conditions=conditions,
                    confidence=round(max(0.1, min(1.0, confidence * weight)), 2),
                    source_kind=source_kind,
                    valid_at=valid_at,
                    invalid_at=invalid_at,
                )
            )
        return facts

    def _subject(
        self,
        pattern: Pattern,
        predicate: str,
        match: re.Match[str],
        cue: int,
        reading: _Sentence,
        message: _Message,
    ) -> tuple[str, float] | None:
        """Return ``(subject name, confidence weight)``, registering the subject's entity; None if unsaid."""
        speaker = message.speaker
        if pattern.subject == "group":
            start, end = match.span("subj")
            text = match.group("subj").strip()
            inside = [m for m in reading.mentions if start <= m.start < end and not m.vocative]
            if text.lower() in ("we", "i", "our", "my"):  # "We signed …": the speaker's team
                return (speaker.actor, 0.9) if speaker.actor else None
            if text.lower() in ("they", "he", "she", "it", "you", "their", "his", "her", "its", "your"):
                return None
            if inside and inside[0].end > end:
                return None  # "Lord of the Rings": the subject is part of a longer name
            if inside:
                mention = inside[0]
                if mention.type == "thing" and pattern.subject_type:
                    mention.type = pattern.subject_type
                elif (
                    pattern.subject_type == "person"
                    and mention.type == "place"
                    and is_first_name(text.split()[0])
                ):
                    mention.type = "person"  # "Nina Park's number": a first name, then a surname like a place
            elif text:
                if pattern.subject_type == "person" and has_cjk(text) and not _cjk_person(text):
                    return None
                mention = Mention(start, end, text, pattern.subject_type or "thing")
                reading.add_mention(mention)
            else:
                return None
            message.add_entity(mention)
            return mention.name, 0.95
        if pattern.subject == "addressee":
            return (speaker.addressee, 0.9) if speaker.addressee else None
        if pattern.subject == "speaker":
            first = any(c.kind in ("actor", "possessive") for c in reading.candidates)
            return (speaker.actor, 0.9) if first and speaker.actor else None
        if pattern.subject == "topic":
            topic = self._topic(predicate, cue, reading)
            if topic is not None:
                message.add_entity(topic)
                return topic.name, 0.95
            if predicate in _SPEAKER_FALLBACK:
                first = any(c.kind in ("actor", "possessive") for c in reading.candidates)
                return (speaker.actor, 0.75 if first else 0.65) if speaker.actor else None
            if predicate not in _LEFT_TOPICS:
                return None
            left = nearest_subject(
                reading.text, reading.clauses, cue, reading.candidates, _LEFT_TOPICS[predicate], match.start()
            )
            return (left.name, left.weight) if left is not None and left.name else None
        allowed = _PERSON_TYPES if predicate in _PERSONAL else _LEFT_TYPES
        found = nearest_subject(
            reading.text, reading.clauses, cue, reading.candidates, allowed, match.start()
        )
        if found is not None:
            return (found.name, found.weight) if found.name else None
        inner = [
            c
            for c in reading.candidates
            if cue <= c.start < match.start("obj") and c.kind in ("actor", "possessive")
        ]
        if inner and speaker.actor:  # "Email me at …", "reach me on …", "Lost my job as …"
            return speaker.actor, inner[0].weight
        if speaker.actor and self._speaker_implied(reading, cue):
            return speaker.actor, 0.85
        return None

    @staticmethod
    def _speaker_implied(reading: _Sentence, cue: int) -> bool:
        """Return True when a sentence with no subject is the speaker's ("Been to Rome once", 去了大理);
        a pronoun of a later English clause ("…, it was fun") does not stop it, a Chinese one does
        (钱坤的电话是…，上午比较好找他)."""
        end = reading.clause_of(cue)[1] if reading.lang == "en" else len(reading.text)
        if any(c.kind == "block" and c.start < end for c in reading.candidates):
            return False
        if reading.lang == "zh":
            return True
        return bool(_EN_BARE_START.match(reading.text))

    @staticmethod
    def _topic(predicate: str, cue: int, reading: _Sentence) -> Mention | None:
        """Return what a topic predicate is about: a deal of the sentence, else the nearest fitting name."""
        types = _TOPIC_TYPES.get(predicate, _TOPIC_TYPES["DEADLINE"])
        if "deal" in types:
            deals = [m for m in reading.mentions if m.type == "deal"]
            if deals:
                return deals[0]
        holding = [m for m in reading.mentions if m.start <= cue < m.end and m.type in types]
        if holding:  # "the Nimbus launch slipped to May 20": the cue is the project's own word
            return holding[0]
        left = [m for m in reading.mentions if m.end <= cue and m.type in types and not m.vocative]
        if left:
            return max(left, key=lambda m: m.start)
        end = reading.clause_of(cue)[1]
        right = [m for m in reading.mentions if cue <= m.start < end and m.type in types and not m.vocative]
        return right[0] if right else None

    def _objects(
        self,
        pattern: Pattern,
        predicate: str,
        kind: str,
        match: re.Match[str],
        reading: _Sentence,
        message: _Message,
    ) -> list[tuple[str | None, Scalar | None, tuple[int, int]]]:
        """Return ``(object entity name, value, span)`` for each object the match names."""
        lang = reading.lang
        raw = match.group("obj")
        start = match.start("obj")
        if kind in ("amount", "number", "date", "birthday", "phone"):
            value = _literal(kind, raw, message.at)
            span = (start, start + len(raw))
            if kind == "amount" and _COUNTED.match(reading.text, span[1]) and not _MONEY.search(raw):
                return []  # "their order for 200 laptops": a count of things, not money
            if value is None or overlaps(*span, reading.claimed):
                return []
            return [(None, value, span)]
        if predicate in _TASTES and re.match(r"\s*(?:this|that|these|those|it|its)\b", raw, re.I):
            return []  # "this trilogy is one of my faves": what it is was said elsewhere
        if raw.strip().lower() in _PERSON_PRONOUNS and pattern.object_type == "person":  # 我向他汇报
            earlier = [
                m for m in reading.mentions if m.type == "person" and m.end <= start and not m.vocative
            ]
            name = earlier[-1].name if earlier else message.speaker.last_person
            return [(name, None, match.span("obj"))] if name and name != message.speaker.actor else []
        phrase = True if predicate in _VERB_PHRASES else None
        trimmed = trim_object(raw, lang, verb_phrase=phrase) if raw.strip() else ""
        if not trimmed:
            return self._antecedent(pattern, kind, match, reading, message)
        offset = start + max(raw.find(trimmed), 0)
        spans = split_objects(trimmed, lang) if pattern.split else [(0, len(trimmed))]
        texts = [trimmed[s:e].strip() for s, e in spans]
        if pattern.split and len(spans) > 1:
            texts = [trim_object(t, lang, verb_phrase=phrase) for t in texts]
            if lang == "en":
                texts = shared_head(texts)
        out: list[tuple[str | None, Scalar | None, tuple[int, int]]] = []
        for (s, e), text in zip(spans, texts, strict=True):
            span = (offset + s, offset + e)
            named = next((m for m in reading.mentions if m.start == span[0] and m.end > span[1]), None)
            if named is not None and named.type not in ("role", "group"):  # "a fan of Lord of the Rings"
                span, text = (named.start, named.end), named.name
            if not text or _taken(span, reading.claimed, verb_phrase=predicate in _VERB_PHRASES):
                continue
            if _sightseeing(reading.text, span, reading.claimed):
                continue  # 去日本看樱花 is the visit already read, 去日本读研 a plan of its own
            item = self._object(pattern, predicate, kind, text, span, reading, message)
            if item is not None:
                out.append(item)
        if predicate in _ANTECEDENT and out and out[0][1] is not None:
            reading.antecedents.append((start, str(out[0][1])))
        return out

    def _object(
        self,
        pattern: Pattern,
        predicate: str,
        kind: str,
        text: str,
        span: tuple[int, int],
        reading: _Sentence,
        message: _Message,
    ) -> tuple[str | None, Scalar | None, tuple[int, int]] | None:
        registered = REGISTRY.get(predicate)
        wanted = pattern.object_type or (registered.object_type if registered else "")
        inside = [
            m
            for m in reading.mentions
            if span[0] <= m.start < span[1] and not m.vocative and m.type != "group"
        ]
        if kind == "email":
            emails = [m for m in inside if m.type == "email"]
            address = emails[0] if emails else Mention(*span, text.lower(), "email")
            message.add_entity(address)
            return address.name, None, span
        mention = _pick(inside, wanted, strict=pattern.strict or predicate in _STRICT_PLACES)
        if (
            kind == "entity"
            and wanted == "role"
            and mention is not None
            and mention.type != "role"
            and (mention.start, mention.end) != span
        ):  # "Scrum master": a capitalised word is no role alone
            mention = None
        if kind == "entity" or pattern.require_mention:
            if mention is None and kind == "entity" and wanted == "role":
                mention = Mention(*span, text if text.isupper() else text.lower(), "role")
                reading.add_mention(mention)
            elif mention is None and inside and wanted in ("product", "organisation", "place"):
                return None  # "换成了小吴": a person where a product should be
            elif (
                mention is None
                and kind == "entity"
                and not pattern.require_mention
                and _name_like(text, wanted)
            ):
                mention = Mention(*span, text, wanted or "thing")
                reading.add_mention(mention)
            if mention is not None:
                if mention.type == "thing" and wanted not in ("", "thing"):
                    mention.type = wanted
                if pattern.object_type == "animal":
                    mention.type = "animal"
                message.add_entity(mention)
                if mention.relative:
                    message.used.add(mention.name)
                return mention.name, None, (max(span[0], mention.start), min(span[1], mention.end))
            if pattern.require_mention or (kind == "entity" and wanted in _NAMED_TYPES):
                return None
        if _too_long(text, reading.lang) or (
            predicate in _VERB_PHRASES and reading.lang == "en" and " " not in text
        ):
            return None  # too long to be a value, or a verb alone ("countries I want to visit")
        if (
            mention is not None
            and mention.type not in ("role", "thing")
            and mention.start == span[0]
            and (mention.end == span[1])
        ):
            message.add_entity(mention)
            return mention.name, None, span
        return None, text, span

    def _antecedent(
        self,
        pattern: Pattern,
        kind: str,
        match: re.Match[str],
        reading: _Sentence,
        message: _Message,
    ) -> list[tuple[str | None, Scalar | None, tuple[int, int]]]:
        """Return the object an elliptical statement refers back to (现在特别讨厌 → the earlier liking)."""
        if not pattern.antecedent:
            return []
        span = match.span()
        if kind == "entity":
            named = [m for m in reading.mentions if m.end <= match.start() and m.type == pattern.object_type]
            if not named:
                return []
            mention = named[-1]
            message.add_entity(mention)
            return [(mention.name, None, span)]
        earlier = [text for position, text in reading.antecedents if position < match.start()]
        return [(None, earlier[-1], span)] if earlier else []

    def _kin_facts(self, message: _Message) -> None:
        """Add each relative's relation to the actor when the relative matters (see subjects)."""
        actor = message.speaker.actor
        if not actor:
            return
        for name, (mention, sentence) in message.relatives.items():
            predicate = mention.attributes.get("kin")
            if not isinstance(predicate, str):
                continue
            named = not (name.startswith(f"{actor}'s ") or name.startswith(f"{actor}的"))
            if not (named or name in message.used or predicate in ("MARRIED_TO", "PARTNER_OF")):
                continue
            relative_first = predicate in ("SIBLING_OF", "PARTNER_OF", "FRIEND_OF") or (
                predicate == "CHILD_OF" and mention.attributes.get("relation") in _CHILDREN
            )
            subject, obj = (name, actor) if relative_first else (actor, name)
            message.add_fact(
                FactIn(
                    subject=subject,
                    predicate=predicate,
                    object=obj,
                    fact=sentence[:2000],
                    confidence=0.85,
                    source_kind="stated",
                )
            )


_CHILDREN = frozenset({"son", "daughter", "kid", "child", "baby", "stepson", "stepdaughter", "儿子", "女儿"})


def _literal(kind: str, raw: str, at: datetime | None) -> Scalar | None:
    """Return the value of an amount, number, date, birthday or phone object; None when unreadable."""
    text = raw.strip()
    if kind == "amount":
        return parse_amount(text)
    if kind == "number":
        return int(text) if text.isdigit() else cn_to_int(text)
    if kind in ("date", "birthday"):
        if at is None:
            return text or None
        return date_value(text, at, yearless=kind == "birthday", future=kind == "date")
    digits = re.sub(r"\D", "", text)
    return digits if 7 <= len(digits) <= 15 else None


def _pick(inside: list[Mention], wanted: str, *, strict: bool = False) -> Mention | None:
    """Return the mention best fitting the object type: the first of that type, else the first
    compatible one (``strict``: the wanted type or an unknown name)."""
    for mention in inside:
        if mention.type == wanted:
            return mention
    if strict:
        return next((m for m in inside if m.type == "thing"), None)
    compatible = {
        "place": ("organisation", "thing"),
        "organisation": ("thing", "place"),
        "product": ("thing",),
        "animal": ("person", "thing"),
        "person": ("thing",),
    }
    for mention in inside:
        if mention.type in compatible.get(wanted, ("thing",)) or not wanted:
            return mention
    return None


def _taken(span: tuple[int, int], claimed: list[tuple[int, int]], *, verb_phrase: bool) -> bool:
    """Return True when another fact's object overlaps ``span``; a verb phrase may hold one whole
    (去日本读研 around the place 日本 is still a plan)."""
    if not verb_phrase:
        return overlaps(*span, claimed)
    return any(
        s < span[1] and span[0] < e and not (span[0] <= s and e <= span[1] and e - s < span[1] - span[0])
        for s, e in claimed
    )


def _sightseeing(sentence: str, span: tuple[int, int], claimed: list[tuple[int, int]]) -> bool:
    """Return True when a verb phrase holding another fact's object only goes there to look around."""
    inner = [e for s, e in claimed if span[0] <= s and e <= span[1]]
    return bool(inner) and bool(_SIGHTSEEING.match(sentence, max(inner), span[1]))


def _name_like(text: str, wanted: str) -> bool:
    if has_cjk(text):
        return len(text) <= 8
    words = text.split()
    return bool(words) and len(words) <= 4 and all(w[0].isupper() or not w.isalpha() for w in words)


def _too_long(text: str, lang: Lang) -> bool:
    return len(text) > _MAX_CJK if lang == "zh" else len(text.split()) > _MAX_WORDS


def _leading_condition(sentence: str, clause_start: int, lang: Lang) -> dict[str, str]:
    """Return the condition a short leading clause puts on a later clause ("On weekends, I …")."""
    first = clause_bounds(sentence, lang)[0]
    if clause_start == 0 or first[1] > 24:
        return {}
    return find_conditions(sentence[: first[1]])


def _json_text(content: str) -> str:
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
