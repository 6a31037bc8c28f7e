"""Full-text search of facts on PostgreSQL: ``fact_docs`` tsvectors ranked as episodes are.

The ranking is postgres_text.py's BM25 approximation: each query term ``t`` scores

    idf(t) · match(t) · (k1 + 1) / (1 + k1 · (1 − b + b · len / avglen))

with ``match`` 1 when the fact's document (its sentence and the names it connects) holds the
term as a phrase, ``len`` the document's number of distinct words, and idf from the planner's
statistics of ``fact_docs.text_doc`` (table-wide, like FTS5's), read at most every
STATS_SECONDS. Candidates are pruned the same way too: query words are taken rarest first
while the facts expected to hold them stay within CANDIDATE_FACTS (the rarest always), so
"lives in Lisbon" does not score every fact holding "in"; a candidate's score still counts
every word, and if the candidates give fewer than ``limit`` facts every word is searched.
Superseded and retracted versions score ``inactive_weight`` of that (decay, issue #5); the
archive (``archived_facts``, ``archived_fact_docs``) is searched the same way, with the live
table's statistics, so archived and live scores compare.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg

from engram.graph.models import Fact
from engram.store.postgres_graph_rows import N_FACT_COLUMNS, F, fact_from_row
from engram.store.postgres_rows import index_text
from engram.store.postgres_schema import TEXT_CONFIG
from engram.store.postgres_text import K1, LEXEME_CACHE, STATS_SECONDS, B, _idf

Connection = psycopg.Connection[Any]

CANDIDATE_FACTS = 500
"""Expected matches up to which query words make candidates, rarest first (the rarest always does).

Lower than episodes' CANDIDATE_ROWS: every candidate is joined to its fact versions before it
is ranked, and beyond a few hundred the planner scans every version of the group instead."""


@dataclass
class _Stats:
    rows: float = 0.0
    average_length: float = 1.0
    shares: dict[str, float] = field(default_factory=dict)
    rare_share: float = 0.0
    read_at: float = -math.inf


class FactText:
    """Ranks fact full-text matches; holds the cached word statistics of ``fact_docs`` (thread-safe)."""

    def __init__(self) -> None:
        self._stats = _Stats()
        self._lexemes: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def invalidate(self) -> None:
        """Forget the cached statistics (after ANALYZE)."""
        with self._lock:
            self._stats = _Stats()

    def _read_stats(self, conn: Connection) -> _Stats:
        with self._lock:
            if time.monotonic() - self._stats.read_at < STATS_SECONDS:
                return self._stats
        row = conn.execute(
            "SELECT c.reltuples, s.most_common_elems::text::text[], s.most_common_elem_freqs "
            "FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() "
            "AND s.tablename = 'fact_docs' AND s.attname = 'text_doc' "
            "WHERE c.oid = 'fact_docs'::regclass"
        ).fetchone()
        average = conn.execute(
            "SELECT avg(length(text_doc)) FROM (SELECT text_doc FROM fact_docs LIMIT 2000) s"
        ).fetchone()
        stats = _Stats(read_at=time.monotonic())
        if row is not None and row[1] and row[2]:
            words, shares = list(row[1]), list(row[2])
            stats.rows = max(float(row[0]), 1.0)
            stats.shares = dict(zip(words, shares[: len(words)], strict=True))
            stats.rare_share = float(shares[len(words)]) / 2  # after the words: min, max, null share
        if average is not None and average[0]:
            stats.average_length = max(float(average[0]), 1.0)
        with self._lock:
            self._stats = stats
        return stats

    def _lexemes_of(self, conn: Connection, words: Sequence[str]) -> list[tuple[str, ...]]:
        """Return each word's lexemes (several for a phrase), cached."""
        missing = [word for word in dict.fromkeys(words) if word not in self._lexemes]
        if missing:
            rows = conn.execute(
                f"SELECT w, array(SELECT lexeme FROM unnest(to_tsvector('{TEXT_CONFIG}', w))) "
                "FROM unnest(%s::text[]) AS w",
                (missing,),
            ).fetchall()
            with self._lock:
                if len(self._lexemes) > LEXEME_CACHE:
                    self._lexemes.clear()
                self._lexemes.update({str(row[0]): tuple(row[1]) for row in rows})
        return [self._lexemes.get(word, ()) for word in words]

    def search(
        self,
        conn: Connection,
        group_id: str,
        terms: Sequence[str],
        clause: str,
        params: Sequence[Any],
        limit: int,
        *,
        inactive_weight: float = 1.0,
        archived: bool = False,
    ) -> list[tuple[Fact, float]]:
        """Return up to ``limit`` facts of the group matching a term and ``clause`` (on ``f``), best first.

        Inactive versions score ``inactive_weight`` of their match; ``archived`` searches the archive.
        """
        candidates = [word for word in dict.fromkeys(index_text(term) for term in terms) if word]
        lexemes = self._lexemes_of(conn, candidates)
        found = [(word, parts) for word, parts in zip(candidates, lexemes, strict=True) if parts]
        if not found:
            return []
        stats = self._read_stats(conn)
        words = [word for word, _ in found]
        if stats.shares:
            rows = stats.rows
            shares = [
                min(stats.shares.get(lexeme, stats.rare_share) for lexeme in parts) for _, parts in found
            ]
        else:  # no planner statistics yet (a young table): count, which is cheap while it is small
            rows, shares = _counted_shares(conn, group_id, words)  # the live table's, as the stats are
        weights = [_idf(share, rows) for share in shares]
        wanted: list[str] = []
        expected = 0.0
        for share, word in sorted(zip(shares, words, strict=True)):
            if wanted and expected + share * rows > CANDIDATE_FACTS:
                break
            wanted.append(word)
            expected += share * rows
        tables = ("archived_facts", "archived_fact_docs") if archived else ("facts", "fact_docs")
        query = (conn, group_id, words, weights, stats.average_length, clause, params, limit, inactive_weight)
        hits = _query(*query, tables, wanted)
        if len(hits) < limit and len(wanted) < len(words):
            hits = _query(*query, tables, words)
        return hits


