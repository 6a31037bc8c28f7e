"""English statements the builtin extractor read as facts they do not state, from the wrong facts readers
found in notes, emails and chats, and life events and renewals they found unread: a drop-off read as
giving someone up, a quarter read as a home, a possession's state given to its owner, a role recruited
for read as the recruiter's employer, a department signed under read as the employer, a question read as
a statement, someone's team read as their name; and what a note's subjectless sentence says of the
person it is about (sentences written for these tests; each case names the facts that must and must not
be read)."""

from __future__ import annotations

from datetime import datetime

import pytest
from test_builtin_clauses import Case, read, reads

from engram.ingest.builtin import BuiltinExtractor
from engram.nlp.dates import date_facts, resolve_dates

CASES: list[Case] = [
    # A drop-off gives nobody up, and a child dropped at a college does not work there.
    ("dropped Kavya at Oberlin. house is so quiet.", "Dev", set(),
     {("Dev", "STOPPED_USING", "Kavya"), ("Kavya", "WORKS_AT", "Oberlin")}),
    ("Dropped Mia off at practice and went for a run.", "Dev", set(),
     {("Dev", "STOPPED_USING", "Mia"), ("Dev", "STOPPED_USING", "Mia off")}),
    ("I dropped Slack at the end of June.", "Dev", {("Dev", "STOPPED_USING", "Slack")}, set()),  # control
    # A quarter a project moved to is nobody's home and no tool.
    ("planning notes: mobile rewrite officially moved to Q1 2025.", "Ezra", set(),
     {("Ezra", "LIVES_IN", "Q1"), ("Ezra", "USES", "Q1")}),
    ("We moved to Quincy last year.", "Ezra", {("Ezra", "LIVES_IN", "Quincy")}, set()),  # control
    # What someone's transfer or visa went through is its state, not theirs.
    ("Mira's transfer got approved! So yes we're moving to Portland.", "Kai", set(),
     {("Mira", "STATUS", "approved")}),
    ("Kai's visa was delayed again.", "Ann", set(), {("Kai", "STATUS", "delayed")}),
    ("Mira is approved for the loan.", "Ann", {("Mira", "STATUS", "approved")}, set()),  # control
    # A role recruited for is not the recruiter's, nor the client described their employer.
    ("I'm a talent partner at Brindle & Rowe. We're hiring a Head of Customer Success for a Series B "
     "SaaS company in Toronto.", "Esther Quaye",
     {("Esther Quaye", "WORKS_AT", "Brindle & Rowe"), ("Esther Quaye", "HAS_ROLE", "talent partner")},
     {("Esther Quaye", "WORKS_AT", "Series B SaaS")}),
    # control: an in-house recruiter hiring for their own firm works there
    ("I'm hiring a Staff Backend Engineer at Murmurline (Series B, 80 people).", "Bettina",
     {("Bettina", "WORKS_AT", "Murmurline")}, set()),
    # "Reza's team" names no one holding the role before it; the writer holds it.
    ("I'm the new Ops Director at Zentrova, Reza's team now reports to me.", "Naledi Khumalo",
     {("Naledi Khumalo", "HAS_ROLE", "Ops Director"), ("Naledi Khumalo", "WORKS_AT", "Zentrova")},
     {("Reza", "HAS_ROLE", "Ops Director"), ("Reza", "WORKS_AT", "Zentrova")}),
    # A role's apposition ends at the sentence's object, not at "and".
    ("I'm a recruiter at Talentbridge Partners and I'm working on a Senior Data Engineer role.", "Nadia",
     {("Nadia", "WORKS_AT", "Talentbridge Partners")},
     {("Nadia", "WORKS_ON", "recruiter at Talentbridge Partners and")}),
    # A question asks the listener: it states nothing of the writer, and "Still" is no one's name.
    ("Following up on the Senior Data Engineer role. Still interested in a chat?", "Nadia", set(),
     {("Nadia", "INTERESTED_IN", "chat"), ("Still", "INTERESTED_IN", "chat")}),
    # control: a statement before the question
    ("moving to the Berlin office in September, who else is there?", "Bella Chen",
     {("Bella Chen", "WORKS_FROM", "Berlin office")}, set()),
    # A note about someone met goes on about them while its sentences open on "He" or on nothing.
    ("Met Jun Nakagawa at the Denver trade show. He runs procurement at Kobaltix Metals, about 400 "
     "employees. Interested in the fleet module but not before Q3.", "Marcus",
     {("Jun Nakagawa", "INTERESTED_IN", "fleet module"), ("Jun Nakagawa", "WORKS_AT", "Kobaltix Metals")},
     {("Marcus", "INTERESTED_IN", "fleet module")}),
    ("Met Jun Nakagawa at the Denver trade show. I demoed the fleet module. Interested in the fleet module.",
     "Marcus", set(), {("Jun Nakagawa", "INTERESTED_IN", "fleet module")}),  # control: the writer spoke since
    ("My sister came over. She loves yoga. Interested in pilates now too.", "Marcus",
     {("Marcus", "INTERESTED_IN", "pilates")}, set()),  # control: no one met, the writer's own
    # A month's name before a surname is a first name; after "in" it is the month.
    ("In June Acme signed the renewal.", "Ann", set(), {("June Acme", "SIGNED", "renewal")}),  # control
    # A bracketed aside after a name is not who goes on leave.
    ("Ananya (Quillfeather) is going on maternity leave from mid-Dec to April.", "Theo",
     {("Ananya", "STATUS", "maternity leave")}, {("Quillfeather", "STATUS", "maternity leave")}),
    # A leaving not committed to, or denied, is none.
    ("To be clear we are not committed to leaving Merrow, it depends on the migration.", "Ruth", set(),
     {("Ruth", "LEFT_ORGANISATION", "Merrow")}),
    ("I'm not leaving Acme.", "Ruth", set(), {("Ruth", "LEFT_ORGANISATION", "Acme")}),
    ("I'm leaving Acme in May.", "Ruth", {("Ruth", "LEFT_ORGANISATION", "Acme")}, set()),  # control
    # The listener's deadline is not the writer's; a review of theirs the writer still attends.
    ("Your next true-up is due on 15 July.", "Stellan", set(), {("Stellan", "DEADLINE", "2024-07-15")}),
    ("As discussed, your 90-day review is scheduled for Oct 21.", "Nikhil",  # control
     {("Nikhil", "MEETING_AT", "2024-10-21")}, set()),
    # A move between roles leaves one and holds the other; the employer after the new role still reads.
    ("Priya moved from Head of Ops to COO at Brightwater as of Aug 1.", "Marcus",
     {("Priya", "LEFT_ROLE", "Head of Ops"), ("Priya", "HAS_ROLE", "COO"),
      ("Priya", "WORKS_AT", "Brightwater")},
     {("Priya", "MOVED_FROM", "Head of Ops"), ("Priya", "UNASSIGNED_FROM", "Head of Ops")}),
    ("Priya was promoted to COO at Brightwater.", "Marcus",
     {("Priya", "HAS_ROLE", "COO"), ("Priya", "WORKS_AT", "Brightwater")}, set()),
    # control: a region the role covers is no employer either
    ("I've been promoted to Regional Director for Southern Europe at Lumenpath.", "Paolo",
     {("Paolo", "HAS_ROLE", "Regional Director")}, {("Paolo", "WORKS_AT", "Europe")}),
    # A deal signed in a word, its terms after a dash; a club one runs is no hobby; a race no course.
    ("Fernkeel signed — 15 seats, startup plan, $7,200/yr.", "Yusuf",
     {("Fernkeel", "SIGNED", "Fernkeel deal")}, {("Fernkeel", "SIGNED", "— 15 seats")}),
    ("I've started running a book club at the library.", "Anya", set(), {("Anya", "LIKES", "running")}),
    ("I started running last month.", "Anya", {("Anya", "LIKES", "running")}, set()),  # control
    ("knee's better. signed up for the Cardiff half in October instead", "Sam", set(),
     {("Sam", "STUDIES", "Cardiff half")}),
    # A street number is no price; a year (FY26) no budget; a department in brackets no employer.
    ("Lease signed at Torstraße 109.", "Freya", set(), {("Lease", "PRICE", 109)}),
    ("Lumenhart: reply from Benedikt Strauss (Procurement). Not interested this year, budget frozen until "
     "FY26.", "Ann", {("Benedikt Strauss", "MEMBER_OF", "Procurement")},
     {("Benedikt Strauss", "WORKS_AT", "Procurement"), ("Ann", "BUDGET", 6)}),
    ("Budget is $40k for FY25.", "Ann", {("Ann", "BUDGET", 40000)}, set()),  # control
    # A tool moved to is no home; a move between employers is a job, not a home or a tool.
    ("heard rumours we're moving to Metabase", "Mateo", set(), {("Mateo", "LIVES_IN", "Metabase")}),
    ("I moved from Brightpath to Quayline Recruitment in the summer.", "Bettina",
     {("Bettina", "WORKS_AT", "Quayline Recruitment")},
     {("Bettina", "LIVES_IN", "Quayline Recruitment"), ("Bettina", "MOVED_FROM", "Brightpath"),
      ("Bettina", "USES", "Quayline Recruitment"), ("Bettina", "STOPPED_USING", "Brightpath")}),
    ("We moved from Jira to Linear.", "Ann", {("Ann", "USES", "Linear")}, set()),  # control
    # The new contact at a firm works there, not at the firm the one before went to.
    ("Hannah Osei left Brindlecourt, going to Crickwood Schools as COO. New contact at Brindlecourt: Marcus "
     "Tull, IT Manager.", "Ann",
     {("Brindlecourt", "CONTACT", "Marcus Tull"), ("Marcus Tull", "WORKS_AT", "Brindlecourt")},
     {("Marcus Tull", "WORKS_AT", "Crickwood Schools")}),
    # An action item's owner holds no role; a job applied for is no interest in "Head".
    ("Actions: cert-manager auto-renew (owner Tariq), alert before expiry (owner Wen).", "Ann", set(),
     {("Tariq", "HAS_ROLE", "owner"), ("Wen", "HAS_ROLE", "owner")}),
    ("I'd be interested in the Head of IT role.", "Shona", set(), {("Shona", "INTERESTED_IN", "Head")}),
    # A firm's unknown name after a note's opening verb is read whole; a firm moved there from is left.
    ("Visited Drezno Tools in Rotterdam. Plant manager Joost Verhaeghe showed us the line.",
     "Fenna",
     {("Fenna", "VISITED", "Drezno Tools")}, {("Fenna", "VISITED", "Tools")}),
    ("Met Rafael Ortiz-Benning at the expo. He's head of procurement at Tessaly Foods (moved there from "
     "Drezno Tools in January).", "Dev",
     {("Rafael Ortiz-Benning", "LEFT_ORGANISATION", "Drezno Tools"),
      ("Rafael Ortiz-Benning", "WORKS_AT", "Tessaly Foods")},
     {("Rafael Ortiz-Benning", "STOPPED_USING", "Drezno Tools")}),
    # A thing said with its own noun has its own state, not the order named before.
    ("Your order of 200 notebooks (PO 7781) has shipped via DHL. The tote bags are delayed ~2 weeks.",
     "Lucía", set(), {("PO 7781", "STATUS", "delayed")}),
    # control: the order's shipment is the order's
    ("Order #123 confirmed. The shipment is delayed.", "Lucía", {("Order #123", "STATUS", "delayed")}, set()),
    # A role named before "job" is no one's name; a plan denied is none; a city left is no employer.
    ("Berlin update: I accepted the Head of CS job at Freightly. start date March 3.", "Sofia",
     {("Sofia", "WORKS_AT", "Freightly")}, {("Head of CS", "WORKS_AT", "Freightly")}),
    ("heads up I'm not going to the Amsterdam conference anymore, Ellie is going instead", "Samir", set(),
     {("Samir", "PLANS_TO", "Amsterdam conference")}),
    ("Moving to Glasgow in the summer and leaving Edinburgh after 9 years.", "Ewan", set(),
     {("Ewan", "LEFT_ORGANISATION", "Edinburgh")}),
    # control: a firm named like a town is still left
    ("Rachel Nguyen is leaving Stonebridge at the end of May to join Cloudflare.", "Priya",
     {("Rachel Nguyen", "LEFT_ORGANISATION", "Stonebridge")}, set()),
    ("I left Google last year.", "Ewan", {("Ewan", "LEFT_ORGANISATION", "Google")}, set()),  # control
    # A tax number is no phone nor a tool; "Contract signed June 19" names no signer; usage dropping is
    # no tool given up; an office moved from is no tool.
    ("Our VAT number has also changed to GB 318 4472 09.", "Yusuf", set(),
     {("Yusuf", "PHONE", "318447209"), ("Yusuf", "USES", "GB")}),
    ("Aya confirmed purchase of 50 licences, annual. Contract signed June 19.", "Samir", set(),
     {("Contract", "SIGNED", "June 19")}),
    ("Their admin Petra Novak told me usage dropped after their reorg.", "Samir", set(),
     {("Samir", "STOPPED_USING", "after their reorg")}),
    ("Office move update: we're moving from Ancoats to the new office at Whitworth Street on Oct 7.", "Gwen",
     set(), {("Gwen", "STOPPED_USING", "Ancoats")}),
    ("Our email tool changed to Mailchimp.", "Ann", {("Ann", "USES", "Mailchimp")}, set()),  # control
    # A voicemail left is no employer left.
    ("Left VM for Candice Obi at Pelloway Insurance. Third attempt.", "Tomás",
     {("Candice Obi", "WORKS_AT", "Pelloway Insurance")}, {("Tomás", "LEFT_ORGANISATION", "VM")}),
    # A charity named after what it is is an organisation one starts at.
    ("Handed in my notice at the council! starting at a charity, Riverside Refugee Trust, in January.",
     "Sadia", {("Sadia", "WORKS_AT", "Riverside Refugee Trust")}, set()),
]  # fmt: skip


