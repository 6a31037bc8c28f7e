"""Benchmark memory over time: multi-episode stories, replayed over REST, checked against expectations.

Data: bench/data/scenarios.jsonl (format and tags in bench/data/scenarios.md): 46 stories, half
Chinese and half English: updates, corrections, refinements, conditions, disputes by
credibility, stop statements, like-then-hate, reassignment, an explicit ``invalid_at``,
nicknames, two people with one name, late-arriving older facts, chit-chat.

Every story is replayed against a real ``engram serve`` subprocess (fresh data directory, free
loopback port, ``ENGRAM_EXTRACTOR=builtin``, ``ENGRAM_EMBEDDER=none``) twice, each time in a
fresh group: the ``text`` path sends only each episode's content (actor, timestamp), so the
server's extractor builds the graph; the ``agent`` path also sends the entities and facts a
good agent would hand over (``entities``/``facts`` of POST /v1/episodes). Then each
expectation is checked with REST reads:

- ``current``: ``POST /v1/facts/search`` (group, default = current facts): a fact with that
  subject, predicate and object/value (conditions too when given) whose status is current
  and that is not closed (``invalid_at`` null or after the story's last episode);
- ``history``: the same with ``include_history``: status superseded or retracted, or closed;
- ``disputed``: ``include_history``, status disputed;
- ``as_of``: ``as_of`` = the time: the fact is returned;
- ``absent``: no live fact matches (``{"subject": "*"}``: the group has no fact at all and
  no operation other than the ingest: nothing was built);
- ``merged``: ``POST /v1/entities/search`` for both names finds one entity, or
  ``GET /v1/entities/merge-candidates`` pairs them (reported apart: merged vs candidate);
- ``distinct``: the two names (or the subjects of the two facts given) are two entities.

Facts are matched as in extraction_bench.py (bench/_kg.py: names and aliases normalised,
predicate synonyms, amounts as numbers, dates as dates). A story passes when all its
expectations hold. BASELINE, in the same run: the ``agent`` path is the reference for the
``text`` path (same stories, the graph handed over instead of extracted); and "keep
everything" (no arbitration: every fact stated stays current and nothing is ever history,
disputed or merged), scored by the same checks on the agent-supplied facts, shows which
expectations need arbitration at all.

Usage: .venv/bin/python bench/scenarios_bench.py [--path agent|text] [--story ID ...] [--limit N]
       [--json] [--extractor builtin|llm|none]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

import _kg
from _common import read_jsonl

SET = _kg.DATA / "scenarios.jsonl"
PATHS = ("agent", "text")
KINDS = ("current", "history", "disputed", "as_of", "absent", "merged", "distinct")


def load(path: Path, stories: list[str] | None = None, limit: int | None = None) -> list[dict]:
    """Return the stories of ``path``: the named ones, or the first ``limit`` alternating languages."""
    items = read_jsonl(path)
    if stories:
        wanted = set(stories)
        items = [s for s in items if s["id"] in wanted]
        if missing := wanted - {s["id"] for s in items}:
            raise SystemExit(f"no story {', '.join(sorted(missing))} in {path}")
    if limit is not None:
        by_lang = {lang: [s for s in items if s["lang"] == lang] for lang in ("zh", "en")}
        items = [s for pair in zip(by_lang["zh"], by_lang["en"], strict=False) for s in pair][:limit]
    return items


def _time(value: str | None) -> datetime | None:
    return None if not value else _when(value)


def _when(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


# -- replay -------------------------------------------------------------------------------------


def replay(client: httpx.Client, story: dict, path: str, group: str) -> str | None:
    """POST the story's episodes in order; return None, or the error of a rejected episode."""
    for index, episode in enumerate(story["episodes"]):
        body: dict[str, Any] = {
            "group_id": group,
            "content": episode["content"],
            "actor": {"type": "user", **episode["actor"]},
            "timestamp": episode["timestamp"],
            "source": "bench",
        }
        if path == "agent":
            body["entities"] = [_kg.agent_entity(e) for e in episode.get("entities", [])]
            body["facts"] = [_kg.agent_fact(f) for f in episode.get("facts", [])]
        try:
            _kg.post_episode(client, body)
        except RuntimeError as exc:
            return f"episode {index}: {exc}"
    return None


# -- reading the graph back ---------------------------------------------------------------------


