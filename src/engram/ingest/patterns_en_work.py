"""English fact patterns of work and study: employers, roles, handovers, teams, schools (a part of
the English table, ``engram.ingest.patterns_en``, in its place).

Ordered as that table is; see ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import (
    EN_A_DAY,
    EN_CAPS,
    EN_DEPARTMENT,
    EN_NAME,
    EN_NOT_HELD,
    EN_NOT_UNTIL,
    EN_OBJ,
    EN_PERSON_NAME,
    EN_ROLE,
    EN_ROLE_NOUNS,
    EN_ROLE_TRIGGER,
    EN_TITLE,
    Pattern,
    pattern,
)

en = partial(pattern, "en")

KIN = (
    r"(?:brother|sister|mom|mother|mum|dad|father|son|daughter|kid|kids|wife|husband|partner|girlfriend|boyfriend|"
    r"friend|grandma|grandpa|cousin|aunt|uncle|boss|manager|fiance|fiancée|children|parents)"
)
"""Whom "my …" names, a relative or someone close ("my sister", "my boss"): a subject of its own."""
_SCHOOL = (
    r"(?:[\w.'’-]+\s){0,3}(?:Elementary|Primary|School|Kindergarten|Preschool|Nursery|Daycare|Montessori|High|"
    r"Middle|Academy|University|College)\b"
)
"""A school's name: one starts there as a pupil ("he starts at Brookside Elementary")."""
_HANDED = (
    r"(?:partnerships?|accounts?|region|territory|migration|project|team|pipeline|relationships?|deals?|book)"
)
"""What a named thing handed over is (EMEA partnerships, the Globex account)."""
_DUTY_WORD = (
    r"(?!(?:while|from|as|starting|until|till|through|during|this|next|effective|when|after|before|because|since|"
    r"for|to|and|but|so|with|on|at|in|by|if|who|which|once|now|today|tomorrow|it|them|that)\b(?!-))"
    r"(?-i:[a-z0-9][\w&'’/-]*|[A-Z]{2,6}s?)"
)
_DUTIES = (
    rf"(?P<obj>{_DUTY_WORD}(?: {_DUTY_WORD}){{0,4}}(?:(?:,| and|, and) (?:the |our )?{_DUTY_WORD}(?: {_DUTY_WORD}){{0,4}})*)"
    r"(?=\s(?:while|from|as of|starting|until|till|through|during|this|next|effective|when|after|before|because|"
    r"since|for|on|at|in|by|if|once|today|tomorrow|now)\b|\s?[(.;:!?—–]|\s[-–]\s|,\s|$)"
)
"""A duty said in lower case or by its acronym, or a list of them ("audit logs", "the DACH accounts", "badges,
parking and the snack budget"), up to a time, a reason or the clause's end."""
_DUTY_HEAD = (
    r"(?:accounts|queue|inbox|clients?|customers?|region|territory|territories|portfolio|book|shifts?|rotation|"
    r"tickets|desk|on-call|escalations|renewals?|partnerships?)"
)
"""What one covers for a colleague: an account or a queue, not "the costs" or "the basics"."""
_PROJECT_HEAD = (
    r"(?:migration|rollout|project|launch|integration|program|programme|initiative|pilot|redesign|upgrade|"
    r"implementation|evaluation|audit|rfp|series|workstream|onboarding|backend|frontend|relaunch|rebrand|"
    r"partner program|beta|ops|operations|procurement|purchasing|hiring|recruiting|payroll)"
)
"""What one leads, runs or owns as a duty ("the streaming ingestion project"), not a possession."""
_MODIFIER = (
    r"(?!(?:good|great|bad|really|very|terrible|amazing|awesome|proud|better|best|worse|worst|big|huge|little|"
    r"former|ex|retired|total|complete|real|true|bit|lot|fan|new|old|young|single|mom|mum|dad)\b)(?-i:[a-z][a-z-]+)"
)
"""A word before a role that says what kind it is (dental, chemistry), not how good or whether it is one."""
_HOLDER = (
    rf"\b(?P<subj>I|he|she|{EN_PERSON_NAME})(?:['’](?:s|m|ll|ve|d))?(?: \([^)]{{1,20}}\))?"
    r"(?: (?!and\b|but\b|or\b|who\b|which\b|then\b)[\w'’]+){0,4}? (?:now |also |officially )?"
)
"""Who takes a duty on: a person named, "I", or "he"/"she", a few plain words before the verb ("Sofia's",
"Jonas will", "Freya Holm (design) will", "I've been asked to"); a comma between stops it (in "Jonah is out,
Aiko's covering …" Aiko, an unknown name, is not Jonah)."""
_WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
"""Capitalised but no name: "take over the Monday meeting" hands over a meeting, not a Monday."""
_CLAUSE_START = r"(?:^|(?<=[:;.!?]\s)|(?<=\s[—–-]\s))"
"""Where a clause opens without a determiner (a note's "Store manager Keith Danvers says…")."""
_FIRST_DAY = rf"(?:(?:\bmy\s|{_CLAUSE_START})(?:first|second) (?:day|week)|{_CLAUSE_START}week \d)"
"""The writer's first days, said with "my" or opening a clause ("First day as …", "first week at Monzo",
"week 2 at Siemens")."""
_NOT_A_TASK_OWNER = r"(?!(?-i:owner)\s)"
"""An action item's "— owner Kwame, target end of Q3" names who does it, not a business owner."""
_REGION = (
    r"(?-i:(?:EMEA|APAC|LATAM|AMER|NA|EU|UK|US|the (?:East|West|North|South|Midwest)|"
    r"(?:(?:Southern|Northern|Eastern|Western|Central|Southeast|Northeast) )?(?:Europe|Asia|Africa|America|"
    r"North America|South America|Latin America|Oceania))\b)"
)
"""A region one is responsible for ("Solutions Engineer for EMEA"), no employer."""

_CONTACTED = ("met", "emailed", "pinged", "called", "texted", "asked", "told", "with", "to", "meet", "email")
_NOT_ONES_OWN = "".join(
    rf"(?<!{verb} the )(?<!{verb} their )(?<!{verb} a )"
    for verb in (*_CONTACTED, "ping", "call", "cc'd", "never", "not", "longer")
)
"""Before a role: someone else's ("I met the CFO of Northwind", "I pinged the VP of Sales at Globex"), or
one denied ("was never the VP of Sales at Globex", "no longer the CFO at Soylent": its own readings)."""
_NOT_AN_ACCOUNT = (
    "".join(rf"(?<!account {word} )" for word in ("manager", "owner", "lead", "executive", "director"))
    + r"(?<!\blead )"
)
"""Before "for": a client the role serves ("the account manager for Globex"), or an area one leads
("tech lead for Mobile"), not the employer."""
_EVENT_AFTER = (
    r"(?!(?:the\s)?(?:[A-Z][\w&'-]*\s){0,3}(?:summit|conference|expo|meetup|webinar|forum|fair|festival|gala|show|"
    r"event|booth|dinner|party|trade show)\b)"
)
"""After "at": an event one meets people at ("at the Gartner summit"), not where they work."""
_LAST_DAY = r"last (?:day|shift)(?: at work| here| in the office)? (?:is|was|will be)\b(?P<obj>)"
"""One's last day at work, said with its date ("my last day is Sept 13")."""
_ONES_OWN_ACCEPTANCE = (
    r"(?<!\bwe )(?<!\bthey )(?<!\bwe've )(?<!\bthey've )(?<!\bwe have )\b(?:accepted|accepting) "
)
"""An offer accepted by its speaker or a person, not by "we" or "they" (a house sold, a deal)."""

