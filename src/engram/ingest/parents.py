"""Both parents named at once ("my parents", 我爸妈, 我父母): what is said of them is said of each.

The mention finder gives one person mention for the pair, the mother, whose ``attributes["pair"]``
names the father; the extractor copies a shared fact ("My parents live in Pune") to the father
``the_other_parent`` returns, as it does for people joined by "and".
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engram.ingest.clauses import Lang
from engram.ingest.mentions import Mention
from engram.nlp.tokenize import has_cjk

if TYPE_CHECKING:  # reading imports the subject finder, which imports this module
    from engram.ingest.reading import Message

_PARENTS = {"en": ("mom", "dad"), "zh": ("妈妈", "爸爸")}


def parent_pair(start: int, end: int, actor: str, lang: Lang) -> Mention:
    """Return the mother of "my parents" / 我爸妈 / 我父母, paired with the father (``attributes["pair"]``,
    see ``the_other_parent``): what is said of both ("My parents live in Pune") is said of each."""
    mom, dad = _PARENTS[lang]
    return replace(_parent(start, end, actor, lang, mom), attributes={**_parent_attributes(mom), "pair": dad})


def the_other_parent(subject: str, mentions: list[Mention], sentence: str, message: Message) -> list[str]:
    """Return [the father] when ``subject`` is the mother ``parent_pair`` made, registering him as a
    relative of the speaker; else []."""
    mother = next((m for m in mentions if m.name == subject and "pair" in m.attributes), None)
    relation = mother.attributes.get("pair") if mother else None
    actor = message.speaker.actor
    if mother is None or not isinstance(relation, str) or actor is None:
        return []
    father = _parent(mother.start, mother.end, actor, "zh" if has_cjk(relation) else "en", relation)
    message.relatives.setdefault(father.name, (father, sentence))
    message.add_entity(father)
    return [father.name]


def _parent(start: int, end: int, actor: str, lang: Lang, relation: str) -> Mention:
    if lang == "en":
        name, aliases = f"{actor}'s {relation}", [relation, f"my {relation}"]
    else:
        name, aliases = f"{actor}的{relation}", [relation, f"我{relation}"]
    return Mention(start, end, name, "person", _parent_attributes(relation), aliases, relative=True)


def _parent_attributes(relation: str) -> dict[str, str | int | float | bool | None]:
    return {"relation": relation, "kin": "CHILD_OF"}
