"""The text part of every tool result: the few lines an agent reads, with ``[source: id]`` citations.

The structured part (``structuredContent``) carries the whole result once; this text is a
compact reading of it, not a copy: one header line per episode, fact or operation, contents as
they are (already cut to the server's limit), and the cursor to continue when there is more.
Renderers take the structured result (JSON-shaped dicts), so a tool's text can never say
something its structured part does not. Also used by the prompt and the resources.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from engram.models.predicates import REGISTRY

Data = dict[str, Any]


def _when(value: str | None) -> str:
    """Return an ISO time as ``YYYY-MM-DD HH:MM`` (UTC), or ``?``."""
    if not value:
        return "?"
    return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M")


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _more(tool: str, cursor: str | None) -> list[str]:
    if not cursor:
        return []
    return [f'More: call {tool} again with the same arguments and cursor="{cursor}".']


def episode_lines(episode: Data, *, full: bool = False, prefix: str = "", note: str = "") -> list[str]:
    """Return an episode as a header line (citation, time, actor, intent, version) and its content.

    ``prefix`` starts the header (a rank), ``note`` ends it (a score); ``full`` adds metadata and
    references (for reading one episode).
    """
    actor = episode.get("actor") or {}
    head = [f"{prefix}[source: {episode['id']}]", _when(episode.get("timestamp"))]
    if actor:
        head.append(str(actor.get("name") or actor.get("id")))
    if episode.get("intent"):
        head.append(f"intent {episode['intent']}")
    head.append(f"v{episode['version']}")
    if episode.get("status", "active") != "active":
        head.append(str(episode["status"]))
    if note:
        head.append(note)
    lines = [" · ".join(head)]
    content = str(episode["content"])
    if episode.get("content_truncated"):
        content += f" (cut: get_episode {episode['id']} for all of it)"
    lines += ["  " + line for line in content.splitlines() or [""]]
    if full and episode.get("metadata"):
        lines.append(f"  metadata: {_compact(episode['metadata'])}")
    if full and episode.get("references"):
        lines.append(f"  references: {', '.join(episode['references'])}")
    return lines


def fact_line(hit: Data) -> str:
    """Return a fact hit as ``- subject PREDICATE object — sentence [status…] [source: …]``."""
    fact = hit["fact"]
    target = hit.get("object_name") or fact.get("object") or _compact(fact.get("value"))
    notes = [] if fact["status"] == "current" else [fact["status"].upper()]
    if fact.get("valid_at"):
        notes.append(f"since {_when(fact['valid_at'])[:10]}")
    if fact.get("invalid_at"):
        notes.append(f"until {_when(fact['invalid_at'])[:10]}")
    if fact.get("conditions"):
        notes.append("when " + ", ".join(f"{k}={v}" for k, v in fact["conditions"].items()))
    if fact.get("superseded_by"):
        notes.append(f"superseded by {fact['superseded_by']}")
    if hit.get("archived"):
        notes.append("archived")
    notes.append(f"confidence {fact['confidence']:.2f}")
    subject = hit.get("subject_name") or fact["subject"]
    citations = " ".join(hit.get("citations", []))
    return (
        f"- {subject} {fact['predicate']} {target} — {fact['fact']} [{'; '.join(notes)}] {citations}".rstrip()
    )


def entity_line(entity: Data) -> str:
    """Return an entity as ``name (type) id · aliases · attributes``."""
    parts = [f"{entity['name']} ({entity['type']}) {entity['id']}"]
    if entity.get("aliases"):
        parts.append("aliases: " + ", ".join(entity["aliases"]))
    if entity.get("attributes"):
        values = {k: v.get("value") if isinstance(v, dict) else v for k, v in entity["attributes"].items()}
        parts.append("attributes: " + ", ".join(f"{k}={v}" for k, v in values.items()))
    return " · ".join(parts)


def operation_line(operation: Data) -> str:
    """Return an operation as ``op_… time kind by actor: summary``."""
    actor = f" by {operation['actor']}" if operation.get("actor") else ""
    when = _when(operation.get("created_at"))
    return f"- {operation['id']} {when} {operation['kind']}{actor}: {operation['summary']}"


def _created(data: Data) -> str:
    episode = data["episode"]
    if data.get("deduplicated"):
        head = f"Already stored (deduplicated, nothing written): {episode['id']}."
    else:
        head = f"Stored episode {episode['id']}; pass version {episode['version']} to update_episode."
    return "\n".join([head, *episode_lines(episode), *_unknown(data)])


def _unknown(data: Data) -> list[str]:
    """Say which predicates the registry does not know: a misspelt one escapes arbitration."""
    unknown = data.get("unknown_predicates") or []
    if not unknown:
        return []
    named = [
        f"{name} (did you mean {hint}?)" if (hint := REGISTRY.closest(name)) else name for name in unknown
    ]
    return [
        f"Unknown predicates, kept as given (many-valued: no update or dispute arbitrates them): "
        f"{', '.join(named)}."
    ]


def _created_each(data: Data) -> str:
    lines = [f"{data['created']} stored, {data['deduplicated']} already stored, {data['failed']} failed:"]
    for item in data["results"]:
        if item["status"] == "failed":
            problem = item.get("problem") or {}
            field = f" (field: {problem['field']})" if problem.get("field") else ""
            lines.append(f"#{item['index']} failed: {problem.get('detail') or problem.get('title')}{field}")
        else:
            lines += episode_lines(item["episode"], prefix=f"#{item['index']} {item['status']} ")
    return "\n".join(lines)


def _episode(data: Data) -> str:
    return "\n".join(episode_lines(data["episode"], full=True))


def _listed(data: Data) -> str:
    items = data["items"]
    lines = [f"{len(items)} episode(s), newest first:" if items else "No episodes match."]
    for episode in items:
        lines += episode_lines(episode)
    return "\n".join(lines + _more("list_episodes", data.get("next_cursor")))


def _searched(data: Data) -> str:
    hits = data["results"]
    if not hits:
        lines = ["No episode matches: memory holds nothing on this (say so rather than guess)."]
    else:
        lines = [f"{len(hits)} hit(s), best first; cite [source: id] beside what you use:"]
    for rank, hit in enumerate(hits, start=1):
        lines += episode_lines(hit["episode"], prefix=f"{rank}. ", note=f"score {hit['score']:.3f}")
    lines += [f"Warning: {warning}" for warning in data.get("warnings", [])]
    return "\n".join(lines + _more("search_episodes", data.get("next_cursor")))


def _facts(data: Data) -> str:
    hits = data["results"]
    if not hits:
        return "No fact matches: memory holds nothing on this (say so rather than guess)."
    lines = [f"{len(hits)} fact(s), best first:"]
    return "\n".join(lines + [fact_line(hit) for hit in hits])


def _entities(data: Data) -> str:
    found = data["results"]
    if not found:
        return "No entity matches."
    return "\n".join([f"{len(found)} entit(y/ies):", *("- " + entity_line(e) for e in found)])


def entity_text(data: Data) -> str:
    """Return an entity view (entity, facts, timeline) as text."""
    entity = data["entity"]
    seen = f"seen {_when(entity.get('first_seen'))} to {_when(entity.get('last_seen'))}"
    lines = [entity_line(entity) + " · " + seen]
    if entity.get("summary"):
        lines.append(f"  {entity['summary']}")
    facts = data.get("facts", [])
    lines.append(f"Facts ({len(facts)}):" if facts else "No current facts.")
    lines += [fact_line(hit) for hit in facts]
    if data.get("facts_truncated"):
        lines.append(f"More facts: search_facts with subject={entity['id']}.")
    timeline = data.get("timeline", [])
    if len(timeline) > 1:
        lines.append(f"{len(timeline)} versions; names over time: " + " → ".join(v["name"] for v in timeline))
    return "\n".join(lines)


def _added(data: Data) -> str:
    counts = ", ".join(f"{kind} {count}" for kind, count in data["facts"].items()) or "none"
    lines = [f"Facts added to {data['episode_id']}: {counts}.", f"Fact ids: {', '.join(data['fact_ids'])}."]
    if data.get("entities_created"):
        lines.append(f"Entities created: {', '.join(data['entities_created'])}.")
    if data.get("entities_matched"):
        lines.append(f"Entities matched: {', '.join(data['entities_matched'])}.")
    if data.get("merge_candidates"):
        lines.append(f"{data['merge_candidates']} possible duplicate(s) recorded for review.")
    return "\n".join([*lines, *_unknown(data)])


def _operations(data: Data) -> str:
    items = data["items"]
    lines = [f"{len(items)} operation(s), newest first:" if items else "No operations match."]
    lines += [operation_line(operation) for operation in items]
    return "\n".join(lines + _more("list_operations", data.get("next_cursor")))


def _operation_view(data: Data) -> str:
    operation = data["operation"]

    def versions(changes: list[Data]) -> str:
        return ", ".join(f"{c['kind']} {c['id']} v{c['version']}" for c in changes) or "none"

    return "\n".join(
        [
            operation_line(operation).removeprefix("- "),
            f"Created: {versions(data['created'])}.",
            f"Closed: {versions(data['closed'])}.",
            f"Undo with revert_operation id={operation['id']}.",
        ]
    )


def _reference(data: Data) -> str:
    versions = data["versions"]
    head = f"{data['document']}: {len(versions)} version(s), latest {data['latest']}"
    if data["resolved_by"] != "id" or data["resolved"] != data["document"]:
        head += f" (asked {data['query']!r}, resolved by {data['resolved_by']} to {data['resolved']})"
    lines = [head + ":"]
    for version in versions:
        names = f" · names: {', '.join(version['names'])}" if version.get("names") else ""
        latest = " · LATEST" if version["latest"] else ""
        lines.append(
            f"- {version['reference']} · {version['episodes']} episode(s) "
            f"{_when(version['first_seen'])} to {_when(version['last_seen'])}{latest}{names}"
        )
    if data.get("note"):
        lines.append(f"Note: {data['note']}.")
    items = data["items"]
    lines.append(
        f"{len(items)} episode(s) citing it, newest first:" if items else "No episodes on this page."
    )
    for item in items:
        cited = ", ".join(item["cites"]) or f"part of {item['part_of']}"
        note = f"cites {cited}" + ("" if item["latest"] else " (not the latest)")
        lines += episode_lines(item["episode"], note=note)
    return "\n".join(lines + _more("get_reference", data.get("next_cursor")))


RENDERERS: dict[str, Callable[[Data], str]] = {
    "create_episode": _created,
    "create_episodes": _created_each,
    "update_episode": _episode,
    "get_episode": _episode,
    "list_episodes": _listed,
    "search_episodes": _searched,
    "search_facts": _facts,
    "search_entities": _entities,
    "get_entity": entity_text,
    "merge_entities": entity_text,
    "update_entity": entity_text,
    "add_facts": _added,
    "list_operations": _operations,
    "revert_operation": _operation_view,
    "delete_episode": _operation_view,
    "get_reference": _reference,
}
"""The text renderer of each tool, by tool name."""


def render(tool: str, data: Data) -> str:
    """Return the text part of ``tool``'s result ``data``; compact JSON for a tool without a renderer."""
    renderer = RENDERERS.get(tool)
    return renderer(data) if renderer is not None else _compact(data)
