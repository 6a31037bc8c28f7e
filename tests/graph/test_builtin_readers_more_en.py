"""English statements a further round of fresh readers found misread, fixed as classes: pieces of a sentence
read as things (an adverb after "signed", a request, a currency code, "my account"), a budget said "for" a
thing, what a switch of tools is dated by, a habit given up said with "don't … anymore" or kept with "can't
give up", a clause someone heard about, a team moved to, a city moved to for a job, flatmates'
origins, school in a town, an order cancelled at a closed plant, refunds and totals read as prices, someone
else's due date, a weekday with its day of the month, a monthly meeting, flights taken (sentences written for
these tests; each case names the facts that must and must not be read)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_builtin_clauses import Case, reads

from engram.ingest.builtin import BuiltinExtractor
from engram.nlp.dates import date_facts

CASES: list[Case] = [
    # pieces of the sentence are no things
    ("Quantix expansion: +200 seats at $42 signed today. Ben Okafor signed personally.", "Bilal", set(),
     {("Ben Okafor", "SIGNED", "personally")}),
    ("Lumen Health meeting cancelled altogether, they've frozen all vendor spend.", "Isabel", set(),
     {("Lumen Health", "CANCELLED", "altogether")}),
    ("I don't really like horror movies, pls don't make me watch that on friday", "Ruby",
     {("Ruby", "DISLIKES", "horror movies")}, {("Ruby", "DISLIKES", "pls don't")}),
    ("The maintenance contract renews on 1 July at CZK 380,000/year.", "Dmitri", set(),
     {("CZK", "PRICE", 380000)}),
    ("I'm not on Facebook anymore, deleted my account.", "Dev", set(), {("Dev", "STOPPED_USING", "account")}),
    # a budget said for a thing is its budget, not the writer's
    ("Budget for the offsite is €25k max, including travel.", "Elena", {("offsite", "BUDGET", 25000)},
     {("Elena", "BUDGET", 25000)}),
    ("Budget for paid social is 22k.", "Marcus", {("paid social", "BUDGET", 22000)},
     {("Marcus", "BUDGET", 22000)}),
    ("H2 travel budget for the whole company is $140k.", "Harriet", set(),
     {("whole company", "BUDGET", 140000)}),  # control
    # a habit given up with "don't … anymore"; one that cannot be given up is kept
    ("I don't drink coffee anymore, switched to green tea.", "Nadia",
     {("Nadia", "STOPPED_USING", "coffee"), ("Nadia", "USES", "green tea")},
     {("Nadia", "DISLIKES", "coffee")}),
    ("I don't drink coffee.", "Nadia", {("Nadia", "DISLIKES", "coffee")}, set()),  # control
    ("Not vegan tho, I can't give up cheese", "Oscar", set(), {("Oscar", "STOPPED_USING", "cheese")}),
    ("I gave up cheese.", "Oscar", {("Oscar", "STOPPED_USING", "cheese")}, set()),  # control
    # what one heard is another's
    ("Just found out Nordvik Marine's champion, Erik Solberg, moved to Tidewave Shipping as VP Ops.", "Kofi",
     set(), {("Kofi", "WORKS_AT", "Tidewave Shipping"), ("Kofi", "HAS_ROLE", "VP Ops")}),
    # a team moved to, a city moved to for a job, a school in a town, flatmates' origins
    ("FYI I'm no longer on the Growth squad, moved to Retention as of this sprint.", "Renata", set(),
     {("Renata", "LIVES_IN", "Retention"), ("Renata", "USES", "Retention")}),
    ("I'm moving to Manchester in January for a new job at Northlight Studios", "Zara",
     {("Zara", "WORKS_AT", "Northlight Studios")}, {("Zara", "USES", "Manchester")}),
    ("our eldest, Finn, is going to boarding school in Galway from September.", "Liam", set(),
     {("Liam", "PLANS_TO_VISIT", "Galway")}),
    ("moved to Delft! my flatmates are from Brazil and Finland", "Noor", {("Noor", "LIVES_IN", "Delft")},
     {("Noor", "COMES_FROM", "Brazil")}),
    ("We are from Brazil.", "Ann", {("Ann", "COMES_FROM", "Brazil")}, set()),  # control
    # an order cancelled at a plant that is closed is no deal signed
    ("Redwood Mills cancelled their September order, their plant is closed for renovation.", "Hannah",
     {("Redwood Mills", "CANCELLED", "September order")}, {("Redwood Mills", "SIGNED", "September order")}),
    # refunds, a total after "=" and someone else's due date are no price or deadline
    ("Customer Ostara Bikes reports double charges on 14 invoices. Refunds issued for all 14 ($3,212 total).",
     "Marta", set(), {("Refunds", "PRICE", 3212)}),
    ("Quote sent to Orsini: 2 x Pro at €14,000 = €28,000/yr.", "Mateo", set(), {("Pro", "PRICE", 28000)}),
    ("The Orsini deal is €28,000/yr.", "Mateo", {("Orsini deal", "PRICE", 28000)}, set()),  # control
    ("Jo's due date is Aug 12.", "Tom", set(), {("Tom", "DEADLINE", "2024-08-12")}),
    ("The due date is Aug 12.", "Tom", {("Tom", "DEADLINE", "2024-08-12")}, set()),  # control
    # a weekday said with its day of the month is that day; a monthly meeting is no one meeting
    ("Reminder that the board meeting is Thursday 21st at 9am.", "Kwame",
     {("Kwame", "MEETING_AT", "2024-03-21 09:00")},
     {("Kwame", "MEETING_AT", "2024-03-14")}),
    ("I'm in a book club now, we meet first Thursday of the month.", "Ethan", set(),
     {("Ethan", "MEETING_AT", "2024-03-14")}),
    # found unread: a job being joined, a firm "called" something, pets named, a new home
    ("Leaving note: today is my last day. I'm joining Corvid Robotics as a product manager.", "Petra",
     {("Petra", "WORKS_AT", "Corvid Robotics")}, set()),
    ("quit my job at the bank today. starting at a fintech called Pennyworth in Feb as a product analyst",
     "Jamal", {("Jamal", "WORKS_AT", "Pennyworth")}, set()),
    ("Just adopted a retired greyhound named Rocket. he sleeps 20 hours a day", "Josh",
     {("Josh", "HAS_PET", "Rocket")}, set()),
    ("we have two cats, Pixel and Byte. yes I'm a nerd", "Andre",
     {("Andre", "HAS_PET", "Pixel"), ("Andre", "HAS_PET", "Byte")}, set()),
    ("just moved into my first apartment on my own in Valencia", "Pablo", {("Pablo", "LIVES_IN", "Valencia")},
     set()),
    ("I moved to a cheaper flat in Headingley last month, rent is £650 now.", "Wren",
     {("Wren", "LIVES_IN", "Headingley")}, set()),
    ("We finally moved! New place is in Bristol, Clifton area.", "Tom", {("Tom", "LIVES_IN", "Bristol")},
     set()),
    ("Not living in Lyon anymore btw, moved to Montreal in November for my PhD at McGill", "Hugo",
     {("Hugo", "LIVES_IN", "Montreal"), ("Hugo", "MOVED_FROM", "Lyon")}, set()),
    # a ticket's or a complaint's fault, of its customer when no product is named; none once it is closed
    ("Ticket #4471 – Brightwater Dental reports calendar sync fails since the 2.3 update.", "Marta",
     {("Brightwater Dental", "HAS_ISSUE", "calendar sync fails since the 2.3 update")}, set()),
    ("Customer Greenleaf Organics is complaining that CSV exports time out above 50k rows.", "Liam",
     {("Greenleaf Organics", "HAS_ISSUE", "CSV exports time out above 50k rows")}, set()),
    ("Brightwater Dental opened another ticket (#5702): SMS reminders are sent twice. Investigating.",
     "Marta", {("Brightwater Dental", "HAS_ISSUE", "SMS reminders are sent twice")}, set()),
    # control: closed, nothing either way
    ("Ticket #4471 – Brightwater Dental reports appointment sync fails. Fixed in 2.3.1, closing it.", "Marta",
     set(), {("Brightwater Dental", "HAS_ISSUE", "appointment sync fails")}),
    # a second round of readers: a budget's named holder, a place after a date, a birthday ahead
    ("Budget for the Berlin trade show is capped at $18,000, incl. booth and travel.", "Marcus",
     {("Berlin trade show", "BUDGET", 18000)}, {("Marcus", "BUDGET", 18000)}),
    ("Budget for the customer summit got cut from $60k to $45k.", "Farah",
     {("customer summit", "BUDGET", 45000)},
     {("Farah", "BUDGET", 45000)}),
    ("Hi Tobias,\nconfirming our meeting on Thursday Mar 21 at 10:00 at your office in Rotterdam.", "Henrik",
     {("Henrik", "MEETING_AT", "2024-03-21 10:00")}, {("Henrik", "MEETING_AT", "2024-03-13 10:00")}),
    ("Daniel's birthday is on Sunday, he's turning 30", "Zara", {("Daniel", "BIRTHDAY", "03-17")},
     {("Daniel", "BIRTHDAY", "03-10")}),
    # … pieces, wishes, open choices, lists, premises, departments, a vocative, money that went somewhere
    ("I love spicy food, the hotter the better", "Alisha", {("Alisha", "LIKES", "spicy food")},
     {("Alisha", "LIKES", "hotter the better")}),
    ("Going to Tokyo in April was the best. Already planning to go back.", "Jack", set(),
     {("Jack", "PLANS_TO", "go back")}),
    ("Owen is out sick today, his 1:1s are postponed to next week.", "Aisha", set(),
     {("Owen", "STATUS", "postponed")}),
    ("I stopped using Instagram completely, deleted the app in April.", "Lily",
     {("Lily", "STOPPED_USING", "Instagram")}, {("Lily", "STOPPED_USING", "app")}),
    ("Gave up coffee for Lent. Day 3 and I'm a zombie.", "Patrick", {("Patrick", "STOPPED_USING", "coffee")},
     {("Patrick", "STOPPED_USING", "Lent")}),
    ("Honestly I'd love to live in Barcelona someday.", "Rosa", set(), {("Rosa", "LIVES_IN", "Barcelona")}),
    ("Tessa's team is moving off Jira to GitHub Projects next quarter, maybe.", "Viktor", set(),
     {("Tessa", "STOPPED_USING", "Jira")}),
    ("Thinking of selling the boat, we havent used it in two summers", "Will",
     {("Will", "INTERESTED_IN", "selling the boat")},
     {("Will", "PLANS_TO", "selling the boat")}),
    ("Meeting with Solenne Pharma set for Tue 16 April. Attendees: me, Bruno, their IT director.",
     "Priya", set(), {("Bruno", "WORKS_AT", "Solenne Pharma"), ("Bruno", "HAS_ROLE", "IT director")}),
    ("Met Mirela Kovac, their CFO, yesterday.", "Ann", {("Mirela Kovac", "HAS_ROLE", "CFO")},
     set()),  # control
    ("Our Berlin office moves to Torstraße 118 on March 1.", "Claire", set(),
     {("Claire", "USES", "Torstraße")}),
    ("Carlos moved from Sales Engineering to Product, he's now PM for the integrations team.", "Mei",
     {("Carlos", "MEMBER_OF", "Product")}, {("Carlos", "LIVES_IN", "Product")}),
    ("Hi Gustavo, the Q1 invoice from Carrow Packaging was €8,420.", "Hannah", set(),
     {("Gustavo", "WORKS_AT", "Carrow Packaging")}),
    ("Our partner Looma Systems was acquired by Bravanta last week.", "Ingrid", set(),
     {("Ingrid's partner", "PARTNER_OF", "Ingrid")}),
    ("We're not going to the SaaStr conf this year, budget went to the customer summit instead.", "Lena",
     set(),
     {("Lena", "ATTENDED", "customer summit")}),
    ("I read 42 books last year, goal is 50 this year.", "Clara", set(), {("Clara", "AGE", 50)}),
    ("I've been vegetarian for 6 years but started eating fish again last month.", "Daniel", set(),
     {("Daniel", "DIET", "vegetarian")}),
    ("Started volunteering at the Riverside food bank on Saturday mornings.", "Harriet",
     {("Harriet", "VOLUNTEERS_AT", "Riverside food bank")}, {("Harriet", "LIKES", "volunteering")}),
    # a third round of readers: an opening word as a subject, a request, a fault's start, a team, a service
    ("Just signed Orbis Freight!!! 3-year deal, $214k total.", "Ollie", set(),
     {("Just", "SIGNED", "Orbis Freight"), ("Just", "PRICE", 214000)}),
    ("I love true crime podcasts, send recs. currently on Casefile", "Olivia",
     {("Olivia", "LIKES", "true crime podcasts")}, {("Olivia", "LIKES", "send recs")}),
    ("Ticket #48213\nCustomer: Bluewater Dental\n"
     "Issue: appointment reminders not sending by SMS since Monday's update", "Aiko", set(),
     {("Aiko", "MEETING_AT", "2024-03-18"), ("Aiko", "MEETING_AT", "2024-03-11")}),
    ("FYI I'm moving from the SMB team to Enterprise starting April 1.", "Ingrid", set(),
     {("Ingrid", "LIVES_IN", "Enterprise")}),
    ("I'm so done with Twitter, moved to Bluesky.", "Felix", set(), {("Felix", "LIVES_IN", "Bluesky")}),
    ("I moved to Denver last year, I work at Google now.", "Ann", {("Ann", "LIVES_IN", "Denver")},
     set()),  # control
    ("I've applied a 15% discount to your order of 40 standing desks (model Atlas Pro).", "Lena", set(),
     {("Atlas Pro", "HAS_ROLE", "model")}),
    ("I think I might be lactose intolerant? Going to get tested.", "Priyanka", set(),
     {("Priyanka", "ALLERGIC_TO", "lactose")}),
    ("I'm lactose intolerant.", "Priyanka", {("Priyanka", "ALLERGIC_TO", "lactose")}, set()),  # control
    ("Our contact Dr. Yusuf Karim is basically allergic to anything 'AI-powered' in a pitch deck", "Lena",
     set(),
     {("Yusuf Karim", "ALLERGIC_TO", "anything 'AI-powered' in a pitch deck")}),
    ("Our twins start secondary school in September — Ella's going to St Mary's.", "Harriet", set(),
     {("Ella", "PLANS_TO_VISIT", "St Mary")}),
    ("My niece Selam just started at Addis Ababa University, studying medicine!", "Ruth", set(),
     {("Selam", "WORKS_AT", "Addis Ababa University")}),
    # a flight taken or to come, said without a subject
    ("Flying to Boston on Friday.", "Melissa", {("Melissa", "PLANS_TO_VISIT", "Boston")}, set()),
    ("Flew to Denver last week for the offsite.", "Melissa", {("Melissa", "VISITED", "Denver")}, set()),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "speaker", "wanted", "unwanted"), CASES)
def test_statements_readers_found_misread(
    extractor: BuiltinExtractor, sentence: str, speaker: str, wanted: set, unwanted: set
) -> None:
    reads(extractor, sentence, speaker, wanted, unwanted)


def test_a_switch_of_tools_begins_on_the_date_it_is_due_by(extractor: BuiltinExtractor) -> None:
    at = datetime(2024, 1, 22, tzinfo=UTC)
    for text, tool, day in (
        ("Pagely: we decided not to renew, moving hosting to Kinsta when the contract expires Feb 28.",
         "Kinsta", datetime(2024, 2, 29, tzinfo=UTC)),
        ("We stop using CircleCI, everything moves to GitHub Actions by end of October.", "GitHub",
         datetime(2024, 10, 31, tzinfo=UTC)),
        ("6月30日前切换到飞书", "飞书", datetime(2024, 6, 30, tzinfo=UTC)),
    ):  # fmt: skip
        found = date_facts(extractor.extract_text(text, actor="Hugo", at=at), at, fallback_text=text)
        (uses,) = [f for f in found.facts if f.predicate == "USES" and f.object == tool]
        assert (uses.valid_at, uses.invalid_at) == (day, None), text
