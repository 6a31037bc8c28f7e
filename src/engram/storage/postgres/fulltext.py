"""Full-text search for the PostgreSQL store: GIN-indexed tsvectors ranked by a BM25 approximation.

Core PostgreSQL has no BM25: ``ts_rank_cd`` knows nothing of how rare a word is, so an
episode with two common words outranks one with the single rare word a question is about,
and it is computed for every matching row (tens of thousands at 100k episodes for a common
word). Instead, each query term ``t`` scores

    idf(t) · match(t) · (k1 + 1) / (1 + k1 · (1 − b + b · len / avglen))

with ``match`` 1 when the episode's own text holds the term, CONTEXT_WEIGHT when only its
thread neighbours' text does, 0 otherwise (term frequency counts once: the "binary" BM25),
``len`` the number of distinct words of the episode, ``k1`` 1.2 and ``b`` 0.75 as in FTS5.
``idf`` uses document frequencies from the planner's statistics (``pg_stats`` keeps the
1,000 most common words of ``text_doc`` with the share of rows holding each; rarer words
count as half as frequent as the rarest listed one). Like FTS5's, they are table-wide, not
per group. They are read at most every STATS_SECONDS.

Candidates come from the GIN indexes. Words are taken rarest first while the episodes
expected to hold them stay within CANDIDATE_ROWS (the rarest is always taken); only
episodes holding one of those are scored, and their score still counts every word. A
common word alone thus no longer drags tens of thousands of rows into the ranking; an
episode that holds only common words and would have ranked in the top ``limit`` is the
price (rare: the rarer words carry most of the score). If the candidates give fewer than
``limit`` episodes, every word is searched.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg

from engram.storage.postgres.migrations import TEXT_CONFIG
from engram.storage.postgres.rows import CURRENT, E_COLUMNS, N_COLUMNS, episode_from_row, index_text
from engram.storage.protocol import CONTEXT_WEIGHT, ScoredEpisode

Connection = psycopg.Connection[Any]

K1 = 1.2
B = 0.75
CANDIDATE_ROWS = 2000
"""Expected matches up to which query words make candidates, rarest first (the rarest always does)."""
DOC_LENGTH = "(length({d}text_doc) + length({d}context_doc))"
"""An episode's length for BM25: distinct words of its own text and of its thread context."""
STATS_SECONDS = 60.0
LEXEME_CACHE = 20_000


@dataclass
class _Stats:
    rows: float = 0.0
    average_length: float = 1.0
    shares: dict[str, float] = field(default_factory=dict)
    rare_share: float = 0.0
    read_at: float = -math.inf


