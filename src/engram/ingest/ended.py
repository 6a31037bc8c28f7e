"""Relations a message says have ended: a couple parted (我跟男朋友分手了, "me and Sophie broke up"), a pet
gone ("My cat Luna passed away this morning", 我家的猫豆豆上个月去世了, "We had to put our dog Rufus down")
and a diet given up after it was told ("went vegan in January but honestly I'm not anymore").
The fact read is kept and negated, so that through ``Memory`` it ends the relation held (``engram.graph``),
rather than dropped or stored as current. Run by ``engram.ingest.implied`` once every sentence of the
message is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from engram.ingest.reading import Message
from engram.models.graph import FactIn

SPOUSES = frozenset({"MARRIED_TO", "PARTNER_OF"})
"""The relations of a couple."""
_SPLIT_UP = re.compile(
    r"分手|离婚|离了婚|(?<=[友公婆象])分(?:开)?了|"
    r"\b(?:broke up|broken up|split up|splitting up|breaking up|divorced|divorcing)\b"
    r"(?!\s(?:the|a|our|their|it)\b)",
    re.I,
)
"""A couple said to part: the relation ends (我跟男朋友分手了, "my wife and I divorced")."""


def _negate_ended(message: Message, predicates: Collection[str], ended: Callable[[FactIn], bool]) -> None:
    """Negate each fact of ``predicates`` read as held that the message says has ended (``ended``)."""
    for key, fact in message.facts.items():
        if fact.predicate in predicates and not fact.negated and ended(fact):
            message.facts[key] = fact.model_copy(update={"negated": True})


def couples_parted(message: Message) -> None:
    """A couple said to part in the sentence of their relation (我跟男朋友分手了, "me and Sophie broke up",
    "my wife and I divorced"): the relation is said to end (a negated fact), not to hold."""
    _negate_ended(message, SPOUSES, lambda fact: bool(_SPLIT_UP.search(fact.fact or "")))


_PET_GONE = (
    r"passed away\b|died\b|crossed the rainbow bridge\b|\b(?:be|been|was|got) put (?:down|to sleep)\b|"
    r"去世|(?:走|没|死)了(?![\u4e00-\u9fff])"
)
"""A pet said to have died (我家狗狗旺财去年走了, "Our cat Pixel had to be put down"; not 走了好远)."""
_PET_LOST = r"\blost (?:our|my) (?:[\w-]+ ){0,2}"
"""A pet said to be lost before its name ("We lost our cat Miso")."""
_PET_GIVEN_UP = (
    r"\bput (?:(?:our|my|his|her) )?(?:[\w-]+,? ){{0,2}}{name} (?:down|to sleep)\b|"
    r"\bput (?:down|to sleep) (?:(?:our|my|his|her) )?(?:[\w-]+,? ){{0,2}}{name}\b|"
    r"\b(?:re-?hom(?:e|ed|ing)|gave away) (?:(?:our|my|his|her) )?(?:[\w-]+,? ){{0,2}}{name}\b|"
    r"\bgave (?:(?:our|my|his|her) )?(?:[\w-]+,? ){{0,2}}{name} away\b|"
    r"{name}[^。！？，,]{{0,6}}?(?:安乐死|送人了|送走了)"
)
"""A pet put down or given away, its name inside ("We had to put our dog Rufus down", "rehomed our cat
Pixel", 我家猫咪团团送人了)."""


def pets_gone(message: Message, text: str) -> None:
    """A pet said to have died, after its name in its clause ("My cat Luna passed away this morning",
    我家的猫豆豆上个月去世了) or before it ("We lost our cat Miso last week"), or put down or given away
    ("We had to put our dog Rufus down", "rehomed our cat Pixel"): the pet is had no more (a negated fact,
    which through ``Memory`` ends the current one), not a pet had since."""

    def gone(fact: FactIn) -> bool:
        if not fact.object:
            return False
        name = re.escape(str(fact.object))
        died = rf"{name}[^.!?。！？，,]{{0,20}}?(?:{_PET_GONE})|{_PET_LOST}{name}"
        return re.search(f"{died}|{_PET_GIVEN_UP.format(name=name)}", text, re.I) is not None

    _negate_ended(message, ("HAS_PET",), gone)


_DIET_OVER = re.compile(
    r"\b(?:I'm|I am|we're|we are)\s(?:\w+\s)?not"
    r"(?:\son\s(?:a\s)?diet|\sdoing it|\son it)?\s(?:anymore|any more)\b",
    re.I,
)
"""A diet said to be over in a later clause ("…but honestly I'm not anymore", "I'm not on a diet anymore")."""


def diets_dropped(message: Message, text: str) -> None:
    """A diet told of and then said to be over in the same sentence ("went vegan in January but honestly I'm
    not anymore", "I'm not on a diet anymore, was doing keto for 6 months"): the diet is held no more (a
    negated fact), not current."""

    def over(fact: FactIn) -> bool:
        said = fact.fact or text
        was_doing = rf"\bwas doing {re.escape(str(fact.value))}\b"
        return bool(fact.value) and bool(_DIET_OVER.search(said) or re.search(was_doing, said, re.I))

    _negate_ended(message, ("DIET",), over)
