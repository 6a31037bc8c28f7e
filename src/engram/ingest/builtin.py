"""Extract entities and facts from an episode offline: mentions, relatives, patterns, dates.

Per sentence: entity mentions (``engram.ingest.mentions``), the relatives the speaker names
(``engram.ingest.subjects``), then the patterns (``engram.ingest.patterns``) whose trigger
words the message contains. Each match gives one fact per object (coordinated objects give
one each): its subject is found by ``engram.ingest.subjects`` (first person → the actor;
"my brother" → a person of its own; he/she → the last person named; you/they → no fact);
its object is read as the pattern says (``engram.ingest.objects``: an entity, a value, an
amount, a date resolved against the episode's time, a phone number…); a "no longer / 不再 /
stopped" or "not / 不" before the cue turns the predicate into its stop or negated form
(USES → STOPPED_USING, LIKES → DISLIKES), or drops the statement when there is none.
Once every sentence is read, ``engram.ingest.implied`` adds what the message implies (a
relative's kinship, a customer's contact's employer, the employer a leaving ends). Conditions
keep the text's words (周末, "on Fridays"); a date said in the fact's clause sets
``valid_at`` (and ``invalid_at`` for a range), a leading time clause ("Last year, …") dates
every clause, no other clause's date does; ``fact`` is the sentence, ``source_kind``
"stated", or "inferred" with half the confidence when the clause hedges ("might be", "I
think", 可能, 好像, 听说). Pure: no store, no network; a few hundred microseconds per
conversational turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta, tzinfo

from engram.graph.places import is_chinese_place
from engram.ingest.aliases import add_names_given
from engram.ingest.clauses import (
    Lang,
    asks,
    clause_bounds,
    corrected,
    denied,
    find_conditions,
    hedged,
    is_future,
    negation,
    never_began,
    trim_object,
)
from engram.ingest.counterparts import add_counterpart_employers
from engram.ingest.frames import UNSETTLED, Pattern, conditional, supposed
from engram.ingest.implied import add_implied_facts
from engram.ingest.issues import add_reported_issues
from engram.ingest.mentions import (
    DEFAULT_GAZETTEER,
    Mention,
    MentionFinder,
    is_first_name,
    located,
    overlaps,
)
from engram.ingest.mentions_zh import organisation_beginning_with, starts_a_word
from engram.ingest.objects import ANTECEDENT, read_objects
from engram.ingest.orders import add_ordered_products
from engram.ingest.parents import the_other_parent
from engram.ingest.patterns import PATTERNS, index
from engram.ingest.reading import Message, Sentence, json_text, sentences
from engram.ingest.refusals import a_title, generic_thing, refused
from engram.ingest.relatives import cjk_person as _cjk_person
from engram.ingest.relatives import find_relatives
from engram.ingest.signing import signed_deal
from engram.ingest.signoff import add_signature_facts
from engram.ingest.speaker import (
    PERSON_TYPES,
    announcement,
    handed_over_by,
    number_holder,
    owned_by_another,
    someone_else,
    speaker_implied,
)
from engram.ingest.subjects import Speaker, coordinated, nearest_subject
from engram.ingest.topics import (
    DEPARTMENT,
    TOPIC_HOLDERS_LATER,
    asked_by_another,
    earlier_topic,
    order_of_message,
    sentence_topic,
)
from engram.models.episodes import Episode
from engram.models.graph import Extraction, FactIn, Scalar, SourceKind
from engram.models.predicates import REGISTRY
from engram.nlp.dates import fact_dates, reference_of, scoped_dates
from engram.nlp.references import ReferenceTable
from engram.nlp.tense import is_past
from engram.nlp.tokenize import has_cjk

_LEFT_TYPES = frozenset({"person", "organisation", "animal", "thing"})
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
_SHARED = _PERSONAL - {"MARRIED_TO", "PARTNER_OF", "SIBLING_OF", "CHILD_OF", "FRIEND_OF", "AGE", "BIRTHDAY",
                       "CREATED", "ATTENDED"} | {
    "LIVES_IN", "MOVED_FROM", "WORKS_FROM", "MEMBER_OF", "USES", "STOPPED_USING", "PLANS_TO_VISIT", "VISITED",
    "PLANS_TO",
}  # fmt: skip
"""Predicates two people joined by "and" share ("Tom and I live in Denver", 赵倩、邓凯都向他汇报)."""
_SPEAKER_FALLBACK = frozenset({"BUDGET", "MEETING_AT", "DEADLINE"})
"""Topic predicates that fall back to the speaker (lower confidence) when no topic is named."""
_LEFT_TOPICS: Mapping[str, frozenset[str]] = {
    "CANCELLED": frozenset({"organisation", "person", "thing"}),
    "ORDERED": frozenset({"organisation", "person", "thing"}),
    "PAID": frozenset({"organisation", "thing"}),
    "CONTACT": frozenset({"organisation", "thing"}),
    "STATUS": frozenset({"person", "organisation"}),
}
"""Topic predicates whose subject may also be the organisation or person that acts."""
_NAMES_OF_TEXTS = frozenset(
    {"document", "url", "email", "reference", "contract", "invoice", "purchase_order"}
    | {"role", "organisation", "place"}
)
"""A cue word inside one of these names is no cue (报价 in 报价单_v2.pdf, 学 in 中学老师); inside a project's
or a deal's name it still is ("the Nimbus launch slipped to …")."""
_RECURRING = re.compile(
    r"每(?:周|星期|礼拜|天|年|月)|\bevery\b|\bon (?:mon|tues|wednes|thurs|fri|satur|sun)days\b", re.I
)
"""A recurring time ("每周五", "every Friday") is a condition, not when a fact started."""
_HEDGE_WEIGHT = 0.5
"""A guess or hearsay keeps half the confidence: a later stated fact wins, an earlier one stays."""


