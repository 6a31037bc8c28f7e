"""English fact patterns of money, dates and deals: budgets, prices, deadlines, meetings, orders,
contracts and their ids (a part of the English table, ``engram.ingest.patterns_en``, in its place).

Ordered as that table is; see ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import (
    EMAIL_ADDRESS,
    EN_AMOUNT,
    EN_CAPS,
    EN_DATE,
    EN_DAY_WORD,
    EN_NAME,
    EN_NEAR_DAY,
    EN_NOT_A_MODEL,
    EN_OBJ,
    EN_PERSON_NAME,
    EN_ROLE,
    EN_TITLE,
    Pattern,
    pattern,
)

en = partial(pattern, "en")
_MEETINGS = (
    r"meeting|meet|call|sync|catch-up|standup|demo|review|kickoff|kick-off|check-in|walkthrough|"
    r"walk-through|QBR|workshop|onsite|on-site|interview|appointment|presentation|webinar|debrief|"
    r"retro|huddle|one-on-one|1:1"
)
"""What a meeting is called: a trigger word of MEETING_AT."""
_NOT_WISHED = "".join(
    rf"(?<!luck {preposition} {determiner} {word})"
    for preposition in ("with", "on", "for", "at")
    for determiner in ("the", "your")
    for word in ("", *(rf"[a-z]{{{n}}} " for n in range(2, 11)))
)
"""A meeting wished well is the listener's, not the speaker's ("good luck with the pitch meeting")."""

_MONTH_DAY = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d|\d{1,2}(?:/\d{1,2}|(?:st|nd|rd|th)? (?:of )?(?-i:[A-Z]))"
"""A date said by its month and day ("March 3", "Sept 16", "7/22", "3rd of May"), not a weekday or a time."""

_COUNTED = (
    "units|seats|licenses|licences|devices|users|boxes|pieces|pcs|cases|pairs|kits|pallets|reams|bottles|rolls|"
    "packs|cartons|sets|crates|bags"
)
"""What an order counts (1,200 pairs of gloves, 40 cases of bottles)."""

_SIGNED = rf"^(?:[—–-]{{1,2}}\s?|(?:best|thanks|regards|cheers|best regards|kind regards),?\s+)(?P<subj>{EN_PERSON_NAME})\s?[,|]\s?"
"""A signature line's opening: a dash or a sign-off, then the writer's name ("— Owen Petrakis, …");
not any "Name, Name, Name" line ("Mark Twain, Tom Sawyer, Huck Finn")."""

_PRONOUN = r"(?-i:I|We|They|You|He|She)['’]"
"""A pronoun and its verb are no firm's name ("I've signed the order form": the writer did)."""

