"""The synthetic fact world of the knowledge-graph benchmarks, and the fact searches asked of it.

Not a benchmark itself, and nothing imported from ``src/``: plain dicts in the shapes
``Memory.create_episodes`` and ``Memory.search_facts`` accept, so scripts that run against
another checkout (bench/storage_before_after.py) can use it too. :class:`FactWorld` makes
episodes of 5 agent-supplied facts about one of its people; :func:`fact_searches` makes the
five kinds of fact search that bench/graph_bench.py times.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any


def _words(text: str) -> list[str]:
    return text.split()


_FIRST = _words(
    """Maya Liam Noah Olivia Emma Ava Sophia Isabella Mia Amelia Harper Evelyn Abigail Ella Elijah James
Lucas Mason Ethan Logan Jacob Aiden Jackson Sebastian Mateo Henry Owen Wyatt Julian Leo Grace Chloe
Nora Lily Zoe Hannah Aria Layla Riley Priya Arjun Ravi Ananya Kenji Yuki Hiro Mei Wei Jun Min Sara
Omar Fatima Yusuf Leila Diego Lucia Carlos Elena Pablo Sofia Ines Tomas Anna Lars Ingrid Nils Freya
Kofi Ama Kwame Zainab Tariq Amir Nadia Ivan Olga Dmitri Katya"""
)
_LAST = _words(
    """Okafor Smith Johnson Williams Brown Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Wilson
Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez
Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson
Baker Hall Rivera Campbell Mitchell Carter Roberts Patel Shah Kumar Singh Tanaka Sato Suzuki Chen
Wang Zhang Liu Yang Huang Kim Park Choi Mensah Owusu Haddad Khan Novak Petrov Ivanova Larsen Berg
Rossi Bianchi Silva Costa"""
)
_CITIES = _words(
    """Lisbon Porto Madrid Barcelona Paris Lyon Berlin Munich Hamburg Vienna Zurich Geneva Milan Rome
Naples Athens Istanbul Cairo Nairobi Lagos Accra Johannesburg Dubai Mumbai Delhi Bangalore Chennai
Singapore Bangkok Hanoi Manila Jakarta Seoul Busan Tokyo Osaka Kyoto Shanghai Beijing Shenzhen
Hangzhou Taipei Sydney Melbourne Auckland Toronto Vancouver Montreal Boston Seattle Chicago Denver
Austin Dallas Houston Miami Atlanta Portland Phoenix"""
)
_ORG_A = _words(
    """North South Blue Red Green Silver Bright Swift Iron Cedar Maple Harbor Summit River Stone"""
)
_ORG_B = _words("""wind field works labs soft logic foods health bank media motors systems energy design""")
_HOBBIES = _words(
    """jazz hiking pottery chess sailing climbing photography baking gardening knitting yoga running
cycling surfing painting opera podcasts sushi ramen tacos espresso matcha kimchi tennis football
cricket badminton poetry woodworking birdwatching astronomy origami calligraphy salsa tango karaoke
camping fishing skiing snowboarding scuba vinyl comics anime sci-fi mysteries history documentaries
board-games puzzles meditation"""
)
_THINGS = _words(
    """bicycle piano kayak telescope camera motorbike drone guitar violin aquarium espresso-machine