def _counted_shares(conn: Connection, group_id: str, words: Sequence[str]) -> tuple[float, list[float]]:
    """Return (rows, share of rows holding each word) of the group's live fact documents, counted."""
    phrase = f"phraseto_tsquery('{TEXT_CONFIG}', %s::text)"
    counts = ", ".join(f"count(*) FILTER (WHERE text_doc @@ {phrase})" for _ in words)
    row = conn.execute(
        f"SELECT count(*), {counts} FROM fact_docs WHERE group_id = %s", (*words, group_id)
    ).fetchone()
    assert row is not None
    rows = max(float(row[0]), 1.0)
    return rows, [float(n) / rows for n in row[1:]]


def _query(
    conn: Connection,
    group_id: str,
    words: Sequence[str],
    weights: Sequence[float],
    average_length: float,
    clause: str,
    params: Sequence[Any],
    limit: int,
    inactive_weight: float,
    tables: tuple[str, str],
    wanted: Sequence[str],
) -> list[tuple[Fact, float]]:
    phrase = f"phraseto_tsquery('{TEXT_CONFIG}', %s::text)"
    queries = ", ".join(f"{phrase} AS t{i}" for i in range(len(words)))
    match = " + ".join(
        f"(CASE WHEN d.text_doc @@ q.t{i} THEN %s::float8 ELSE 0 END)" for i in range(len(words))
    )
    condition = " || ".join(f"q.t{i}" for i, word in enumerate(words) if word in wanted)
    # Not prepared: the plan is made for these very words (rare words: index scans).
    facts, docs = tables
    rows = conn.execute(
        f"SELECT {F}, ({match}) * {K1 + 1} / "
        f"(1 + {K1} * ({1 - B} + {B} * length(d.text_doc) / %s::float8)) "
        "* (CASE WHEN f.status IN ('current', 'disputed') THEN 1 ELSE %s::float8 END) AS score "
        f"FROM (SELECT {queries}) q, {docs} d JOIN {facts} f ON f.group_id = d.group_id AND f.id = d.id "
        f"WHERE d.group_id = %s AND d.text_doc @@ ({condition}) AND {clause} "
        "ORDER BY score DESC, f.id, f.version LIMIT %s",
        (*weights, average_length, inactive_weight, *words, group_id, *params, limit),
        prepare=False,
    ).fetchall()
    return [(fact_from_row(row), float(row[N_FACT_COLUMNS])) for row in rows]