def _person_if_first_named(mention: Mention, text: str) -> None:
    """Make a place a person when ``text`` opens with a first name ("Nina Park's number": a first
    name, then a surname like a place)."""
    if mention.type == "place" and is_first_name(text.split()[0]):
        mention.type = "person"


class BuiltinExtractor:
    """Find entities and facts with rules; deterministic, offline, a few hundred µs per turn.

    ``gazetteer`` (name → entity type) extends the defaults; ``references`` are rules for
    :class:`~engram.nlp.references.ReferenceTable` (tried before the defaults); ``patterns``
    are extra :class:`~engram.ingest.frames.Pattern` objects tried before the built-in ones.
    ``use_defaults=False`` drops the default gazetteer, reference rules and patterns.
    """

    name = "builtin"
    pure = True
    """Deterministic and without I/O: a large batch may be extracted in another process
    (engram.ingest.worker)."""

    def __init__(
        self,
        *,
        gazetteer: Mapping[str, str] | None = None,
        references: Sequence[Mapping[str, str]] = (),
        patterns: Sequence[Pattern] = (),
        use_defaults: bool = True,
        zone: tzinfo = UTC,
    ) -> None:
        self._zone = zone  # the zone of an episode's days and clock times (nlp.dates.reference_of)
        self._mentions = MentionFinder({**(DEFAULT_GAZETTEER if use_defaults else {}), **(gazetteer or {})})
        self._references = ReferenceTable(references, use_defaults=use_defaults)
        chosen = [*patterns, *(PATTERNS if use_defaults else ())]
        self._index = {"en": index(chosen, "en"), "zh": index(chosen, "zh")}

    def close(self) -> None:
        """Release nothing: the rules hold no connections."""

    def extract(self, episode: Episode) -> Extraction:
        """Return the entities and facts ``episode`` states; empty for chit-chat.

        Relative dates ("next Monday", 月底) are resolved against ``episode.timestamp``, in the
        zone its metadata names or the extractor's (engram.nlp.dates.reference_of).
        """
        actor = (episode.actor.name or episode.actor.id) if episode.actor else None
        text = episode.content
        if episode.source_type == "json":
            text = json_text(text)
        at = reference_of(episode, self._zone)
        return self.extract_text(text, actor=actor, references=episode.references, at=at)

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
        message = Message(Speaker(actor), at, announced=announcement(text))
        refs = self._references.find(text)
        for ref in self._references.resolve(references):
            message.add_entity(Mention(0, 0, ref.name, ref.type, dict(ref.attributes), [ref.id]))
        # Patterns are chosen by the trigger words of the whole message, then run on each sentence:
        # some trigger lists do not cover every phrasing their pattern reads ("a photographer at").
        lowered = text.lower()
        triggered = {
            lang: self._index[lang].candidates(lowered)
            for lang in (("zh", "en") if has_cjk(text) else ("en",))
        }
        for offset, sentence in sentences(text):
            local = [
                located(r, offset, sentence)
                for r in refs
                if offset <= r.start and r.end <= offset + len(sentence)
            ]
            if not local:  # a reference's offsets must stay true: a sentence citing one stays as said
                sentence = corrected(sentence, "zh" if has_cjk(sentence) else "en")
            reading = self._read_sentence(sentence, local, message)
            elliptical: list[tuple[Pattern, re.Match[str]]] = []
            about: list[tuple[Pattern, re.Match[str]]] = []
            questioned = asks(sentence, reading.lang)  # a yes/no question states no fact
            for pattern in () if questioned else triggered.get(reading.lang, ()):
                for match in pattern.regex.finditer(sentence):
                    if pattern.antecedent and not match.group("obj").strip():
                        elliptical.append((pattern, match))  # read once the earlier objects are known
                    elif pattern.subject == "topic" and _object_kind(pattern) in _LITERALS:
                        about.append((pattern, match))  # "…换成稿定设计了，一年899": once every name is found
                    else:
                        for fact in self._facts(pattern, match, reading, message):
                            message.add_fact(fact)
            for pattern, match in about + elliptical:
                for fact in self._facts(pattern, match, reading, message):
                    message.add_fact(fact)
            if not questioned and (signed := signed_deal(reading, message)) is not None:
                message.add_fact(signed)
            if not questioned:
                add_reported_issues(reading, message)
            self._observe(reading, message)
            add_counterpart_employers(reading, message)
            add_names_given(message, reading)
        add_signature_facts(text, message)
        add_ordered_products(message)
        add_implied_facts(message, text)
        for mention, _ in message.relatives.values():
            if mention.name in message.used:
                message.add_entity(mention)
        if actor and actor in message.used:
            message.add_entity(Mention(0, 0, actor, "person"))
        return Extraction(
            entities=list(message.entities.values())[:256], facts=list(message.facts.values())[:512]
        )

    def _read_sentence(self, sentence: str, local: list[Mention], message: Message) -> Sentence:
        lang: Lang = "zh" if has_cjk(sentence) else "en"
        actor = message.speaker.actor
        mentions = [  # "CRM：恒远律所…", "Subject: …": a header before a colon names no entity
            m
            for m in self._mentions.find(sentence, local, actor)
            if not (
                m.type == "thing"
                and not sentence[: m.start].strip()
                and sentence[m.end : m.end + 1] in _COLONS
            )
        ]
        relatives = find_relatives(sentence, lang, actor, mentions)
        if relatives:
            spans = [(r.start, r.end) for r in relatives]
            mentions = sorted(
                [m for m in mentions if not overlaps(m.start, m.end, spans)] + relatives,
                key=lambda m: m.start,
            )
        for mention in mentions:
            if (
                (mention.type == "person" if has_cjk(mention.name) else mention.type == "thing")
                and not mention.relative
                and (full := organisation_beginning_with(mention.name, message.speaker.organisations))
            ):
                mention.name, mention.type, mention.aliases = full, "organisation", [mention.name]
            elif (
                mention.type == "person"
                and not mention.relative
                and not sentence.startswith(" from ", mention.end)  # "Arjun from finance": another Arjun
                and (full := message.full_name(mention.name))
            ):
                mention.name, mention.aliases = full, [mention.name]  # "Arjun Mehta … Arjun reports to me"
            if mention.vocative and message.speaker.addressee is None and mention.type == "person":
                message.speaker.addressee = mention.name
            if mention.relative:
                message.relatives.setdefault(mention.name, (mention, sentence))
        return Sentence(sentence, lang, mentions, message.speaker)

    def _observe(self, reading: Sentence, message: Message) -> None:
        """Add the sentence's named entities, and remember its last person and organisation, and whom
        it opens on."""
        opening = next((c for c in reading.candidates if c.start <= 2), None)
        if reading.lang == "zh" and opening is not None:
            relative = opening.kind != "block" and opening.name in message.relatives
            message.topic_person = opening.name if relative else None
        for mention in reading.mentions:
            if mention.vocative or mention.type == "group":
                continue
            if mention.type == "person" and mention.name != message.speaker.actor:
                message.speaker.last_person = mention.name
                employers = [o for o in message.speaker.organisations if not DEPARTMENT.search(o)]
                message.employer_before.setdefault(mention.name, employers[-1] if employers else None)
            if mention.relative:
                continue
            message.add_entity(mention)
            if mention.type == "organisation":
                message.speaker.organisations.append(mention.name)
            if mention.type in TOPIC_HOLDERS_LATER:
                message.topics.append(mention)

    # ── one match → facts ────────────────────────────────────────────────────────────────

    def _facts(
        self, pattern: Pattern, match: re.Match[str], reading: Sentence, message: Message
    ) -> list[FactIn]:
        if "obj" not in pattern.regex.groupindex or match.start("obj") < 0:
            return []
        sentence, lang = reading.text, reading.lang
        obj_start, obj_end = match.span("obj")
        cue = match.end("obj") if obj_start == match.start() and obj_end < match.end() else match.start()
        if "subj" in pattern.regex.groupindex and match.start("subj") == match.start():
            cue = match.end("subj")
        if pattern.subject != "group" and any(
            m.start <= cue < m.end and m.type in _NAMES_OF_TEXTS for m in reading.mentions
        ):  # the cue is part of a document's name (报价 in 报价单_v2.pdf); a named subject says its own
            return []
        if "prev" in pattern.regex.groupindex and any(
            match.start("prev") <= m.start < match.end("prev") and m.type == "product"
            for m in reading.mentions
        ):
            return []  # "switched from Jira to Linear": a change of tools, not of projects
        clause = reading.clause_of(cue)
        predicate, confidence = pattern.predicate, pattern.confidence
        registered = REGISTRY.get(predicate)
        kind = _object_kind(pattern)
        if pattern.past and is_past(sentence[clause[0] : clause[1]], lang):
            predicate = pattern.past
        if pattern.future and is_future(sentence[clause[0] : max(cue, obj_start)], lang):
            predicate = pattern.future
        if refused(predicate, match, sentence, clause, obj_start):
            return []  # a role held before, a day at home, a discount asked for (engram.ingest.refusals)
        if kind in ("date", "amount", "number") and denied(sentence[clause[0] : obj_start], lang):
            return []
        if pattern.negatable and kind not in ("date", "birthday", "amount", "number", "phone", "email"):
            cue_text = sentence[clause[0] : max(obj_start, cue) if obj_start > cue else cue + 1]
            said = negation(cue_text, sentence[obj_start:], lang)
            if said is None and obj_start == match.start() and obj_start > clause[0]:  # 不再负责华东区的
                said = negation(sentence[clause[0] : obj_start], sentence[obj_start:], lang)
            if said:
                mapped = (pattern.stop if said == "stop" else pattern.negated) or (
                    (registered.stop if said == "stop" else registered.negation) if registered else None
                )
                if predicate in ANTECEDENT and (said_object := trim_object(match.group("obj"), lang)):
                    reading.antecedents.append((obj_start, said_object))
                if mapped is None:
                    return []
                predicate, confidence = mapped, confidence - (0.15 if said == "not" else 0.0)
        stop = REGISTRY.get(predicate)
        if (pattern.supposable or (stop is not None and stop.ends)) and (
            supposed(sentence, reading.clauses, cue, lang) or never_began(sentence, lang)
        ):
            return []  # 如果…就不用飞书了, "I'd quit Slack", 从来没用过: a stop that did not happen
        if conditional(sentence, reading.clauses, cue, lang):
            return []  # "If I become team lead in July", 如果…就给他们打八五折: nothing that happened
        source_kind: SourceKind = "stated"
        if hedged(sentence[clause[0] : clause[1]], lang):  # "might be COO", 可能搬去苏州了: a guess
            source_kind, confidence = "inferred", confidence * _HEDGE_WEIGHT
        limit = cue
        leading = next(
            (
                c
                for c in reading.candidates
                if c.start == match.start()
                and c.end <= obj_start
                and (c.mention is None or c.mention.type != "thing")
            ),
            None,
        )
        if leading is not None:  # "I'm vegetarian", "my favourite band is…": the subject opens the match
            # (an unknown capitalised phrase opening it, "Director of Engineering at …", is no subject)
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
            items = read_objects(pattern, predicate, kind, match, reading, message)
        evidence = sentence[: match.end()] if pattern.introduces else sentence  # what dates and states it
        facts = []
        for item in items:
            target, value, span = item
            if target == subject_name:
                continue
            if (
                target is None
                and value is None
                and (
                    UNSETTLED[lang].search(sentence)  # "赵强辞职了？", "如果…我就辞职了", "I'd quit"
                    or message.states(subject_name, predicate)
                )
            ):
                continue  # objectless: unsettled, or "从蓝海医疗离职了" already said what was left
            out_subject, out_object = subject_name, target
            item_predicate, trust = predicate, source_kind
            if predicate in _EMPLOYER_PLACE and _only_a_place(target, span, reading, message):
                if predicate == "STUDIES_AT" and (
                    _STUDIED.search(sentence, clause[0], clause[1])
                    or not _STUDYING.search(sentence, clause[0], clause[1])
                ):
                    continue  # 大学在武汉读的, 在北京上课三天: where one studied once or briefly is no home
                item_predicate, trust = _EMPLOYER_PLACE[predicate], "inferred"  # 在伦敦工作: a city
                if predicate == "WORKS_AT" and _COMMUTE.match(match.group()):
                    item_predicate, trust = "WORKS_FROM", "stated"  # 得去北京上班: where the work is
            elif predicate == "WORKS_AT" and target is not None and DEPARTMENT.search(target):
                item_predicate = "MEMBER_OF"  # 运营部的宁薇, 财务部方经理: a department, not the employer
            elif predicate == "WORKS_FROM" and (subject_name, "organisation") in message.entities:
                item_predicate = "LIVES_IN"  # 入职乐途科技…公司在望京: where the company is
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
                valid_at, invalid_at = fact_dates(scoped_dates(evidence, message.at, position=span[0]))
                if pattern.ends:  # "her last day on the account was March 31": it ends after that day
                    last = invalid_at or valid_at
                    valid_at, invalid_at = None, last + timedelta(days=1) if last is not None else None
            # 回老家厦门: the hometown is also where the verb goes; an objectless stop claims no words
            # ("Dad finally retired": retired is also his status)
            hometown = (predicate == "COMES_FROM" and match.group().startswith("老家")) or (
                predicate == "LIVES_IN" and sentence.startswith("老家", span[1])
            )  # 搬回扬州老家: where one lives again is also where one comes from
            if not hometown and (target or value is not None):
                reading.claimed.append(span)
            facts.append(
                FactIn(
                    subject=out_subject,
                    predicate=item_predicate,
                    object=out_object,
                    value=value if out_object is None else None,
                    fact=evidence[:2000],
                    conditions=conditions,
                    confidence=round(max(0.1, min(1.0, confidence * weight)), 2),
                    source_kind=trust,
                    valid_at=valid_at,
                    invalid_at=invalid_at,
                )
            )
        if facts and predicate in _SHARED and not pattern.inverse and pattern.subject in ("left", "group"):
            partners = coordinated(
                sentence, lang, reading.candidates, reading.mentions, subject_name, max(cue, obj_start)
            )
            partners += the_other_parent(subject_name, reading.mentions, reading.text, message)
            facts += [f.model_copy(update={"subject": p}) for p in partners for f in facts if f.object != p]
        giver = handed_over_by(match, reading, message) if pattern.handover and facts else None
        if giver is not None and giver != subject_name:
            facts += [f.model_copy(update={"subject": giver, "predicate": "UNASSIGNED_FROM"}) for f in facts]
        return facts

    def _subject(
        self,
        pattern: Pattern,
        predicate: str,
        match: re.Match[str],
        cue: int,
        reading: Sentence,
        message: Message,
    ) -> tuple[str, float] | None:
        """Return ``(subject name, confidence weight)``, registering the subject's entity; None if unsaid."""
        speaker = message.speaker
        if pattern.subject == "group":
            start, end = match.span("subj")
            text = match.group("subj").strip()
            inside = [m for m in reading.mentions if start <= m.start < end and not m.vocative]
            if text.lower() in ("we", "i", "our", "my"):  # "We signed …": the speaker's team
                return (speaker.actor, 0.9) if speaker.actor else None
            kin = next(
                (m for m in reading.mentions if m.relative and m.start <= start and end <= m.end), None
            )
            if kin is not None:  # 老公 of 我姐的老公: the relative the whole phrase names
                return kin.name, 0.9
            if pattern.named_subject:  # the person the finder knows where the group ends, whole
                # (赵强 of 经理赵强上周…, where a regex name begins too early; 王小明 of 王小明明天来);
                # between commas after a role it is no vocative ("their CFO, Nina Park")
                named = next((m for m in reading.mentions if m.start < end <= m.end), None)
                if named is not None and not has_cjk(named.name) and start > named.end - len(named.name):
                    return None  # "Park" of "Met Lisa Park at SaaStr": a name's tail is no subject
                if named is not None:
                    _person_if_first_named(named, named.name)
                if named is None or named.type != "person" or a_title(named.name):
                    return None  # "Marketing Manager" of "(formerly Marketing Manager at …)": a title
                message.add_entity(named)
                return named.name, 0.95
            if text.lower() in ("he", "she", "his", "her"):  # "…Maria Lopez; her direct line is …"
                name = speaker.person_before(reading.mentions, start)
                return (name, 0.85) if name else None
            if text.lower() in ("they", "it", "you", "their", "its", "your"):
                return None
            if inside and inside[0].end > end:
                return None  # "Lord of the Rings": the subject is part of a longer name
            if inside:
                mention = inside[0]
                if pattern.subject_type == "person" and mention.type in _NOT_PEOPLE:
                    return None  # 恒远律所目前用的金蝶云: a product is nobody's employee
                if mention.type == "thing" and pattern.subject_type:
                    mention.type = pattern.subject_type
                elif pattern.subject_type == "person":
                    _person_if_first_named(mention, text)
            elif text:
                if (
                    pattern.subject_type == "person"
                    and has_cjk(text)
                    and not (_cjk_person(text) and starts_a_word(reading.text, start))
                ):
                    return None  # 临时工: 时 ends a word, it begins no name
                mention = Mention(start, end, text, pattern.subject_type or "thing")
                reading.add_mention(mention)
            else:
                return None
            message.add_entity(mention)
            return mention.name, 0.95
        if pattern.subject == "addressee":
            return (speaker.addressee, 0.9) if speaker.addressee else None
        if pattern.subject == "speaker":  # a first person in the sentence, or the match's own (交给我)
            first = "我" in match.group() or any(c.kind in _FIRST_PERSON for c in reading.candidates)
            return (speaker.actor, 0.9) if first and speaker.actor else None
        if pattern.subject == "topic":
            first = any(
                c.kind in _FIRST_PERSON and c.start < max(cue, match.end()) for c in reading.candidates
            )
            topic = sentence_topic(predicate, cue, reading)
            topic = order_of_message(predicate, reading, message, topic) or topic
            if topic is not None and generic_thing(topic.name):
                # 合同5月31日到期, "our subscription": whose it is (an earlier name), not the word, or no one
                topic = earlier_topic(predicate, message, reading.text, cue)
                if topic is None:
                    return None
            if topic is None and not (first and predicate in _SPEAKER_FALLBACK):
                topic = earlier_topic(predicate, message, reading.text, cue)
            if topic is not None:
                message.add_entity(topic)
                return topic.name, 0.95 if topic in reading.mentions else 0.8
            if (
                predicate in _SPEAKER_FALLBACK
                and not pattern.named_topic
                and not asked_by_another(reading, cue)
            ):
                theirs = (
                    predicate == "BUDGET"
                    and (owned_by_another(reading, cue) or (not first and someone_else(reading, cue)))
                ) or (predicate == "MEETING_AT" and owned_by_another(reading, cue))
                if not speaker.actor or theirs:
                    return None  # "客户张总说预算…", "their board meeting on Oct 14": someone else's
                return speaker.actor, 0.75 if first else 0.65
            if predicate not in _LEFT_TOPICS:
                return None
            left = nearest_subject(
                reading.text, reading.clauses, cue, reading.candidates, _LEFT_TOPICS[predicate], match.start()
            )
            return (left.name, left.weight) if left is not None and left.name else None
        allowed = PERSON_TYPES if predicate in _PERSONAL else _LEFT_TYPES
        if (
            predicate in ("PHONE", "EMAIL")
            and (holder := number_holder(reading, cue, speaker.actor)) is not None
        ):
            return (holder, 0.85) if holder else None  # 由行政部的邵斌跟我们对接，电话139…: his number
        found = nearest_subject(
            reading.text, reading.clauses, cue, reading.candidates, allowed, match.start()
        )
        if found is not None and (found.name or not (message.announced and predicate in _ANNOUNCED)):
            return (found.name, found.weight) if found.name else None
        if pattern.named_subject:
            return None  # 货都在宁波: nobody said to be there
        inner = [
            c
            for c in reading.candidates
            if cue <= c.start < match.start("obj") and c.kind in ("actor", "possessive")
        ]
        if inner and speaker.actor:  # "Email me at …", "reach me on …", "Lost my job as …"
            return speaker.actor, inner[0].weight
        if speaker.actor and speaker_implied(reading, cue):
            if (
                reading.lang == "zh"
                and message.topic_person
                and all(c.start > cue for c in reading.candidates)
            ):
                return message.topic_person, 0.8  # 我儿子下个月中考。…最近又着迷打篮球: still the son
            return speaker.actor, 0.85
        if speaker.actor and message.announced and predicate in _ANNOUNCED:
            return speaker.actor, 0.8  # @全体 报销统一走飞书审批: the tools its writer's organisation uses
        return None


