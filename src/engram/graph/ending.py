"""Which live facts a claim ends: those its predicate ends or opposes (a value naming their object
entity counts as it), and a thread's rival values.

The arbiter (engram.graph.arbitrate) decides what happens to the facts it is handed; this module
finds them in the graph. Both readers run inside the graph build's transaction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from engram.graph.arbitrate import RESCHEDULE_CUES, Claim, fact_time, normal_value, same_target
from engram.models.episodes import Episode
from engram.models.graph import Fact
from engram.storage.protocol import Txn
from engram.threads import thread_key

ANOTHER_ONE = re.compile(r"\b(?:also|another|second|separate|other)\b|另外|另一个|还有一个|还有个|也有", re.I)
"""Words that say a meeting is one more, not the one the thread is about ("I also have a meeting
with Globex on Monday"): a move of "the meeting" leaves it."""


def value_as_object(txn: Txn, group: str, claim: Claim, facts: Sequence[Fact]) -> Claim:
    """Return the claim with its value made the object of one of ``facts`` whose entity that value
    names ("We stopped using Linear" read as the value "Linear" ends USES Linear, the entity)."""
    if claim.object is not None or not isinstance(claim.value, str):
        return claim
    key = normal_value(claim.value)
    for fact in facts:
        if fact.object is not None and key in {normal_value(n) for n in txn.names(group, fact.object)}:
            return replace(claim, object=fact.object, value=None)
    return claim


def ended_facts(txn: Txn, episode: Episode, claim: Claim, found: Sequence[Fact]) -> list[Fact]:
    """Return those of ``found`` (the subject's live facts of the predicates the claim's ends or
    opposes, or that end it) that the claim ends: the same target.

    A stop claim naming no target ends the subject's most recent live fact that began by the
    claim's time, of the first predicate it ends that the subject holds (a job before a club
    membership: "Tom quit"), in the episode's thread when it has one.
    """
    group, ends = episode.group_id, claim.predicate.closes
    if claim.has_target:
        return [f for f in found if f.status == "current" and same_target(claim, f)]
    if claim.negated:
        return []
    live = [
        f
        for f in found
        if f.predicate in ends and f.status == "current" and fact_time(f) <= claim.effective_time
    ]
    if live:
        first = next(p for p in ends if any(f.predicate == p for f in live))
        live = [f for f in live if f.predicate == first]
    thread = thread_key(episode)
    if thread is not None and live:
        threads = txn.episode_threads(group, [e for f in live for e in f.episodes])
        in_thread = [f for f in live if any(threads.get(e) == thread for e in f.episodes)]
        live = in_thread or live
    return [max(live, key=fact_time)] if live else []


def thread_values(txn: Txn, episode: Episode, claim: Claim) -> tuple[list[Fact], list[Fact]]:
    """Return what a claim of a thread-scoped predicate (``Predicate.scope``) meets in the episode's
    thread among the current facts other subjects hold there with another target under the same
    conditions: (the fact it moves, the later moves that replaced it). Both empty for another
    predicate, an episode outside any thread, or a claim that is not a person's.

    The fact it moves: a claim that moves the time (``Claim.rescheduled``, or its episode says so)
    ends the time another participant set ("so I moved the meeting to Monday at 10am": the meeting
    is the conversation's), while a second meeting ("I also meet Globex on Monday") or a claim
    about a named deal or project keeps to its subject. It is the latest one set (a move names no
    meeting, and ends one at most), leaving out one said to be another meeting (ANOTHER_ONE).

    The later moves: facts stated later than the claim whose episode moved the time. The claim
    arrived after the move that replaced it (a batch or an import out of order): with them among
    its rivals the arbiter keeps it as history.
    """
    if claim.predicate.scope != "thread":
        return [], []
    values = _thread_values(txn, episode, claim)
    moves = claim.rescheduled or RESCHEDULE_CUES.search(episode.content)  # a made sentence has no cue
    candidates = [f for f in values if not ANOTHER_ONE.search(f.fact)] if moves else []
    moved = [max(candidates, key=fact_time)] if candidates else []
    later = [
        f
        for f in values
        if fact_time(f) > claim.effective_time
        and any(RESCHEDULE_CUES.search(text) for text in _episode_texts(txn, f))
    ]
    return moved, later


def _episode_texts(txn: Txn, fact: Fact) -> list[str]:
    """Return the contents of the episodes a fact cites (their latest versions)."""
    texts = []
    for episode_id in fact.episodes:
        versions = txn.versions(fact.group_id, "episode", episode_id)
        found = txn.episode_version(fact.group_id, episode_id, versions[-1].version) if versions else None
        texts += [found.content] if found is not None else []
    return texts


def _thread_values(txn: Txn, episode: Episode, claim: Claim) -> list[Fact]:
    """Return the current facts of the claim's thread-scoped predicate that other subjects hold in
    the episode's thread, with another target under the same conditions, when the claim is a
    person's statement of a value (none outside a thread)."""
    thread, group = thread_key(episode), episode.group_id
    if thread is None or not claim.has_target or claim.negated:
        return []
    subject = txn.entity(group, claim.subject)
    if subject is None or subject.type != "person":
        return []
    others = [e for e in txn.thread_entities(group, thread) if e != claim.subject]
    if not others:
        return []
    found = [
        f
        for f in txn.facts_about(group, others, [claim.predicate.name])
        if f.status == "current"
        and not same_target(claim, f)
        and dict(f.conditions) == dict(claim.conditions)
    ]
    threads = txn.episode_threads(group, [e for f in found for e in f.episodes])
    return [f for f in found if any(threads.get(e) == thread for e in f.episodes)]
