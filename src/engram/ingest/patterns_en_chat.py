"""English fact patterns of personal chat: pets had but not named, chronic conditions, trips taken, clubs
one is part of, a job lost, a pastime paused, books and games one loves, what one is keen to try, classes
started, goals, writing under way, a degree under way, a role accepted, a tool chosen, a role
said before its holder's name (a part of the English table, ``engram.ingest.patterns_en``, after its own
patterns).

Ordered as that table is; see ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import (
    EN_CAPS,
    EN_GROUP,
    EN_HOBBY,
    EN_OBJ,
    EN_PERSON_NAME,
    EN_PET,
    EN_PET_WORDS,
    EN_ROLE,
    Pattern,
    pattern,
)

en = partial(pattern, "en")

_PLACE = rf"(?P<obj>{EN_CAPS})"
_CLAUSE_END = r"(?=\s*(?:[,.!?;:)]|$|\s(?:and|but|because|so|last|this|yesterday|today|two|a few)\b))"
"""Where an object read up to the clause's end stops ("the mechanical engineering company. They …")."""
_KEEN = r"(?:keen|eager|excited|dying|itching|can't wait|cannot wait)"
_DEGREE = (  # not "thinking about doing a masters": weighed, not under way
    r"(?<!thinking about )(?<!thinking of )(?<!considering )"
    r"(?:doing|starting|started|finishing|taking|pursuing|studying for)\s(?:a|an|my)\s(?:master'?s|MSc|MA|MBA|PhD|"
    r"doctorate|bachelor'?s|BSc|BA|diploma)(?:\sdegree)?"
)
"""A degree under way ("doing a masters", "starting my PhD")."""


_COURSE_KIND = (
    r"(?:(?:weekend|weekly|evening|morning|night|online|local|beginner|beginners'?|intro|introductory|"
    r"part-time|full-time)\s)*"
)
"""When or how a course is taken ("a part-time course", "a weekend yoga class"): no subject studied."""