UNREAD: list[Case] = [
    # Life events readers found unread: a kin's accented name, a pet named a sentence later, a newborn,
    # a diagnosis, "we're expecting", a place found to live in, a renewal's price.
    ("my daughter Róisín got into Trinity for medicine!!! so proud", "Liam",
     {("Róisín", "CHILD_OF", "Liam"), ("Róisín", "STUDIES_AT", "Trinity")}, set()),
    ("we got a puppy. cockapoo, named Pickle. no regrets.", "Rohan", {("Rohan", "HAS_PET", "Pickle")}, set()),
    ("we adopted a cat!! she's called Mochi, 2 yrs old.", "Freya", {("Freya", "HAS_PET", "Mochi")}, set()),
    ("Aino was born on Oct 22, two days late. We're all well!", "Oona",
     {("Aino", "BIRTHDAY", "10-22")}, set()),
    ("diagnosed with type 2 diabetes last week. Bit of a shock honestly.", "Tariq",
     {("Tariq", "STATUS", "type 2 diabetes")}, set()),
    ("we're expecting! due in December. don't tell anyone at work yet pls", "Esme",
     {("Esme", "STATUS", "expecting")}, set()),
    ("I'm expecting a call from Dana.", "Esme", set(), {("Esme", "STATUS", "expecting")}),  # control
    ("found a place in Walthamstow! moving Oct 19.", "Tilly", {("Tilly", "LIVES_IN", "Walthamstow")}, set()),
    ("Datadog renewed at $118k (was $140k). 2 year term.", "Wen",
     {("Datadog", "SIGNED", "Datadog renewal"), ("Datadog renewal", "PRICE", 118000)},
     {("Datadog", "PRICE", 118000)}),
    # control: a fiscal year closed at a figure is no deal's price
    ("Board meeting recap: FY24 closed at $16.1M ARR.", "Amara", set(), {("FY24", "PRICE", 16100000)}),
]  # fmt: skip