_ANNOUNCED = frozenset({"USES", "STOPPED_USING"})
_LITERALS = frozenset({"amount", "number", "date"})
"""Object kinds of topic predicates read after the sentence's other patterns: their topic may be a
name another pattern finds (一年899 after 换成稿定设计), and no other pattern reads their object."""


def _object_kind(pattern: Pattern) -> str:
    """Return what kind of object ``pattern`` reads: its own kind, else its predicate's."""
    registered = REGISTRY.get(pattern.predicate)
    return pattern.kind or (registered.object_kind if registered else "value")


_FIRST_PERSON = ("actor", "possessive")
_COLONS = ("：", ":")
_NOT_PEOPLE = frozenset({"product", "organisation", "document", "deal", "project"})
_EMPLOYER_PLACE = {"WORKS_AT": "LIVES_IN", "LEFT_ORGANISATION": "MOVED_FROM", "STUDIES_AT": "LIVES_IN"}
"""Work or study said of a place rather than an employer or a school is where the person lives
(the labelling rules: 在伦敦工作, 在成都读研)."""


_COMMUTE = re.compile(r"去|到")
"""Going to a place to work (去北京上班) says where one works, not where one lives."""
_STUDIED = re.compile(r"了|过|以前|之前|[读上念学]的|\b(?:studied|went to|graduated)\b", re.I)
"""Study that is over (大学在武汉读的, "I studied in Boston")."""
_STUDYING = re.compile(r"读研|读博|读大学|上大学|读书|念书|上学|读高中|读初中|\bstud(?:y|ies|ying)\b", re.I)
"""Study that takes years: where it happens is where one lives (在成都读研)."""
_ZH_INSTITUTION = re.compile(r"[\u4e00-\u9fff]{0,6}?(?:小学|中学|大学|学院|学校|幼儿园|医院|分公司|公司)")


def _only_a_place(name: str | None, span: tuple[int, int], reading: Sentence, message: Message) -> bool:
    """Return True when an employer's slot holds a known place alone: 伦敦, "London", not "Boston
    Consulting Group" cut to Boston, nor 苏宁 (a company jieba tags as a place)."""
    if name is None or (name, "place") not in message.entities:
        return False
    if has_cjk(name):
        if _ZH_INSTITUTION.match(reading.text, span[1]):
            return False  # 海淀实验小学, 省人民医院: the place begins an institution's name
        return is_chinese_place(name) or DEFAULT_GAZETTEER.get(name) == "place"
    before, after = reading.text[: span[0]], reading.text[span[1] :]
    return not re.match(r"\s*(?:[A-Z]|['’]s\b)", after) and not re.search(r"[A-Z][\w&.-]*\s+$", before)


def _leading_condition(sentence: str, clause_start: int, lang: Lang) -> dict[str, str]:
    """Return the condition a short leading clause puts on a later clause ("On weekends, I …")."""
    first = clause_bounds(sentence, lang)[0]
    if clause_start == 0 or first[1] > 24:
        return {}
    return find_conditions(sentence[: first[1]])