class WordStatistics:
    """The cached word statistics (planner's ``pg_stats``) and lexemes of one table's ``text_doc``.

    Thread-safe; shared by episode search (TextSearch) and fact search (postgres_graph_text).
    ``length`` is the SQL of a row's length for BM25.
    """

    def __init__(self, table: str, length: str) -> None:
        self._table = table
        self._length = length
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
            "AND s.tablename = %s AND s.attname = 'text_doc' WHERE c.oid = %s::regclass",
            (self._table, self._table),
        ).fetchone()
        average = conn.execute(
            f"SELECT avg({self._length}) FROM (SELECT * FROM {self._table} LIMIT 2000) s"
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
        """Return each word's lexemes (several for a phrase such as "DEAL 7890"), cached."""
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


class TextSearch(WordStatistics):
    """Ranks episode full-text matches; holds the cached word statistics of one store (thread-safe)."""

    def __init__(self) -> None:
        super().__init__("episode_docs", DOC_LENGTH.format(d=""))

    def search(
        self,
        conn: Connection,
        group_id: str,
        terms: Sequence[str],
        filter_where: str,
        filter_params: Sequence[Any],
        limit: int,
        held: tuple[str, Sequence[Any]] = (CURRENT, ()),
    ) -> list[ScoredEpisode]:
        """Return up to ``limit`` episodes of the group matching any term, best first.

        ``held`` picks the versions read and gives their parameters (postgres_rows.held_sql;
        the current ones by default).
        """
        words = [word for word in dict.fromkeys(index_text(term) for term in terms) if word]
        if not words:
            return []
        stats = self._read_stats(conn)
        lexemes = self._lexemes_of(conn, words)
        shares = [
            min((stats.shares.get(lexeme, stats.rare_share) for lexeme in parts), default=0.0)
            for parts in lexemes
        ]
        weights = [_idf(share, stats.rows) for share in shares]
        candidates: list[str] = []
        expected = 0.0
        for share, word in sorted(zip(shares, words, strict=True)):
            if candidates and expected + share * stats.rows > CANDIDATE_ROWS:
                break
            candidates.append(word)
            expected += share * stats.rows
        query = (conn, group_id, words, weights)
        hits = self._query(*query, candidates, stats, filter_where, filter_params, limit, held)
        if len(hits) < limit and len(candidates) < len(words):
            hits = self._query(*query, words, stats, filter_where, filter_params, limit, held)
        return hits

    @staticmethod
    def _query(
        conn: Connection,
        group_id: str,
        words: Sequence[str],
        weights: Sequence[float],
        candidates: Sequence[str],
        stats: _Stats,
        filter_where: str,
        filter_params: Sequence[Any],
        limit: int,
        held: tuple[str, Sequence[Any]],
    ) -> list[ScoredEpisode]:
        phrase = f"phraseto_tsquery('{TEXT_CONFIG}', %s::text)"
        match = " + ".join(
            f"(CASE WHEN d.text_doc @@ q.t{i} THEN %s::float8 "
            f"WHEN d.context_doc @@ q.t{i} THEN %s::float8 ELSE 0 END)"
            for i in range(len(words))
        )
        match_params: list[Any] = []
        for weight in weights:
            match_params += [weight, weight * CONTEXT_WEIGHT]
        queries = ", ".join(f"{phrase} AS t{i}" for i in range(len(words)))
        wanted = " || ".join(f"q.t{i}" for i, word in enumerate(words) if word in candidates)
        # Not prepared: the plan is made for these very words (rare words: index scans).
        # Without filters the best ``limit`` are chosen before the join (a narrow sort); at a
        # past transaction time the join drops episodes stored later, so it counts as a filter.
        filtered = bool(filter_where) or held[0] != CURRENT
        inner_limit = "" if filtered else " ORDER BY score DESC, d.id LIMIT %s"
        rows = conn.execute(
            f"SELECT {E_COLUMNS}, m.score FROM ("
            f"SELECT d.group_id, d.id, ({match}) * {K1 + 1} / "
            f"(1 + {K1} * ({1 - B} + {B} * {DOC_LENGTH.format(d='d.')} / %s::float8)) AS score "
            f"FROM (SELECT {queries}) q, episode_docs d WHERE d.group_id = %s "
            f"AND (d.text_doc @@ ({wanted}) OR d.context_doc @@ ({wanted})){inner_limit}"
            f") m JOIN episodes e ON e.group_id = m.group_id AND e.id = m.id AND {held[0]} "
            f"WHERE true{filter_where} ORDER BY m.score DESC, e.id LIMIT %s",
            (
                *match_params,
                stats.average_length,
                *words,
                group_id,
                *([] if filtered else [limit]),
                *held[1],
                *filter_params,
                limit,
            ),
            prepare=False,
        ).fetchall()
        return [ScoredEpisode(episode_from_row(row), float(row[N_COLUMNS])) for row in rows]


def _idf(share: float, rows: float) -> float:
    """Return BM25's idf, ``ln(1 + (N − n + 0.5) / (n + 0.5))``, for a word held by ``share`` of ``rows``."""
    if rows <= 0:
        return 1.0
    held = min(share * rows, rows)
    return math.log(1 + (rows - held + 0.5) / (held + 0.5))
