"""English fact patterns of ages and birthdays: "I was born on May 3", "Luis turned 18 yesterday!", "she's 2 and
a bit shy", "my nephew Oscar is 5 today", "my dad turns 70 next Saturday" (a part of the English table,
``engram.ingest.patterns_en``, where its birthdays and ages were; birthdays said by their day are read by
``engram.ingest.birthdays``).

Ordered as that table is; see ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import EN_DATE, EN_PERSON_NAME, Pattern, pattern

en = partial(pattern, "en")

_AGE_SAID = "|".join(
    f"{said} {then}"
    for said in ("'m", "am", "im", "'s", "is")
    for then in (*"123456789", "only", "just", "almost", "nearly")
)
"""An age said bare is a number right after "'m", "am", "'s" or "is" (or "nearly", "only"…): the trigger
words of its patterns, so that the sentences with " is " but no number after it are not tried."""
EN_AGE_PATTERNS: tuple[Pattern, ...] = (
    en("BIRTHDAY", rf"\bbirthday(?:'s| is)\s(?:on\s)?(?:the\s)?{EN_DATE}", kind="birthday", trigger="birthday"),
    en("BIRTHDAY", rf"\b(?:I was|was|were) born on {EN_DATE}", kind="birthday", trigger="born on"),
    # "Aino was born on Oct 22": a newborn named first, whose name no list may know
    en("BIRTHDAY", rf"^(?P<subj>{EN_PERSON_NAME}) was born on {EN_DATE}", kind="birthday", subject="group",
       subject_type="person", trigger="born on"),
    en("AGE", r"\b(?:I'm|I am|is|turned|turning|she's|he's)\s(?P<obj>\d{1,3})(?: years old|yo\b| this year|"
       r" now)", kind="number", trigger="i'm|i am| is |turned|turning|she's|he's"),
    # "Luis turned 18 yesterday!": a birthday had (not "turned 5% lower", "turned 3 pages")
    en("AGE", r"\bturned\s(?P<obj>\d{1,3})\b(?!\s*(?:%|percent|degrees|pages|minutes|hours|times|points|dollars|"
       r"bucks|k\b|grand|[a-z]+s\b(?<!years\b)))", 0.8, kind="number", trigger="turned"),
    # "He's turning 40", "My dad's 72 and still plays tennis": an age said with no "years old"
    en("AGE", rf"\b(?:he|she|I|{EN_PERSON_NAME})(?:'s|'m| is| am) turning\s(?P<obj>\d{{1,3}})\b(?!\s*(?:%|percent))",
       0.8, kind="number", trigger="turning"),
    # "she's 2 and a bit shy", "im 29 btw", "he's 5.": an age said bare, closed by the clause (not "he's 5 minutes away")
    en("AGE", r"\b(?:I'm|I am|im|she's|he's|she is|he is)\s(?:only\s|just\s|almost\s|nearly\s)?(?P<obj>\d{1,2})"
       r"(?=\s*(?:[.!,;)–—]|$)|\s+(?:and|today|now|already|but|btw|lol)\b)", 0.75, kind="number",
       trigger=_AGE_SAID),
    # "my nephew Oscar is 5 today", "Grandpa is 92 today!", "my dad turns 70 next Saturday", "is turning 90", "my
    # grandma in Kyiv turns 90"
    en("AGE", r"\b(?:(?:(?-i:[A-Z][a-z]+)|son|daughter|kid|boy|girl|dad|mom|mum|father|mother|grandma|grandpa|granny|"
       r"nephew|niece|brother|sister|husband|wife|baby)(?:\sin\s(?-i:[A-Z])[\w'’-]+)?\s(?:is|turns|is turning)|"
       r"'s turning)\s(?P<obj>\d{1,3})"
       r"(?=\s+(?:today|now|this week|tomorrow|next|on|in|and)\b|\s*[!.]|$)", 0.75, kind="number",
       trigger=f"{_AGE_SAID}|turns|turning"),
    en("AGE", r"\b(?:dad|mom|father|mother|grandma|grandpa|son|daughter|husband|wife|brother|sister)'s\s(?P<obj>\d{1,3})"
       r"(?=\s+and\s+(?:still|has|is|lives|loves|plays|goes)\b|\s+now\b)", 0.8, kind="number", trigger="'s"),
)  # fmt: skip
