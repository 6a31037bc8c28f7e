"""Extract entities and facts from an episode offline, with rules, lexicons and jieba POS tags.

Entities come from ``engram.ingest.references`` and ``engram.ingest.mentions`` (gazetteer,
titles, role words, jieba POS tags, capitalised spans); names only used to address someone
("Thanks, Joanna!") are not entities.

Facts come from ``engram.ingest.patterns``, read with ``engram.models.predicates``; the subject
is the nearest person-like mention or pronoun left of the object: a first-person pronoun
(I/my/我/我们) names the episode's actor (``actor.name``, else ``actor.id``), who is then added
as a person entity; he/she/you/他/你 block the fact (no coreference here). ``fact`` is the
sentence, ``source_kind`` "stated", ``valid_at`` is left None (relative dates are resolved
elsewhere). Pure: no store, no network.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from engram.ingest.clauses import Lang, find_conditions, is_past, negation, trim_object
from engram.ingest.mentions import DEFAULT_GAZETTEER, Mention, MentionFinder, overlaps
from engram.ingest.patterns import PATTERNS, Pattern
from engram.ingest.references import ReferenceTable
from engram.models.episodes import Episode
from engram.models.graph import EntityIn, Extraction, FactIn, Scalar
from engram.models.predicates import REGISTRY
from engram.nlp.amounts import cn_to_int, parse_amount
from engram.nlp.tokenize import has_cjk

_SENTENCE = re.compile(
    r"(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bvs)[.!?]+['\")]*(?=\s)|[。！？；]+|\n+"
)
_CLAUSE = re.compile(r"[,，;；:：]|\b(?:and|but|because|so)\b|而且|但是|因为|所以")
_EN_I = re.compile(r"(?-i:\bI\b)|\b(?:I'm|I've|I'd|I'll|me|my|mine|myself)\b|"
                   r"(?P<we>\b(?:we|we're|we've|our|us)\b)",
                   re.I)  # fmt: skip
_EN_BLOCK = re.compile(r"\b(?:you|your|you're|he|she|they|his|her|their|them|him|it|it's)\b", re.I)
_ZH_I = re.compile(r"(?P<we>我们|咱们)|我|本人")
_ZH_BLOCK = re.compile(r"你|您|他|她|它|客户|对方")
_SUBJECT_TYPES = frozenset({"person", "organisation", "thing", "animal"})
_NOT_SUBJECT_TYPES = frozenset({"place", "role", "email", "url"})
_TOPIC_PREDICATES = frozenset({"BUDGET", "PRICE", "DEADLINE", "MEETING_AT"})
_NAME_PREDICATES = frozenset({"MARRIED_TO", "CHILD_OF", "SIBLING_OF", "FRIEND_OF", "REPORTS_TO", "HAS_PET"})


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


class BuiltinExtractor:
    """Find entities and facts with rules; deterministic, offline, a few hundred µs per turn.

    ``gazetteer`` (name → entity type) extends the defaults; ``references`` are rules for
    :class:`~engram.ingest.references.ReferenceTable` (tried before the defaults); ``patterns``
    are extra :class:`~engram.ingest.patterns.Pattern` objects tried before the built-in ones.
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
        self._patterns = {
            lang: [p for p in [*patterns, *(PATTERNS if use_defaults else ())] if p.lang == lang]
            for lang in ("en", "zh")
        }

    def close(self) -> None:
        """Release nothing: the rules hold no connections."""

    def extract(self, episode: Episode) -> Extraction:
        """Return the entities and facts ``episode`` states; empty for chit-chat."""
        actor = (episode.actor.name or episode.actor.id) if episode.actor else None
        text = episode.content
        if episode.source_type == "json":
            text = _json_text(text)
        return self.extract_text(text, actor=actor, references=episode.references)

    def extract_text(
        self, text: str, *, actor: str | None = None, references: Sequence[str] = ()
    ) -> Extraction:
        """Return what ``text`` says, with ``actor`` as the subject of first-person statements."""
        entities: dict[tuple[str, str], EntityIn] = {}
        facts: dict[tuple[Any, ...], FactIn] = {}
        refs = self._references.find(text)
        for ref in self._references.resolve(references):
            _add_entity(entities, Mention(0, 0, ref.name, ref.type, dict(ref.attributes), [ref.id]))
        actor_used = False
        for offset, sentence in _sentences(text):
            local = [
                Mention(r.start - offset, r.end - offset, r.name, r.type, {**r.attributes, "ref_id": r.id},
                         [r.id] if r.id != r.name else [])
                for r in refs
                if offset <= r.start and r.end <= offset + len(sentence)
            ]  # fmt: skip
            mentions = self._mentions.find(sentence, local, actor)
            for fact in self._facts(sentence, mentions, actor):
                key = (fact.subject, fact.predicate, fact.object, fact.value, tuple(fact.conditions.items()))
                facts.setdefault(key, fact)
                actor_used = actor_used or actor in (fact.subject, fact.object)
            for mention in mentions:
                if not mention.vocative:
                    _add_entity(entities, mention)
        if actor and actor_used:
            _add_entity(entities, Mention(0, 0, actor, "person"))
        return Extraction(entities=list(entities.values())[:256], facts=list(facts.values())[:512])

    def _facts(self, sentence: str, mentions: list[Mention], actor: str | None) -> list[FactIn]:
        lang: Lang = "zh" if has_cjk(sentence) else "en"
        claimed: list[tuple[int, int]] = []
        out: list[FactIn] = []
        lower = sentence.lower()
        for pattern in self._patterns[lang]:
            if pattern.trigger and not any(word in lower for word in pattern.trigger):
                continue
            for match in pattern.regex.finditer(sentence):
                fact = self._fact(pattern, match, sentence, mentions, actor, lang, claimed)
                if fact is not None:
                    out.append(fact)
        return out

    def _fact(
        self,
        pattern: Pattern,
        match: re.Match[str],
        sentence: str,
        mentions: list[Mention],
        actor: str | None,
        lang: Lang,
        claimed: list[tuple[int, int]],
    ) -> FactIn | None:
        raw = match.group("obj")
        if raw is None:
            return None
        trimmed = trim_object(raw, lang)
        obj_start = match.start("obj") + max(raw.find(trimmed), 0)
        obj_end = obj_start + len(trimmed)
        if not trimmed or overlaps(obj_start, obj_end, claimed):
            return None
        registered = REGISTRY[pattern.predicate]
        predicate, confidence = pattern.predicate, pattern.confidence
        clause_start = max((m.end() for m in _CLAUSE.finditer(sentence, 0, match.start())), default=0)
        tail = _CLAUSE.search(sentence, obj_end)
        clause = sentence[clause_start : tail.start() if tail else len(sentence)]
        if pattern.past and is_past(clause, lang):
            predicate = pattern.past
        cue = negation(sentence[clause_start : match.start("obj")], sentence[obj_start:], lang)
        if cue and registered.ends is None:  # DISLIKES, STOPPED_USING… carry their own negation
            mapped = registered.stop if cue == "stop" else registered.negation
            if mapped is None:
                return None
            predicate, confidence = mapped, confidence - (0.15 if cue == "not" else 0.0)
        target = REGISTRY[predicate]
        if any(m.start <= match.start() < m.end for m in mentions):
            return None  # the cue is part of a name (报价 in 报价单_v2.pdf)
        topic = predicate in _TOPIC_PREDICATES
        subject = _subject(sentence[: match.start("obj")], mentions, actor, lang, topic=topic)
        if subject is None:
            return None
        subject_name, weight = subject
        obj = _pick(mentions, obj_start, obj_end, target.object_type, exclude=subject_name)
        if obj is not None and lang == "en" and not _heads(sentence, obj_start, obj_end, obj):
            obj = None  # "an LGBTQ+ counseling workshop" is not the entity LGBTQ
        value: Scalar | None = None
        if target.object_kind == "amount":
            value = parse_amount(trimmed)
            if value is None:
                return None
        elif predicate == "AGE":
            value = int(trimmed) if trimmed.isdigit() else cn_to_int(trimmed)
        elif obj is not None:
            obj_end = max(obj_end, obj.end)
            if obj.type == "thing" and target.object_type not in ("", "thing"):
                obj.type = target.object_type
            if predicate == "HAS_PET":
                obj.type = "animal"
                if match.groupdict().get("kind"):
                    obj.attributes["species"] = match.group("kind").lower()
        elif pattern.require_mention:
            return None
        elif predicate == "HAS_ROLE" or (predicate in _NAME_PREDICATES and _name_like(trimmed)):
            kind = target.object_type if predicate != "HAS_ROLE" else "role"
            name = trimmed.lower() if kind == "role" and not trimmed.isupper() else trimmed
            obj = Mention(obj_start, obj_end, name, kind)
            if "kind" in match.groupdict() and match.group("kind"):
                obj.attributes["species"] = match.group("kind").lower()
            mentions.append(obj)
        elif len(trimmed) > 60 or len(trimmed.split()) > 8:
            return None
        else:
            value = trimmed
            confidence -= 0.1 if target.object_kind == "entity" else 0.0
        if value is None and obj is None:
            return None
        claimed.append((obj_start, obj_end))
        confidence = round(max(0.1, min(1.0, confidence * weight)), 2)
        subject_out, object_out = subject_name, obj.name if obj else None
        if pattern.inverse and object_out is not None:
            subject_out, object_out = object_out, subject_out
        conditions = find_conditions(clause) or _leading_condition(sentence, clause_start)
        return FactIn(
            subject=subject_out,
            predicate=predicate,
            object=object_out,
            value=value if object_out is None else None,
            fact=sentence[:2000],
            conditions=conditions,
            confidence=confidence,
            source_kind="stated",
        )


