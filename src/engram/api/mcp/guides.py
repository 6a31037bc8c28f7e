"""What the MCP server teaches the calling agent: server instructions and tool description guides.

Kept short on purpose: every tool description is sent to the agent's context on every turn.
"""

from __future__ import annotations

INSTRUCTIONS = """\
Engram is long-term memory. Store what happened as episodes with create_episode; find them with \
search_episodes (relevance) or list_episodes (newest first); facts about entities with \
search_facts, search_entities and get_entity. Every call is scoped to one group_id (a user, team \
or tenant; omit it for the default group). Answer only from what memory returns and quote each \
hit's citation, [source: <episode id>]; when nothing is found, say that memory does not know. \
Results stop at a size budget: call again with next_cursor for more. Open a citation with \
get_episode or the resource engram://groups/{group_id}/episodes/{id}. The prompt \
answer_from_memory shows the way to answer (English or Chinese)."""

EXTRACTION_GUIDE = """\
Pass the graph you extracted as entities and facts (no server LLM needed; [] and [] for \
chit-chat; omitted: the server's rules extract). Example, actor {"id": "u_7", "name": "李强"}, \
content "2024年3月之前我住在上海，现在住在杭州，周末在Initech兼职，预算大概五十万。":
entities=[{"name": "李强", "type": "person"}, {"name": "杭州", "type": "place"}, {"name": "上海", "type": "place"}, {"name": "Initech", "type": "organisation"}]
facts=[{"subject": "李强", "predicate": "LIVES_IN", "object": "上海", "invalid_at": "2024-03-01", "fact": "李强2024年3月之前住在上海"}, {"subject": "李强", "predicate": "LIVES_IN", "object": "杭州", "fact": "李强住在杭州"}, {"subject": "李强", "predicate": "WORKS_AT", "object": "Initech", "conditions": {"when": "weekends"}, "fact": "李强周末在Initech兼职"}, {"subject": "李强", "predicate": "BUDGET", "value": 500000, "confidence": 0.7, "source_kind": "inferred", "fact": "李强的预算大概五十万"}]
"I"/"我" is the actor: use their name. Each fact has object (an entity) or value (a literal), \
never both; valid_at/invalid_at only when the text dates it. Endings are facts too: \
STOPPED_USING, LEFT_ORGANISATION, LEFT_ROLE, MOVED_FROM close what they stop."""

STATUS_GUIDE = """\
Status: current; disputed (sources disagree, status_reason says why: give both values as \
uncertain, with citations); superseded or retracted (only with include_history). Quote each \
fact's citations."""

HISTORY_GUIDE = """\
Refused when later operations changed the same objects (the error names them): revert those \
first, or force=true only if the user wants their changes overwritten."""
