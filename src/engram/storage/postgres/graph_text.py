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

from collections.abc import Sequence
from typing import Any

import psycopg

from engram.models.graph import Fact
from engram.storage.postgres.fulltext import K1, B, WordStatistics, _idf
from engram.storage.postgres.graph_rows import N_FACT_COLUMNS, F, fact_from_row
from engram.storage.postgres.migrations import TEXT_CONFIG
from engram.storage.postgres.rows import index_text

Connection = psycopg.Connection[Any]

CANDIDATE_FACTS = 500
"""Expected matches up to which query words make candidates, rarest first (the rarest always does).

Lower than episodes' CANDIDATE_ROWS: every candidate is joined to its fact versions before it
is ranked, and beyond a few hundred the planner scans every version of the group instead."""


class FactText(WordStatistics):
    """Ranks fact full-text matches; holds the cached word statistics of ``fact_docs`` (thread-safe)."""

    def __init__(self) -> None:
        super().__init__("fact_docs", "length(text_doc)")

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
