"""English fact patterns of the builtin extractor: personal and business memory, conversational text.

Ordered: a more specific pattern comes before a general one, since the first pattern whose
object span is taken wins (``engram.ingest.builtin``). See ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import (
    EN_A_DAY,
    EN_AMOUNT,
    EN_BREEDS,
    EN_CAPS,
    EN_CREATION,
    EN_EVENT,
    EN_GROUP,
    EN_HOBBY,
    EN_HQ_MOVED,
    EN_NAMES,
    EN_OBJ,
    EN_PERSON_NAME,
    EN_PET,
    EN_PET_WORDS,
    EN_ROLE,
    EN_TRIP_PRAISED,
    Pattern,
    pattern,
)
from engram.ingest.patterns_couples import EN_COUPLE_PATTERNS
from engram.ingest.patterns_en_ages import EN_AGE_PATTERNS
from engram.ingest.patterns_en_chat import EN_CHAT_PATTERNS
from engram.ingest.patterns_en_deals import EN_DEAL_PATTERNS
from engram.ingest.patterns_en_homes import EN_HOME_PATTERNS
from engram.ingest.patterns_en_work import EN_WORK_PATTERNS
from engram.ingest.patterns_en_work import KIN as _KIN

en = partial(pattern, "en")

_HABIT_NOUN = r"(?!the\b|a\b|an\b|my\b|your\b|our\b|it\b|this\b|that\b)[a-z][\w-]*(?:\s(?!for\b|ever\b|and\b|as\b|now\b)[a-z][\w-]*){0,2}?"
"""What one eats, drinks, smokes or does by habit: up to three lower-case words ("soda", "shrimp tacos")."""
_DRINKS = (
    r"(?:sparkling water|water|decaf|tea|green tea|herbal tea|black coffee|coffee|oat milk|almond milk|soy milk|"
    r"kombucha|seltzer|mocktails|non-alcoholic beer|nicotine gum|nicotine patches|vaping|e-cigarettes)"
)
"""A drink or a substitute one switches to (not "switched to the night shift")."""

_NAME_WORD = (
    r"(?-i:(?!(?:Our|My|The|This|That|Your|His|Her|Their|Its|It|What|Which|Who|When|And|But|So|Yeah|Yes|Oh|Wow|"
    r"Just|Also|Really|Now|Then|Here|There|Thanks|Thank|Haha|Lol|Well|Maybe|Totally|Definitely)\b)[A-Z][a-z]+)"
)
_I = rf"(?:I|I'm|I've|I'd|I'll|we|we're|we've|he|she|they|{_NAME_WORD}|{_KIN})"
_ADV = r"(?:really |also |just |still |totally |actually |absolutely |so |truly |honestly |kinda |kind of |"
_ADV += r"genuinely |definitely |do |does |did |always |especially |particularly |now |even |mostly )*"
_NOT_PLANNED = (
    r"(?!it\b|that\b|this\b|you\b|what\b|how\b|about\b|a lot\b|see\b|hear\b|be\b|have\b|get it\b|"
    r"check\b|catch up\b|chat\b|talk\b|hang out\b|meet you\b|tell\b|share\b|show\b|think\b|try\b|"
    r"learn more\b|find out\b|know\b|read\b|watch it\b|work hard\b|do (?:my|our) best\b|give it (?:my|our) all\b)"
)
"""What a plan or goal is not: chatting, seeing you, pronouns, trying hard."""
_NOT_LIKED = (
    r"(?!to\b|it\b|that\b|this\b|you\b|your\b|them\b|him\b|her\b|how\b|the way\b|when\b|what\b|seeing\b|hearing\b|"
    r"being\b|having\b|their\b|his\b|its\b|the idea\b|the fact\b|the sound\b|the thought\b|the look\b|the vibe\b|those\b|these\b|"
    r"all\b|each\b|every\b|everyone\b|everything\b|one\b|ya\b|u\b|this idea\b|that idea\b|the support\b|"
    r"the positive\b|the energy\b|the way\b|the feeling\b|the connection\b|the freedom\b|the rush\b|the challenge\b|"
    r"the confidence\b|the attitude\b|the enthusiasm\b|"
    r"helping you\b|that you\b|it when\b|the sound of\b|hanging out with you\b|our\b)"
)
_PLACE_OBJ = r"(?P<obj>(?:(?:a|an|the|some|this|that|my|our)\s)?(?:[\w'’-]+\s){0,4}?" + EN_CAPS + r")"
_MODIFIERS = (
    r"(?:(?!(?:since|when|while|that|which|and|but|the|a|an|my|our|to|for|with|at|in|on|of|it|is|was|so|"
    r"really|very|what|who|this|there)\b)[\w+'’-]+\s){0,4}?"
)
"""Words before an event's head noun ("regional video game" tournament), no function words."""
_NEG = r"(?:(?:don't|do not|doesn't|does not|didn't|did not|never|no longer|dont)\s(?:really\s)?)?"
_SWITCH = (
    r"(?<!tried )(?<!trying )(?<!not to )(?<!n't )(?<!never )(?<!not )\b(?:switched|"
    r"(?<!I'm )(?<!I am )(?<!\bI )(?<!I've )(?:moved|moves|moving)|migrated|changed|converted|"
    r"switching|migrating|switch|switches|migrate) (?:us |away |over |all |the team |everyone |the company |"
    r"(?!to\b|from\b|teams\b|shifts?\b|schools?\b|classes\b|departments?\b|jobs?\b)"
    r"(?!(?:[\w-]+\s){0,2}(?:offices?|HQ|headquarters|warehouse|homes?|house|apartment|family)\b)"
    r"(?:[\w-]+\s){1,3}?(?=from\b))?"
)
"""A change of tools ("switched from", "moving standups from"), not of teams, shifts, schools or jobs,
nor a move of premises ("moving our office from Dublin to Sandyford"), nor the speaker's own move ("I'm
moving from Customer Success to Product")."""
_TEAMS = (
    r"(?-i:Product|Engineering|Sales|Marketing|Customer Success|Support|Finance|Legal|Design|Ops|Operations|HR|"
    r"Growth|Platform|Payments|Data|Security|QA|Research|Partnerships|Procurement)"
)
"""Teams one moves between ("I'm moving from Customer Success to Product"): no town."""
_UNITS = r"(?:territory|region|queue|group|team|squad|division)"
"""What one moves to inside a firm ("the Tier 2 queue", "the Nordics territory"): no town, no tool."""
_NOT_A_TOOL = (
    rf"(?!(?:the\s)?(?:[\w'’-]+\s){{0,3}}(?:Elementary|Middle|High|School|Academy|University|College|{_UNITS})\b)"
    rf"(?!{_TEAMS}\b)"
)
_NOT_OURS_MOVING = (
    r"(?<!company is )(?<!company's )(?<!office is )(?<!team is )(?<!HQ is )(?<!thinking of )(?<!thinking about )"
    r"(?<!considering )"
)
"""A home moved, not an office or a team, nor a move only thought of."""
_KEPT = r"(?![^.;!?]*\b(?:rolled back|reverted|went back|switched back)\b)"
"""Not a change undone in the same sentence ("tried moving to Teams but rolled back")."""
_LIST_OBJ = r"(?P<obj>(?:(?!,?\s(?:but|because|although|though|while|whereas)\s)[^.!?;:()\n\"“”]){1,100})"
"""An object that may be a list ("reading, watching movies, and exploring nature")."""
_RESPONSIBILITY = (
    r"(?:decision|flow|feature|migration|rollout|project|launch|integration|relationship|account|process|roadmap|"
    r"pipeline|workflow|strategy|initiative|backlog|spec|budget|deal|renewal|contract|stuff|tickets)"
)
"""What one owns as a task, not as a possession ("owns the vendor decision")."""
_WRITER_NOW = "|".join(
    rf"(?<=\b{who}\s{now})"
    for who in ("I'm", "I am", "we're", "we are")
    for now in ("", r"currently\s", r"also\s")
)
"""Right before a verb: the writer says it of themselves, now ("I'm currently planning …")."""
_FUTURE = r"(?=[^.!?]*\b(?:next|coming up|tomorrow|this (?:weekend|summer|fall|winter|spring|month|year)|soon|later)\b)"

