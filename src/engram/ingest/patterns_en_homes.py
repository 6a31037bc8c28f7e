"""Fact patterns of where people live and come from, in English: homes bought, rented, found or kept, how long
one has lived somewhere, a move given up, a relative placed by their town ("my grandma in Kyiv"), where one was
born and grew up. Moves ("moved to", "relocating from … to") and headquarters stay in ``engram.ingest.patterns_en``,
beside the jobs that also "move"; the Chinese ones are in ``engram.ingest.patterns_zh_homes``.

The table is spliced into ``engram.ingest.patterns_en`` where these patterns were; see
``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import EN_CAPS, EN_OBJ, EN_ROLE, Pattern, pattern
from engram.ingest.relatives import KIN_EN

en = partial(pattern, "en")

_WORK_KIN = frozenset(
    {"boss", "manager", "supervisor", "coworker", "colleague", "teammate", "mentor", "coach"}
)
_KIN_ONE = "|".join(
    sorted((word for word in KIN_EN if word not in _WORK_KIN and " " not in word), key=len, reverse=True)
)
"""One relative or someone close by their kind ("grandma", "sister-in-law", "roommate"); not someone known from
work, whose town may be only where they work."""
_YEARS = (
    r"(?:(?:about|almost|over|nearly|more than) )?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|many|"
    r"several|a few|a couple of) (?:years|decades|months)\b"
)
"""How long one has lived somewhere ("8 years", "almost ten years")."""
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|"
    r"jun|jul|aug|sept|sep|oct|nov|dec)\b"
)
"""A month, which a birth is dated by ("born in March"), not a town ("Marseille")."""

EN_HOME_PATTERNS: tuple[Pattern, ...] = (
    # "We finally bought a house in Cary!": a home of one's own
    en("LIVES_IN", rf"\b(?:bought|buying|closed on|purchased|signed the lease on|signed a lease on|rented|renting|moved into|"
       rf"found|got|moved to|moving to|moving into|move to|move into) "
       rf"(?:a|an|our|the|my|their) (?:(?!in\b)[\w-]+ ){{0,4}}?(?:house|home|condo|"
       rf"townhouse|apartment|flat|place|studio) (?:(?!in\b)[\w-]+ ){{0,3}}?in {EN_OBJ}", 0.75, require_mention=True,
       object_type="place", strict=True, supposable=True,
       trigger="bought|buying|closed on|purchased|lease|rent|moved into|found|got|moved to|moving|move"),
    # "New place is in Bristol": a new home
    en("LIVES_IN", rf"\b(?:(?:our|my|the) )?new (?:place|flat|apartment|house|home) is in {EN_OBJ}", 0.75,
       require_mention=True, object_type="place", strict=True, trigger="new"),
    # "Based in Leicester", "I'm based out of Austin": where one lives and works from
    en("LIVES_IN", rf"(?:^|(?<=[.!;]\s)|\b(?:I'm|I am|we're|we are|is|are)\s(?:now\s|currently\s)?)based (?:in|out of) {EN_OBJ}", 0.75,
       require_mention=True, object_type="place", trigger="based"),
    # "my sister Deepa is a dentist in Chennai", "she's a nurse in Toronto": one works, so lives, in a town
    en("LIVES_IN", rf"\b(?:is|'s|am|'m|are|'re)\s(?:now\s)?(?:a|an)\s(?:[a-z][\w-]*\s){{0,2}}?{EN_ROLE}\sin\s"
       rf"(?=(?-i:[A-Z])){EN_OBJ}(?![\w'’-]*\s(?:for|on|at)\s(?:a|an|the)\b)", 0.7, require_mention=True, strict=True,
       object_type="place", trigger="in"),
    # "Moved out of Brooklyn last month, we're in Jersey City now": settled, not a trip
    en("LIVES_IN", rf"\b(?:we're|we are|I'm|I am) (?:now |finally |officially )?in {EN_OBJ}(?=,?\s(?:now|for good)\b)", 0.75,
       require_mention=True, object_type="place", trigger="we're|we are|i'm|i am"),
    en("LIVES_IN", rf"\b(?:live|lives|(?<!a )living|reside|resides|residing|based|settled|'ve lived|have lived|"
       rf"has lived)\s(?:now\s|currently\s|right now\s)?(?:in|at|near) {EN_OBJ}", require_mention=True,
       trigger="live|living|reside|based|settled|lived"),
    # "he's lived in the same house in Savannah since 1961", "have been renting in Manchester since 2019",
    # "We've been in Austin for three years": a home of some time, its length said
    en("LIVES_IN", rf"(?:\b(?:'s|'ve|has|have) |(?:^|(?<=[.!?,;]\s)|\bbut )(?=been ))(?:lived|been living|been renting|"
       rf"been) (?:(?:in|at) (?:the same|a|an|the|our|his|her|their|my) [\w' ]{{1,25}}? )?in (?P<obj>{EN_CAPS})"
       rf"(?= since\b| (?:for )?{_YEARS})", 0.8, require_mention=True,
       object_type="place", strict=True, whole=True, trigger="lived|living|renting|been in"),
    # "in Tucson, where he's lived since 1998": the place said before "where"
    en("LIVES_IN", rf"\b(?:in|to) (?P<obj>{EN_CAPS}),? where (?:he|she|they|I|we)(?:'s|'ve| has| have) (?:lived|been living)\b",
       0.8, require_mention=True, object_type="place", strict=True, whole=True, trigger="where"),
    en("LIVES_IN", rf"\b(?:keeping|kept|keep) (?:the|our|my) (?:apartment|house|flat|place|condo|home) in (?P<obj>{EN_CAPS})",
       0.75, require_mention=True, object_type="place", strict=True, whole=True, trigger="keep"),
    # "we're renting in Oslo now": a home rented
    en("LIVES_IN", rf"\b(?:we're|we are|I'm|I am|is|are|'s|'re) (?:now |currently |still )?renting (?:a (?:place|flat|room|"
       rf"house|apartment) )?in (?P<obj>{EN_CAPS})(?![\w&.'’-]*\s(?:for|till|until)\b)", 0.75, require_mention=True,
       object_type="place", strict=True, whole=True, trigger="renting"),
    # "New flat in Thessaloniki", "found a room in Leuven", "moved in with Priya, her place in Clapham": a new home
    # (not "looking for a new place in Bristol")
    en("LIVES_IN", rf"(?:^|(?<=[.!?]\s)|\b(?:our|my|(?<!for )(?<!find )a)\s)new (?:place|flat|apartment|house|home|room|studio|condo) in "
       rf"(?P<obj>{EN_CAPS})", 0.75, require_mention=True, object_type="place", strict=True, whole=True, trigger="new"),
    en("LIVES_IN", rf"\b(?:found|rented|renting|got) (?:a|my|our) (?:room|studio|flatshare) in (?P<obj>{EN_CAPS})", 0.75,
       require_mention=True, object_type="place", strict=True, whole=True, trigger="room|studio|flatshare"),
    en("LIVES_IN", rf"\bmov(?:ed|ing) in (?:with|together)\b[^.!?]*?\b(?:his|her|their|our) (?:place|flat|apartment|house)"
       rf" in (?P<obj>{EN_CAPS})", 0.75, require_mention=True, object_type="place", strict=True, whole=True,
       trigger="moved in|moving in"),
    # "staying in Cardiff after all", "won't move after all, staying in Cardiff": a move given up keeps the home
    # (not "staying in Rome for three nights")
    en("LIVES_IN", rf"\bstaying (?:put )?in (?P<obj>{EN_CAPS})(?= after all\b| for good\b)", 0.75,
       require_mention=True, object_type="place", strict=True, whole=True, trigger="staying"),
    en("LIVES_IN", rf"\b(?:won't|will not|not|aren't|isn't|didn't|never) (?:be )?(?:mov(?:e|ing)|relocat(?:e|ing))\b"
       rf"[^.!?]*?\bstaying (?:put )?in (?P<obj>{EN_CAPS})", 0.75, require_mention=True, object_type="place",
       strict=True, whole=True, negatable=False, trigger="staying"),
    # "my grandma in Kyiv turns 90", "to see my nonna in Catania", "visited my parents in Zagreb": a relative
    # placed by their town (not "met my wife in Paris", "my brother in Rome for the weekend"; after a visit or a
    # call, a time is the visit's: "visiting my sister in Vancouver over Christmas")
    *(
        en("LIVES_IN", rf"{before}(?P<subj>(?:my|our) (?:{_KIN_ONE}|parents)) in (?P<obj>{EN_CAPS}){after}", 0.75,
           subject="group", subject_type="person", require_mention=True, object_type="place", strict=True,
           whole=True, negatable=False, introduces=True, trigger="my |our ")
        for before, after in (
            (r"(?:^|(?<=[.!?]\s))", r"(?![\w'’-]*\s(?:for|over|on (?:a|an|the|holiday|vacation|business))\b)"),
            (r"\b(?:see|seeing|saw|seen|visit|visits|visiting|visited|call|calls|called|calling|facetimed|phoned|miss|"
             r"missing|from|for|(?:staying|stay|stayed|living|live|moving back in|moving in|moved back in|moved in) "
             r"with|(?:talked|spoke|speaking|talking|went|going|drove|driving|flew|flying) to) ", ""),
        )
    ),
    # "Born in Leeds, grew up in Hull, now in Glasgow": where one lives, after where one comes from
    en("LIVES_IN", rf"\b(?:grew up|raised|born)\b[^.!?]*?,\s(?:and\s|but\s)?(?:now|currently)\s(?:(?:living|based)\s)?"
       rf"in (?P<obj>{EN_CAPS})", 0.75, require_mention=True, object_type="place", strict=True, whole=True,
       trigger="grew up|raised|born"),
    en("COMES_FROM", rf"\b(?:I'm|I am|is|am|are|come|comes|came)\s(?:originally\s)?from {EN_OBJ}", 0.85,
       require_mention=True, trigger="from"),
    en("COMES_FROM", rf"\b(?:grew up|was born|were born|born|raised) (?:in|on) (?!{_MONTH}){EN_OBJ}", 0.85,
       require_mention=True, trigger="grew up|born|raised"),
)  # fmt: skip