EN_DEAL_PATTERNS: tuple[Pattern, ...] = (
    # a signature line: "— Owen Petrakis, Account Executive, LedgerLine", "Best, Dana Lee | Head of Sales | Acme"
    en("WORKS_AT", rf"{_SIGNED}{EN_TITLE}\s?[,|]\s?(?P<obj>{EN_CAPS})\s*$", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="organisation", trigger=","),
    en("HAS_ROLE", rf"{_SIGNED}(?P<obj>{EN_TITLE})\s?[,|]\s?{EN_CAPS}\s*$", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", trigger=","),
    # ── money, dates and deals ───────────────────────────────────────────────────────────
    en("BUDGET", rf"\bbudget\b[^.!?\n]{{0,45}}?{EN_AMOUNT}", subject="topic", kind="amount"),
    en("BUDGET", rf"\b(?:a|an|the|our|their|its)\s{EN_AMOUNT}\s(?:annual\s|total\s|yearly\s|project\s)?budget\b",
       subject="topic", kind="amount", trigger="budget"),  # "They have a 200k SEK budget"
    en("PRICE", rf"\bat {EN_AMOUNT}\s(?:each|per (?:unit|seat|licen[cs]e|user|month|year)|apiece|a (?:piece|"
       rf"unit|seat|licen[cs]e|month|year))", 0.85, subject="topic", kind="amount",
       trigger="each|per|apiece|a piece|a unit|a seat|a licen|a month|a year"),
    # "gloves, $3.85 a pair": a unit price without "at" (not "$20,880 a year", a total, nor "mounting kits
    # €18 each", the price of what the words before it name)
    en("PRICE", rf"(?<![a-z] ){EN_AMOUNT}\s(?:each|apiece|per (?:unit|pair|piece)|a (?:piece|unit|pair|ream|case|kit|box|"
       r"bag|roll|carton|bottle|pack|crate|set|pallet))\b", 0.8, subject="topic", kind="amount",
       trigger="each|apiece|per|a piece|a unit|a pair|a ream|a case|a kit|a box|a bag|a roll|a carton|a bottle|"
               "a pack|a crate|a set|a pallet"),
    # "$22/device/yr", "$59/seat/mo", "$89 wholesale": a unit price
    en("PRICE", rf"\bat {EN_AMOUNT}(?:\s?/\s?(?:unit|seat|device|user|licen[cs]e|each|mo|month|yr|year)\b|\s(?:wholesale|"
       rf"retail|list)\b)", 0.85, subject="topic", kind="amount", trigger="/|wholesale|retail|list"),
    # "600 units of the TrailLite 2 tent", "40 seats of Ledgerly Pro", "350 devices on ClassGuard MDM"
    en("QUANTITY", rf"(?=\d)(?<![\w$.,]){EN_NOT_A_MODEL}(?P<obj>\d[\d,]*)\s(?:{_COUNTED})"
       r"\s(?:of|on|for|at)\s", 0.8, subject="topic", kind="number", trigger=_COUNTED),
    # "250 BP monitors at $41 each", "for 400 seats": a count of what is priced
    en("QUANTITY", r"(?<![\w$.,-])(?P<obj>\d[\d,]*)\s(?:(?!(?:with|and|for|of|to|in|on|by|from)\b)[\w-]+\s){0,2}?[A-Za-z]+s\s(?:at|@)\s(?=[$€£]|\d)", 0.75,
       subject="topic", kind="number", trigger=" at |@"),
    # "PO-8812: 40 first-aid kits, $1,140 each": a count of what is priced next
    en("QUANTITY", rf"(?<![\w$.,-])(?P<obj>\d[\d,]*)\s(?:(?!(?:with|and|for|of|to|in|on|by|from)\b)[\w-]+\s){{0,2}}?(?:{_COUNTED}),\s(?=[$€£]\d)", 0.75, subject="topic",
       kind="number", trigger=_COUNTED),
    en("QUANTITY", r"\bfor (?P<obj>\d[\d,]*)\s(?:seats|licen[cs]es|units|users|devices)\b", 0.75, subject="topic",
       kind="number", trigger="for"),
    # "the Ferrante order is 110 seats", "the renewal is now 55 seats": a deal's count said by a copula
    en("QUANTITY", r"\b(?:is|was|are|were)\s(?:now\s|only\s|actually\s|just\s)?(?P<obj>\d[\d,]*)\s"
       r"(?:seats|licen[cs]es|units|users|devices)\b", 0.75, subject="topic", kind="number", trigger="is|was|are|were"),
    # "the Ferrante order is $48,000", "the Osei contract came in at €62k": a deal's value said by a copula
    en("PRICE", rf"\b(?:deal|order|contract|renewal|agreement)\s(?:is|was|came in at|comes to|totals?|totalled)\s"
       rf"(?:now\s|only\s|actually\s)?{EN_AMOUNT}", 0.75, subject="topic", kind="amount",
       trigger="deal|order|contract|renewal|agreement"),
    # "Halvorsen Dental signed! 42 seats, 2-year term, $61,200 ACV": a signed deal's figures in a list
    en("QUANTITY", r"(?:^|(?<=[.!:;]\s)|(?<=,\s))(?P<obj>\d[\d,]*)\s(?:seats|licen[cs]es|users)(?=\s*[,.;]|$)", 0.75,
       subject="topic", kind="number", trigger="seats|licen|users"),
    en("PRICE", rf"(?<![\w$€£¥.,])(?<!\blost )(?<!\blost ~)(?<!\bat )(?<!\bat ~)(?<!= )(?<!=){EN_AMOUNT}\s?(?:ACV|ARR|TCV|total|/\s?(?:yr|year)\b)"
       r"(?=\s*[,.;)!]|$)", 0.75, subject="topic",  # not "Lost ~$14k ARR", "FY24 closed at $16.1M ARR", "= €28,000/yr"
       kind="amount", trigger="acv|arr|tcv|total|/"),
    en("ORDERED", rf"(?<!your )(?<!our )\b(?:order|ordered|placed|PO(?=\s)|signed|closed-won|closed|purchased?|bought)\b"
       rf"[^.!?]{{0,80}}?"  # not "confirm your order of …": the addressee's, who is not named
       rf"\b\d[\d,]*\s(?:{_COUNTED})\s(?:of|on|for)\s"
       rf"(?:the\s)?(?P<obj>{EN_CAPS}(?:\s\d+)?(?:\s[a-z]+){{0,2}})(?=\s(?:at|for|@)\b|[,.;]|$)", 0.75,
       subject="topic", kind="entity", object_type="product", trigger=_COUNTED),
    en("DEADLINE", rf"(?<!not )(?<!if )\b(?:delivered|shipped|installed|ship)\b"
       rf"[^.;!?]{{0,40}}?\b(?:no later than|by)\s{EN_DATE}",
       0.8, subject="topic", kind="date", trigger="no later than|by"),
    # "wants a fix or an RMA by April 12", "They need our failure analysis by Monday", "delivery by July 1":
    # what a customer asked for, or an order's delivery, by a day
    en("DEADLINE", rf"(?<!not )(?<!if )\b(?:wants?|needs?|asked for|asking for|expects?)\b[^.;!?]{{1,40}}?"
       rf"\b(?:no later than|by|before)\s{EN_DATE}", 0.75, subject="topic", named_topic=True, kind="date",
       supposable=True, trigger="want|need|asked for|asking for|expect"),
    en("DEADLINE", rf"\b(?:delivery|ship date|shipping date)\s(?:is\s|by\s|on\s|date is\s|no later than\s){EN_DATE}",
       0.8, subject="topic", named_topic=True, kind="date", trigger="delivery|ship date|shipping date"),
    # "They need them on site in Tacoma before Feb 9": when what was ordered must arrive
    en("DEADLINE", rf"\bneeds? (?:them|it|the (?:order|units|goods|kits|parts))\s(?:on site|delivered|shipped|here|there|"
       rf"installed|in|at)\b[^.;!?]{{0,40}}?\b(?:no later than|by|before)\s{EN_DATE}", 0.75, subject="topic",
       named_topic=True, kind="date", trigger="need"),
    en("PRICE", rf"\b(?:price|prices|priced|costs?|quoted|list price|quote of|signed at|signed for|renewed at|"
       rf"renewed for)\b[^.!?\n]{{0,20}}?{EN_AMOUNT}", 0.85,
       subject="topic", kind="amount", trigger="price|cost|quoted|quote of|signed at|signed for|renewed"),
    en("DISCOUNT", r"\b(?P<obj>\d{1,2}(?:\.\d)?\s?%) (?:off|discount)\b(?![^.;!?]*\b(?:if|once|provided)\b)", 0.8,
       subject="topic", kind="value", supposable=True, trigger="% off|% discount"),  # not "10% off if they pay…"
    en("DISCOUNT", r"\bdiscount (?:of|is|was|is now|stays at|at) (?P<obj>\d{1,2}(?:\.\d)?\s?%)", 0.8, subject="topic", kind="value",
       trigger="discount"),
    en("PAID", rf"\bpayment of {EN_AMOUNT} from (?:the )?(?P<subj>{EN_CAPS})", 0.85, subject="group",
       subject_type="organisation", kind="amount", trigger="payment of"),
    en("PAID", rf"\b(?:received|got|collected) (?:a |the |their )?(?:(?:payment|wire|transfer) of )?{EN_AMOUNT} "
       rf"(?:(?:payment|wire|transfer) )?from (?:the )?(?P<subj>{EN_CAPS})", 0.85, subject="group",
       subject_type="organisation", kind="amount", trigger="received|got|collected"),  # "Received $48,000 from Pioneer Ag"
    en("PAID", rf"\b(?P<subj>{EN_CAPS}) (?:sent|made|wired) (?:us )?(?:a |the |their )?(?:payment|wire|transfer) "
       rf"(?:of|for) {EN_AMOUNT}", 0.85, subject="group", subject_type="organisation", kind="amount",
       trigger="payment|wire|transfer"),  # "Vandelay Industries sent payment of $3,250 for April"
    en("PAID", rf"\b(?P<subj>{EN_CAPS}) (?:paid|has paid|transferred|wired) (?:us |the )?"
       rf"(?:(?!(?:milestone|phase|invoice|installment|instalment|tranche|part|number|no)\b)[\w-]+\s){{0,3}}?"
       rf"(?:of\s)?{EN_AMOUNT}", 0.85,
       subject="group", subject_type="organisation", kind="amount", trigger="paid|transferred|wired"),
    en("DEADLINE", rf"\b(?:deadline|(?<!['’]s )due date)\b(?:\s(?:is|was|has|moved|got|been|now|pushed|back|out|changed))*"
       rf"(?:\sfrom\s[^,;.]{{3,30}}?(?=\sto\s))?"  # "moved from June 14 to June 28": the new date
       rf"\s(?:to|on|for|by|is|at)?\s?{EN_DATE}", 0.85, subject="topic", kind="date",
       trigger="deadline|due date"),
    # "The remaining $48k is due Jan 15": a date right after "due", of something named (a baby due March 3,
    # "I'm due Friday for a checkup" and library books due back name none)
    en("DEADLINE", rf"(?<!n't )(?<!not )\bdue (?=(?-i:[A-Z0-9])){EN_DATE}", 0.8, subject="topic", kind="date",
       named_topic=True, trigger="due"),
    en("DEADLINE", rf"\b(?:is |are |it's |must be |needs to be |has to be )?due (?:by|on|before) {EN_DATE}", 0.85,
       subject="topic", kind="date", trigger="due"),
    en("LAUNCH_DATE", rf"(?<!not )(?<!n't )(?<!never )\b(?:will |to |is going to |is set to |is scheduled to |should )?"
       rf"(?:(?:launch|go live|goes live|(?<!press )release)(?:es|s|ing)? (?:on|by)|ship(?:s|ping)? on) "
       rf"(?!(?:Twitch|Instagram|YouTube|TikTok|Facebook|LinkedIn|air|stream)\b){EN_DATE}", 0.8, subject="topic",
       kind="date", supposable=True,
       trigger="launch|go live|goes live|ship|release"),
    en("LAUNCH_DATE", rf"\blaunch (?:date )?(?:is|was|moved to|set for|slipped to|pushed to|postponed to|delayed "
       rf"to|moved back to|is now) {EN_DATE}", 0.8, subject="topic",
       kind="date", trigger="launch"),
    # "go-live moved from July 8 to July 22", "target go-live March 3", "pushed go-live of the portal to May 6":
    # a project's launch, said by its usual names
    en("LAUNCH_DATE", rf"\b(?:go-?live|cutover)(?: date| target)?(?: (?:for|of) (?:the )?[^,;.()]{{2,40}}?)?(?: is| was)?(?: now| still)?"
       rf"(?: (?:moved|moves|pushed|slipped|slips|changed|set|targeted|scheduled|planned))?(?: from [^,;.()]{{2,25}}?)?"
       rf"(?: to| for| on| at|:)? (?={_MONTH_DAY}){EN_DATE}", 0.8, subject="topic", named_topic=True, kind="date",
       trigger="go-live|golive|cutover"),
    en("LAUNCH_DATE", rf"\b(?:pushed|moved|slipped|delayed) (?:the |their |our )?go-?live(?: of [^,;.()]{{2,40}}?)? "
       rf"(?:to|until) {EN_DATE}", 0.8, subject="topic", named_topic=True, kind="date", trigger="go-live|golive"),
    en("EXPIRES_ON", rf"\b(?:expires|expire|ends|runs out|is up for renewal)\s(?:on|by)\s{EN_DATE}", 0.8,
       subject="topic", kind="date", trigger="expire|ends|runs out|renewal"),
    # "The all-hands is moved to Thursday 3pm", "our team offsite is on October 9": an event's own day
    en("MEETING_AT", rf"\b(?P<subj>(?:(?:team|company|annual|quarterly|sales|summer|holiday|christmas|launch|"
       rf"engineering|product) )?(?:offsite|off-site|all-hands|town hall|party|retreat|hackathon|conference|summit|"
       rf"gala))\s(?:is|was|will be|has been|got)\s(?:now |officially |still )?(?:on|set for|scheduled for|moved to|"
       rf"pushed to|rescheduled to|confirmed for|booked for|planned for)\s{EN_DATE}", 0.8, subject="group",
       subject_type="event", kind="date", supposable=True,
       trigger="offsite|off-site|all-hands|town hall|party|retreat|hackathon|conference|summit|gala"),
    # not "on-call", nor a meeting wished well ("good luck with the presentation today": the listener's)
    # nor a task asked for ("please review by Thursday")
    en("MEETING_AT", rf"{_NOT_WISHED}(?<!-)(?<!\bon )(?<!please )(?<!pls )(?<!\bto )(?<!google )\b(?:{_MEETINGS})\b(?:\s[\w&'’-]+){{0,9}}?\s(?:(?:is|was) "
       rf"(?={EN_DAY_WORD})|(?={EN_NEAR_DAY})|(?:is |was |moved |set |scheduled |booked )?(?:at|on|for|to) )"
       rf"{EN_DATE}", 0.8,
       subject="topic", kind="date", supposable=True, trigger=_MEETINGS),
    # "Next meeting: April 30, 10am ET": a note's field (not "standup: yesterday finished …": its sections)
    en("MEETING_AT", rf"\b(?:next |our next |the next )?(?:{_MEETINGS})\s?[:：]\s?(?:on\s)?(?!\s*(?:yesterday|today)\b)"
       rf"{EN_DATE}", 0.8,
       subject="topic", kind="date", supposable=True, trigger=_MEETINGS),
    en("SIGNED", rf"\b(?!(?:Contract|Deal|Agreement|Order|Lease|Renewal|NDA|MSA|SOW|PO|It|This|That)\b|{_PRONOUN})(?P<subj>{EN_CAPS}) "
       rf"(?:has |just |finally )?signed (?![—–-])(?:the |a |an |our |their )?{EN_OBJ}", 0.8,
       subject="group", subject_type="organisation", kind="value", trigger="signed"),
    en("ORDERED", rf"\b(?!{_PRONOUN}|(?-i:I|We|They|You|He|She)\s)(?P<subj>{EN_CAPS}) (?:has |just )?(?:ordered|placed an order for|bought|purchased|"
       rf"signed up for) (?:\d[\d,]*\s)?(?:(?:more |new |extra )?(?:licen[cs]es|seats|units|copies|"
       rf"subscriptions|boxes|items|pieces) (?:of |for )?)?{EN_OBJ}", 0.85, subject="group",
       subject_type="organisation", require_mention=True, object_type="product", supposable=True,
       trigger="ordered|placed an order|bought|purchased|signed up"),
    # "Globex ordered 120 laptops", "Hooli is buying 60 Surface laptops": a counted product, named or not
    en("ORDERED", rf"\b(?P<subj>{EN_CAPS}) (?:has |just |also )?(?:ordered|placed an order for|is ordering|is buying|bought|"
       rf"purchased|signed for|is adding|added) (?:another |an extra |a further )?\d[\d,]* (?:more |new |extra )?"
       rf"(?:(?:{_COUNTED}) of (?:the )?)?(?P<obj>[A-Za-z][\w&'’-]*(?: [\w&'’-]+){{0,3}}?)"
       rf"(?= (?:at|@|for|by|through|from|under|with|delivered|shipped|next|this|before|via)\b|[,.;:!]|$)", 0.75,
       subject="group", subject_type="organisation", kind="entity", object_type="product", supposable=True,
       trigger="ordered|order for|ordering|buying|bought|purchased|signed for|adding|added"),
    en("CANCELLED", rf"(?<!threatening to )(?<!threatened to )(?<!threatens to )(?<!might )(?<!may )"
       rf"\b(?:cancelled|canceled|cancels|cancel|called off|terminated) (?:the |their |our |its |an? )?+"
       rf"(?:order |contract |subscription |deal |renewal |meeting )?+"
       rf"(?!effective\b|immediately\b|today\b|now\b|as of\b|starting\b){EN_OBJ}", 0.85, subject="topic",
       kind="value", supposable=True, trigger="cancel|called off|terminated", negatable=False),  # not "I'd like to cancel"
    en("STATUS", r"\b(?:is|are|was|has been|got)\s(?:now\s|officially\s)?(?P<obj>closed|paid|on hold|complete|"
       r"completed|done|delayed|live|overdue|approved|signed|pending|blocked|at risk|on track|cancelled|"
       r"canceled|shipped|delivered|resolved|postponed)\b", 0.75, subject="topic", named_topic=True, kind="value",
       trigger="closed|paid|on hold|complete|done|delayed|live|overdue|approved|signed|pending|blocked|"
               "at risk|on track|cancel|shipped|delivered|resolved|postponed"),
    # "Vireo Labs churned", "We lost Fairmont Hotels.": a customer lost
    en("STATUS", rf"\b(?!(?:Customer|Client|Account|They|We|It|Another|One)\b)(?P<subj>{EN_CAPS}) (?:has |have |just |"
       rf"officially )?(?P<obj>churned)\b", 0.75, subject="group",
       subject_type="organisation", kind="value", require_mention=False, supposable=True, trigger="churned"),
    en("STATUS", r"\b(?:we|I) (?:just |officially )?(?P<obj>lost) (?=(?-i:[A-Z])[\w&'’-]*(?: (?-i:[A-Z])[\w&'’-]*){0,3}"
       r"\s*(?:[.!;]|$))", 0.7, subject="topic", named_topic=True, kind="value", supposable=True, trigger="lost"),
    # "We lost the Cobalt Freight deal", "Lost the Meridian Freight deal (MF-7710)": the deal's status
    en("STATUS", r"(?<!if we )(?<!might have )(?<!could have )(?<!almost )\b(?P<obj>lost) (?:the |our )?"
       r"(?=(?:[\w&'’-]+ ){0,4}?(?:deal|opportunity|opp|renewal)\b)", 0.75, subject="topic", named_topic=True,
       kind="value", supposable=True, trigger="lost"),
    # "our packaging supplier is BoxCraft", "Their current vendor, TrackPoint,", "buying from Napa Glassworks",
    # "a Streamline customer since 2019": whose customer the speaker or the organisation talked about is
    en("CUSTOMER_OF", rf"\b(?:our|my) (?:current |existing |new |main |only |(?!former |previous |old |last |potential |prospective |possible |ex-)[a-z]+ )?(?:vendor|supplier|provider|"
       rf"reseller|distributor|carrier|landlord)s?(?:,| is| was| will be)? (?:now )?(?P<obj>{EN_CAPS})(?!\?)", 0.75,
       subject="speaker", kind="entity", object_type="organisation", require_mention=True, introduces=True,
       trigger="vendor|supplier|provider|reseller|distributor|carrier|landlord"),
    en("CUSTOMER_OF", rf"\b(?:their|its) (?:current |existing |new |main |only |(?!former |previous |old |last |potential |prospective |possible |ex-)[a-z]+ )?(?:vendor|supplier|provider|"
       rf"reseller|distributor|carrier)s?(?:,| is| was| will be)? (?:now )?(?P<obj>{EN_CAPS})(?!\?)", 0.7,
       subject="topic", named_topic=True, kind="entity", object_type="organisation", require_mention=True,
       introduces=True,
       trigger="vendor|supplier|provider|reseller|distributor|carrier"),
    en("CUSTOMER_OF", rf"(?<!might be )(?<!may be )(?<!could be )\b(?:buying|buys|bought|sourcing|sources|ordering|"
       rf"purchasing|going with|switching to|"
       rf"switched to|moving to)(?: (?:\w+ ){{0,3}}?from)? (?P<obj>{EN_CAPS})(?= instead| starting| from now| going forward)",
       0.7, kind="entity", object_type="organisation", require_mention=True, supposable=True,
       trigger="buying|buys|bought|sourcing|sources|ordering|purchasing|going with|switch|moving to"),
    en("CUSTOMER_OF", rf"(?<!to )(?<!remind me )(?<!start )(?<!might be )(?<!could be )\b(?:buying|bought|sourcing|ordering|ordered|purchasing|purchased|buy|source) (?!back\b)"
       rf"(?:\w+ ){{0,4}}?from (?!(?-i:Q[1-4]|H[12]|FY\d)\b)(?P<obj>{EN_CAPS})", 0.7, kind="entity", object_type="organisation",
       require_mention=True, supposable=True, trigger="buy|bought|sourc|order|purchas"),
    en("CUSTOMER_OF", rf"\b(?:been|am|are|is) (?:a|an) (?:loyal |long-time |longtime )?"
       rf"(?!(?:Platinum|Gold|Silver|Bronze|Premier|Prime|Premium|VIP|B2B|B2C|Loyal|New|Key|Major|Big)\b)(?P<obj>{EN_CAPS}) "
       rf"(?:customer|client|subscriber)s?\b(?! (?:advocate|success|service|support|rep|experience|care|base)\b)", 0.75, kind="entity", object_type="organisation",
       require_mention=True, trigger="customer|client|subscriber"),
    # "Paula Grier stays our day-to-day contact", "New AP contact: Greg Fowler": the contact of the
    # organisation talked about
    # "Carla Mendes is the new point of contact at Lumen Schools": the contact of the organisation named
    en("CONTACT", rf"(?P<obj>{EN_PERSON_NAME}) (?:is|stays|remains|will be|becomes) (?:our|the) (?:main |day-to-day |"
       rf"new |primary )?(?:contact|point of contact) (?:at|for|with) (?P<subj>{EN_CAPS})", 0.85, subject="group",
       subject_type="organisation", kind="entity", object_type="person", require_mention=True, trigger="contact"),
    # "Redfern's contact is Alice Moreau": the contact of the organisation named
    en("CONTACT", rf"\b(?P<subj>{EN_CAPS})['’]s (?:main |new |primary |day-to-day )?(?:contact|point of contact|POC)"
       rf"(?: person)?(?: there)?(?:\s(?:is|remains|stays|will be)(?:\s(?:still|now))?|:)\s(?P<obj>{EN_PERSON_NAME})\b(?!['’]s)",
       0.8, subject="group", subject_type="organisation", kind="entity", object_type="person", require_mention=True,
       trigger="contact|poc"),
    en("CONTACT", rf"(?P<obj>{EN_PERSON_NAME}) (?:is|stays|remains|will be|becomes) (?:our|the) (?:main |day-to-day |"
       r"new |primary )?(?:contact|point of contact)\b(?!['’]s)", 0.8, subject="topic", kind="entity", object_type="person",
       require_mention=True, trigger="contact"),
    # "Our contact is still Jonas Berg", "Main contact is now Hugo Brandt", "Contact is their IT director,
    # Wendell Ames", "contact changed to Jakub Horak": the contact of the organisation talked about
    en("CONTACT", rf"(?:(?<!former )(?<!previous )(?<!old )\b(?:new|our|the|(?-i:(?!HR\b)[A-Z]{{2,4}})) |(?:^|(?<=[:;.!?–—]\s)))"
       rf"(?:(?-i:(?!HR\b)[A-Z]{{2,4}}) |billing |main |primary |procurement |technical |finance )?(?:point of )?contact(?:\s(?:is|remains|stays)(?:\s(?:still|now))?|:"
       rf"|\s(?:has\s)?(?:changed|switched) to)\s(?:(?:their|the) (?:new )?{EN_ROLE},?\s)?(?P<obj>{EN_PERSON_NAME})(?![\w'’])",
       0.8, subject="topic",
       kind="entity", object_type="person", require_mention=True, trigger="contact"),
    en("CONTACT", rf"\b(?:our|my|the|new) (?:main |new )?(?:(?-i:[A-Z]{{2,4}}) |billing |procurement )?"
       rf"(?:contact|point of contact|poc|account manager|rep) "
       rf"(?:at|for|with) (?P<subj>{EN_CAPS})(?: (?:is|will be) (?:now )?|:\s?){EN_NAME}", 0.85, subject="group",
       subject_type="organisation", kind="entity", object_type="person",
       trigger="contact|poc|account manager|rep "),
    # "Dave Hollis (VP Ops) confirmed…", "Dana Cho (their PM)": a role in brackets after a name (and the
    # organisation talked about employs them: engram.ingest.implied)
    en("HAS_ROLE", rf"\b(?P<subj>{EN_PERSON_NAME})\s?\((?:their |the |currently |now )?(?P<obj>{EN_ROLE}|PM|PO|QA|AE|SE|CSM)"
       rf"(?: at [^)]{{2,30}})?\)", 0.75, subject="group", subject_type="person", named_subject=True, kind="entity",
       object_type="role", introduces=True, trigger="("),
    # a CRM record's field: "Meridian Freight | Contact: Alicia Gomez (Procurement Lead), 312-555-0148"
    en("CONTACT", rf"(?:^|[|｜]\s?|(?<=[.;—–]\s))(?:Main |Primary |Customer |Client )?(?:Contact|POC|Point of contact):\s?(?P<obj>{EN_PERSON_NAME})"
       rf"(?=[\s,(|]|$)", 0.8, subject="topic", kind="entity", object_type="person", require_mention=True,
       trigger="contact:|poc:"),
    en("EMAIL", rf"\b(?:email|e-mail)(?: address)? is {EN_OBJ}", require_mention=True, kind="email",
       trigger="email|e-mail"),
    en("EMAIL", rf"\b(?:reach|contact|email|e-mail|find|write to) (?:me|us) (?:at|on|via) (?P<obj>{EMAIL_ADDRESS})",
       kind="email", trigger="reach|contact|email|find|write to"),
    en("PHONE", rf"\b(?P<subj>{EN_PERSON_NAME})['’]s (?:new |work |home |cell |mobile |direct )?(?:phone|number|"
       rf"cell|mobile)(?: number)?(?: is| was| has changed to| changed to|:)? (?:now )?(?P<obj>\+?\d[\d\s().-]{{6,18}}\d)",
       0.85, subject="group", subject_type="person", kind="phone", trigger="'s|’s"),
    en("EMAIL", rf"\b(?P<subj>{EN_PERSON_NAME})['’]s (?:new |work )?(?:email|e-mail)(?: address)?(?: is|:)? (?:now )?"
       rf"(?P<obj>{EMAIL_ADDRESS})", 0.85, subject="group", subject_type="person", kind="email",
       trigger="'s|’s"),
    # "his direct line is 312-555-0187": the person the sentence or the one before named
    en("PHONE", r"\b(?P<subj>his|her) (?:direct |work |cell |mobile |new )?(?:line|phone|number|cell|mobile)"
       r"(?: number)?(?: is|:)? (?P<obj>\+?\d[\d\s().-]{6,18}\d)", 0.8, kind="phone", subject="group",
       trigger="line|phone|number|cell|mobile"),
    # "Rob Yates (rob.yates@kesslermfg.com, 414-555-0139 ext 4412)": a name and its contacts
    en("EMAIL", rf"\b(?P<subj>{EN_PERSON_NAME})(?:\s?\(|,\s)(?P<obj>{EMAIL_ADDRESS})", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="email", trigger="@"),
    en("PHONE", rf"\b(?P<subj>{EN_PERSON_NAME})\s?\((?:{EMAIL_ADDRESS},?\s)?(?P<obj>\+?\d[\d\s().-]{{6,18}}\d)", 0.8,
       subject="group", subject_type="person", named_subject=True, kind="phone", trigger="("),
    en("PHONE", r"\b(?:phone|number|cell|mobile|call me|text me|reach me|or on|or at|call us|whatsapp)\b"
       r"[^\d\n]{0,25}?(?P<obj>\+?\d[\d\s().-]{6,18}\d)", 0.85, subject="speaker", kind="phone",
       trigger="phone|number|cell|mobile|call|text me|reach|or on|or at|whatsapp"),
)  # fmt: skip