SIGNATURES: list[Case] = [
    # A department signed under is the writer's team; the employer is the one the body calls "us".
    ("Hi Sam,\n\nThank you for interviewing with us at Orchard Lane Health. We have decided to move forward "
     "with another candidate.\n\nBest,\nWhitney Calloway\nTalent Acquisition", "Sam",
     {("Whitney Calloway", "MEMBER_OF", "Talent Acquisition"),
      ("Whitney Calloway", "WORKS_AT", "Orchard Lane Health")},
     {("Whitney Calloway", "WORKS_AT", "Talent Acquisition")}),
    # A venue the body names is not the employer of a department's writer.
    ("Dear Ms. Carvalho,\n\nI'm pleased to confirm your booth at RetailTech Summit 2024, June 18-20 at the "
     "Moscone Center.\n\nRegards,\nNadia Hollis\nExhibitor Services", "Ana Carvalho",
     {("Nadia Hollis", "MEMBER_OF", "Exhibitor Services")},
     {("Nadia Hollis", "WORKS_AT", "Exhibitor Services"), ("Nadia Hollis", "WORKS_AT", "Moscone Center")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES + UNREAD + SIGNATURES)
def test_statements_read_as_they_are_said(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[tuple[str, str, object]], unwanted: set
) -> None:
    reads(extractor, text, actor, wanted, unwanted)


@pytest.mark.parametrize(
    ("text", "said", "first", "until"),
    [
        ("We moved to Leeds in the spring.", "2024-05-06", "2024-03-01", "2024-06-01"),
        ("Last summer I went to Rome.", "2024-05-06", "2023-06-01", "2023-09-01"),
        ("Next winter we'll ski in Austria.", "2024-05-06", "2024-12-01", "2025-03-01"),  # the coming one
        ("We're moving to Leeds in the spring.", "2024-11-06", "2025-03-01", "2025-06-01"),  # over: the next
        ("We met in the summer of 2019.", "2024-05-06", "2019-06-01", "2019-09-01"),
    ],
)
def test_an_english_season_is_its_three_months(text: str, said: str, first: str, until: str) -> None:
    span = resolve_dates(text, datetime.fromisoformat(f"{said}T09:30:00+00:00"))
    assert span is not None and span.start is not None and span.end is not None
    assert (span.start.strftime("%Y-%m-%d"), span.end.strftime("%Y-%m-%d")) == (first, until)


@pytest.mark.parametrize("text", ["I love the summer.", "the fall of Rome", "summer camp was fun"])
def test_a_season_named_as_a_thing_is_no_date(text: str) -> None:
    assert resolve_dates(text, datetime.fromisoformat("2024-05-06T09:30:00+00:00")) is None


def test_a_meeting_followed_up_on_is_the_last_one(extractor: BuiltinExtractor) -> None:
    said = datetime.fromisoformat("2024-04-22T09:00:00+00:00")  # a Monday
    text = "Following our interview on Friday, we'd like to offer you the position of Backend Engineer."
    found = date_facts(extractor.extract_text(text, actor="Sunil", at=said), said, fallback_text=text)
    (meeting,) = [f for f in found.facts if f.predicate == "MEETING_AT"]
    assert meeting.value == "2024-04-19"


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("we're moving to Portland, probably end of August.", "2024-08"),  # a hedged date clause dates it
        (
            "moving to the Berlin office in September, who else is there?",
            "2024-09",
        ),  # a bare progressive: ahead
        ("we're moving to Leeds in the spring, Jess got the job at the hospital there", "2024-03"),
    ],
)
def test_a_move_is_dated_by_its_plan(extractor: BuiltinExtractor, text: str, month: str) -> None:
    (moved,) = [
        f for f in read(extractor, text, actor="Kai").facts if f.predicate in ("LIVES_IN", "WORKS_FROM")
    ]
    assert moved.valid_at is not None and moved.valid_at.strftime("%Y-%m") == month
