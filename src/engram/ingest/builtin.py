"""Extract entities and facts from an episode offline: mentions, relatives, patterns, dates.

Per sentence: entity mentions (``engram.ingest.mentions``), the relatives the speaker names
(``engram.ingest.relatives``), then the patterns (``engram.ingest.patterns``) whose trigger
words the message contains. Each match gives one fact per object (coordinated objects give
one each): its subject is found by ``engram.ingest.subject_of`` among the candidates of
``engram.ingest.subjects`` (first person → the actor;
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

from engram.ingest.aliases import add_names_given
from engram.ingest.birthdays import add_birthdays
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
    typeset,
)
from engram.ingest.corrections import apply_corrections
from engram.ingest.counterparts import add_counterpart_employers
from engram.ingest.fragments import drop_fragments
from engram.ingest.frames import DEPARTMENT, UNSETTLED, ZH_ROLE_RX, Pattern, conditional, supposed, undecided
from engram.ingest.frames_zh import ZH_ELSEWHERE
from engram.ingest.implied import add_implied_facts
from engram.ingest.issues import add_reported_issues
from engram.ingest.mentions import (
    DEFAULT_GAZETTEER,
    Mention,
    MentionFinder,
    located,
    overlaps,
)
from engram.ingest.mentions_zh import organisation_beginning_with
from engram.ingest.object_predicates import object_predicate
from engram.ingest.objects import ANTECEDENT, read_objects
from engram.ingest.orders import add_ordered_products
from engram.ingest.parents import the_other_parent
from engram.ingest.patterns import PATTERNS, index
from engram.ingest.reading import Message, Sentence, json_text, sentences
from engram.ingest.refusals import joined_before, ours, refused, said_of_a_pet
from engram.ingest.relatives import find_relatives, to_a_child
from engram.ingest.signing import signed_deal
from engram.ingest.signoff import add_signature_facts
from engram.ingest.speaker import account_note, announcement, handed_over_by, minutes, note_contact
from engram.ingest.subject_of import PERSONAL, pet_named_before, subject_of
from engram.ingest.subjects import Speaker, coordinated
from engram.ingest.ticket_handlers import add_ticket_handlers
from engram.ingest.tickets import (
    add_ticket_fields,
    add_ticket_issues,
    add_ticket_status,
    drop_handlers_employers,
)
from engram.ingest.topics import TOPIC_HOLDERS_LATER, chosen_instead
from engram.ingest.whose import not_theirs
from engram.models.episodes import Episode
from engram.models.graph import Extraction, FactIn, Scalar, SourceKind
from engram.models.predicates import REGISTRY
from engram.nlp.dates import fact_dates, reference_of, scoped_dates
from engram.nlp.references import ReferenceTable
from engram.nlp.tense import is_past
from engram.nlp.timeexpr import RECURRING
from engram.nlp.tokenize import has_cjk

_SHARED = PERSONAL - {"MARRIED_TO", "PARTNER_OF", "SIBLING_OF", "CHILD_OF", "FRIEND_OF", "AGE", "BIRTHDAY",
                       "CREATED", "ATTENDED"} | {
    "LIVES_IN", "MOVED_FROM", "WORKS_FROM", "MEMBER_OF", "USES", "STOPPED_USING", "PLANS_TO_VISIT", "VISITED",
    "PLANS_TO",
}  # fmt: skip
"""Predicates two people joined by "and" share ("Tom and I live in Denver", 赵倩、邓凯都向他汇报)."""
_NAMES_OF_TEXTS = frozenset(
    {"document", "url", "email", "reference", "contract", "invoice", "purchase_order"}
    | {"role", "organisation", "place"}
)
"""A cue word inside one of these names is no cue (报价 in 报价单_v2.pdf, 学 in 中学老师); inside a project's
or a deal's name it still is ("the Nimbus launch slipped to …")."""
_ENDABLE = frozenset({"DIET", "WORKS_FROM", "PREFERS", "STATUS"})
"""One-valued predicates with no stop form whose "no longer" ends the current fact (a negated fact)."""
_ENDED = re.compile(
    r"\b(?:no longer|anymore|any more|(?:gave up|giving up|quit|quitting|stopped) being)\b|"
    r"不再|不[^，。；]{0,4}了",
    re.I,
)
"""Words that say something stopped being so (not 原来/以前, which may describe a former holder)."""
_SWITCHED_TO = re.compile(
    r"\b(?:moving|moves|move|switching|switch|migrating|migrate)\b.*\bto\b|换成|换到|切换|迁移到|迁到", re.I
)
"""A change of tools: a date it is due by or ends on is when the new one begins, not when it ends."""
_HEDGE_WEIGHT = 0.5
"""A guess or hearsay keeps half the confidence: a later stated fact wins, an earlier one stays."""


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
        message = Message(
            Speaker(actor),
            at,
            announced=announcement(text),
            minutes=minutes(text),
            account_note=account_note(text),
            to_a_child=to_a_child(text),
            rivals=chosen_instead(text),
        )
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
            following = text[offset + len(sentence) :]  # what the message says after this sentence
            local = [
                located(r, offset, sentence)
                for r in refs
                if offset <= r.start and r.end <= offset + len(sentence)
            ]
            if not local:  # a reference's offsets must stay true: a sentence citing one stays as said
                lang: Lang = "zh" if has_cjk(sentence) else "en"
                sentence = corrected(typeset(sentence, lang), lang)
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
            for fact in [] if questioned else signed_deal(reading, message, following):
                message.add_fact(fact)
                if (
                    fact.predicate == "SIGNED"
                    and fact.object
                    and all(m.name != fact.object for m in reading.mentions)
                ):
                    # "Halvorsen signed for 45 seats at $38": the deal the signing names holds the figures
                    reading.add_mention(Mention(len(sentence), len(sentence), fact.object, "deal"))
            for pattern, match in about + elliptical:
                for fact in self._facts(pattern, match, reading, message):
                    message.add_fact(fact)
            if not questioned:
                add_reported_issues(reading, message)
                add_ticket_issues(reading, message, following)
                add_ticket_status(reading, message)
                add_birthdays(reading, message)
                add_ticket_handlers(reading, message)
            self._observe(reading, message)
            if offset == 0:
                message.note_contact = note_contact(reading, actor)
            add_counterpart_employers(reading, message)
            add_names_given(message, reading)
        add_signature_facts(text, message)
        add_ticket_fields(text, message)
        add_ordered_products(message)
        apply_corrections(text, message)
        add_implied_facts(message, text)
        drop_handlers_employers(text, message)
        drop_fragments(message)
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
        relatives = find_relatives(sentence, lang, actor, mentions, bare_parents=not message.to_a_child)
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
            if mention.type == "person" and mention.start <= 1 and _ZH_GREETED.match(sentence, mention.end):
                mention.vocative = True  # 王总您好, 刘老师：: the one written to, named by no fact
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
        if reading.lang == "zh" and (cheered := _ZH_CHEERED.match(reading.text)):
            # 恭喜小王转正！以后就是正式的测试工程师啦: the next sentences go on about the one cheered
            person = next(
                (m for m in reading.mentions if m.start == cheered.end() and m.type == "person"), None
            )
            message.topic_person = person.name if person else message.topic_person
        if reading.lang == "en":
            message.topic_person = _en_topic_person(reading, message)
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
            elsewhere = mention.type == "organisation" and ZH_ELSEWHERE.search(reading.text, 0, mention.start)
            if mention.type == "organisation" and not (
                elsewhere or ZH_ROLE_RX.match(reading.text, mention.end)
            ):
                message.speaker.organisations.append(mention.name)  # not 原来在GE医疗 nor 信息中心主任
            if mention.type in TOPIC_HOLDERS_LATER and not elsewhere:
                message.topics.append(mention)
        if message.heading_topics is None:
            message.heading_topics = len(message.topics)

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
            m.start <= cue < m.end
            and m.type in _NAMES_OF_TEXTS
            and not (m.type == "role" and m.start == match.start())  # "promoted to COO at Brightwater"
            for m in reading.mentions
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
        if pattern.future and not is_past(sentence[clause[0] : clause[1]], lang):
            # 下周一到周三去广州出差，参加广交会: in Chinese a time said earlier in the sentence still holds
            told_from = clause[0] if lang == "en" else 0
            if is_future(sentence[told_from : max(cue, obj_start)], lang):
                predicate = pattern.future
        if refused(predicate, match, sentence, clause, obj_start) or (
            pattern.antecedent and predicate == "WORKS_AT" and message.minutes
        ):  # a role held before, a day at home (engram.ingest.refusals); 负责人：周丽 in minutes: a task's
            return []
        if kind in ("date", "amount", "number") and denied(sentence[clause[0] : obj_start], lang):
            return []
        ended = False
        if pattern.negatable and kind not in ("date", "birthday", "amount", "number", "phone", "email"):
            cue_text = sentence[clause[0] : obj_start if obj_start >= cue else cue + 1]  # not 不 of 不制冷
            said = negation(cue_text, sentence[obj_start:], lang)
            if said is None and obj_start == match.start() and obj_start > clause[0]:  # 不再负责华东区的
                said = negation(sentence[clause[0] : obj_start], sentence[obj_start:], lang)
            if said:
                mapped = (pattern.stop if said == "stop" else pattern.negated) or (
                    (registered.stop if said == "stop" else registered.negation) if registered else None
                )
                if predicate in ANTECEDENT and (said_object := trim_object(match.group("obj"), lang)):
                    reading.antecedents.append((obj_start, said_object))
                endable = predicate in _ENDABLE and _ENDED.search(sentence, clause[0], clause[1])
                if mapped is None and not endable:
                    return []
                if mapped is None:
                    ended = (
                        True  # "I'm not vegetarian anymore", 不再吃素了: no stop form; the current one ends
                    )
                else:
                    predicate, confidence = mapped, confidence - (0.15 if said == "not" else 0.0)
        stop = REGISTRY.get(predicate)
        if (pattern.supposable or (stop is not None and stop.ends)) and (
            supposed(sentence, reading.clauses, cue, lang) or never_began(sentence, lang)
        ):
            return []  # 如果…就不用飞书了, "I'd quit Slack", 从来没用过: a stop that did not happen
        if conditional(sentence, reading.clauses, cue, lang) or undecided(
            sentence[clause[0] : clause[1]], sentence[clause[0] : cue], sentence[clause[0] :], lang
        ):  # "If I become team lead in July", 如果…就给他们打八五折, 在考虑回去做设计: nothing that happened
            return []
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
        subject = subject_of(pattern, predicate, match, limit, reading, message)
        if subject is None and predicate == "AGE":  # "her name is Miso, she's 2": no person is "she"
            subject = pet_named_before(reading, cue)
        if subject is None:
            return []
        subject_name, weight = subject
        if (
            subject_name == message.speaker.actor
            and predicate in ("AGE", "STATUS")
            and said_of_a_pet(sentence, match.start())
        ):  # 我家猫叫团子，…今年五岁了, 我家猫 橘子 昨天做了绝育手术: the cat's, when it is named
            pet = pet_named_before(reading, cue)
            if pet is None:
                return []
            subject_name = pet[0]
        if subject_name == message.speaker.actor and (
            (predicate == "INTERESTED_IN" and ours(sentence, obj_start))
            or (predicate in ("USES", "STOPPED_USING") and lang == "zh" and ours(sentence, obj_start))
        ):
            # 对我们的智慧排课很感兴趣, 不再用我们的网关了: a customer's
            return []
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
            if target == subject_name or (
                predicate == "LEFT_ORGANISATION" and joined_before(sentence, match.start("obj"), span[0])
            ):  # "left Grovetide and joined Pennyroyal Foods": the one joined is not left
                continue
            if (
                target is None
                and value is None
                and (
                    # "赵强辞职了？", "如果…我就辞职了", "I'd quit"; not a plan after (我辞职了，打算休息)
                    UNSETTLED[lang].search(sentence, 0, clause[1] + 1)
                    or message.states(subject_name, predicate)
                )
            ):
                continue  # objectless: unsettled, or "从蓝海医疗离职了" already said what was left
            out_subject, out_object = subject_name, target
            said_as = object_predicate(predicate, target, span, match, reading, message, subject_name, clause)
            if said_as is None:
                continue  # 大学在武汉读的: where one studied once is no home
            item_predicate, trust = said_as[0], said_as[1] or source_kind
            if pattern.inverse and out_object is not None:
                out_subject, out_object = out_object, out_subject
            if not_theirs(
                item_predicate, out_subject, out_object, value, reading, clause, cue, span[0], message
            ):
                continue  # 我有个妹妹在英国读研, 陈老师 → 老师, "the staff hate the app": not the subject's
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
                and not RECURRING.search(sentence[clause[0] : clause[1]])
            ):  # the object's clause's own date, or a leading "Last year, …" (never another clause's);
                # a recurring one (every Friday, 每周五) is a condition, not when the fact started
                valid_at, invalid_at = fact_dates(scoped_dates(evidence, message.at, position=span[0]))
                if pattern.ends:  # "her last day on the account was March 31": it ends after that day
                    last = invalid_at or valid_at
                    valid_at, invalid_at = None, last + timedelta(days=1) if last is not None else None
                elif invalid_at and not valid_at and _switched(predicate, match.group()):
                    valid_at, invalid_at = invalid_at, None  # "moves to GitHub Actions by end of October"
            if (
                item_predicate in _PLANNED_AHEAD
                and message.at
                and valid_at
                and valid_at > message.at
                and not (
                    valid_at.date() == message.at.date() and is_past(sentence[clause[0] : clause[1]], lang)
                )
            ):  # 今天下午拜访了…, said in the morning: done already
                # 下个月要去澳洲读研, "I'm running a half marathon in October": dated ahead, still to come
                item_predicate = _PLANNED_AHEAD[item_predicate]
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
                    negated=ended,
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