EN_PATTERNS: tuple[Pattern, ...] = (
    # ── where people live, come from and work from ──────────────────────────────────────
    en("WORKS_FROM", rf"\bmoved to (?:the |their |our |a |his |her )?(?P<obj>{EN_CAPS}) office\b", 0.8,
       kind="entity", object_type="place", trigger="office"),
    en("WORKS_FROM", r"\b(?:work(?:s|ing)?(?: remotely)?|and) from (?:the |our |their |my |a |his |her )?"
       r"(?P<obj>home|(?-i:[A-Z])[\w-]*(?: (?-i:[A-Z])[\w-]*)* office|the office|office|a caf[eé]|coffee shops?)",
       0.8, kind="value", trigger="from home|office|from a caf|coffee shop"),
    en("WORKS_FROM", rf"\bbased (?:in|at|out of) (?:the |our |their |a )?(?P<obj>{EN_CAPS} office)\b", 0.8,
       kind="value", trigger="based"),
    # "a pilot for Delta now, based out of Atlanta", "relocating to the Austin office", "fully remote"
    en("WORKS_FROM", rf"(?:,\s|\b(?:I'm|I am|he's|she's|he is|she is|(?-i:[A-Z][a-z]+) is)\s(?:now\s)?)based out of (?P<obj>{EN_CAPS})(?=\s*[,.;!?)]|\s(?:and|but|with|since|now)\b|$)", 0.75,
       require_mention=True, strict=True, object_type="place", trigger="based out of"),
    en("WORKS_FROM", rf"(?<!team is )(?<!team's )(?<!company is )(?<!we're )(?<!we are )(?<!turned down )"
       rf"(?<!declined )(?<!refused )(?<!considering )(?<!thinking about )(?<!about )"
       rf"\b(?:relocating|relocated|transferring|transferred|moving|moved) to (?:the |our |their )?"
       rf"(?P<obj>{EN_CAPS} (?:office|branch|plant|site|hub|HQ|headquarters))\b", 0.8, kind="value", supposable=True,
       trigger="relocat|transferr|moving|moved"),
    en("WORKS_FROM", r"(?:,\s|\b(?:I'm|I am|he's|she's|he is|she is|they're|(?-i:[A-Z][a-z]+) is)\s"
       r"(?:staying\s|still\s|now\s|going\s)?)(?:fully\s|100%\s)?(?P<obj>remote)(?=\s*[,.;!?]|$)", 0.75, kind="value",
       supposable=True,
       trigger="remote"),  # not "Working remote is overrated", "the company went remote"
    en("MOVED_FROM", rf"\b(?:moved|relocated) (?:away )?(?:from|out of) (?![^.;!?]*\bas (?:a |an |the |their |our )?(?:new )?{EN_ROLE}\b)"
       rf"{EN_OBJ}", 0.85, require_mention=True),  # not "from Bluefin to Orion Shipping as VP": a job
    # "Moving from Jersey City on the 1st", "moving out of our Astoria apartment at the end of the month":
    # lived there until then (with a "to", the place moved to says it)
    en("LIVES_IN", rf"\b(?:moving|relocating) (?:away )?(?:from|out of) (?:our |my |the )?(?![^.;!?]*\b(?:to|as)\b)"
       rf"{EN_OBJ}", 0.8, require_mention=True, object_type="place", strict=True, supposable=True, ends=True,
       negatable=False, trigger="moving|relocating"),
    # "Brightwater Hotels moved their HQ from Chicago to Nashville": where an organisation is
    en("MOVED_FROM", rf"{EN_HQ_MOVED}from {EN_OBJ}(?= to )", 0.85, subject="group", subject_type="organisation",
       require_mention=True, object_type="place", trigger="moved"),
    en("LIVES_IN", rf"{EN_HQ_MOVED}(?:from [^,.;]+? )?to {EN_OBJ}", 0.85, subject="group", subject_type="organisation",
       require_mention=True, object_type="place", trigger="moved"),
    # "at their Austin HQ", "HQ stays in London", "headquartered in Denver": where the organisation talked
    # about is
    en("LIVES_IN", rf"\b(?:their|its) (?P<obj>{EN_CAPS}) (?:HQ|headquarters|head office)\b", 0.75, subject="topic",
       named_topic=True, require_mention=True, object_type="place", strict=True, whole=True, introduces=True,
       trigger="hq|headquarters|head office"),
    en("LIVES_IN", rf"\b(?:HQ|headquarters|head office) (?:is|stays|remains|will stay|will remain|are) (?:still )?in "
       rf"(?P<obj>{EN_CAPS})", 0.75, subject="topic", named_topic=True, require_mention=True, object_type="place",
       strict=True, whole=True, trigger="hq|headquarters|head office"),
    en("LIVES_IN", rf"(?<!was )(?<!were )(?<!be )\bheadquartered in (?P<obj>{EN_CAPS})(?! until\b)", 0.75,
       subject="topic", named_topic=True, require_mention=True, object_type="place", strict=True, whole=True,
       supposable=True, trigger="headquartered"),
    # "he moved to Globex as head of sales": a job, not a home
    en("WORKS_AT", rf"\bmoved (?:over )?(?:from {EN_CAPS} )?to (?P<obj>{EN_CAPS}) as (?:a |an |the |their |our )?"
       rf"{EN_ROLE}\b", 0.8, require_mention=True, object_type="organisation", negatable=False, trigger="moved"),
    # "Carol Diaz moved from Bluefin to Orion Shipping as VP Operations": the employer left
    en("LEFT_ORGANISATION", rf"\bmoved (?:over )?from (?P<obj>{EN_CAPS}) to {EN_CAPS} as (?:a |an |the |their |our )?"
       rf"(?:new )?{EN_ROLE}\b", 0.8, require_mention=True, object_type="organisation", negatable=False,
       trigger="moved"),
    en("WORKS_AT", rf"\bmoved (?:over )?from {EN_CAPS} to (?P<obj>{EN_CAPS}) as (?:a |an |the |their |our )?"
       rf"(?:new )?{EN_ROLE}\b", 0.8, require_mention=True, object_type="organisation", trigger="moved"),
    en("LIVES_IN", rf"\bmoved (?:back |over |here |down |up )?to "
       rf"(?!{EN_CAPS} as (?:a |an |the |their |our )?(?:new )?{EN_ROLE}\b){EN_OBJ}", 0.8, require_mention=True,
       object_type="place"),
    en("LIVES_IN", rf"\b(?:moving|relocating|will move|will relocate|'ll move|gonna move|going to move) "
       rf"(?:back |over |here |down |up )?to (?!(?:the |our |their |its )?{EN_CAPS}(?: [\w-]+){{0,3}} (?:office|branch|"
       rf"site|campus|HQ|headquarters|department|unit|org|pod|{_UNITS})\b)"
       rf"(?!{_TEAMS}\b){EN_OBJ}",
       0.75, require_mention=True, object_type="place", supposable=True, trigger="moving|relocating|move"),  # "Jen's moving back to Chicago next month": from then on
    en("LIVES_IN", rf"\bmoved (?:away )?from (?!{EN_A_DAY})(?:[\w,'’-]+\s){{1,4}}?to {EN_OBJ}", 0.8, require_mention=True,
       object_type="place", strict=True, trigger="moved"),  # not "moved from Thursday to Friday 2pm CET"
    en("LIVES_IN", rf"{_NOT_OURS_MOVING}\b(?:moving|relocating|will move|'ll move|gonna move|going to move) (?:away )?from "
       rf"(?!{_TEAMS}\b)(?:[\w,'’-]+\s){{1,4}}?to (?!{_TEAMS}\b){EN_OBJ}", 0.75, require_mention=True, object_type="place", supposable=True,
       strict=True, trigger="moving|relocating|move"),  # "We're moving from Portland to Austin in March", not
    # "from Asana to Linear" (a tool)
    *EN_HOME_PATTERNS,
    *EN_WORK_PATTERNS,
    *EN_DEAL_PATTERNS,
    # ── tastes and habits ────────────────────────────────────────────────────────────────
    en("PREFERS", rf"\b(?:my|his|her|our|their|(?-i:[A-Za-z]+)['’]s) (?:all-time |absolute |current |new |very )?(?:fav|fave|favou?rite)"
       rf"(?:\s[\w-]+){{0,3}}?\s(?:is|are|was|has to be|would be)\s(?:probably\s|definitely\s|still\s)?{EN_OBJ}",
       0.85, kind="value", trigger="fav"),
    en("PREFERS", r"(?:^|,\s(?:but\s|and\s|so\s)?|\bbut\s)(?P<obj>[\w' -]{3,40}?)\s(?:is|are|'s)\s(?:definitely\s|"
       r"still\s|"
       r"probably\s)?(?:one of\s)?my\s(?:all-time\s|absolute\s)?(?:fav|fave|favou?rite|top pick|go-to)s?\b",
       0.8, kind="value", subject="speaker", trigger="fav|top pick|go-to"),
    en("PREFERS", rf"\bprefer(?:s|red)?\s(?!to\b){EN_OBJ}", kind="value"),
    en("INTERESTED_IN", rf"\bmy (?:main |favou?rite |new |current )?hobb(?:y|ies) (?:is|are|include|"
       rf"includes)\s{EN_OBJ}", 0.85, kind="value", split=True, trigger="hobb"),
    en("INTERESTED_IN", r"(?:^|,\s)(?P<obj>[\w' -]{3,60}?)\s(?:is|are)\s(?:one of\s)?my\s(?:main\s|"
       r"favou?rite\s|biggest\s)?(?:hobby|hobbies|passion|passions)\b", 0.85, kind="value", split=True,
       subject="speaker", trigger="hobb|passion"),
    en("INTERESTED_IN", rf"\b(?:I've been|I'm|I am|been|started)\s(?:\w+\s)?looking into\s(?!it\b|that\b|this\b){_LIST_OBJ}",
       0.75, kind="value", split=True, trigger="looking into"),
    en("LIKES", rf"\bmy love (?:of|for)\s(?!it\b|that\b|this\b|you\b|the project\b){_LIST_OBJ}", 0.8, kind="value",
       split=True, trigger="my love"),
    en("LIKES", r"(?:^|,\s|\band\s|\bbut\s|\bso\s)(?P<obj>[\w' -]{3,40}?)\s(?:has been|is|'s been|has always been)"
       r"\s(?:a\s|such a\s)?(?:big\s|huge\s|major\s|important\s)?part of my life\b", 0.8, kind="value",
       subject="speaker", trigger="part of my life"),
    en("INTERESTED_IN", rf"\b(?:passionate about|keen on|interested in|curious about|fascinated by)\s"
       rf"(?!it\b|that\b|this\b|you\b|your\b|what\b|how\b|hearing\b|learning more\b){_LIST_OBJ}", 0.8,
       kind="value", split=True, trigger="passionate about|keen on|interested in|curious about|fascinated by"),
    en("LIKES", r"(?:^|,\s|\band\s|\bbut\s|\bso\s)(?P<obj>[\w' -]{3,40}?)(?:'s|\sis|\shas been)\s(?:a|an|my|"
       r"such a|really a)\s(?:\w+\s){0,2}?(?:way to (?:relax|unwind|express|de-stress|destress|decompress|"
       r"chill|escape|recharge|get creative|stay|clear)|therapy|(?:chill|me|happy) (?:time|place)|"
       r"passion|escape|outlet|stress reliever)\b", 0.75, kind="value", subject="speaker",
       trigger="way to|therapy|chill time|me time|happy place|passion|escape|outlet|stress reliever"),
    en("LIKES", r"(?:^|,\s|\band\s)(?P<obj>[\w' -]{3,40}?)\sis\s(?:therapy|my therapy) for me\b", 0.75,
       kind="value", subject="speaker", trigger="therapy"),
    en("LIKES", r"(?:^|,\s(?:but\s|and\s|so\s)?|\bbut\s|\band\s)(?P<obj>[\w' -]{3,40}?)\s(?:really\s|always\s)?"
       r"(?:helps|lets) me (?:to\s)?(?:relax|unwind|escape|de-stress|destress|decompress|recharge|chill|feel free|"
       r"clear my head|switch off)\b", 0.7, kind="value", subject="speaker", trigger="helps me|lets me"),
    # not what one "used to hate": that is over ("I used to hate running but now I'm hooked")
    en("DISLIKES", rf"(?<!used to )\b(?:hate|hates|hated|dislike|dislikes|detest|detests|can't stand|cannot stand|can not stand|"
       rf"not (?:really )?a (?:big |huge )?fan of|(?:never been|never was|was never) (?:really )?a (?:big |huge )?fan of|"
       rf"can't bear|loathe)\s(?!it\b|that\b|this\b|you\b|when\b|how\b|to\b)"
       rf"{EN_OBJ}", 0.85, kind="value", negatable=False,
       trigger="hate|dislike|detest|can't stand|cannot stand|can not stand|fan of|"
               "can't bear|loathe"),
    en("DISLIKES", rf"\b(?:don't|do not|never|doesn't|does not)\s(?:drink|eat|smoke|touch)\s"
       rf"(?![^,.;!?]*\b(?:anymore|any more)\b){EN_OBJ}", 0.8, kind="value", negatable=False,
       trigger="drink|eat|smoke|touch"),  # "I don't drink coffee anymore": a habit given up, no dislike
    en("STOPPED_USING", r"\b(?:don't|do not|doesn't|does not)\s(?:drink|eat|smoke)\s"
       r"(?P<obj>[a-z][\w-]*(?:\s[a-z][\w-]*)?)\s(?:anymore|any more)\b", 0.8, kind="value", negatable=False,
       trigger="drink|eat|smoke"),
    en("STOPPED_USING", rf"(?<!can't )(?<!cannot )(?<!couldn't )(?<!won't )(?<!never )(?<!not )(?<!refuse to )"  # "I can't give up cheese"
       rf"\b(?:stopped|quit|gave up|give up|giving up|given up|dropped|dropping|ditched|ditching|cut out|uninstalled|"
       rf"deleted|cancelled my|canceled my)\s(?:using\s|playing\s|drinking\s|eating\s|going to\s|doing\s)?"
       rf"(?!(?:working|firing|responding|syncing|loading|sending|receiving|charging|updating|"
       rf"showing|connecting|functioning)\b)"  # "the webhook stopped firing": a fault, not a habit
       rf"(?!my job\b|it\b|that\b|on\b|the job\b|work\b|there\b|by\b|\d|support\b|coverage\b|after\b|before\b|since\b|"
       rf"(?:my|the|a|her|his|that|this) (?:[\w-]+ )?(?:job|position|role|gig|internship)\b|"  # "quit the bank job"
       rf"(?:my|the|our) (?:account|app)\b|(?:my|the|a|her|his) (?:phone|keys?|wallet|"
       rf"bag|laptop|glasses|cup|mug|ball|kids?|son|daughter|car)\b){EN_OBJ}", 0.85, kind="value",
       negatable=False, trigger="stopped|quit|gave up|give up|giving up|given up|dropped|dropping|ditched|ditching|"
                                "cut out|uninstalled|deleted|cancelled my|canceled my"),
    # "support is moving off Zendesk", "we're not renewing the Tableau add-on": a tool given up
    en("STOPPED_USING", rf"\b(?:moving|moved|migrating|migrated) off (?:of )?(?P<obj>{EN_CAPS})(?=[\s.,;!?]|$)", 0.8,
       require_mention=True, negatable=False, object_type="product", supposable=True,
       trigger="moving off|moved off|migrating off|migrated off"),
    en("STOPPED_USING", rf"\b(?:not renewing|won't renew|will not renew|didn't renew|did not renew|not renew) "
       rf"(?:the |our |my )?(?P<obj>{EN_CAPS})(?=[\s.,;!?]|$)", 0.75, kind="value", negatable=False,
       supposable=True, trigger="renew"),
    # "Expensify will be switched off on June 30": a tool retired; "expense reports go through Ramp": one used
    en("STOPPED_USING", rf"\b(?P<obj>{EN_CAPS}) (?:will be|is being|is|gets|got|was|has been) "
       r"(?:(?:officially|finally|now|fully) )?(?:switched off|turned off|shut down|retired|decommissioned|"
       r"sunset(?:ted)?)\b", 0.8, require_mention=True,
       negatable=False, object_type="product", supposable=True, whole=True,
       trigger="switched off|turned off|shut down|retired|decommissioned|sunset"),
    en("USES", rf"\b(?:go|goes|going|went|run|runs) through (?P<obj>{EN_CAPS})(?<!['’]s)(?=[\s.,;!?]|$)", 0.75,
       require_mention=True, object_type="product", supposable=True, trigger="through"),
    en("USES", rf"\b(?:go|goes|going|went|are|is) live on (?P<obj>{EN_CAPS})(?=[\s.,;!?]|$)", 0.75, require_mention=True,
       object_type="product", trigger="live on"),
    en("STOPPED_USING", rf"\b(?:don't|do not|doesn't|does not)\s(?:really\s)?(?:do|watch|play|eat|drink|use)\s"
       rf"{EN_OBJ}\s(?:anymore|any more)\b", 0.8, kind="value", negatable=False, trigger="anymore|any more"),
    en("STOPPED_USING", r"\b(?:I'm|I am|we're|we are)\s(?:(?:officially|finally|so|totally|completely)\s)?done with "
       r"(?P<obj>dairy|sugar|caffeine|coffee|alcohol|booze|meat|gluten|carbs|soda|smoking|vaping|social media)\b",
       0.75, kind="value", negatable=False, trigger="done with"),  # not "done with lunch", "… with Chapter 3"
    # "Day 20 without vaping", "three months without soda", "no more shrimp tacos for me": a habit given up
    en("STOPPED_USING", rf"(?:^|(?<=[.!?]\s))(?:(?:day|week|month)\s\d+|(?:\d+|one|two|three|four|five|six|seven|"
       rf"eight|nine|ten|a few|several)\s(?:days?|weeks?|months?|years?))\s(?:now\s)?without\s(?:an?\s)?(?P<obj>{_HABIT_NOUN})"
       rf"(?=\s(?:as|now|and|for|since|today|so|already|yet)\b|\s*[^\w\s'’-]|$)", 0.8, kind="value", negatable=False,
       trigger="without"),
    en("STOPPED_USING", rf"\bno more (?!than\b|questions?\b|excuses?\b|of\b|time\b|room\b|need\b)(?P<obj>{_HABIT_NOUN})"
       rf"\sfor (?:me|us)\b", 0.75, kind="value", subject="speaker", negatable=False, trigger="no more"),
    en("STOPPED_USING", rf"\bno more (?!than\b|questions?\b|excuses?\b|of\b|time\b|room\b|need\b)(?P<obj>{_HABIT_NOUN})"
       rf"(?=\s(?:for (?:him|her)|ever|from now on|anymore|any more)\b)", 0.75, kind="value",
       negatable=False, trigger="no more"),
    # "Switched to sparkling water", "I only chew nicotine gum now", "I only have coffee before noon now"
    en("USES", rf"\b(?:switched|switching|moved) (?:over )?to (?P<obj>{_DRINKS})(?![\w-])", 0.75, kind="value",
       supposable=True, trigger="switched|switching|moved"),
    en("USES", rf"\bI (?:only|just|mostly) (?:chew|drink|smoke|vape) (?=[^.!?]*\bnow\b)(?P<obj>{_HABIT_NOUN})"
       rf"(?=\s(?:now|these days|before|after|when|on|at|in|every)\b|\s*[,.;!?]|$)", 0.75, kind="value",
       trigger="only|just|mostly"),
    en("USES", rf"\bI (?:only|just|mostly) (?:have|take) (?=[^.!?]*\bnow\b)(?P<obj>{_DRINKS})(?![\w-])", 0.75,
       kind="value", trigger="only|just|mostly"),  # "I only have coffee before noon now", not "weekends free"
    # "we switch password managers from LastPass to 1Password", "moving standups from Zoom to Google Meet"; not
    # "decided not to switch", "thinking about moving", "tried moving … but rolled back", nor teams, shifts or schools
    en("STOPPED_USING", rf"{_SWITCH}from {_NOT_A_TOOL}{EN_OBJ}{_KEPT}", 0.85, require_mention=True,
       object_type="product", strict=True, supposable=True,
       trigger="switch|moved|moves|migrat|changed|converted|moving"),  # not "from Tacoma to Boise" (places)
    en("USES", rf"{_SWITCH}(?:from {_NOT_A_TOOL}(?:[\w.'’-]+\s){{1,3}}?)?to {_NOT_A_TOOL}{EN_OBJ}{_KEPT}", 0.85,
       require_mention=True, object_type="product", strict=True, supposable=True,
       trigger="switch|moved|moves|migrat|changed|converted|moving"),
    # "They're still on Epic", "she's on Facebook ALL day": a tool one is on
    en("USES", rf"(?:\b(?:they're|they are|we're|we are|I'm|I am|she's|he's|she is|he is)\s|(?:^|(?<=[.!;:]\s))(?=(?-i:[A-Z])))(?:still\s|now\s|currently\s|"
       rf"mostly\s|all\s)?on\s(?P<obj>{EN_CAPS})(?=\s(?:today|now|these days|for|all|ALL|every|but|and|until|since)\b|\s*[,.;!?]|$)", 0.75,
       require_mention=True, object_type="product", trigger=" on "),
    # "We replaced Slack with Teams", "I ditched my Android for an iPhone": one tool for another
    en("STOPPED_USING", r"\breplaced (?:our |my |the |all )?(?P<obj>[^,.;!?]{1,40}?) with ", 0.85, require_mention=True,
       negatable=False, object_type="product", trigger="replaced"),
    # "we're adopting Sentry for error tracking, replacing Rollbar": the one it replaces
    en("STOPPED_USING", rf"(?:^|[,;—-]\s*)replacing (?:our |the )?(?P<obj>{EN_CAPS})(?=\s*(?:[,.;!?]|$))", 0.8,
       kind="entity", object_type="product", negatable=False, supposable=True, trigger="replacing"),
    en("USES", rf"\b(?:replaced [^,.;!?]{{1,40}}? with|(?:ditched|dropped|swapped|traded|gave up) (?:my |our |the )?"
       rf"[^,.;!?]{{1,30}}? for) (?:a |an |the )?{EN_OBJ}", 0.8, require_mention=True,
       trigger="replaced|ditched|dropped|swapped|traded|gave up"),
    en("USES", rf"\b(?:track|manage|plan|write|run|organi[sz]e|handle|keep|do|store|build|edit)\s(?:\w+\s){{0,3}}?"
       rf"(?:in|on|with)\s(?P<obj>{EN_CAPS})(?:\s(?:now|these days|instead))", 0.8, require_mention=True,
       kind="entity", object_type="product", trigger="now|these days|instead"),
    en("USES", rf"\b(?:tracks?|tracking|manages?|managing|plans?|planning|writes?|writing|organi[sz]es?|edits?|"
       rf"editing|stores?|storing|keeps?(?!\s\w+ing\b))\s(?:(?!in\b|on\b|with\b)\w+\s){{1,3}}?(?:in|on|with)\s(?P<obj>{EN_CAPS})"
       rf"(?=[\s.,;!?]|$)", 0.75, kind="entity", object_type="product", require_mention=True,
       trigger="track|manag|plan|writ|organi|edit|stor|keep"),
    en("USES", rf"\b(?P<obj>{EN_CAPS})(?:['’]s| is) (?:now )?(?:our|my) (?:(?:main|primary|go-to|new|only|daily) )?"
       rf"(?:tool|app|platform|CRM|editor)(?=\s*(?:now|these days|for|[,.;!?]|$))", 0.8, kind="entity", subject="speaker",
       object_type="product", trigger="tool|app|platform|crm|editor"),  # "Apollo's our main tool now"
    en("USES", rf"\b(?:use|uses|using|rely on|relies on)\s(?P<obj>{EN_CAPS}(?:(?:,\s|\sand\s|,\sand\s){EN_CAPS}){{1,4}})"
       r"(?![\w-])", 0.8, require_mention=True, split=True, trigger="use|using|rely on|relies on"),  # Jira, Confluence and Slack
    en("USES", rf"\b(?:use|uses|using|rely on|relies on)\s(?!to\b|it\b|that\b){EN_OBJ}", 0.8,
       require_mention=True, trigger="use|using|rely on|relies on"),
    # "We no longer use Trello; everything is in Linear now", "moving support to Intercom": the tool used now
    en("USES", rf"\beverything(?:'s| is) (?:now )?(?:in|on) (?P<obj>{EN_CAPS})", 0.75, require_mention=True,
       object_type="product", trigger="everything"),
    en("USES", rf"\bmoving (?:our |the )?(?:support|tickets|billing|docs|chat|sales|tracking|hosting|email|payroll) "
       rf"(?:over )?to (?P<obj>{EN_CAPS})", 0.75, require_mention=True, object_type="product", trigger="moving"),
    # "I've got a severe wasp sting allergy", "has a nut allergy"
    en("ALLERGIC_TO", r"\b(?:have|has|'ve got|has got|got|with)\s(?:a|an)\s(?:(?:pretty|very|quite|really)\s)?"
       r"(?:(?:severe|mild|bad|slight|serious|life-threatening)\s)?(?!(?:food|severe|mild|bad)\s)"
       r"(?P<obj>[a-z][a-z -]{1,30}?)\s(?:allergy|intolerance)\b", 0.85, kind="value", trigger="allergy|intolerance"),
    en("ALLERGIC_TO", rf"\b(?:allergic|an allergy|allergies|sensitive) to {EN_OBJ}", 0.9, kind="value",
       split=True, trigger="allergic|allergy|allergies|sensitive"),
    en("ALLERGIC_TO", r"\b(?P<obj>lactose|gluten|dairy|fructose|histamine)[- ]intolerant\b", 0.9, kind="value",
       supposable=True, trigger="intolerant"),  # not "I might be lactose intolerant"
    en("DIET", r"(?:\b(?:I'm|I am|we're|we are|I've been|I went|went|gone|became|become|turned|now|been|is|"
       r"(?:gave up|giving up|quit|quitting|stopped) being)\s|"
       r"(?<=[A-Za-z])['’]s\s)(?:(?:not|no longer)\s)?(?:a\s)?"
       r"(?:strict\s|full\s)?(?P<obj>vegetarian|vegan|pescatarian|pescetarian|keto|paleo|plant-based|"
       r"gluten[- ]free|dairy[- ]free|sugar[- ]free|alcohol[- ]free|halal|kosher)(?=\s*(?:[,.;!?(]|$)|\s+(?:and|now|too|"
       r"since|back|for|in|from|after|anymore|because|this|last|already|ever|at|lol|btw)\b)", 0.85, kind="value",
       trigger="vegetarian|vegan|pescatarian|pescetarian|keto|paleo|plant-based|free|halal|kosher"),
    # "im doing keto again", "she's on a low-sugar diet now"; "Vegetarian since I was 12" opening a line
    en("DIET", r"\b(?:doing|on|started|starting)\s(?:the\s|a\s)?(?:strict\s)?(?P<obj>keto|paleo|low[- ]carb|"
       r"low[- ]sugar|low[- ]fodmap|whole30|intermittent fasting|carnivore)(?:\sdiet)?\b"
       r"(?!\s(?:recipes?|cookbook|book|thing|meals?|snacks?)\b)", 0.8, kind="value", supposable=True,
       trigger="keto|paleo|carb|sugar|fodmap|whole30|fasting|carnivore"),
    # "Vegetarian since 2019", "Not vegan anymore": a chat line without its "I'm"
    en("DIET", r"^(?:(?:not|no longer)\s)?(?P<obj>vegetarian|vegan|pescatarian|gluten[- ]free|dairy[- ]free)\s"
       r"(?:since|for|anymore|any more)\b(?![^.!?]*\?)", 0.8,
       kind="value", trigger="vegetarian|vegan|pescatarian|free"),
    # ── things done, made, learnt and joined ─────────────────────────────────────────────
    en("STUDIES", rf"(?<!\bto )\b(?:learning|learnt|learned|studying|studies|study|majoring in|practicing|practising|"
       rf"taking (?:a |an |some )?(?:\w+ )?(?:class|classes|course|courses|lessons) (?:in|on)|"
       rf"signed up for(?: a| an| some)?(?!(?:\s[\w-]+){{1,3}}\s(?:class|classes|lessons|course)\b))\s(?:how to\s|to\s)?(?:the |a |an |some |more )?"
       rf"(?!about\b|it\b|that\b|this\b|a lot\b|so much\b|from\b|more\b|lots\b|what\b|how\b|a thing\b|"
       rf"something\b|the hard way\b|my lesson\b|to\b)(?!(?<=learned )(?:our|their|his|her|today)\b)"  # found out
       rf"(?!(?:my |the |a )?(?:first |next )?(?:[\w-]+ ){{0,2}}(?:marathon|race|"
       rf"5k|10k|half|half-marathon|triathlon|tournament|competition|ride|walk|run)\b){EN_OBJ}", 0.8, kind="value", supposable=True,
       trigger="learn|studying|studies|study|majoring|practic|taking|signed up for"),
    en("STUDIES", r"\btaking (?:some |a few )?(?P<obj>[a-z]+(?: [a-z]+)?) (?:lessons|classes|courses)\b", 0.8,
       kind="value", trigger="taking"),
    en("LIKES", r"\b(?:play|plays|playing)\s(?:the\s)?(?P<obj>piano|guitar|violin|cello|drums|bass|flute|"
       r"saxophone|sax|trumpet|ukulele|harp|clarinet|trombone|viola|keyboard|organ|banjo|harmonica|"
       r"tennis|soccer|football|basketball|baseball|volleyball|golf|chess|badminton|hockey|rugby|"
       r"cricket|table tennis|ping pong|pickleball|poker|board games|video games|the piano)\b", 0.8,
       kind="value", stop="STOPPED_USING", supposable=True, trigger="play"),
    en("MEMBER_OF", rf"\b(?:joined|joining|join|member of|signed up for|part of|belong to)\s(?:(?:a|an|the|my|our|"
       rf"this|another|local)\s)?(?P<obj>(?:[\w'’-]+\s){{0,4}}?{EN_GROUP})\b", 0.8, kind="value",
       trigger="join|member of|signed up for|part of|belong to"),
    en("MEMBER_OF", rf"\b(?:member of|joined) (?![^,.;!?]*\b(?:call|meeting|webinar|session|demo|chat|thread)\b){EN_OBJ}", 0.8,
       require_mention=True,
       trigger="member of|joined"),
    en("ATTENDED", rf"\b(?:got back from|came back from|returned from|back from)\s(?:a|an|the|my|our)\s"
       rf"(?P<obj>(?:[\w+'’-]+\s){{0,4}}?{EN_EVENT})\b", 0.8, kind="value",
       trigger="back from|returned from"),
    en("VISITED", rf"\b(?:got back from|came back from|returned from|back from)\s{_PLACE_OBJ}", 0.8,
       require_mention=True, trigger="back from|returned from"),
    en("PLANS_TO", rf"\b(?:I've got|I have|we've got|we have|got|have)\s(?:a|an|my|our|another|this)\s"
       rf"(?P<obj>(?:[\w+'’-]+\s){{0,4}}?{EN_EVENT})\b{_FUTURE}", 0.75, kind="value",
       trigger="got|have"),
    # (not one only thought of: "thinking about running the Tokyo marathon")
    en("ATTENDED", rf"(?<!thinking about )(?<!thinking of )(?<!considering )(?<!never )(?<!not )"
       rf"\b(?:went|go|going|been|attended|attend|attending|took part in|participated in|competed in|"
       rf"compete in|ran|run|running|did|won|lost|failed|passed|finished|completed|hosted|organi[sz]ed|headed)"
       rf"\s(?:to\s|in\s|at\s|out\s(?:to\s)?)?(?:a|an|the|my|our|this|that|another|some|one of the|a few|"
       rf"two|three|several)\s(?P<obj>{_MODIFIERS}{EN_EVENT})\b", 0.8, kind="value", future="PLANS_TO",
       trigger="went|go|been|attend|took part|participated|compet|ran|run|did|won|lost|failed|passed|"
               "finished|completed|hosted|organi|headed"),
    en("ATTENDED", rf"\b(?:had (?:a blast|fun|a great time|a good time|an amazing time|a wonderful time)|was|were|"
       rf"spent (?:the|my) (?:day|evening|weekend|afternoon|night))\s(?:at|in)\s(?:a|an|the|my|our|this)\s"
       rf"(?P<obj>{_MODIFIERS}{EN_EVENT})\b", 0.75, kind="value", trigger="blast|fun|great time|good time|"
       "amazing time|wonderful time|was|were|spent"),
    en("ATTENDED", rf"\bused to (?:compete|perform|dance|play|race|run) in (?:a few |some |many |lots of )?"
       rf"(?P<obj>(?:[\w+'’-]+\s){{0,3}}?{EN_EVENT})\b", 0.75, kind="value", negatable=False,
       trigger="used to"),
    en("VISITED", rf"\b(?:visited|went to|been (?:only |just |already |once |twice )?to|traveled to|travelled to|"
       rf"flew to|was in|were in|toured|went on a trip to|took a trip to|stayed in|spent \w+ days? in|made it to|"
       rf"spent (?:the|a|two|three|four|five|\d+) (?:weekend|week|days|nights|weeks) in)\s"
       rf"{_PLACE_OBJ}", 0.8, require_mention=True, object_type="place",
       trigger="visited|went to|been|traveled|travelled|flew|was in|were in|toured|trip to|stayed in|spent|made it"),
    # "Marrakech was amazing", "Kyoto was unreal": a place told of as a trip had
    en("VISITED", rf"(?:^|(?<=[.!?,]\s))(?P<obj>(?-i:[A-Z][\w'’-]+(?:\s[A-Z][\w'’-]+)?))\s{EN_TRIP_PRAISED}", 0.75,
       kind="entity", object_type="place", trigger="was|were"),  # a known place only (engram.ingest.refusals)
    en("PLANS_TO_VISIT", rf"\b(?:(?:plan|plans|planning|going|gonna|want|wants|hope|hoping|thinking about|"
       rf"will|'ll|headed|heading)\s(?:to\s)?(?:visit|go to|travel to|head to|fly to|take a trip to"
       rf") ?|(?<!was )(?<!were )(?:going|headed|heading|flying|driving) (?:out |down |up |over |back )?to )"
       rf"(?!(?:miss|leave|quit|hate|love|call|email|text|tell|ask|be|need|have|learn|study|start|try|buy|get|"
       rf"make|do|take|join|stop|keep|work|write|read|watch|cook|sell|apply|hire|send|sign)\b)"  # "going to miss
       # London", "going to learn Portuguese"
       rf"(?!(?:[\w-]+ )?(?:school|college|university|uni|daycare|kindergarten|nursery)\b)"  # to study there
       rf"{_PLACE_OBJ}", 0.8,
       require_mention=True, object_type="place",
       trigger="plan|going|gonna|want|hope|hoping|thinking about|will|'ll|headed|heading|flying|driving"),
    en("PLANS_TO_VISIT", rf"(?<!cancelled )(?<!canceled )(?<!cancel )(?<!called off )(?<!scrapped )"  # no trip then
       rf"\b(?:a|my|our) (?:[\w-]+ )?(?:trip|vacation|holiday|getaway|visit) to {EN_OBJ}", 0.75,
       require_mention=True, past="VISITED", trigger="trip to|vacation to|holiday to|getaway to|visit to"),
    # "Booked flights to Lisbon for July 3-14": a trip booked is planned
    en("PLANS_TO_VISIT", rf"\bbooked (?:a |our |my |the )?(?:flights?|tickets?|train|trip|a hotel) to {EN_OBJ}", 0.8,
       require_mention=True, object_type="place", strict=True, trigger="booked"),
    en("CREATED", rf"(?<![\w-])(?:painted|drew|wrote|baked|knitted|knit|sewed|sewn|crafted|composed|sculpted|carved|"
       rf"crocheted|illustrated|published|self-published|filmed|directed|choreographed)\s"
       rf"(?!it\b|(?:that|this)\b(?![ ](?!is\b|was\b|for\b|to\b|with\b|in\b|on\b|at\b|and\b|but\b|so\b|last\b|yesterday\b)[a-z])|"
       rf"them\b|you\b|to\b|a lot\b|about\b|back\b|down\b|up\b|for\b|with\b|on\b|in\b|some\b)"
       rf"{EN_OBJ}", 0.8, kind="value",
       trigger="painted|drew|wrote|baked|knit|sew|crafted|composed|sculpted|carved|crochet|illustrated|"
               "published|filmed|directed|choreographed"),
    en("CREATED", rf"(?<![\w-])(?:made|built|created|designed|cooked|recorded|put together|finished)\s(?:a|an|the|my|"
       rf"our|this|these|that|those|some|two|three|a few)?\s?(?P<obj>(?:[\w+'’-]+\s){{0,5}}?{EN_CREATION})\b",
       0.75, kind="value", trigger="made|built|created|designed|cooked|recorded|put together|finished"),
    en("RESPONSIBLE_FOR", rf"\b(?:leads?|leading|led|runs?|running|heads?|heading|owns?|owning|drives?|driving|"
       rf"coordinates?|coordinating|(?:is |am |are |was )?in charge of) (?:the |our |their )?"
       rf"(?P<obj>{EN_CAPS}(?: project| launch| rollout| migration| account| deal| initiative| programme| program"
       rf"| integration| upgrade| redesign)?)(?=[\s.,;!?]|$)", 0.8, kind="entity", object_type="project",
       require_mention=True, strict=True, stop="UNASSIGNED_FROM",
       trigger="lead|led|run|head|own|driv|coordinat|in charge of"),
    # "took up pottery", "just started doing aerial yoga": a new pastime
    en("LIKES", r"\b(?:took up|taken up|taking up|started doing|started taking)\s(?:some\s)?"
       r"(?P<obj>[a-z][a-z-]*(?:\s[a-z][a-z-]*){0,2}?)(?=\s*(?:[,.;!?]|$|\sand\b|\slast\b|\sthis\b|\srecently\b))",
       0.75, kind="value", trigger="took up|taken up|taking up|started doing|started taking"),
    # "working hard on my online store", "an ad campaign for my clothing store": a shop of one's own
    en("OWNS", r"\bmy (?:own\s)?(?P<obj>(?:online|clothing|coffee|flower|book|pet|bike|dance|yoga|art|tattoo|little|small)\s"
       r"(?:store|shop|bakery|boutique|brand|startup|cafe|café|restaurant|studio))\b", 0.75, kind="value",
       supposable=True, trigger="store|shop|bakery|boutique|brand|startup|cafe|café|restaurant|studio"),
    en("OWNS", rf"\b(?:run|running|runs|own|owns|opened|started|launched) (?:my|our|his|her) own\s{EN_OBJ}", 0.8,
       kind="value", supposable=True, trigger="own"),
    # "Priya owns the vendor decision", "Dev will own the onboarding flow": a responsibility, not a possession
    en("RESPONSIBLE_FOR", rf"\b(?:owns|own|owning) the (?P<obj>(?:[\w-]+\s){{0,3}}?{_RESPONSIBILITY})\b", 0.75,
       kind="value", trigger="own"),
    en("OWNS", rf"\b(?:bought|purchased|got myself|just got|own|owns|'ve got|have got)\s(?:a|an|my|our|the)\s"
       rf"(?:new\s|brand new\s|used\s|second-hand\s)?(?!lot\b|few\b|bit\b|chance\b|idea\b|feeling\b|fix\b|issue\b|ticket\b|task\b|bug\b|"
       rf"problem\b|decision\b|call\b|follow-up\b|deliverable\b|(?:acceptance |offer |rejection )?letter\b|email\b|"
       rf"message\b|text\b|news\b|results?\b|invite\b|invitation\b|reply\b|approval\b|go-ahead\b)"
       rf"(?!(?:[\w-]+\s){{0,3}}?{_RESPONSIBILITY}\b)"  # nor "a wasp sting allergy", "the workshop Thurs", "a cold"
       rf"(?![^,.!?;]*\b(?:allerg\w*|intolerance|workshop|meeting|call|appointment|session|class|training|conference|"
       rf"interview|exam|shift|cold|flu|fever|headache|migraine|infection)\b)"
       rf"(?![\w-]+\s(?:microchipped|fixed|repaired|serviced|cleaned|checked|vaccinated|neutered|spayed|done)\b){EN_OBJ}",
       0.7, kind="value", trigger="bought|purchased|got myself|just got|own|'ve got|have got"),
    en("GOAL", rf"\bmy (?:main |big |biggest |ultimate |long-term |current |new |life )?(?:goal|dream|aim|"
       rf"ambition|resolution|mission)\s(?:is|has always been|was|has been|for \w+ is)\s(?:to\s)?{EN_OBJ}", 0.85,
       kind="value", trigger="goal|dream|aim|ambition|resolution|mission"),
    en("GOAL", rf"\b(?:it's|it has|it's always|it has always|it'd)\s(?:been|be)\s(?:a|my)\s(?:\w+\s)?dream "
       rf"(?:of mine )?to\s{EN_OBJ}", 0.8, kind="value", subject="speaker", trigger="dream"),
    en("GOAL", rf"\b(?:want|wants|hope|hoping|aim|aiming|working|dream|dreaming) (?:to become|to be a|towards "
       rf"becoming|of becoming)\s(?:a |an )?{EN_OBJ}", 0.8, kind="value",
       trigger="to become|to be a|towards becoming|of becoming"),
    en("GOAL", r"\b(?:I|we)\s(?:really\s|still\s|also\s|eventually\s|one day\s|someday\s)?(?:want|wanna|would like|'d like|"
       r"hope|aim|am determined|'m determined)\s(?:to\s)?(?P<obj>(?:become|be a|be an|get better at|improve|learn|"
       r"start|open|write|publish|travel|visit|buy|build|create|run|finish|win|make a difference|help|adopt|"
       r"have|own|go back to|get (?:stronger|fit|healthier|in shape)|lose weight|save|retire|launch|grow|"
       r"compete|play|join|teach|mentor|raise|renovate|move)\b[^,.!?;:()\n]{0,60})", 0.7, kind="value",
       trigger="want|wanna|would like|'d like|hope|aim|determined"),
    en("GOAL", rf"\b(?:hoping|aiming|aim|aims)\sto\s{_NOT_PLANNED}{EN_OBJ}", 0.75, kind="value",
       trigger="hoping|aiming|aim to|aims to"),  # an aspiration ("hoping to get into local politics")
    # "Signed up for the Bath half marathon", "Training for the Paris 10k", "Planning a road trip": an event
    # still to come
    # (not a class signed up for, which is studying; nor a sales meeting booked; "a trip to Lisbon" is a visit;
    # "planning" only said by the writer: in "my mum's turning 70, planning a party" the mum plans nothing)
    en("PLANS_TO", rf"\b(?:(?:signed|signing) up for|registered for|entered|(?:in )?training for|booked|booking|"
       rf"(?:(?<=^)|{_WRITER_NOW})planning)\s(?:a|an|the|my|our|another)\s(?!{_MODIFIERS}(?:class|course|lesson|workshop|meeting|call|"
       rf"session|demo)s?\b)(?P<obj>{_MODIFIERS}{EN_EVENT})\b(?!\s(?:to|there)\b)", 0.75, kind="value",
       trigger="signed up|signing up|registered|entered|training for|booked|booking|planning"),
    # not "offering the Starter plan to new customers" (a plan sold, not meant)
    en("PLANS_TO", rf"\b(?!plan\s(?:to|on)\s(?:new|all|existing|current)\s)(?:planning|plan|plans|planned|intend|intends|intending|decided|"
       rf"preparing|getting ready|looking|can't wait|cannot wait|excited|psyched|stoked)\s(?:to|on)\s"
       rf"{_NOT_PLANNED}{EN_OBJ}", 0.75, kind="value",
       trigger="plan|intend|decided|preparing|getting ready|looking to|can't wait|"
               "cannot wait|excited to|psyched to|stoked to"),
    en("INTERESTED_IN", r"\b(?:thinking about|thinking of|considering|contemplating)\s(?P<obj>[a-z]+ing\b[^,.!?;:()\n]{0,50})",
       0.7, kind="value", trigger="thinking about|thinking of|considering|contemplating"),
    en("PLANS_TO", rf"\b(?:gonna|going to)\s(?!be\b|have\b|get\b|see\b|do\b|try\b|let\b|make\b|take\b|"
       rf"need\b|keep\b|check\b|send\b|tell\b|ask\b|give\b|call\b|text\b|talk\b|love\b|miss\b|help\b|"
       rf"think\b|always\b|never\b|definitely\b|probably\b|just\b|still\b|be\b)"
       rf"{EN_OBJ}{_FUTURE}", 0.7, kind="value", trigger="gonna|going to"),
    en("PLANS_TO", rf"^(?:gonna)\s{EN_OBJ}", 0.7, kind="value", subject="speaker", trigger="gonna"),
    en("PLANS_TO", rf"\b(?:I'm|I am|we're|we are)\s(?:starting|launching|opening|founding|setting up)\s"
       rf"(?:a|an|my|our)\s{EN_OBJ}", 0.75, kind="value", trigger="starting|launching|opening|founding|setting up"),
    en("LIKES", rf"\b{_I}\s{_ADV}{_NEG}(?:love|loves|loved|adore|adores|enjoy|enjoys|enjoyed)\s{_NOT_LIKED}{_LIST_OBJ}", 0.8,
       kind="value", split=True, negated="DISLIKES", trigger="love|adore|enjoy"),
    en("LIKES", rf"\b(?:I|we|they|he|she|{_NAME_WORD}|{_KIN})\s{_ADV}{_NEG}(?:like|likes|dig|digs)\s{_NOT_LIKED}"
       rf"{_LIST_OBJ}",
       0.8, kind="value", split=True, negated="DISLIKES", trigger="like|dig"),
    en("LIKES", rf"\b(?:I have|I've)\s{_ADV}(?:liked|loved|adored|enjoyed)\s{_NOT_LIKED}{_LIST_OBJ}",
       0.8, kind="value", split=True, trigger="liked|loved|adored|enjoyed"),  # not "had": "if I had liked…"
    # "I'm really into", not "I'm moving into a team lead role" nor "looking into"
    en("LIKES", rf"\b(?:(?<!not )(?<!not really )(?<!never been )a (?:big |huge |massive |total )?fan of|(?:I'm|I am|I've been|been|really|so|totally)\s(?:(?:really|so|totally|very|super|quite|kinda|pretty|just|also|still|mostly|more|not|big|huge)\s)?into|"
       rf"(?:getting|got)\s(?:\w+\s)?into(?!\s(?-i:[A-Z]))(?!\s(?:the\s|a\s)?(?:[\w-]+\s){{0,3}}(?:program|programme|"
       rf"school|university|college|course|academy|residency|bootcamp)\b)|obsessed with|hooked on|crazy about|drawn to|fond of|in love with|"
       rf"(?:I'm|I am|we're|we are) (?:all|so) about|(?:I'm|I am) a sucker for)\s"
       rf"(?!it\b|that\b|this\b|you\b|your\b|them\b|the idea\b){EN_OBJ}", 0.8, kind="value", split=True,
       trigger="fan of|into|obsessed with|hooked on|crazy about|drawn to|fond of|in love with|all about|so about|"
               "sucker for"),
    en("LIKES", r"\b(?:took up|taken up|picked up|got into|getting into)\s(?P<obj>[a-z]+ing)\b(?!\s(?:the|a|an|to|my|"
       r"for|on|at|with|in|up|out|into|back)\b)", 0.75, kind="value",
       trigger="took up|taken up|picked up|got into|getting into"),
    en("LIKES", rf"\bstarted\s(?!volunteering\s(?:at|with|for)\b)(?P<obj>{EN_HOBBY})\b(?!\s(?:a|an|the|our|my|his|her|their)\b)", 0.75,
       kind="value", trigger="started"),  # not "Started volunteering at the food bank": where, not a taste
    # ── people and animals ───────────────────────────────────────────────────────────────
    en("HAS_PET", rf"\b(?:my|our|his|her) (?:new |little |sweet |old )?(?P<kind>{EN_PET}|pet)s?,?\s"
       rf"(?:named\s|called\s)?{EN_NAMES}\b", 0.85, kind="entity", object_type="animal", split=True,
       trigger=f"{EN_PET_WORDS}|pet"),
    # "I got a puppy, a corgi called Waffles": a pet, or its breed, named later
    en("HAS_PET", rf"\b(?:have|got|adopted|has)\s(?:a|an|another|two|three|a second)\s(?:(?!named\b|called\b)[\w-]+\s){{0,2}}?"
       rf"(?P<kind>{EN_PET}|{EN_BREEDS})s?(?:,|!+|\s[-–—]|\s(?:a|an)|\s[\w-]+){{0,5}}?,?\s(?:named|called)\s{EN_NAMES}\b",
       0.85,
       kind="entity", object_type="animal", split=True, trigger="named|called"),
    # "we have two cats, Pixel and Byte", "new cat!! his name is Dumpling": pets named after their kind
    en("HAS_PET", rf"\b(?:we|I)(?:'ve)? (?:have|got|adopted) (?:two|three|a couple of) (?P<kind>{EN_PET})s,\s{EN_NAMES}\b", 0.8,
       kind="entity", object_type="animal", split=True, trigger="have|got|adopted"),
    en("HAS_PET", rf"\b(?:new|our|my) (?P<kind>{EN_PET})\b[^.?]{{0,6}}?[!.]+\s(?:his|her|its) name is\s{EN_NAMES}\b", 0.8,
       kind="entity", object_type="animal", split=True, trigger="name is"),
    # "Leila Haddad will join us as Product Designer on April 1", "joins us Monday as …": the role one joins in
    en("HAS_ROLE", rf"\b(?P<subj>{EN_PERSON_NAME}) (?:will |has |just |officially |is )*(?:join|joins|joined|joining) "
       rf"(?:us|the team|our team) (?:(?:on |next |this )?\w+day )?as (?:a |an |our |the )?(?P<obj>{EN_ROLE})\b", 0.8,
       subject="group",
       subject_type="person", kind="entity", object_type="role", trigger="join"),
    *EN_COUPLE_PATTERNS,
    en("FRIEND_OF", r"\b(?:thanks|thank you) for being (?:such |an? |my )?(?:\w+ )?(?P<obj>friend|buddy|pal)\b",
       0.8, subject="addressee", kind="value", trigger="friend|buddy|pal"),
    en("STATUS", r"(?<!laptop )(?<!phone )(?<!battery )(?<!computer )(?<!car )(?<!printer )(?<!plant )(?<!screen )"
       r"(?<!monitor )(?<!charger )(?<!tablet )(?<!server )\b(?P<obj>passed away|died)\b", 0.8, kind="value",
       trigger="passed away|died"),  # not "my laptop died": a thing broke
    en("STATUS", r"\b(?<!not )(?P<obj>retired)(?=\s(?:last|this|in|after|from|at|on|yesterday|today|recently|early)\b|"
       r"\s*[.!,;)]|$)", 0.8, kind="value", trigger="retired", supposable=True),  # not "a retired teacher"
    # "My wife is pregnant", "Dad is in the hospital": a state of health said as news
    en("STATUS", r"\b(?:is|'s|are|was|'re|'m|am)\s(?:now\s)?(?P<obj>pregnant|expecting(?=\s*(?:[.!,;]|$|a baby|twins|"
       r"(?:our|my|their|her|his) (?:first|second|third|fourth|baby|child|kid)|in (?:jan|feb|mar|apr|may|jun|jul|aug|"
       r"sep|oct|nov|dec)))|"
       r"in (?:the )?hospital)\b", 0.8, kind="value", supposable=True, introduces=True,
       trigger="pregnant|expecting|hospital"),
    # "diagnosed with type 2 diabetes last week": a condition as news, dated by its words
    en("STATUS", r"\bdiagnosed with (?:a |an )?(?P<obj>[a-z0-9][a-z0-9' -]{2,40}?)(?=\s*(?:[.!,;(]|$)|\s(?:last|this|yesterday|"
       r"today|on|in|after|and|but|so)\b)", 0.8, kind="value", supposable=True, trigger="diagnosed"),
    # "Dad had knee surgery yesterday", "my sister had a baby girl": life events as news
    en("STATUS", r"\b(?:had|has had|underwent|is having|will have)\s(?:a\s|an\s|his\s|her\s|my\s)?"
       r"(?P<obj>(?:[a-z]+\s)?surgery)\b", 0.8, kind="value", supposable=True, trigger="surgery"),
    en("STATUS", r"\b(?:got into|was in|were in|had)\s(?:an?\s)?(?:(?:car|bike|skiing|bad|minor|small)\s)?(?P<obj>accident)\b",
       0.75, kind="value", trigger="accident"),  # "my son got into an accident"
    en("STATUS", r"\b(?:gave birth to\s|(?=had\s))(?P<obj>(?:had\s)?(?:(?:a|a baby|a healthy)(?:\s(?:baby\s)?(?:girl|boy))?|twins))\b"
       r"(?=[\s,.!;]|$)", 0.75, kind="value", supposable=True, trigger="had a|gave birth"),
    # "I was out on medical leave for six weeks": a leave that is over
    en("STATUS", r"(?<!was )(?<!were )(?<!been )(?<!was out )(?<!were out )(?<!been out )"
       r"\b(?:on|out on|taking|going on|started|starting|start|starts|begin|beginning) (?:(?:his|her|my|their) )?"
       r"(?P<obj>(?:maternity|paternity|parental|sick|medical|annual|family|mat|pat) leave|sabbatical)\b", 0.8,
       kind="value", trigger="leave|sabbatical"),
    en("STATUS", r"\b(?:(?:his|her|my|their) )?(?P<obj>(?:maternity|paternity|parental|mat|pat) leave) (?:starts|begins|"
       r"starting)\b", 0.8, kind="value", trigger="leave"),  # "maternity leave starts June 14"
    en("PRICE", rf"(?:(?<=deal )|(?<=contract )|(?<=order )|(?<=renewal )|(?<=subscription ))for {EN_AMOUNT}", 0.8,
       subject="topic", kind="amount", trigger="deal for|contract for|order for|renewal for|subscription for"),
    *EN_AGE_PATTERNS,
    *EN_CHAT_PATTERNS,
)  # fmt: skip