EN_WORK_PATTERNS: tuple[Pattern, ...] = (
    # ── work and study ───────────────────────────────────────────────────────────────────
    # not a habit given up ("I quit smoking on New Year's day"): a lower-case -ing word names no employer
    en("LEFT_ORGANISATION", rf"\b(?:(?:left|leaving|quit|resigned from)\s(?!(?-i:[a-z])\w*ing\b)(?:my job (?:at|with)\s)?|lost my job "
       rf"(?:at|with)\s|(?:got )?laid off (?:from|by)\s|fired from\s){EN_OBJ}", 0.8, require_mention=True,
       trigger="left|leaving|quit|resigned|lost my job|laid off|fired", negatable=False),
    # "Tom quit last week", "I quit my job": left, the employer unsaid (the latest one ends). The
    # subject is right before the verb, so "Maria's manager resigned" is not Maria's leaving.
    en("LEFT_ORGANISATION", rf"(?P<subj>\bI|\bmy\s(?:(?:older|younger|little|big)\s)?{KIN}|"
       r"(?-i:[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)),?(?:\s(?:just|finally|already|"
       r"recently|also|has|have|had))*\s(?:(?:quit|left)\s(?:my|his|her|their|the)\s(?:[a-z-]+\s)?(?:job|company|firm)|"
       r"quit|resigned|retired)(?P<obj>)(?=\s*(?:[.!;,]|$)|\s(?:last|this|yesterday|today|recently|earlier|in|"
       r"on|to|and|after|because)\b)", 0.75, subject="group", subject_type="person", named_subject=True,
       trigger="quit|left|resigned|retired", negatable=False, objectless=True),
    # "I've handed in my notice", "gave notice friday", "Raj's last day was 8/30", "Last day is March 14":
    # a leaving, the employer unsaid, dated by the day said
    en("LEFT_ORGANISATION", rf"(?P<subj>(?-i:[A-Z][a-z]+(?:\s[A-Z][a-z]+)?))['’]s\s{_LAST_DAY}", 0.75, subject="group",
       subject_type="person", named_subject=True, trigger="last day|last shift", negatable=False, objectless=True),
    en("LEFT_ORGANISATION", rf"(?:\bmy\s|^|(?<=[.!;:,]\s)|(?<=\n)){_LAST_DAY}", 0.75, trigger="last day|last shift",
       negatable=False, objectless=True),
    *(
        en("LEFT_ORGANISATION", rf"{start}last (?:day|shift) (?:at|with) {EN_OBJ}(?=\s(?:is|was|will be)\b)", 0.8,
           subject=subject, require_mention=True, trigger="last day|last shift", negatable=False)
        for start, subject in ((r"\bmy\s", "left"), (r"(?:^|(?<=[.!;:]\s)|(?<=\n))(?=(?-i:L))", "speaker"))
    ),
    en("LEFT_ORGANISATION", r"\b(?:handed in|gave|given|put in|submitted)\s(?:my\s)?(?:notice|resignation)\s(?:at|to)\s"
       rf"(?:the\s)?{EN_OBJ}", 0.8, require_mention=True, trigger="notice|resignation", negatable=False),
    en("LEFT_ORGANISATION", r"\b(?:I've|I have|I|just|finally)\s(?:handed in|gave|given|put in|submitted)\s(?:my\s)?"
       r"(?:notice|resignation)\b(?P<obj>)", 0.75, trigger="notice|resignation", negatable=False, objectless=True),
    en("LEFT_ORGANISATION", r"\b(?:gave|giving|handed in)\s(?:my\s)?notice\b(?P<obj>)", 0.7, trigger="notice",
       negatable=False, objectless=True),
    # "I'm currently in notice period at Pathwise": leaving it
    en("LEFT_ORGANISATION", rf"\b(?:I'm|I am|Im)\s(?:currently\s|now\s)?(?:in|serving)\s(?:my\s)?notice(?: period)?\s(?:at|with)\s"
       rf"{EN_OBJ}", 0.8, require_mention=True, trigger="notice", negatable=False),
    # "Candice Obi moved from Pelloway Insurance to Granbury Mutual": a person between two firms
    *(
        en("WORKS_AT", rf"\b(?P<subj>{subject}) (?:have |has |'ve |just )?(?:moved|went|jumped|switched) (?:over )?from "
           rf"(?P<prev>{EN_CAPS}) to (?P<obj>{EN_CAPS})(?=[\s.,;!?]|$)", 0.8, subject="group", subject_type="person",
           named_subject=subject != "I", require_mention=True, strict=True, object_type="organisation", trigger="from")
        for subject in (rf"(?!We\b){EN_PERSON_NAME}", "I")  # "We switched from Datadog to Grafana": tools
    ),
    # "She came over from Deloitte in August": the employer before this one
    en("LEFT_ORGANISATION", rf"\b(?:(?:came|comes|coming) over|moved (?:there|here|over)) from (?=(?-i:[A-Z])){EN_OBJ}", 0.8,
       require_mention=True, strict=True, object_type="organisation", negatable=False,
       trigger="over from|there from|here from"),
    en("HAS_ROLE", rf"\b(?:got |was |been |just |finally )*promoted to (?:a |an |the )?(?P<obj>{EN_ROLE})\b", 0.85,
       kind="entity", object_type="role", trigger="promoted"),
    # "Priya moved from Head of Ops to COO at Brightwater": the role left, and the one now held
    *(
        en(predicate, rf"\b(?:moved|moves|moving|went|switched|promoted) from (?:a |an |the )?{left} to (?:a |an |the )?"
           rf"{held}\b", 0.85, kind="entity", object_type="role", trigger="from")
        for predicate, left, held in (
            ("LEFT_ROLE", f"(?P<obj>{EN_ROLE})", EN_ROLE),
            ("HAS_ROLE", EN_ROLE, f"(?P<obj>{EN_ROLE})"),
        )
    ),
    en("LEFT_ROLE", rf"\b(?:lost my job as|(?:stepped|stepping|steps|step|will step) down as|quit my job as|"
       rf"no longer work as|retired as|retiring as|retires as) "
       rf"(?:a |an |the |our )?(?P<obj>{EN_ROLE})\b", 0.8, kind="entity", object_type="role",
       trigger="lost my job as|down as|quit my job as|no longer work as|retired as|retiring as|retires as",
       negatable=False),
    en("WORKS_AT", rf"\b(?={EN_ROLE}){EN_NOT_HELD}{_NOT_ONES_OWN}{EN_ROLE}\s(?:of|at|{_NOT_AN_ACCOUNT}for) (?!{EN_DEPARTMENT})(?!{_REGION})"
       rf"{EN_NOT_UNTIL}{EN_OBJ}(?![\w&'’-]*\s*:)", 0.8,  # not "new buyer at Zentrova: Omar Siddiqui": who it is follows
       require_mention=True,
       object_type="organisation", trigger=EN_ROLE_TRIGGER),
    # "Marcus Hale, IT director at Pinecrest Schools": a role in apposition, no article
    en("HAS_ROLE", rf"\b(?P<subj>{EN_PERSON_NAME}),\s(?P<obj>{EN_ROLE})\s(?:at|of|for|with|@)\s(?-i:[A-Z]){EN_NOT_UNTIL}", 0.8,
       subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role",
       trigger=EN_ROLE_TRIGGER),
    # "Peter Walsh (IT Director at Fabrikam)", "Marcus Hale, IT director at Pinecrest Schools"
    en("WORKS_AT", rf"\b(?P<subj>{EN_PERSON_NAME})\s?[,(]\s?(?:the\s|our\s|their\s)?{EN_NOT_HELD}{EN_ROLE}\s(?:at|of|with|@)\s"
       rf"{EN_NOT_UNTIL}(?P<obj>{EN_CAPS})", 0.8, subject="group", subject_type="person", named_subject=True,
       require_mention=True, strict=True, object_type="organisation", introduces=True, trigger=EN_ROLE_TRIGGER),
    # "Dana Park is the IT Director at Globex", "I'm the head of sales at Brightline": the role says where
    en("WORKS_AT", rf"\b(?:I'm|I am|is|(?<=\bhe)'s|(?<=\bshe)'s)\s(?:now\s|currently\s|also\s)?(?:the\s|an?\s|their\s|our\s)?"
       rf"(?:new\s)?{EN_NOT_HELD}{EN_ROLE}\s(?:at|with)\s{EN_NOT_UNTIL}(?P<obj>{EN_CAPS})", 0.8,
       require_mention=True, strict=True, object_type="organisation", introduces=True, trigger=EN_ROLE_TRIGGER),
    # "Priya Raman (Head of Procurement, Northwind Traders)", "Tomasz Nowak (Wisła Bikes)": a CRM note's
    # parenthesis after a name says where the person works, and as what
    en("WORKS_AT", rf"\b(?P<subj>{EN_PERSON_NAME})\s\((?:{EN_NOT_HELD}{EN_ROLE},\s)?(?!{EN_ROLE}\))"
       rf"(?!(?:[\w&-]+\s){{0,3}}(?:{EN_ROLE_NOUNS})\))(?P<obj>{EN_CAPS})\)", 0.75,  # not "(Claims Ops Manager)"
       subject="group", subject_type="person", named_subject=True, require_mention=True, strict=True,
       object_type="organisation", introduces=True, trigger="("),
    en("HAS_ROLE", rf"\b(?P<subj>{EN_PERSON_NAME})\s\({EN_NOT_HELD}(?P<obj>{EN_ROLE}),\s{EN_CAPS}\)", 0.75,
       subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role",
       trigger=EN_ROLE_TRIGGER),
    # "Met Lydia Shaw from Kestrel Systems": whom one met comes from their employer (not "at" an event)
    en("WORKS_AT", rf"\b(?:[Mm]et|[Mm]eet|[Ss]aw|with|w/|called|emailed)\s(?P<subj>{EN_PERSON_NAME})\sfrom\s(?:the\s)?"
       rf"{_EVENT_AFTER}(?P<obj>{EN_CAPS})(?=[\s,.;!?]|$)", 0.75, subject="group", subject_type="person",
       named_subject=True, require_mention=True, strict=True, object_type="organisation", introduces=True,
       trigger="from"),
    # "Contact is Lydia Fenwick, managing partner.", "Omar Siddiqui, Procurement Manager.": a name, then
    # their title as the clause's last words (not "a new job at Unilever, brand manager": the employer)
    en("HAS_ROLE", rf"(?<!\bat )(?<!\bwith )(?<!\bjoin )(?<!\bjoining )(?<!\bjoined )"
       rf"\b(?P<subj>{EN_PERSON_NAME}),\s(?:the\s|our\s|their\s)?(?P<obj>{EN_ROLE}|{EN_TITLE})"
       r"(?=\s*(?:[.;!]|$)|,\s?(?:\S+@|\+?\d))",
       0.75, subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role", introduces=True,
       trigger=EN_ROLE_TRIGGER),
    # "CFO (Bao Tran) signs…", "(COO Martin Greer)": a role and the name that holds it, one in brackets
    en("HAS_ROLE", rf"\b(?P<obj>{EN_ROLE})\s\((?P<subj>{EN_PERSON_NAME})\)", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", introduces=True, trigger=EN_ROLE_TRIGGER),
    en("HAS_ROLE", rf"\((?:currently\s|now\s)?(?!(?:owner|lead|owned by|dri)\s)(?P<obj>{EN_ROLE})\s(?P<subj>{EN_PERSON_NAME})\)", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", introduces=True, trigger=EN_ROLE_TRIGGER),
    # "Contact is office manager Rosalind Achebe", "Champion there is their CFO Walt Brennan"
    en("HAS_ROLE", rf"\b(?:contact|champion|decision[- ]maker|sponsor|signer|point of contact)(?:\sthere)?\s(?:is|was|will be)\s"
       rf"(?:their\s|the\s|our\s)?(?P<obj>{EN_ROLE})\s(?P<subj>{EN_PERSON_NAME})\b", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", introduces=True,
       trigger="contact|champion|maker|sponsor|signer"),
    # "Kevin Marsh is the trust's finance director": a role of the organisation named
    en("HAS_ROLE", rf"\b(?P<subj>{EN_PERSON_NAME})\s(?:is|was)\s(?:now\s)?(?:the\s)?(?:[\w&-]+['’]s\s)(?:new\s)?(?P<obj>{EN_ROLE})\b"
       rf"(?!\s(?:of|at|for)\s)", 0.75, subject="group", subject_type="person", named_subject=True, kind="entity",
       object_type="role", introduces=True, trigger=EN_ROLE_TRIGGER),
    # "Bellweather named new ops lead: Carla Benedetti", "we hired a second QA, Tariq Nasser": who was
    # named to the role
    en("HAS_ROLE", rf"\b(?:named|appointed|hired|promoted|brought on|brought in)\s(?:a\s|an\s|the\s|its\s|their\s|our\s)?"
       rf"(?:(?:new|second|third|permanent|interim|acting|full-time)\s)*(?P<obj>{EN_ROLE}|QA)[:,]\s(?P<subj>{EN_PERSON_NAME})\b",
       0.8, subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role",
       trigger="named|appointed|hired|promoted|brought"),
    # "I joined Gallowglass Games in January as design lead", "moved to Bravado Snacks as Director of
    # Sourcing": a firm joined, and as what
    en("HAS_ROLE", rf"\b(?:joined|joins|joining|moved to|moving to|moves to|went to|started at|starting at|starts at)\s"
       rf"(?-i:[A-Z])[\w&'’.-]*(?:\s(?-i:[A-Z])[\w&'’.-]*){{0,3}}(?:\s(?:in|on|last|this|back in)\s[\w]+)?\sas\s"
       rf"(?:the\s|our\s|their\s|a\s|an\s|its\s)?(?:new\s|interim\s|acting\s)?(?P<obj>{EN_ROLE}|{EN_TITLE})\b", 0.8,
       kind="entity", object_type="role", supposable=True, trigger="as"),
    # "The CEO of Initech, Bill Lumbergh", "Sunrise Bakery's owner, Ruby Ross": the role of the
    # organisation, then who holds it
    *(
        en(predicate, rf"\b{shape},\s(?P<subj>{EN_PERSON_NAME})\b(?!['’]s\b)", 0.8, subject="group", subject_type="person",
           named_subject=True, require_mention=predicate == "WORKS_AT", strict=predicate == "WORKS_AT",
           kind="entity", object_type=kind, introduces=True, trigger=EN_ROLE_TRIGGER)
        for predicate, role, organisation, kind in (
            ("WORKS_AT", EN_ROLE, f"(?P<obj>{EN_CAPS})", "organisation"),
            ("HAS_ROLE", f"(?P<obj>{EN_ROLE})", EN_CAPS, "role"),
        )
        for shape in (
            rf"{role}\s(?:of|at)\s(?!{EN_DEPARTMENT}){organisation}",  # not "head of IT, Mark Chen"
            rf"{organisation}['’]s\s(?:new\s|current\s)?{role}",
        )
    ),
    # "First day as Head of Customer Success at Brightwave", "my first week as a nurse": the writer's new role
    # and where it is
    en("HAS_ROLE", rf"{_FIRST_DAY} as (?:a |an |the |our )?"
       rf"(?P<obj>{EN_ROLE}|{EN_TITLE})\b", 0.8, subject="speaker", kind="entity", object_type="role",
       trigger="first day|first week|second day|second week|week "),
    en("WORKS_AT", rf"{_FIRST_DAY} (?:as (?:a |an |the |our )?{EN_ROLE}\s)?"
       rf"(?:at|with) {EN_OBJ}", 0.8, subject="speaker", require_mention=True, strict=True,
       object_type="organisation", trigger="first day|first week|second day|second week|week "),
    # "I've been at Volvo for 6 years": an employer of years, not a visit
    en("WORKS_AT", rf"\b(?:I've|I have|(?<=\bhe)'s|(?<=\bshe)'s|has|have)\s(?:now\s)?been\s(?:at|with)\s"
       rf"(?=(?-i:[A-Z])){EN_OBJ}(?=\s(?:for\s(?:over\s|almost\s|nearly\s|about\s|more than\s)?(?:\d+|a|an|one|two|three|"
       r"four|five|six|seven|eight|nine|ten|several|many)\s(?:years?|months?)|since\s(?:19|20)\d\d)\b)", 0.8,
       require_mention=True, strict=True, object_type="organisation", trigger="been at|been with"),
    # "Her successor as ops director is Tomas Eriksen": who takes the role over
    en("HAS_ROLE", rf"\b(?:successor|replacement)\sas\s(?:the\s|our\s|their\s)?(?P<obj>{EN_ROLE}|{EN_TITLE})"
       rf"(?:\s(?:is|will be|was)\s(?:now\s)?|:\s?)(?P<subj>{EN_PERSON_NAME})\b", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", trigger="successor|replacement"),
    # "just started as VP Sales at Crestline Software"
    en("WORKS_AT", rf"\b(?:started|starting|starts|start) as (?:a |an |the )?{EN_ROLE}\s(?:at|with) {EN_OBJ}", 0.85,
       require_mention=True, object_type="organisation", trigger="started as|starting as|starts as|start as"),
    en("WORKS_FROM", rf"\b(?P<subj>{EN_PERSON_NAME}),?\s(?:(?:the|a|an|our)\s(?:[\w-]+\s){{0,3}}?)?from (?:the |our |their )?"
       rf"(?P<obj>{EN_CAPS} (?:office|branch|plant|lab|store|warehouse|site))\b", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="value", trigger="from"),
    en("WORKS_AT", rf"(?<!Hi )(?<!Hey )(?<!Dear )(?<!Hello )(?!(?:Hi|Hey|Dear|Hello)\s)(?<!replaced )(?<!replacing )(?<!replaces )(?<!succeeded )(?<![Mm]et )(?<![Mm]eet )(?<![Ss]aw )(?<!into )(?<!up with )(?<![Dd]ropped )(?<![Dd]ropping )(?<![Dd]rop )(?<!off )(?<!picked up )\b(?!Met\s|Saw\s)(?P<subj>{EN_PERSON_NAME}),?\s(?:(?:the|a|an|our)\s(?!former|ex-|previous|old\b)(?:[\w-]+\s){{0,5}}?)?(?:from|at|of) "
       rf"(?!{EN_DEPARTMENT}\b){_EVENT_AFTER}(?:the )?(?P<obj>{EN_CAPS})(?=[\s,.;!?]|$)", 0.75, subject="group", subject_type="person",
       require_mention=True, strict=True, object_type="organisation", named_subject=True, trigger="from|at|of"),
    # (not a list opened after a comma: "covering our DACH accounts, starting with Brandt Maschinenbau")
    # "Finn just started at Durham, doing physics": a university, what is studied said after it
    en("STUDIES_AT", rf"\b(?:starting|started|starts) at (?P<obj>{EN_CAPS})(?=[^.!?;]{{0,25}}?,?\s(?:doing|studying|reading|to study)\s)",
       0.8, require_mention=True, object_type="organisation", negatable=False, trigger="starting at|started at|starts at"),
    en("WORKS_AT", rf"(?:\b(?:starting|start|started|starts) at|(?<!,\s)\b(?:starting|start|started|starts) with) "
       rf"(?:an? (?:[\w-]+ ){{0,2}}?[\w-]+(?:, | called | named ))?+"
       rf"(?=(?-i:[A-Z]))(?!{_SCHOOL})(?![^.!?;]{{0,40}}?,?\s(?:doing|studying|reading|to study)\s){EN_OBJ}", 0.75,
       require_mention=True, strict=True, object_type="organisation", negatable=False,
       trigger="starting at|start at|started at|starts at|starting with|start with|started with|starts with"),
    en("WORKS_AT", rf"\b(?:hired by|got a job (?:at|with)|(?:a|my|new|side|part-time|freelance) gig (?:at|with|w/)) {EN_OBJ}", 0.8, require_mention=True,
       trigger="hired by|got a job|gig"),
    en("WORKS_AT", rf"\b(?:manages|leads|runs|heads|oversees|handles|I manage|I lead|I run|I head|I oversee) "
       rf"(?:the |our )?(?:[\w-]+\s){{1,3}}?at {EN_OBJ}", 0.75, require_mention=True, object_type="organisation",
       trigger="manage|lead|run|head|oversee|handle"),  # "manages procurement at Umbrella Health"
    en("WORKS_AT", rf"(?<!for )(?:a |my |his |her |their )new (?:job|role|position) (?:at|with) {EN_OBJ}", 0.8,
       require_mention=True, trigger="new job|new role|new position"),  # "I started a new job at Stripe last week"
    en("WORKS_AT", rf"(?<!for a )(?<!for the )(?<!for a new )(?<!for her )(?<!for his )(?<!for my )"
       rf"(?<!love )(?<!enjoy )(?<!loved )(?<!enjoyed )(?<!like )"  # "I love working with…": a partner
       rf"\b(?:work|works|working|worked|job|employed)\s(?:at|for|with(?! the (?:[A-Z]\w+ ){{1,3}}team\b)) {EN_OBJ}",
       require_mention=True, trigger="work|job|employed", past="LEFT_ORGANISATION"),
    # "He moved there last year for a job at REI": moving for a job is taking it, however long ago
    en("WORKS_AT", rf"\b(?:moved|moving|moves|relocated|relocating|came|left)\b[^.;!?]{{0,40}}?\bfor (?:a|the|a new|"
       rf"her|his|my) job (?:at|with) {EN_OBJ}", 0.8, require_mention=True, negatable=False, trigger="job"),
    en("WORKS_AT", rf"\b(?:employed by|joined the team at|(?:got|landed|took|accepted|left for|started|starting) (?:a|the|her|his|my) "
       rf"(?:new )?(?:job|role|position)(?: of [\w&/ -]{{2,40}}?| as (?:an? )?[\w&/ -]{{2,40}}?| (?:in|on|from|next) \w+(?= (?:at|with) (?-i:[A-Z])))? (?:at|with)"
       rf"|started (?:a new job )?at|hired by|"
       rf"got hired at|interning at|intern at) {EN_OBJ}", 0.85, require_mention=True,
       trigger="employed by|joined the team|job|role|position|started|hired|intern|left for"),
    en("WORKS_AT", rf"\b(?:joined|joining|joins|will join|(?:leaving|leaves|left|quit|quitting)\b[^.;]{{0,40}}?\bto join) {EN_OBJ}"
       rf"(?=(?:\s(?:in|on|last|this|back in)\s\w+)?\sas\s(?:(?:a|an|the|our|their)\s)?(?:new\s)?"
       rf"(?!student|volunteer|officer|intern){EN_ROLE}\b)", 0.85,
       require_mention=True, object_type="organisation", trigger="join"),  # joined Acme (in May) as head of…, joining
    # "I accepted an offer from Norrland Systems", "accepted Ferrowind's offer": the employer to be (not
    # what we or they accept: "We accepted an offer from the Hendersons on our house")
    en("WORKS_AT", rf"{_ONES_OWN_ACCEPTANCE}(?:the |an |their |a )?(?:job )?offer (?:from|at|with) "
       rf"{EN_OBJ}", 0.8, require_mention=True, object_type="organisation", trigger="offer"),
    en("WORKS_AT", rf"{_ONES_OWN_ACCEPTANCE}(?P<obj>{EN_CAPS})['’]s (?:job )?offer\b", 0.8,
       require_mention=True, object_type="organisation", trigger="offer"),
    # "Lisa Tran is leaving to join Nordstrom": leaving for another employer is joining it
    en("WORKS_AT", rf"\b(?:leaving|leaves|left|quit|quitting|resigned|resigning)\b[^.;]{{0,40}}?\bto join {EN_OBJ}", 0.8,
       require_mention=True, strict=True, object_type="organisation", negatable=False, trigger="to join"),
    # "I'm no longer at Deloitte": an employer left (not "no longer at the office")
    en("LEFT_ORGANISATION", rf"\b(?:I'm|I am|he's|she's|he is|she is|[A-Z][a-z]+ is) no longer (?:at|with) "
       rf"(?=(?-i:[A-Z])){EN_OBJ}", 0.8, require_mention=True, strict=True, object_type="organisation",
       negatable=False, trigger="no longer"),
    en("STUDIES_AT", rf"\b(?:study|studies|studying|student|enrolled|a freshman|a sophomore|a junior|a senior)"
       rf"\s(?:at|in) {EN_OBJ}", 0.85, require_mention=True,
       trigger="study|studies|studying|student|enrolled|freshman|sophomore|junior|senior"),
    en("HAS_ROLE", rf"\b(?:I'm|I am|is|am|(?<=\bhe)'s|(?<=\bshe)'s|(?<=[a-z])'s(?=\s(?:a|an)\s)|I'll be|will be|works as|work as|working as|"
       rf"serves as|became|become|becomes|job as|"
       rf"career as|hired as|promoted to|might be|may be|could be|must be|(?:was|were|has been|is being) (?:named|appointed))\s(?:now\s|also\s|currently\s|"
       rf"officially\s|no longer\s|not\s)?(?:a|an|the|our|their)?\s?"
       rf"(?:new\s|full-time\s|part-time\s)?"
       rf"(?P<obj>{EN_ROLE})\b(?!\s(?:of|at)\s(?!(?:the|our|my|their|his|her)\s)(?-i:[a-z]))"
       rf"(?!,?\s(?-i:[A-Z][a-z]+\s[A-Z][a-z]+))",  # "signer is their CEO Tomasz Nowicki": his role
       trigger=EN_ROLE_TRIGGER, object_type="role", kind="entity", stop="LEFT_ROLE"),
    # "I'm a dental hygienist", "she's a secondary school chemistry teacher": a role with modifiers of its own
    # after "a"/"an" (those of the table are read above); not "a really good teacher"
    en("HAS_ROLE", rf"\b(?:I'm|I am|(?<=\bhe)'s|(?<=\bshe)'s|he is|she is|works as|work as|working as|job as)\s(?:now\s)?"
       rf"(?:a|an)\s(?P<obj>(?:(?:{_MODIFIER}|(?-i:[A-Z]{{2,4}}))\s){{1,3}}?{EN_ROLE})\b"
       r"(?!\s(?:of\s|at\s(?!(?:a|an|the)\s))(?-i:[a-z]))",
       0.8, object_type="role", kind="entity", stop="LEFT_ROLE", trigger=EN_ROLE_TRIGGER),
    # "Kestrel Foods has a new IT director, Paula Grant": who holds a role, said after it
    en("HAS_ROLE", rf"\bhas (?:a |an )?(?:new |interim |acting )(?P<obj>{EN_ROLE}),\s(?P<subj>{EN_PERSON_NAME})\b",
       0.75, subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role",
       introduces=True, trigger=EN_ROLE_TRIGGER),
    # "we've hired Beatriz Santos as our new Head of Design": the one hired holds it, not the writer
    en("HAS_ROLE", rf"\b(?:hired|appointed|named|promoted|brought on|brought in) (?P<subj>{EN_PERSON_NAME}) as (?:our |the |their "
       rf"|a |an )?(?:new |interim |acting )?(?P<obj>{EN_ROLE}|{EN_TITLE})\b", 0.8, subject="group", subject_type="person",
       named_subject=True, kind="entity", object_type="role", trigger="hired|appointed|named|promoted|brought"),
    # "Ben Hartley takes over as inbound sales lead", "joins today as our new Data Engineering Manager",
    # "led by Marta Silva as Country Manager": a role taken on, said after "as" without an article
    en("HAS_ROLE", rf"(?<!\bto )(?<!not )(?<!n't )(?<!might )(?<!may )(?<!could )(?<!would )"
       rf"\b(?:takes|took|taking|take|will take) over as (?:the |our |their )?(?:new |interim |acting )?"
       rf"(?P<obj>{EN_ROLE})\b", 0.8, kind="entity", object_type="role", supposable=True, trigger="over as"),
    en("HAS_ROLE", rf"\b(?:joins|joined|joining|starts|started|starting|hired|appointed|named|returns|returning|"
       rf"stays on|staying on|stay on) (?:(?:today|now|this week|next week|on \w+)\s)?as (?:the |our |their |a |an )?"
       rf"(?:new |interim |acting )?(?P<obj>{EN_ROLE}|{EN_TITLE})\b", 0.8, kind="entity", object_type="role",
       supposable=True, trigger="as"),
    en("HAS_ROLE", rf"\bled by (?P<subj>{EN_PERSON_NAME}),? as (?:the |our |their )?(?:new |interim |acting )?"
       rf"(?P<obj>{EN_ROLE}|{EN_TITLE})\b", 0.8, subject="group", subject_type="person", named_subject=True,
       kind="entity", object_type="role", trigger="led by"),
    # "Bob Kerr was replaced by Dr. Amy Liu as CMIO", "…was replaced as CMIO by Dr. Amy Liu": the one after "by"
    en("HAS_ROLE", rf"\b(?:was|were|is|has been|will be) (?:replaced|succeeded) by (?:Dr\.? )?(?P<subj>{EN_PERSON_NAME}) as "
       rf"(?:the |our |their )?(?:new |interim |acting )?(?P<obj>{EN_ROLE}|{EN_TITLE})\b", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", trigger="replaced|succeeded"),
    en("HAS_ROLE", rf"\b(?:was|were|is|has been|will be) (?:replaced|succeeded) as (?:the |our |their )?"
       rf"(?P<obj>{EN_ROLE}|{EN_TITLE}) by (?:Dr\.? )?(?P<subj>{EN_PERSON_NAME})", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", trigger="replaced|succeeded"),
    # "Dr. Amy Liu replaced Bob Kerr as CMIO": the one replacing holds it (before the next pattern, which
    # would give it to the one replaced)
    en("HAS_ROLE", rf"\b(?P<subj>{EN_PERSON_NAME}) (?:replaced|replaces|is replacing|will replace|succeeded|succeeds|"
       rf"will succeed) {EN_PERSON_NAME} as (?:the |our |their )?(?:new |interim |acting )?(?P<obj>{EN_ROLE}|{EN_TITLE})\b",
       0.8, subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role",
       trigger="replace|succeed"),
    # an apposition (", our CTO"; not ", our CEO Miriam Sato" nor ", their head of procurement is now Marta
    # Kowal": a role before a name) or "as CTO" (not
    # "joined us as": the one who joined, read below)
    en("HAS_ROLE", rf"(?:,\s(?:a|an|the|our|their)\s(?:new\s|current\s)?"
       rf"(?!{EN_ROLE}(?:,?\s|\s(?:is|was|will be)\s(?:now\s)?)(?-i:[A-Z][a-z]+\s[A-Z][a-z]+))"
       rf"(?={EN_ROLE}\b(?:\s*(?:[,.;!?()—–]|$)|\s(?:at|of|with|for|from|in|on)\s))|"  # closed, not ", our CEO can only…"
       rf"(?<!down )(?<!retired )(?<!retiring )(?<!\bus )(?<!\bteam )\bas\s(?:(?:a|an|the|our|their)\s(?:new\s|interim\s|acting\s)?(?!pilot\b(?!\s(?:for|at|with)\b))|(?=(?:[\w-]+\s){{0,2}}(?:head|vp|svp|evp|director|chief|"
       rf"ceo|cto|cfo|coo|cio|cmo|cmio|ciso|cro|cpo|gm|president)\b)))(?P<obj>{EN_ROLE})\b(?!\s(?:of|at)\s(?!(?:the|our|my|their|his|her)\s)(?-i:[a-z]))", 0.8,
       trigger=EN_ROLE_TRIGGER, object_type="role", kind="entity"),
    # "Their IT director is Amélie Roux", "Coldwater Mining's IT lead is Brandon Pike", "Interim CTO will be Devansh
    # Rao": who holds a role said first (not "The designer is Mark's friend")
    en("HAS_ROLE", rf"(?:\b(?:our|my|the|their|his|her|its)\s|{_CLAUSE_START}|['’]s\s|(?<=,\s)(?=new\s))(?:new\s|current\s)?(?P<obj>{EN_ROLE})\s"
       rf"(?:is|was|will be)\s(?:now\s)?(?P<subj>(?-i:[A-Z][^\W\d_]+(?:\s[A-Z][^\W\d_]+)?))\b(?!['’]s)", 0.8,
       subject="group", subject_type="person", kind="entity", object_type="role", trigger=EN_ROLE_TRIGGER),
    # "Their CFO Maria Chen approved it", "our sales director, Wang Lei, will visit": a role before a name
    # (not "her manager Pieter Vos": whom she reports to)
    en("HAS_ROLE", rf"(?<!I'm )(?<!I am )\b(?:our|my|the|their|his|her)\s(?:new\s|current\s)?(?!(?:manager|boss|supervisor)\b)(?P<obj>{EN_ROLE}),?\s"
       rf"(?P<subj>{EN_PERSON_NAME})\b", 0.75, subject="group", subject_type="person",
       named_subject=True, kind="entity", object_type="role", trigger=EN_ROLE_TRIGGER),
    # "Store manager Keith Danvers says…", "Owner Chidi Okafor makes the call": a role titling a name
    # that opens a clause is the role of a person of the organisation named before
    en("HAS_ROLE", rf"{_CLAUSE_START}{_NOT_A_TASK_OWNER}(?P<obj>{EN_ROLE})\s(?P<subj>{EN_PERSON_NAME})\b", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", trigger=EN_ROLE_TRIGGER),
    en("WORKS_AT", rf"{_CLAUSE_START}{_NOT_A_TASK_OWNER}{EN_ROLE}\s(?P<subj>{EN_PERSON_NAME})\b(?P<obj>)", 0.65, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="organisation", antecedent=True,
       trigger=EN_ROLE_TRIGGER),
    # "Dr. Anita Rao, their CMO", "Their controller Mike Dunn": a role of the organisation named before
    en("WORKS_AT", rf"\b(?P<subj>{EN_PERSON_NAME}),\s(?P<obj>their)\s(?:new\s|current\s)?{EN_ROLE}\b", 0.7,
       subject="group", subject_type="person", named_subject=True, kind="entity", object_type="organisation",
       trigger="their"),
    # "Their partner manager is Derek Lam", "their IT lead (Gemma) is out", "their sponsor is Maya Rosen"
    en("WORKS_AT", rf"\b(?P<obj>their)\s(?:new\s|current\s)?(?:{EN_ROLE}|sponsor|champion)(?:,?\s|\s(?:is|was|will be)\s(?:now\s)?|\s\()"
       rf"(?P<subj>{EN_PERSON_NAME})\b", 0.7,
       subject="group", subject_type="person", named_subject=True, kind="entity", object_type="organisation",
       trigger="their"),
    # "Quantix's champion Ben Okafor", "Coldwater Mining's IT lead is Brandon Pike": whoever holds a role of
    # an organisation works there (not one who "moved to Tidewave Shipping" since)
    en("WORKS_AT", rf"\b(?P<obj>{EN_CAPS})['’]s\s(?:new\s|current\s|main\s)?(?:{EN_ROLE}|champion)"
       rf"(?:\s(?:is|was|will be)(?:\snow)?)?,?\s(?P<subj>{EN_PERSON_NAME})\b(?!['’]s)"
       r"(?![^.;!?]{0,40}?\b(?:moved|left|quit|joined|jumped|switched|went|resigned)\b)", 0.75,
       subject="group",
       subject_type="person", named_subject=True, require_mention=True, strict=True, object_type="organisation",
       introduces=True, trigger="'s|’s"),
    en("REPORTS_TO", rf"(?<!\bexport )(?<!\bexporting )(?<!\bsend )(?<!\bsends )(?<!\bsending )(?<!\bthe )\breports? "
       rf"(?:directly )?to (?:(?:their|the|our|his|her) (?:new |current )?{EN_ROLE},? )?{EN_NAME}",
       0.85, require_mention=True),  # "reports to their CFO, Nina Park" (not "can't export reports to PDF")
    en("REPORTS_TO", rf"\b(?P<obj>{EN_PERSON_NAME}) (?:now |directly |will )*report(?:s|ing)? (?:directly )?to me\b",
       0.8, subject="speaker", inverse=True, kind="entity", object_type="person", require_mention=True,
       trigger="report"),  # "Arjun reports to me": the speaker's report
    en("REPORTS_TO", r"\b(?:reports?|reporting) (?:directly )?to (?P<obj>him|her)\b", 0.8, kind="entity",
       object_type="person", trigger="report"),  # "Dev Patel, who reports to her"
    en("REPORTS_TO", rf"\bmy (?:boss|manager|supervisor|line manager) is (?:now )?(?:(?:Prof|Dr)\.?\s)?(?!(?:Prof|Dr)\b){EN_NAME}", 0.85,
       require_mention=True, trigger="my boss|my manager|my supervisor|my line manager"),
    # (not "switched from Comcast to Verizon Fios": a provider or a tool changed, USES)
    en("ASSIGNED_TO", rf"\b(?:reassigned|moved|transferred) from (?:the )?(?!{EN_A_DAY})(?P<prev>{EN_CAPS}(?: \w+)?) "
       rf"to (?:the )?{EN_OBJ}", 0.85, kind="entity", object_type="project", require_mention=True,
       trigger="reassigned|moved from|transferred"),
    en("UNASSIGNED_FROM", rf"\b(?:reassigned|moved|transferred|taken off|removed) from (?:the )?{EN_OBJ}",
       0.85, kind="entity", object_type="project", require_mention=True,
       trigger="reassigned|moved from|transferred|taken off|removed from", negatable=False),
    en("ASSIGNED_TO", rf"\b(?:assigned|reassigned|staffed|put|transferred) (?:to|on) (?:the )?{EN_OBJ}", 0.85,
       kind="entity", object_type="project", require_mention=True,
       trigger="assigned|staffed|put on|put to|transferred to|transferred on"),
    # "Grace Okafor will take over my Pinecrest Bank and Halcyon Foods accounts": one fact each, said of
    # a named person (not "hackers tried to take over my Gmail and Twitter accounts")
    en("RESPONSIBLE_FOR", rf"\b(?P<subj>{EN_PERSON_NAME}) (?:will |'ll |is going to |has |just )?(?:takes?|took|taken) over "
       rf"(?:the |our |their |my |his |her )?(?P<obj>{EN_CAPS}(?:(?:,|,? and) {EN_CAPS})+) accounts\b", 0.75,
       subject="group", subject_type="person", named_subject=True, kind="value", negatable=False, split=True,
       handover=True, trigger="take over|takes over|took over|taken over"),
    en("RESPONSIBLE_FOR", r"\b(?:took over|taken over|taking over|inherited|picked up) (?:the |our |their |all )?"
       r"(?P<obj>[\w' -]{2,40}?(?:accounts?|clients?|customers?|region|territory|portfolio|team|market))\b",
       0.8, kind="value", handover=True, trigger="took over|taken over|taking over|inherited|picked up"),
    # "I'm no longer the Scrum master for the mobile team; Raj took over.": the role said before
    en("HAS_ROLE", rf"\b(?P<subj>{EN_PERSON_NAME}) (?:took|takes|has taken|will take|is taking) over(?P<obj>)(?=\s*[.;!]|$)",
       0.75, subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role",
       antecedent=True, negatable=False, trigger="over"),
    # "Jamal takes over EMEA partnerships from me", "Kenji picks up Halden": someone takes a named thing on
    # (not "took over Gerald's role": whose it was)
    en("RESPONSIBLE_FOR", rf"\b(?:takes?|took|taking|taken) over (?:the |our |their )?(?!{_WEEKDAY}\b)"
       rf"(?P<obj>{EN_CAPS}(?:\s{_HANDED})?)(?<!['’]s)(?=[\s.,;!?]|$)", 0.75, kind="value", negatable=False,
       handover=True, trigger="take over|takes over|took over|taking over|taken over"),
    en("RESPONSIBLE_FOR", rf"\b(?:picks?|picked|picking) up (?:the |our |their )?"
       rf"(?P<obj>{EN_CAPS}(?:\s{_HANDED})?)(?=[\s.,;!?]|$)", 0.75, kind="value", require_mention=True,
       negatable=False, handover=True, trigger="pick up|picks up|picked up|picking up"),
    # "I'm handing the Initech renewal over to Sofia", "Carla handed the Umbrella account to Dev"
    en("RESPONSIBLE_FOR", rf"\b(?:hand|hands|handed|handing|pass|passes|passed|passing) (?:the |our |my )?"
       rf"(?P<obj>{EN_CAPS}(?:\s(?:{_HANDED}|renewal|contract|project))?) (?:over )?to (?P<subj>{EN_PERSON_NAME})\b", 0.75,
       subject="group", subject_type="person", named_subject=True, kind="value", negatable=False, handover=True,
       trigger="hand|passe|passing|pass "),
    # "Jonas will take over audit logs", "I'm taking over the webinar series": a duty in lower case (a named
    # one is read above), by whom the clause opens on; not "took over the conversation"
    en("RESPONSIBLE_FOR", rf"{_HOLDER}(?:takes?|took|taken|taking) over (?:the |our |their |all (?:of )?(?:the |our )?)?"
       rf"(?!conversation|chat|call|meeting|room|house|kitchen|living room|world|internet|country)"
       rf"(?!(?:my |his |her |their )?(?:\w+ )?accounts? \()(?:my )?{_DUTIES}",
       0.75, subject="group", subject_type="person", named_subject=True, kind="value", negatable=False,
       handover=True, split=True, trigger="take over|takes over|took over|taking over|taken over"),
    # "Björn will cover the DACH accounts", "Gabriel covers my accounts", "I'm covering Crane & Hollis and
    # Halvorsen Logistics": accounts or a queue covered (not "covers the costs", "cover letter")
    en("RESPONSIBLE_FOR", rf"{_HOLDER}(?:covers?|covering) (?:for \w+ on )?(?:the |our |all (?:of )?(?:the |our )?)?(?:my )?"
       rf"(?P<obj>(?:[\w&'’/-]+ ){{0,3}}{_DUTY_HEAD})\b", 0.75, subject="group", subject_type="person",
       named_subject=True, kind="value", negatable=False, trigger="cover"),
    en("RESPONSIBLE_FOR", rf"{_HOLDER}(?:covers?|covering) (?:the |our )?(?P<obj>{EN_CAPS}(?:(?:,|,? and) {EN_CAPS})*)"
       rf"(?: accounts?)?(?=\s(?:while|until|till|through|during|for|from|this|next|starting)\b|\s?[(.;!?—–]|,\s|$)",
       0.7, subject="group", subject_type="person", named_subject=True, kind="value", require_mention=True,
       negatable=False, split=True, trigger="cover"),
    # "Tomasz will take over her accounts (Lumen Bank and Oakridge Dental)": the accounts named after it
    en("RESPONSIBLE_FOR", rf"{_HOLDER}(?:take|takes|took|taking|cover|covers|covering) (?:over )?(?:my|his|her|their) "
       rf"(?:\w+ )?accounts? \((?P<obj>{EN_CAPS}(?:(?:,|,? and) {EN_CAPS})*)\)", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="value", require_mention=True, negatable=False, split=True,
       handover=True, trigger="accounts ("),
    # "Sofia Marchetti now leads the streaming ingestion project", "Sofia's running the migration"
    en("RESPONSIBLE_FOR", rf"{_HOLDER}(?:leads?|leading|lead|runs?|running|run|owns?|owning|own|drives?|driving|"
       rf"coordinates?|coordinating) (?:the |our |this )(?P<obj>(?:[\w&'’/-]+ ){{0,3}}{_PROJECT_HEAD})\b", 0.75,
       subject="group", subject_type="person", named_subject=True, kind="value", stop="UNASSIGNED_FROM",
       trigger="lead|run|own|driv|coordinat"),
    # "Farah is the new owner of the onboarding flow", "Gabriel is now responsible for all public-sector accounts"
    en("RESPONSIBLE_FOR", r"\b(?:is|'s|am|'m|are|will be) (?:now |also )?(?:the )?(?:new )?(?:owner of|responsible for) "
       rf"(?:the |our |all (?:of )?(?:the |our )?)?{_DUTIES}", 0.75, kind="value", split=True,
       stop="UNASSIGNED_FROM", trigger="owner of|responsible for"),
    # "I handed the webinar series over to Tariq": a duty handed on in lower case
    en("RESPONSIBLE_FOR", rf"\b(?:hand|hands|handed|handing|pass|passes|passed|passing) (?:the |our |my )"
       rf"(?P<obj>(?:[\w&'’/-]+ ){{0,3}}?(?:{_PROJECT_HEAD}|{_DUTY_HEAD})) (?:over )?to (?P<subj>{EN_PERSON_NAME})\b",
       0.75, subject="group", subject_type="person", named_subject=True, kind="value", negatable=False,
       handover=True, trigger="hand|passe|passing|pass "),
    # "My accounts go to Tasha: Pinecrest Bank, Orchard Health and Meridian Freight"; "Bianca takes over
    # Greyhaven Dental and Luis gets Northgate Realty": accounts handed on, each to whom the clause names
    en("RESPONSIBLE_FOR", rf"\b(?:my|his|her|their|our) (?:\w+ )?accounts (?:go|are going|will go|went) to "
       rf"(?P<subj>{EN_PERSON_NAME})[:,]? (?P<obj>{EN_CAPS}(?:(?:,|,? and) {EN_CAPS})*)(?=\s*[.;!]|$)", 0.75,
       subject="group", subject_type="person", named_subject=True, kind="value", require_mention=True, split=True,
       negatable=False, handover=True, trigger="accounts go|accounts are going|accounts will go|accounts went"),
    en("RESPONSIBLE_FOR", rf"\btakes? over\b[^.;!?]*?\band (?P<subj>{EN_PERSON_NAME}) (?:gets|takes|picks up) (?:the )?"
       rf"(?P<obj>{EN_CAPS})(?: account)?(?=\s*[.;,!]|$)", 0.7, subject="group", subject_type="person",
       named_subject=True, kind="value", require_mention=True, negatable=False, trigger="gets|takes|picks up"),
    # a hand-over note's lines: "Kestrel Foods account → Bilal Haddad", "Northwind Pharma → Camille"
    en("RESPONSIBLE_FOR", rf"(?P<obj>{EN_CAPS})(?: account)?\s?(?:→|->)\s?(?P<subj>{EN_PERSON_NAME})(?=\s?[;,.]|\s*$)",
       0.7, subject="group", subject_type="person", named_subject=True, kind="entity",
       object_type="organisation", require_mention=True, negatable=False, trigger="→|->"),
    # "Duncan will be your point of contact for the Mercer Dental and Oakridge Vet accounts"
    en("RESPONSIBLE_FOR", rf"\b(?:point of contact|main contact|go-to person|POC) for (?:the |our |your )?"
       rf"(?P<obj>{EN_CAPS}(?:(?:,| and) {EN_CAPS})*)(?: accounts?)?\b", 0.75, kind="value", split=True,
       negatable=False, trigger="point of contact|main contact|go-to person|poc"),
    # "Priya rolls off the Halden Bank migration and onto Project Orion"
    en("UNASSIGNED_FROM", r"\b(?:rolls?|rolled|rolling) off (?:the )?(?P<obj>[^,.;!?]{1,60}?)(?=\s+and\s+onto\b|[,.;!?]|$)",
       0.8, kind="entity",
       object_type="project", require_mention=True, negatable=False, trigger="roll off|rolls off|rolled off|"
                                                                              "rolling off"),
    en("ASSIGNED_TO", rf"\b(?:rolls?|rolled|rolling) off\b[^.;!?]*?\band onto (?:the )?{EN_OBJ}", 0.8, kind="entity",
       object_type="project", require_mention=True, trigger="onto"),
    en("UNASSIGNED_FROM", rf"\b(?:I'm|I am|we're|we are) (?:not|no longer) (?:on|working on|part of) (?:the )?"
       rf"(?!(?:Facebook|Instagram|Twitter|TikTok|LinkedIn|WhatsApp|Snapchat|Reddit|Threads|Bluesky|Mastodon)\b)"
       rf"(?P<obj>{EN_CAPS}(?: project| team| launch| migration| rollout)?)", 0.8, kind="entity",
       object_type="project", negatable=False, trigger="not on|no longer on|not working on|no longer working on|"
       "not part of|no longer part of"),
    en("RESPONSIBLE_FOR", rf"\b(?:handles?|handling|handled|covers?|covering|looks? after|looking after|manages?|"
       rf"managing|owns?|owning|runs?|running) (?:the |our )?(?P<obj>{EN_CAPS}) account\b", 0.8, kind="entity",
       object_type="organisation", require_mention=True, stop="UNASSIGNED_FROM",
       trigger="handl|cover|look|manag|own|run"),  # "Priya handles the Globex account"
    en("RESPONSIBLE_FOR", rf"\blast day (?:on|with) (?:the |our )?(?P<obj>{EN_CAPS}) account\b", 0.8, kind="entity",
       object_type="organisation", require_mention=True, negatable=False, ends=True, trigger="last day"),
    en("WORKS_AT", rf"\blast day (?:at|with) {EN_OBJ}", 0.8, require_mention=True, negatable=False, ends=True,
       trigger="last day"),  # "her last day at Initech is Friday": the job ends then
    en("RESPONSIBLE_FOR", rf"\b(?:in charge of|responsible for|i handle|i own(?! an?\s)(?!\s\d)|i cover|i look after) "
       rf"(?:the |our )?{EN_OBJ}", 0.8, kind="value",  # not "I own a red Vespa": a possession
       trigger="in charge of|responsible for|i handle|i own|i cover|i look after", stop="UNASSIGNED_FROM"),
    en("MANAGES", r"\b(?:I manage|I lead|I run|I head|manages|leads|runs|heads) (?:the |our |a )?"
       r"(?P<obj>(?:[\w-]+\s){0,3}?(?:team|department|group|squad|division|unit|office|branch|plant|lab|store))"
       r"\b", 0.8, kind="value",
       trigger="manage|lead|run|head"),
    en("WORKS_ON", r"\b(?:a|an|the|my)\s(?P<obj>(?:(?!\s(?:and|but|so|at|for|with)\s)[\w' -]){3,40}?)\s(?:that\s|which\s)?I(?:'m| am) "
       r"(?:currently |now )?working on", 0.75, kind="value", trigger="working on"),
    en("WORKS_ON", rf"\b(?:I'm|I am|I've been|we're|we are) (?:currently |now |still )?working on "
       rf"(?:a |an |my |our |the )?{EN_OBJ}", 0.75, kind="value", trigger="working on"),
    # "he's taken a role at Stripe", "Hannah here, now at Corvid Analytics", "I've been at Bosch since March",
    # "Ansel Kroft (CFO, Verity Mining)": an employer said in passing (not "been at the airport since 6am")
    en("WORKS_AT", rf"\b(?:taken|took|accepted|taking|accepting) (?:a|the|an?\s[\w-]+) (?:role|job|position) (?:at|with) "
       rf"(?P<obj>{EN_CAPS})", 0.8, require_mention=True, strict=True, object_type="organisation",
       trigger="taken|took|accepted|taking|accepting"),
    en("WORKS_AT", rf"\bhere,\snow at (?P<obj>{EN_CAPS})", 0.8, require_mention=True, strict=True,
       object_type="organisation", trigger="now at"),
    en("WORKS_AT", rf"\b(?:'ve|have|'s|has) been at (?P<obj>{EN_CAPS}) (?=since (?:(?:19|20)\d\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
       rf"last (?:year|month|spring|summer|autumn|fall|winter))|for (?:\d+|a few|several|many|two|three|four|five|six|"
       rf"seven|eight|nine|ten) (?:years|months)\b)", 0.8, require_mention=True, strict=True,
       object_type="organisation", trigger="been at"),
    en("WORKS_AT", rf"\b(?P<subj>{EN_PERSON_NAME}) \((?:{EN_ROLE}), (?P<obj>{EN_CAPS})\)", 0.8, subject="group",
       subject_type="person", require_mention=True, strict=True, object_type="organisation", trigger="("),
    en("VOLUNTEERS_AT", rf"\bvolunteer(?:s|ed|ing)? (?:at|with|for|in) (?:a |an |the |our |my )?{EN_OBJ}", 0.85,
       kind="value", trigger="volunteer"),
    en("SPONSORED_BY", rf"\b(?:sponsored by|endorsement deal with|sponsorship (?:deal )?with|signed with) "
       rf"{EN_OBJ}", 0.8, require_mention=True, trigger="sponsored by|endorsement|sponsorship|signed with"),
)  # fmt: skip