def _heads(sentence: str, start: int, end: int, mention: Mention) -> bool:
    """Return True when ``mention`` is the whole object phrase, bar determiners and trailing words."""
    before = sentence[start : mention.start].strip().lower()
    after = sentence[mention.end : end].strip(" +'’s")
    if before in ("a", "an", "the", "my", "our"):
        return not (after and after[0].islower())  # "an LGBTQ center": the name only modifies a noun
    return before == ""


def _name_like(text: str) -> bool:
    return text[0].isupper() or (has_cjk(text) and len(text) <= 4)


def _leading_condition(sentence: str, clause_start: int) -> dict[str, str]:
    """Return the condition a short leading clause puts on a later clause ("On weekends, I …")."""
    first = _CLAUSE.search(sentence)
    if first is None or clause_start == 0 or first.start() > 24:
        return {}
    return find_conditions(sentence[: first.start()])


def _subject(
    left: str, mentions: list[Mention], actor: str | None, lang: Lang, *, topic: bool
) -> tuple[str, float] | None:
    """Return ``(subject name, confidence weight)`` from the text left of the object, or None.

    Topic predicates (budget, price, deadline, meeting) also take products, deals and
    documents as subjects, and fall back to the actor (weight 0.7) when nothing precedes.
    """
    best: tuple[int, str | None, float] = (-1, actor if topic else None, 0.7)
    for match in (_EN_I if lang == "en" else _ZH_I).finditer(left):
        if match.start() > best[0]:
            best = (match.start(), actor, 0.9 if match.group("we") else 1.0)
    for match in (_EN_BLOCK if lang == "en" else _ZH_BLOCK).finditer(left):
        if match.start() > best[0]:
            best = (match.start(), None, 1.0)
    for mention in mentions:
        allowed = mention.type not in _NOT_SUBJECT_TYPES if topic else mention.type in _SUBJECT_TYPES
        if mention.type == "thing" and not topic and left[mention.end :].strip():
            allowed = False  # an unknown name is a subject only right before its verb
        if mention.end <= len(left) and mention.start > best[0] and allowed and not mention.vocative:
            best = (mention.start, mention.name, 0.95)
    return None if best[1] is None else (best[1], best[2])


def _pick(mentions: list[Mention], start: int, end: int, wanted: str, *, exclude: str) -> Mention | None:
    """Return the mention inside ``start:end`` best fitting the object type (first compatible, else first)."""
    inside = [m for m in mentions if start <= m.start < end and m.name != exclude]
    for mention in inside:
        if mention.type in (wanted, "thing"):
            return mention
    return inside[0] if inside else None


def _add_entity(entities: dict[tuple[str, str], EntityIn], mention: Mention) -> None:
    key = (mention.name, mention.type)
    existing = entities.get(key)
    if existing is None:
        entities[key] = EntityIn(
            name=mention.name, type=mention.type, aliases=mention.aliases, attributes=mention.attributes
        )
        return
    existing.attributes.update({k: v for k, v in mention.attributes.items() if k not in existing.attributes})
    existing.aliases.extend(a for a in mention.aliases if a not in existing.aliases)


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
