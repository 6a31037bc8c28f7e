"""English business notes: roles in apposition, new jobs, a customer's contact said as a person's
standing, an office moved, ages said without "years old" (sentences written for these tests; each
case names the facts that must and must not be read)."""

from __future__ import annotations

import pytest
from test_builtin_clauses import Triple, reads

from engram.ingest.builtin import BuiltinExtractor

CASES: list[tuple[str, str, set[Triple], set[Triple]]] = [
    # A role in apposition without an article, after a name a preposition governs; IT is no pronoun.
    ("Spoke with Marcus Hale, IT director at Pinecrest Schools.", "Ann",
     {("Marcus Hale", "HAS_ROLE", "IT director"), ("Marcus Hale", "WORKS_AT", "Pinecrest Schools")}, set()),
    # A new job said with "started as" and "to join … as"; "VP Sales" is one role.
    ("Tessa Morgan just started as VP Sales at Crestline Software (she left Zoho in March).", "Ann",
     {("Tessa Morgan", "WORKS_AT", "Crestline Software"), ("Tessa Morgan", "HAS_ROLE", "VP Sales"),
      ("Tessa Morgan", "LEFT_ORGANISATION", "Zoho")}, {("Tessa Morgan", "HAS_ROLE", "VP")}),
    ("Keisha Grant is leaving at the end of this month to join Maersk as regional ops director.", "Ann",
     {("Keisha Grant", "WORKS_AT", "Maersk"), ("Keisha Grant", "HAS_ROLE", "regional ops director")}, set()),
    # Their + a role + a name: of the organisation talked about (counsel and office manager are roles).
    ("Solstice Energy's MSA ends Nov 30. Their new general counsel, Amir Haddad, wants redlines.", "Ann",
     {("Amir Haddad", "WORKS_AT", "Solstice Energy"), ("Amir Haddad", "HAS_ROLE", "general counsel")}, set()),
    ("Alder & Finch Legal renewed. Their office manager Paula Grier stays our day-to-day contact.", "Ann",
     {("Alder & Finch Legal", "CONTACT", "Paula Grier"), ("Paula Grier", "WORKS_AT", "Alder & Finch Legal"),
      ("Paula Grier", "HAS_ROLE", "office manager")}, set()),
    # An organisation's head office moved; a new contact after a colon.
    ("CRM: Brightwater Hotels moved their HQ from Chicago to Nashville. New AP contact: Greg Fowler.", "Ann",
     {("Brightwater Hotels", "LIVES_IN", "Nashville"), ("Brightwater Hotels", "MOVED_FROM", "Chicago"),
      ("Brightwater Hotels", "CONTACT", "Greg Fowler"), ("Greg Fowler", "WORKS_AT", "Brightwater Hotels")},
     {("Brightwater Hotels", "LIVES_IN", "Chicago")}),
    ("Pinecrest Bank paid milestone 1. AP contact is still Walter Kim, walter.kim@pinecrestbank.com.", "Ann",
     {("Pinecrest Bank", "CONTACT", "Walter Kim"), ("Walter Kim", "WORKS_AT", "Pinecrest Bank"),
      ("Walter Kim", "EMAIL", "walter.kim@pinecrestbank.com")}, {("Bank", "CONTACT", "Walter Kim")}),
    ("Please contact Walter Kim at Pinecrest Bank tomorrow.", "Ann", set(),
     {("Pinecrest Bank", "CONTACT", "Walter Kim")}),
    # An organisation named by a word firms end with (Marine, Outdoor) is what "their" points to.
    ("Tidewater Marine cancelled the Q2 contract. Their new CFO, Irene Vasquez, is the one to talk to now.",
     "Ann", {("Irene Vasquez", "WORKS_AT", "Tidewater Marine"), ("Irene Vasquez", "HAS_ROLE", "CFO")}, set()),
    # "the new VP of …" in apposition; the employer one came over from.
    ("Had coffee with Carla Jensen, the new VP of Operations at Ferris & Cole. She came over from Deloitte.",
     "Ann",
     {("Carla Jensen", "HAS_ROLE", "VP of Operations"), ("Carla Jensen", "LEFT_ORGANISATION", "Deloitte")},
     set()),
    ("He came over from Seattle last week.", "Ann", set(), {("Ann", "LEFT_ORGANISATION", "Seattle")}),
    # A role not held now, or someone else's: no employer (IT is a pronoun unless a role follows).
    ("Talked to Marcus Hale, former IT director at Pinecrest Schools.", "Ann", set(),
     {("Marcus Hale", "WORKS_AT", "Pinecrest Schools"), ("Ann", "WORKS_AT", "Pinecrest Schools")}),
    ("Interviewed Sam Ortiz, candidate for IT director at Pinecrest Schools.", "Ann", set(),
     {("Sam Ortiz", "WORKS_AT", "Pinecrest Schools")}),
    ("Met Tyler Ross, father of the CFO at Acme Logistics.", "Ann", set(),
     {("Tyler Ross", "WORKS_AT", "Acme Logistics")}),
    ("Marcus Hale, IT director at Pinecrest Schools until 2019, now runs a bakery.", "Ann", set(),
     {("Marcus Hale", "WORKS_AT", "Pinecrest Schools")}),
    ("Marcus Hale, IT director at Pinecrest Schools, says IT is moving to Nashville.", "Ann",
     {("Marcus Hale", "WORKS_AT", "Pinecrest Schools")}, {("Marcus Hale", "LIVES_IN", "Nashville")}),
    ("Met Dave Lin, our former head of IT at Orbit Analytics.", "Ann", set(),
     {("Dave Lin", "WORKS_AT", "Orbit Analytics"), ("Ann", "WORKS_AT", "Orbit Analytics")}),
    # A job only hoped for or turned down is none; one left for is.
    ("Kim is hoping to join Delta Marine as operations manager next year.", "Ann", set(),
     {("Kim", "WORKS_AT", "Delta Marine")}),
    ("Luis left Oracle to join Maersk Shipping as regional ops director.", "Ann",
     {("Luis", "WORKS_AT", "Maersk Shipping"), ("Luis", "LEFT_ORGANISATION", "Oracle")}, set()),
    # A former contact, one to be named, our own HR person, and someone's assistant or boss are no contact.
    ("Pinecrest Schools meeting. Our HR contact is Dana Lee.", "Ann", set(),
     {("Pinecrest Schools", "CONTACT", "Dana Lee")}),
    ("Pinecrest Schools renewal. Former AP contact: Greg Fowler (left in May).", "Ann", set(),
     {("Pinecrest Schools", "CONTACT", "Greg Fowler")}),
    ("Pinecrest Schools: new AP contact: TBD.", "Ann", set(), {("Pinecrest Schools", "CONTACT", "TBD")}),
    ("Pinecrest Schools: our contact is John's assistant, Mary.", "Ann", set(),
     {("Pinecrest Schools", "CONTACT", "John")}),
    ("Pinecrest Schools: Greg Fowler is our contact's boss.", "Ann", set(),
     {("Pinecrest Schools", "CONTACT", "Greg Fowler")}),
    # Only a named organisation moves its head office; a denied or almost move is none.
    ("We almost moved our HQ from Chicago to Nashville.", "Ann", set(), {("Ann", "LIVES_IN", "Nashville")}),
    ("Brightwater Hotels never moved their HQ from Chicago to Nashville.", "Ann", set(),
     {("Brightwater Hotels", "LIVES_IN", "Nashville")}),
    # An age after a relative's 's or "turning"; a number of something else is no age.
    ("My dad's 72 and still plays tennis every Saturday.", "Ann", {("Ann's dad", "AGE", 72)}, set()),
    ("My husband's birthday is July 9. He's turning 40.", "Ann", {("Ann's husband", "AGE", 40)}, set()),
    ("My son's 3 goals won the game.", "Ann", set(), {("Ann's son", "AGE", 3)}),
    ("My son's 10 and 12 year old friends slept over.", "Ann", set(), {("Ann's son", "AGE", 10)}),
    ("My daughter's 95. Best in her class!", "Ann", set(), {("Ann's daughter", "AGE", 95)}),
    ("My brother Tom is turning 40.", "Ann", {("Tom", "AGE", 40)}, set()),
    # a role with modifiers of its own after "a"/"an"; not how good one is at it
    ("I'm a dental hygienist, so I notice teeth.", "Mia", {("Mia", "HAS_ROLE", "dental hygienist")}, set()),
    ("I'm a secondary school chemistry teacher.", "Elif",
     {("Elif", "HAS_ROLE", "secondary school chemistry teacher")}, set()),
    ("She is a really good teacher.", "Elif", set(), {("Elif", "HAS_ROLE", "really good teacher")}),  # ctrl
    # who holds a role said first: a name with accents, a firm's role, one said after "has a new"
    ("Their IT director is Amélie Roux.", "Owen", {("Amélie Roux", "HAS_ROLE", "IT director")}, set()),
    ("Coldwater Mining's IT lead is Brandon Pike.", "Owen",
     {("Brandon Pike", "HAS_ROLE", "IT lead"), ("Brandon Pike", "WORKS_AT", "Coldwater Mining")}, set()),
    ("Kestrel Foods has a new IT director, Paula Grant.", "Owen",
     {("Paula Grant", "HAS_ROLE", "IT director")}, set()),
    ("The designer is Mark's friend.", "Owen", set(), {("Mark", "HAS_ROLE", "designer")}),
]  # fmt: skip


@pytest.mark.parametrize(("text", "actor", "wanted", "unwanted"), CASES, ids=[c[0][:30] for c in CASES])
def test_english_business_notes(
    extractor: BuiltinExtractor, text: str, actor: str, wanted: set[Triple], unwanted: set[Triple]
) -> None:
    reads(extractor, text, actor, wanted, unwanted)