treadmill e-reader sewing-machine 3d-printer"""
)
_GOALS = [
    "run a marathon",
    "learn Spanish",
    "open a bakery",
    "write a novel",
    "get promoted",
    "buy a house",
    "learn piano",
    "start a podcast",
    "visit Japan",
    "retire early",
]
_ROLES = _words("""engineer designer accountant nurse teacher analyst manager chef lawyer architect""")


class FactWorld:
    """Synthetic people, cities and organisations, and episodes of 5 facts about one person."""

    def __init__(self, people: int, seed: int = 11) -> None:
        rng = random.Random(seed)
        names = [f"{f} {last}" for f in _FIRST for last in _LAST]
        rng.shuffle(names)
        self.people = names[:people]
        self.orgs = [f"{a}{b.capitalize()}" for a in _ORG_A for b in _ORG_B][:200]
        self.rng = rng
        self.t0 = datetime(2022, 1, 1, tzinfo=UTC)
        self.days = 730

    def episode(self, i: int) -> dict[str, Any]:
        rng = self.rng
        # Four consecutive episodes per person, months apart: single-valued facts supersede
        # (history for as_of / include_history) however early the build budget stops.
        person = self.people[(i // 4) % len(self.people)]
        day = (i % 4) * 150 + rng.randint(0, 120)
        city, org = rng.choice(_CITIES), rng.choice(self.orgs)
        single = rng.choice(["LIVES_IN", "WORKS_AT", "BUDGET", "HAS_ROLE", "AGE"])
        facts: list[dict[str, Any]] = []
        entities = [{"name": person, "type": "person"}]
        if single == "LIVES_IN":
            facts.append(
                {
                    "subject": person,
                    "predicate": "LIVES_IN",
                    "object": city,
                    "fact": f"{person} lives in {city}",
                }
            )
            entities.append({"name": city, "type": "place"})
        elif single == "WORKS_AT":
            facts.append(
                {
                    "subject": person,
                    "predicate": "WORKS_AT",
                    "object": org,
                    "fact": f"{person} works at {org}",
                }
            )
            entities.append({"name": org, "type": "organisation"})
        elif single == "BUDGET":
            amount = rng.randrange(500, 20000, 250)
            facts.append(
                {
                    "subject": person,
                    "predicate": "BUDGET",
                    "value": amount,
                    "fact": f"{person}'s budget is {amount}",
                }
            )
        elif single == "HAS_ROLE":
            role = rng.choice(_ROLES)
            facts.append(
                {
                    "subject": person,
                    "predicate": "STATUS",
                    "value": f"works as {role}",
                    "fact": f"{person} works as {role}",
                }
            )
        else:
            age = rng.randint(18, 80)
            facts.append(
                {"subject": person, "predicate": "AGE", "value": age, "fact": f"{person} is {age} years old"}
            )
        for predicate in rng.sample(["LIKES", "INTERESTED_IN", "VISITED", "OWNS", "GOAL", "DISLIKES"], 4):
            if predicate == "VISITED":
                place = rng.choice(_CITIES)
                facts.append(
                    {
                        "subject": person,
                        "predicate": predicate,
                        "object": place,
                        "fact": f"{person} visited {place}",
                    }
                )
                entities.append({"name": place, "type": "place"})
                continue
            value = {
                "LIKES": _HOBBIES,
                "DISLIKES": _HOBBIES,
                "INTERESTED_IN": _HOBBIES,
                "OWNS": _THINGS,
                "GOAL": _GOALS,
            }[predicate]
            chosen = rng.choice(value)
            if predicate in ("LIKES", "DISLIKES"):  # one person does not like and dislike one thing
                opposite = "DISLIKES" if predicate == "LIKES" else "LIKES"
                taken = {f["value"] for f in facts if f["predicate"] == opposite}
                chosen = rng.choice([v for v in value if v not in taken])
            verb = {
                "LIKES": "likes",
                "DISLIKES": "dislikes",
                "INTERESTED_IN": "is into",
                "OWNS": "owns",
                "GOAL": "wants to",
            }
            facts.append(
                {
                    "subject": person,
                    "predicate": predicate,
                    "value": chosen,
                    "fact": f"{person} {verb[predicate]} {chosen}",
                }
            )
        stamp = self.t0 + timedelta(days=day, minutes=i % 1440)
        return {
            "content": ". ".join(f["fact"] for f in facts) + ".",
            "actor": {"id": "assistant", "type": "agent"},
            "source": "chat",
            "timestamp": stamp,
            "metadata": {"thread_id": f"user-{(i // 4) % len(self.people)}"},
            "entities": list({e["name"]: e for e in entities}.values()),
            "facts": facts,
        }


def fact_searches(world: FactWorld, built: int, n: int) -> list[tuple[str, list[dict[str, Any]], list[str]]]:
    """Return ``n`` searches of each kind, as (kind, search_facts bodies, the same asked as text).

    Subjects are drawn from the people the first ``built`` episodes are about; the texts are
    what a BM25 search over episodes gets for the same question (graph_bench's baseline).
    """
    rng = random.Random(5)
    people = world.people[: max(1, min(len(world.people), built // 4))]
    mid = world.t0 + timedelta(days=200)
    words = [
        rng.choice(
            [
                lambda: rng.choice(_HOBBIES),
                lambda: f"lives in {rng.choice(_CITIES)}",
                lambda: f"works at {rng.choice(world.orgs)}",
                lambda: f"{rng.choice(people).split()[0]} budget",
                lambda: f"owns {rng.choice(_THINGS)}",
            ]
        )()
        for _ in range(n)
    ]
    subjects = [rng.choice(people) for _ in range(n)]
    predicates = [rng.choice(["LIVES_IN", "WORKS_AT", "BUDGET", "LIKES", "AGE"]) for _ in range(n)]
    spoken = {
        "LIVES_IN": "lives in",
        "WORKS_AT": "works at",
        "BUDGET": "budget",
        "LIKES": "likes",
        "AGE": "years old",
    }
    kinds: list[tuple[str, list[dict[str, Any]], list[str]]] = [
        ("query words", [{"query": w} for w in words], words),
        ("subject", [{"subject": s} for s in subjects], subjects),
        (
            "predicate+subject",
            [{"subject": s, "predicate": p} for s, p in zip(subjects, predicates, strict=True)],
            [f"{s} {spoken[p]}" for s, p in zip(subjects, predicates, strict=True)],
        ),
        ("subject, as_of", [{"subject": s, "as_of": mid} for s in subjects], subjects),
        (
            "predicate+subject, include_history",
            [
                {"subject": s, "predicate": p, "include_history": True}
                for s, p in zip(subjects, predicates, strict=True)
            ],
            [f"{s} {spoken[p]}" for s, p in zip(subjects, predicates, strict=True)],
        ),
    ]
    return kinds