class Reader:
    """REST reads of one group, cached: facts (current, history, as of), entities, candidates."""

    def __init__(self, client: httpx.Client, group: str) -> None:
        self.client, self.group = client, group
        self._facts: dict[str, list[dict[str, Any]]] = {}
        self._entities: dict[str, dict[str, Any]] = {}
        self.truncated = False

    def entity(self, entity_id: str) -> dict[str, Any]:
        """Return an entity's name, type and aliases (name None when it cannot be read)."""
        if entity_id not in self._entities:
            response = self.client.get(f"/v1/entities/{entity_id}", params={"group_id": self.group})
            data = response.json()["entity"] if response.status_code == 200 else {}
            self._entities[entity_id] = {
                "name": data.get("name"),
                "type": data.get("type"),
                "aliases": list(data.get("aliases") or []),
            }
        return self._entities[entity_id]

    def facts(self, *, include_history: bool = False, as_of: str | None = None) -> list[dict[str, Any]]:
        """Return the group's facts (current; with history; or valid at ``as_of``), normalised."""
        key = f"{include_history}|{as_of}"
        if key not in self._facts:
            search: dict[str, Any] = {"query": "", "group_id": self.group, "limit": 100}
            if include_history:
                search["include_history"] = True
            if as_of:
                search["as_of"] = as_of
            response = self.client.post("/v1/facts/search", json=search)
            response.raise_for_status()
            hits = response.json()["results"]
            self.truncated = self.truncated or len(hits) >= 100
            self._facts[key] = [self._normal(hit) for hit in hits]
        return self._facts[key]

    def _normal(self, hit: dict[str, Any]) -> dict[str, Any]:
        fact = hit["fact"]
        subject = self.entity(fact["subject"])
        obj = self.entity(fact["object"]) if fact.get("object") else None
        subject_names = [hit.get("subject_name"), subject["name"], *subject["aliases"]]
        object_names = (
            [] if obj is None else [n for n in [hit.get("object_name"), obj["name"], *obj["aliases"]] if n]
        )
        return {
            "id": fact["id"],
            "subject_id": fact["subject"],
            "subject": _kg.name_keys(subject_names),
            "subject_name": hit.get("subject_name") or subject["name"],
            "predicate": fact["predicate"],
            "object": None if obj is None else _kg.name_keys(object_names),
            "object_names": object_names,
            "value": fact.get("value"),
            "conditions": fact.get("conditions") or {},
            "status": fact.get("status"),
            "valid_at": fact.get("valid_at"),
            "invalid_at": fact.get("invalid_at"),
            "source_kind": fact.get("source_kind"),
        }

    def entities_named(self, name: str) -> set[str]:
        """Return the ids of entities whose name or alias is ``name`` (normalised)."""
        response = self.client.post(
            "/v1/entities/search", json={"query": name, "group_id": self.group, "limit": 50}
        )
        response.raise_for_status()
        keys = _kg.name_keys([name])
        return {
            e["id"]
            for e in response.json()["results"]
            if keys & _kg.name_keys([e["name"], *e.get("aliases", [])])
        }

    def candidate_pairs(self) -> set[frozenset[str]]:
        """Return the merge candidates as unordered pairs of entity ids."""
        response = self.client.get("/v1/entities/merge-candidates", params={"group_id": self.group})
        response.raise_for_status()
        return {frozenset((c["entity"]["id"], c["candidate"]["id"])) for c in response.json()["items"]}

    def built_anything(self) -> bool:
        """Return True when any operation other than an ingest touched the group."""
        response = self.client.get("/v1/operations", params={"group_id": self.group, "limit": 50})
        response.raise_for_status()
        return any(op["kind"] != "ingest" for op in response.json()["items"])


# -- checks -------------------------------------------------------------------------------------


def _conditions_ok(expected: dict[str, Any], found: dict[str, Any]) -> bool:
    wanted = list((expected.get("conditions") or {}).values())
    got = list(found["conditions"].values())
    return all(any(_kg.values_match(w, g) for g in got) for w in wanted)


def _live(fact: dict[str, Any], reference: datetime) -> bool:
    closed = _time(fact.get("invalid_at"))
    return fact["status"] == "current" and (closed is None or closed > reference)


def _closed(fact: dict[str, Any], reference: datetime) -> bool:
    closed = _time(fact.get("invalid_at"))
    return fact["status"] in ("superseded", "retracted") or (closed is not None and closed <= reference)