_LITERALS = frozenset({"amount", "number", "date"})
"""Object kinds of topic predicates read after the sentence's other patterns: their topic may be a
name another pattern finds (一年899 after 换成稿定设计), and no other pattern reads their object."""


def _object_kind(pattern: Pattern) -> str:
    """Return what kind of object ``pattern`` reads: its own kind, else its predicate's."""
    registered = REGISTRY.get(pattern.predicate)
    return pattern.kind or (registered.object_kind if registered else "value")


_ZH_GREETED = re.compile(r"\s*(?:您好|你好|[：:]\s*$)")


def _en_topic_person(reading: Sentence, message: Message) -> str | None:
    """Return whom an English note goes on about: the person met ("Met Jun Nakagawa at …", "1:1 notes w/
    Ethan"), still so while sentences open on "He"/"She"; None once one opens on the writer or someone
    else."""
    met = _EN_MET.match(reading.text)
    if met:
        person = next((m for m in reading.mentions if m.start == met.end() and m.type == "person"), None)
        return person.name if person else None
    if _EN_HE_SHE.match(reading.text) and message.topic_person:
        return message.topic_person
    return None if _EN_OPENS_ON_SOMEONE.match(reading.text) else message.topic_person


_EN_MET = re.compile(
    r"\s*(?:(?:just |finally )?(?:met|spoke (?:with|to)|call with|lunch with|coffee with)\s|"
    r"1[:-]1(?: notes)?\s(?:w/|with)\s)",  # "1:1 notes w/ Ethan - wants …"
    re.I,
)
_EN_HE_SHE = re.compile(r"\s*(?:he|she)\b", re.I)
_EN_OPENS_ON_SOMEONE = re.compile(
    r"\s*(?:I|we|(?-i:[A-Z][a-z]+)\s(?-i:[A-Z])|they|you)\b|\s*\S+\s(?:is|was|has)\b", re.I
)
_ZH_CHEERED = re.compile(r"\s*(?:@\S+\s*)?(?:恭喜|祝贺|欢迎)")
"""A sentence opening on someone cheered or welcomed: the sentences after it are about them."""
_COLONS = ("：", ":")
_PLANNED_AHEAD = {"VISITED": "PLANS_TO_VISIT", "ATTENDED": "PLANS_TO"}
"""What a visit or an event read with a date still to come is: a plan."""


def _switched(predicate: str, said: str) -> bool:
    """Return True when ``said`` changes tools (``_SWITCHED_TO``): the date it is due by is its start."""
    return predicate == "USES" and bool(_SWITCHED_TO.search(said))


def _leading_condition(sentence: str, clause_start: int, lang: Lang) -> dict[str, str]:
    """Return the condition a short leading clause puts on a later clause ("On weekends, I …")."""
    first = clause_bounds(sentence, lang)[0]
    if clause_start == 0 or first[1] > 24:
        return {}
    return find_conditions(sentence[: first[1]])