EN_CHAT_PATTERNS: tuple[Pattern, ...] = (
    # "we now have three cats", "my flatmate Jess has a snake": pets not named (no name said in the sentence
    # nor listed after them; not "a cat allergy", "a dog-friendly flat", "a fish tank")
    en("HAS_PET", rf"\b(?:have|has|'ve got)\s(?:now\s)?(?P<obj>(?:a|an|two|three|four|five|2|3|4|5)\s(?:[a-z-]+\s)?"
       rf"{EN_PET}s?)\b(?!-|\s(?:allerg|friendly|food|sitter|walker|bed|toy|tank|riding|hair|person|people|lover))"
       rf"(?![^.!?]*\b(?:named|called|name is|name's)\b|,\s(?-i:[A-Z]))", 0.75, kind="value", split=True,
       trigger=EN_PET_WORDS),
    # "I've had type 1 diabetes since I was 8", "my mum has asthma": a chronic condition had
    en("STATUS", r"\b(?:I|I've|I have|he|she|he's|she's|has|have|had)\s(?:had\s|got\s)?(?P<obj>(?:type [12] )?diabetes|"
       r"asthma|celiac disease|coeliac disease|high blood pressure|hypertension|anemia|anaemia|epilepsy|arthritis|"
       r"migraines|ADHD|crohn['’]s(?: disease)?|long covid|gout)\b", 0.75, kind="value", supposable=True,
       trigger="diabetes|asthma|celiac|coeliac|blood pressure|hypertension|anemia|anaemia|epilepsy|arthritis|"
               "migraines|adhd|crohn|long covid|gout"),
    # "my best friend Jo is visiting from Dublin", "my parents are coming to stay with us from Tehran": where
    # the visitor lives
    en("LIVES_IN", rf"\b(?:visiting|coming to (?:visit|stay)|coming over|flying in|over to visit)(?:\s(?!from\b)[\w']+)"
       rf"{{0,4}}?\sfrom {_PLACE}", 0.75, require_mention=True, object_type="place", strict=True, supposable=True,
       negatable=False, introduces=True, trigger="visiting|coming to|coming over|flying in|over to visit"),
    # "Took a short trip last week to Rome", "took a solo trip to Spain"
    en("VISITED", rf"\b(?:took|take|taking|taken) (?:a|an|my|our) (?:[\w-]+\s){{0,2}}?(?:trip|vacation|holiday|getaway)"
       rf"(?:\s(?:last|this) (?:week|weekend|month|year|summer|spring|fall|winter))? to {_PLACE}", 0.8,
       require_mention=True, object_type="place", future="PLANS_TO_VISIT", trigger="trip|vacation|holiday|getaway"),
    # "I'm now part of the fire-fighting brigade", "joined a mentorship program for LGBTQ youth"
    en("MEMBER_OF", r"\b(?:I'm|I am|we're|we are|became|become)\s(?:now\s|officially\s|also\s)?(?:a\s)?(?:part|member) of "
       r"(?:a|an|the|our|this|my)\s(?P<obj>(?:[\w'’-]+\s){0,3}?(?:brigade|program|programme|crew|squad|team|group|"
       r"club|choir|band|league|society|committee|network|collective))\b", 0.8, kind="value",
       trigger="part of|member of"),
    en("MEMBER_OF", r"\bjoined (?:a|an|the|this)\s(?P<obj>(?:[\w'’-]+\s){0,2}?(?:program|programme|brigade)"
       r"(?: for (?:[\w'’-]+\s?){1,3})?)(?=\s*[-–—,.!?;]|$)", 0.8, kind="value", trigger="joined"),
    # "for one of the ladies at my writing club": a club of one's own is one belongs to
    en("MEMBER_OF", rf"\b(?:at|in|from|with|to) my (?P<obj>(?:[\w'’-]+\s){{1,2}}?(?!team\b|gym\b){EN_GROUP})\b", 0.7,
       kind="value", trigger="my"),
    # "I lost my job at the mechanical engineering company"
    en("LEFT_ORGANISATION", rf"\b(?:lost|quit|left) my (?:\w+\s)?job (?:at|with) (?:the |a |an )?"
       rf"(?P<obj>[\w&'’ -]{{3,50}}?){_CLAUSE_END}", 0.8, kind="value", negatable=False, trigger="job"),
    # "had to take a break from pottery": a pastime paused
    en("STOPPED_USING", rf"\b(?:had to take|took|I'm taking|I am taking|I've taken|I have taken|we took) a (?:\w+\s)?break "
       rf"from (?:my\s)?(?!life\b|reality\b|it\b|work\b|everything\b|the\b|this\b|that\b|an?\b)(?P<obj>[\w'’ -]{{3,30}}?)"
       rf"{_CLAUSE_END}", 0.75, kind="value", negatable=False, trigger="break from"),
    # "I loved reading "Charlotte's Web" as a kid", "I'm reading "Dune" by Frank Herbert"
    en("LIKES", r"\b(?:love|loved|enjoy|enjoyed|like|liked|adore|adored)\s(?:reading|watching|playing|listening to)\s"
       r"[\"“](?P<obj>[^\"”]{2,60})[\"”]", 0.8, kind="value", trigger="reading|watching|playing|listening"),
    en("LIKES", r"\b(?:I'm|I am) (?:currently |now )?(?:reading|re-reading|rereading) [\"“](?P<obj>[^\"”]{2,60})[\"”]",
       0.7, kind="value", trigger="reading"),
    # "I usually play CS:GO": a game played by habit
    en("LIKES", r"\b(?:usually|often|always|mostly|mainly) play (?P<obj>(?-i:[A-Z])[\w:'’-]*(?:\s(?-i:[A-Z])[\w:'’-]*){0,3})",
       0.75, kind="value", trigger="play"),
    # "I'm keen to try out jazz and film scores too"
    en("INTERESTED_IN", rf"\b{_KEEN} to (?:try out|try|learn|explore|get into|check out) "
       r"(?!(?:the|it|this|that|them|a|an|some|more|your|his|her)\b)"
       r"(?P<obj>(?:(?!\stoo\b|\sas well\b|\ssomeday\b|\sone day\b)[^.!?;:()\n,])+)", 0.75, kind="value", split=True,
       trigger="keen|eager|excited|dying|itching|can't wait|cannot wait"),
    # "I started a weekend yoga class with a colleague"
    en("STUDIES", r"\b(?:started|starting|start|signed up for|enrolled in|taking) (?:a |an |some )?(?:new )?"
       rf"{_COURSE_KIND}(?P<obj>(?!(?:part|full)-time\b)[a-z][\w-]{{2,20}}(?:\s[a-z][\w-]{{2,20}})?)\s(?:class|classes|lessons|course)\b",
       0.8, kind="value", trigger="class|lessons|course"),
    # "Started a part-time course in graphic design": the subject after the course
    en("STUDIES", r"\b(?:started|starting|start|signed up for|enrolled in|taking) (?:a |an |some )?(?:new )?"
       rf"{_COURSE_KIND}(?:class|classes|lessons|course) in (?P<obj>[a-z][\w-]{{2,20}}(?:\s[a-z][\w-]{{2,20}})?)\b",
       0.8, kind="value", trigger="class|lessons|course"),
    # "a big move towards my goal of having a family"
    en("GOAL", rf"\bmy (?:\w+\s)?(?:goal|dream|aim) of {EN_OBJ}", 0.8, kind="value", subject="speaker",
       trigger="goal of|dream of|aim of"),
    # "my son Jasper got into Georgia Tech for aerospace engineering": a school one was admitted to
    en("STUDIES_AT", rf"\b(?:got into|was accepted (?:to|into|at)|got accepted (?:to|into|at)|was admitted to)\s(?:the\s)?"
       rf"(?P<obj>{EN_CAPS})", 0.8, kind="entity", object_type="organisation", trigger="got into|accepted|admitted"),
    en("STUDIES", r"\b(?:got into|accepted (?:to|into|at)|admitted to)\s(?:the\s)?(?-i:[A-Z][\w&.'’-]*(?:\s[A-Z][\w&.'’-]*){0,3})"
       r"\s(?:for|to study)\s(?P<obj>[a-z][a-z -]{2,40}?)(?=\s*(?:[(,.;!?]|$))", 0.8, kind="value", trigger="got into|accepted|admitted"),
    # "Luca Ferraro owns the migration": work one is responsible for, not a thing owned
    en("RESPONSIBLE_FOR", r"\b(?:owns|own|owning)\s(?:the\s|our\s|this\s)(?P<obj>(?:[\w-]+\s){0,3}?(?:migration|rollout|roll-out|"
       r"project|launch|integration|relationship|account|process|budget|roadmap|onboarding|implementation|upgrade))\b", 0.8,
       kind="value", trigger="own"),
    # "doing pilates twice a week now", "Been bouldering three times a week", "I go swimming every morning"
    en("LIKES", rf"\b(?:doing|do|does|go|goes|going|been|started)\s(?:some\s)?(?P<obj>{EN_HOBBY}|pilates|bouldering|"
       r"crossfit|spin|tennis|squash|badminton|basketball|soccer|volleyball)(?=\s(?:[\w-]+\s){0,2}?(?:(?:once|twice|"
       r"\w+ times) a (?:week|month)|every (?:day|morning|evening|night|week|weekend|\w+day)|on (?:weekends|\w+days)|"
       r"daily)\b)", 0.75, kind="value", trigger="a week|a month|every|on weekends|days|daily"),
    # "I'm doing kickboxing", "I'm off to do some taekwondo": a pastime kept up
    en("LIKES", rf"\b(?:I'm|I am|I've been|been)\s(?:\w+\s)?(?:doing|off to do)\s(?:some\s|a lot of\s)?(?P<obj>{EN_HOBBY})\b",
       0.75, kind="value", trigger="doing|off to do"),
    # "a gift from my grandma in my home country, Sweden"
    en("COMES_FROM", rf"\bmy home (?:country|town|city|state|island)(?:,| is| of)?\s(?P<obj>{EN_CAPS})", 0.8,
       require_mention=True, object_type="place", subject="speaker",
       trigger="home country|home town|home city|home state|home island"),
    # "I loved "Becoming Nicole" by Amy Ellis Nutt"
    en("LIKES", r"\b(?:I\s)?(?:love|loved|adore|adored|enjoyed)\s[\"“](?P<obj>[^\"”]{2,60})[\"”]", 0.8, kind="value",
       trigger="love|adore|enjoyed"),
    # "a homeless shelter I volunteer at"
    en("VOLUNTEERS_AT", r"\b(?:a|an|the|my)\s(?P<obj>(?:[\w'-]+\s){0,3}?[\w'-]{3,})\s(?:I|we)\s(?:still\s|also\s)?volunteer\s(?:at|with|for|in)\b",
       0.8, kind="value", trigger="volunteer"),
    # "Winning a championship is my number one goal"
    en("GOAL", r"(?:^|(?<=[,.;!?]\s))(?P<obj>(?-i:[A-Z])[\w' -]{3,50}?)\s(?:is|was)\smy\s(?:number one\s|main\s|biggest\s|"
       r"ultimate\s|big\s|top\s)?(?:goal|dream|aim)\b", 0.8, kind="value", subject="speaker", trigger="goal|dream|aim"),
    # "I'm writing articles about fantasy novels for an online mag": writing under way
    en("WORKS_ON", r"\b(?:I'm|I am|I've been) (?:now |currently |still )?(?:writing|composing|developing|designing) "
       r"(?!to\b|back\b|it\b|this\b|that\b|(?:an?|the|my|this)\s(?:\w+\s)?(?:e-?mail|reply|note|message|letter|report|post|review|"
       r"text|response|memo|summary|update|list|check|comment)s?\b)(?P<obj>[^.!?;:()\n,-]{3,60}?)(?=\s*(?:[-–—.!?;:,]|$))", 0.7, kind="value",
       trigger="writing|composing|developing|designing"),
    # "doing a masters in marine biology at Plymouth": a degree under way, and where
    en("STUDIES", rf"\b{_DEGREE}\sin\s(?P<obj>[a-z][a-z -]{{2,40}}?)(?=\s(?:at|in|from|starting|next|this)\b|\s*[.,!;]|$)",
       0.8, kind="value", trigger="master|msc|mba|phd|degree|bachelor|diploma|doctorate"),
    en("STUDIES_AT", rf"\b{_DEGREE}(?:\sin\s[a-z][a-z -]{{2,40}}?)?\sat\s(?P<obj>{EN_CAPS})", 0.8, kind="entity",
       object_type="organisation", trigger="master|msc|mba|phd|degree|bachelor|diploma|doctorate"),
    # "I accepted the tech lead role for search, starting April" (not "was offered the … role")
    en("HAS_ROLE", rf"\b(?:accepted|took|taking|landed|got)\s(?:the|a|an)\s(?:new\s)?(?P<obj>{EN_ROLE})\s(?:role|position|job)\b",
       0.8, kind="entity", object_type="role", trigger="role|position|job"),
    # "We picked Grafana over Datadog", "we went with Clearstream in the end": a tool chosen
    en("USES", rf"\b(?:we|I|the team)\s(?:finally\s)?(?:picked|chose|went with|settled on|opted for|decided on)\s"
       rf"(?P<obj>{EN_CAPS})(?=\s(?:over|instead|in the end|after all|for)\b|\s*[.,!;]|$)", 0.75, kind="entity",
       object_type="product", trigger="picked|chose|went with|settled on|opted for|decided on"),
    # "spoke with office manager Gemma Doyle", "Their admin Petra Nilsen", "superintendent Dr. Lorna Fairweather"
    en("HAS_ROLE", rf"\b(?:their|our|the|with|is|met|called)\s(?P<obj>{EN_ROLE})\s(?:Dr\.?\s|Mr\.?\s|Ms\.?\s|Mrs\.?\s)?"
       rf"(?P<subj>{EN_PERSON_NAME})\b", 0.75, subject="group", subject_type="person", named_subject=True,
       kind="entity", object_type="role", trigger="their|our|the|with|is|met|called"),
)  # fmt: skip