def _matches(expected: dict[str, Any], found: dict[str, Any], names_of: dict[str, set[str]]) -> bool:
    """Match a (possibly partial) expected fact: no predicate or target means any."""
    if "object" in expected or "value" in expected:
        return _kg.fact_matches(expected, found, names_of) and _conditions_ok(expected, found)
    keys = names_of.get(expected["subject"]) or _kg.name_keys([expected["subject"]])
    same_predicate = "predicate" not in expected or (
        _kg.predicate_key(expected["predicate"]) == _kg.predicate_key(found["predicate"])
    )
    return bool(keys & found["subject"]) and same_predicate


def _show(fact: dict[str, Any]) -> str:
    target = fact["object_names"][0] if fact.get("object_names") else fact.get("value")
    cond = f" {fact['conditions']}" if fact.get("conditions") else ""
    closed = f" invalid_at={fact['invalid_at'][:10]}" if fact.get("invalid_at") else ""
    return f"{fact['subject_name']} {fact['predicate']} {target}{cond} [{fact['status']}{closed}]"


def _expected(fact: dict[str, Any]) -> str:
    target = fact.get("object", fact.get("value", "*"))
    cond = f" {fact['conditions']}" if fact.get("conditions") else ""
    return f"{fact['subject']} {fact.get('predicate', '*')} {target}{cond}"


def _related(reader: Reader | _Static, expected: dict[str, Any], names_of: dict[str, set[str]]) -> str:
    """Describe what the graph holds about the expected subject and predicate (for a failure)."""
    partial = {k: v for k, v in expected.items() if k in ("subject", "predicate")}
    seen = [_show(f) for f in reader.facts(include_history=True) if _matches(partial, f, names_of)]
    return "; ".join(seen[:4]) or "nothing with that subject and predicate"


def check_story(reader: Reader | _Static, story: dict) -> list[dict[str, Any]]:
    """Return one result per expectation: kind, what was expected, ok, and a note."""
    expect = story["expect"]
    reference = max(_when(e["timestamp"]) for e in story["episodes"])
    names_of: dict[str, set[str]] = defaultdict(set)
    for episode in story["episodes"]:
        for entity in episode.get("entities", []):
            names_of[entity["name"]] |= _kg.name_keys([entity["name"], *entity.get("aliases", [])])
    results: list[dict[str, Any]] = []

    def add(kind: str, what: str, ok: bool, note: str = "") -> None:
        results.append({"kind": kind, "expected": what, "ok": ok, "note": "" if ok else note})

    for fact in expect.get("current", []):
        ok = any(_matches(fact, f, names_of) and _live(f, reference) for f in reader.facts())
        add("current", _expected(fact), ok, _related(reader, fact, names_of))
    for fact in expect.get("history", []):
        ok = any(
            _matches(fact, f, names_of) and _closed(f, reference) for f in reader.facts(include_history=True)
        )
        add("history", _expected(fact), ok, _related(reader, fact, names_of))
    for fact in expect.get("disputed", []):
        ok = any(
            _matches(fact, f, names_of) and f["status"] == "disputed"
            for f in reader.facts(include_history=True)
        )
        add("disputed", _expected(fact), ok, _related(reader, fact, names_of))
    for moment in expect.get("as_of", []):
        for fact in moment["facts"]:
            ok = any(_matches(fact, f, names_of) for f in reader.facts(as_of=moment["at"]))
            found = "; ".join(_show(f) for f in reader.facts(as_of=moment["at"])[:4]) or "no fact"
            add("as_of", f"{_expected(fact)} @ {moment['at']}", ok, f"as of then: {found}")
    for fact in expect.get("absent", []):
        if fact.get("subject") == "*":
            facts = reader.facts(include_history=True)
            built = reader.built_anything()
            note = f"{len(facts)} fact(s){', an extract operation' if built else ''}: " + "; ".join(
                _show(f) for f in facts[:3]
            )
            add("absent", "nothing built", not facts and not built, note)
            continue
        live = [f for f in reader.facts() if _matches(fact, f, names_of) and _live(f, reference)]
        add("absent", _expected(fact), not live, "still live: " + "; ".join(_show(f) for f in live[:3]))
    for a, b in expect.get("merged", []):
        ids_a, ids_b = reader.entities_named(a), reader.entities_named(b)
        merged = bool(ids_a & ids_b)
        candidate = any(frozenset((x, y)) in reader.candidate_pairs() for x in ids_a for y in ids_b if x != y)
        how = "merged" if merged else "candidate" if candidate else ""
        note = f"{a}: {len(ids_a)} entit(ies), {b}: {len(ids_b)}, no merge and no candidate"
        add("merged", f"{a} = {b}", merged or candidate, note)
        results[-1]["how"] = how
    for pair in expect.get("distinct", []):
        sides = [_ids(reader, side, names_of) for side in pair]
        plain = all(isinstance(side, str) for side in pair) and pair[0] == pair[1]
        ok = bool(sides[0] and sides[1]) and (
            len(sides[0]) >= 2 if plain else any(x != y for x in sides[0] for y in sides[1])
        )
        what = " ≠ ".join(_side(side) for side in pair)
        add("distinct", what, ok, f"entities found: {[sorted(s) for s in sides]}")
    return results


