"""Read whether a clause speaks of the past: the builtin extractor's one reader of past tense.

Three readings, one per question a caller asks, since how much it takes to call a clause past
depends on what the answer changes:

- ``is_past(clause, lang)``: the clause is told in the past at all ("we went to Paris last
  week", 去年去过成都): a plan pattern then states what was done ("trip to Paris" → VISITED
  rather than PLANS_TO_VISIT; ``engram.ingest.builtin``);
- ``past_on_date(before, after)``: a verb says what happened on a date, before it in its clause
  ("I went to Tokyo on December 20th") or, in Chinese, right after it (12月20号去了东京): a
  yearless date later than the message is then last year's (``engram.nlp.dates``);
- ``past_event(clause, lang)``: a meeting or a deadline told as held or passed ("Our kickoff was
  on Jan 15", 上次的会是1月15号): its date is never moved ahead to next year
  (``engram.ingest.objects``).

All three are plain word cues (no parsing): a clause that names a past time ("yesterday",
"3 weeks ago", 上个月) is past for each of them.
"""

from __future__ import annotations

import re

from engram.nlp.clauses import Lang

# -- the word lists ----------------------------------------------------------------------------

# Words naming a time already gone: each reading takes them.
_EN_PAST_TIME = r"yesterday|ago|last (?:week|month|year|summer|weekend|night|\w+day)"
_ZH_PAST_TIME = r"昨天|前天|上周|上个月|去年|上次"

# Any past at all, "was" and 了 included: is_past only picks between a plan and a thing done.
_EN_PAST = re.compile(
    rf"\b(?:{_EN_PAST_TIME}|went|visited|was|were|got back|came back|returned|left|quit)\b",
    re.I,
)
_ZH_PAST = re.compile(
    rf"{_ZH_PAST_TIME}|了|(?<!度)过(?!完|年|节)|之前|已经|刚|[访见聊谈]完"
)  # 过完年: once the year is over; 过年, 过节, 度过: a holiday, not a past

# Only verbs of going, meeting or joining, read in either language: "was" (the deadline was set to
# December 20th) or a bare 了 may tell a past decision about a date still to come.
_PAST_VERB = re.compile(
    r"\b(?:went|visited|joined|left|met|flew|got back|came back|returned|arrived)\b|去了|到了|回了|见了",
    re.I,
)
# Right after a date, 来了/办了 also count (12月20号来了上海); before it they may tell a step done
# ahead of what the date plans (办了签证12月20号出发).
_ZH_PAST_VERB_AFTER = re.compile(r"[^，。；！？]{0,6}?(?:去了|到了|回了|见了|来了|办了)")

# A meeting's own past ("was", "held", 开过), never 了 or 过 alone: 定了/约了 schedule one ahead.
_PAST_EVENT = {
    "en": re.compile(
        rf"\b(?:{_EN_PAST_TIME}|was|were|had|met|held|went|happened|took place|"
        r"thanks for (?:meeting|the call|coming)|following up on|remember|no-showed|"
        r"(?:following|after) (?:our|the|your|my) [\w -]{1,30}? on)\b",  # "Following our interview on Friday"
        re.I,
    ),
    "zh": re.compile(rf"{_ZH_PAST_TIME}|开过|开完|原定|纪要"),
}


# -- the readings ------------------------------------------------------------------------------


def is_past(clause: str, lang: Lang) -> bool:
    """Return True when ``clause`` is told in the past: a past time, a past verb, 了 or 过.

    "I visited Paris last week" → True, "we were in Rome" → True, "I'm going to Paris" → False;
    去年去过成都 → True, 我们已经搬家 → True, 打算下个月去成都 → False, 要搬去深圳了 → False. Any other
    了 counts (吃了吗 too):
    callers pass one clause, the one their cue is in.
    """
    if lang == "zh":
        clause = _ZH_SPENT_THERE.sub("", clause)  # 去三亚过 (生日): spent there, not been there
        clause = _ZH_SCHEDULED.sub("", clause)  # 约了去重庆玩: a trip arranged, still to come
    if lang == "zh" and _ZH_ABOUT_TO.search(clause) and not _ZH_PAST.search(_ZH_ABOUT_TO.sub("", clause)):
        return False  # 我们家要搬去深圳了: 要…了 is what is about to happen
    return bool((_EN_PAST if lang == "en" else _ZH_PAST).search(clause))


_ZH_ABOUT_TO = re.compile(r"(?:就|快)?要[\u4e00-\u9fff]{1,6}?了")
_ZH_SPENT_THERE = re.compile(r"(?<=去)[^，。；过]{1,8}过(?=[，。！？；]|$)")
_ZH_SCHEDULED = re.compile(r"(?:约了|约好了?|定了|订了|说好了?)(?=(?:一起)?去)")


def past_on_date(before: str, after: str = "") -> bool:
    """Return True when a past verb of going, meeting or joining tells what happened on a date.

    ``before`` is the text of the date's clause before it, ``after`` the sentence from the end of
    the date on. The verb is either before the date ("I went to Tokyo on December 20th", "she
    joined on March 3", 去了北京3月5号) or, in Chinese, within six characters after it, in its
    clause (12月20号去了东京, 3月5号我们办了手续). Either language is read in both strings.
    "The deadline was set to December 20th" → False ("was" decides nothing about the date),
    12月20号要去东京 → False, 12月20号，我们去了东京 → False (another clause).
    """
    return bool(_PAST_VERB.search(before) or _ZH_PAST_VERB_AFTER.match(after))


def past_event(clause: str, lang: Lang) -> bool:
    """Return True when ``clause`` tells a meeting or a deadline that has already taken place.

    "Our kickoff was on Jan 15" → True, "thanks for meeting on Monday" → True, "the review is
    on Jan 15" → False; 上次的会是1月15号 → True, 原定3月1号交付 → True, 会议定在了1月15号 → False
    (了 alone sets a date, it does not say the meeting was held).
    """
    return bool(_PAST_EVENT[lang].search(clause))