def _ids(reader: Reader | _Static, side: Any, names_of: dict[str, set[str]]) -> set[str]:
    if isinstance(side, str):
        return reader.entities_named(side)
    expected = {"subject": side["name"], **{k: v for k, v in side.items() if k != "name"}}
    return {f["subject_id"] for f in reader.facts(include_history=True) if _matches(expected, f, names_of)}


def _side(side: Any) -> str:
    if isinstance(side, str):
        return side
    return f"{side['name']} ({side['predicate']} {side.get('object', side.get('value'))})"


# -- the keep-everything baseline -----------------------------------------------------------------


def keep_everything(story: dict) -> list[dict[str, Any]]:
    """Score the story as if every agent-supplied fact stayed current and nothing else happened."""
    reader = _Static(story)
    return check_story(reader, story)


class _Static:
    """A Reader over the agent-supplied facts, all current, no entities resolved beyond exact names."""

    def __init__(self, story: dict) -> None:
        self._facts = []
        self._ids: dict[str, str] = {}
        for episode in story["episodes"]:
            for fact in episode.get("facts", []):
                obj = fact.get("object")
                self._facts.append(
                    {
                        "id": str(len(self._facts)),
                        "subject_id": self._id(fact["subject"]),
                        "subject": _kg.name_keys([fact["subject"]]),
                        "subject_name": fact["subject"],
                        "predicate": fact["predicate"],
                        "object": None if obj is None else _kg.name_keys([obj]),
                        "object_names": [] if obj is None else [obj],
                        "value": fact.get("value"),
                        "conditions": fact.get("conditions") or {},
                        "status": "current",
                        "valid_at": fact.get("valid_at") or episode["timestamp"],
                        "invalid_at": None,
                        "source_kind": fact.get("source_kind"),
                    }
                )

    def _id(self, name: str) -> str:
        return self._ids.setdefault(_kg.norm_name(name), f"e{len(self._ids)}")

    def facts(self, *, include_history: bool = False, as_of: str | None = None) -> list[dict[str, Any]]:
        if as_of is None:
            return self._facts
        moment = _when(as_of)
        return [f for f in self._facts if _when(f["valid_at"]) <= moment]

    def entities_named(self, name: str) -> set[str]:
        key = _kg.norm_name(name)
        return {self._ids[key]} if key in self._ids else set()

    def candidate_pairs(self) -> set[frozenset[str]]:
        return set()

    def built_anything(self) -> bool:
        return bool(self._facts)


# -- main ---------------------------------------------------------------------------------------


def run(stories: list[dict], paths: list[str], extractor: str) -> dict[str, Any]:
    """Replay ``stories`` on each path, check them, and return the report."""
    run_id = uuid.uuid4().hex[:6]
    results: dict[str, list[dict[str, Any]]] = {path: [] for path in paths}
    started = time.perf_counter()
    with _kg.Server(extractor=extractor) as server:
        for story in stories:
            for path in paths:
                group = f"sb-{run_id}-{story['id']}-{path}"
                error = replay(server.client, story, path, group)
                reader = Reader(server.client, group)
                checks = (
                    [{"kind": "replay", "expected": "episodes accepted", "ok": False, "note": error}]
                    if error
                    else []
                )
                checks += check_story(reader, story)
                results[path].append(_story_result(story, checks, reader.truncated))
    seconds = time.perf_counter() - started
    results["keep-everything baseline"] = [_story_result(s, keep_everything(s), False) for s in stories]
    return {
        "stories": len(stories),
        "seconds": round(seconds, 1),
        "paths": {p: _summary(r) for p, r in results.items()},
    }


def _story_result(story: dict, checks: list[dict[str, Any]], truncated: bool) -> dict[str, Any]:
    failed = [c for c in checks if not c["ok"]]
    return {
        "id": story["id"],
        "lang": story["lang"],
        "tags": story["tags"],
        "title": story.get("title", ""),
        "passed": not failed,
        "checks": checks,
        "first_failure": failed[0] if failed else None,
        "truncated_reads": truncated,
    }


def _summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    stories: dict[str, Counter[str]] = defaultdict(Counter)
    checks: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        for key in ("all", f"lang={r['lang']}", *(f"tag={t}" for t in r["tags"])):
            stories[key].update({"stories": 1, "passed": int(r["passed"])})
        for c in r["checks"]:
            checks[c["kind"]].update({"checks": 1, "passed": int(c["ok"])})
            checks["all"].update({"checks": 1, "passed": int(c["ok"])})
            if c.get("how"):
                checks[f"merged: {c['how']}"].update({"checks": 1, "passed": 1})
    return {
        "stories": {k: {**v, "rate": v["passed"] / v["stories"]} for k, v in sorted(stories.items())},
        "checks": {k: {**v, "rate": v["passed"] / v["checks"]} for k, v in sorted(checks.items())},
        "results": results,
    }


def print_report(report: dict[str, Any]) -> None:
    """Print pass rates per path, language, tag and expectation kind, then the failing stories."""
    paths = list(report["paths"])
    keys = list(report["paths"][paths[0]]["stories"])
    order = ["all", "lang=en", "lang=zh", *sorted(k for k in keys if k.startswith("tag="))]
    rows = []
    for key in order:
        row: dict[str, Any] = {"group": key, "stories": report["paths"][paths[0]]["stories"][key]["stories"]}
        for path in paths:
            s = report["paths"][path]["stories"].get(key)
            row[path] = f"{s['passed']}/{s['stories']} ({s['rate']:.0%})" if s else ""
        rows.append(row)
    _kg.print_table(rows, ["group", "stories", *paths], f"## Stories passed ({report['stories']} stories)")
    kinds = ["all", *[k for k in KINDS if any(k in report["paths"][p]["checks"] for p in paths)], "replay"]
    rows = []
    for kind in kinds:
        row = {"expectation": kind}
        for path in paths:
            c = report["paths"][path]["checks"].get(kind)
            row[path] = f"{c['passed']}/{c['checks']} ({c['rate']:.0%})" if c else ""
        if any(row[p] for p in paths):
            rows.append(row)
    for path in paths:
        for how in ("merged", "candidate"):
            c = report["paths"][path]["checks"].get(f"merged: {how}")
            if c:
                rows.append({"expectation": f"  of which by {how}", path: str(c["checks"])})
    _kg.print_table(rows, ["expectation", *paths], "## Expectations met")
    for path in paths:
        if path.startswith("keep"):
            continue
        failing = [r for r in report["paths"][path]["results"] if not r["passed"]]
        print(f"\n## Failing stories, {path} path ({len(failing)})\n")
        for r in failing:
            f = r["first_failure"]
            print(f"- {r['id']} ({', '.join(r['tags'])}): {f['kind']} {f['expected']} — {f['note']}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=SET)
    parser.add_argument("--path", choices=PATHS, help="only one path (default: both)")
    parser.add_argument("--story", action="append", help="only this story id (repeatable)")
    parser.add_argument("--limit", type=int, help="only the first N stories, alternating languages")
    parser.add_argument("--extractor", default="builtin", help="the server's ENGRAM_EXTRACTOR")
    parser.add_argument("--json", action="store_true", help="print JSON (every check of every story)")
    args = parser.parse_args()
    info = _kg.header()
    stories = load(args.data, args.story, args.limit)
    paths = [args.path] if args.path else list(PATHS)
    report = {
        "header": info,
        "command": _kg.command_line(),
        "extractor": args.extractor,
        **run(stories, paths, args.extractor),
    }
    if args.json:
        json.dump(report, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return
    _kg.print_header(info)
    server = f"engram serve, ENGRAM_EXTRACTOR={args.extractor}, ENGRAM_EMBEDDER=none"
    print(f"server: {server}; {report['seconds']} s")
    print_report(report)
    print(f"\nReproduce: {report['command']}")


if __name__ == "__main__":
    main()
