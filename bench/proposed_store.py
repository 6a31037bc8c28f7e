"""The SQLite store with the changes bench/RESULTS.md proposes, to measure them before anyone edits it.

Not used by Engram: a subclass of ``engram.storage.sqlite.store.SQLStorage`` that overrides the
read paths the 100k benchmark found slow, for read-only benchmarking of an existing store
(episodes written through it do not reach the ``facets`` table). ``bench/list_search_100k.py
--proposed`` runs the same scenarios through ``Memory(ProposedStore(copy of the db))``.

Exact changes (same results, same scores):

- ``optimize``: ``PRAGMA optimize=0x10002`` when the store opens (ANALYZE where useful, with
  SQLite's own analysis limit; 0.14 s at 100k), so the planner knows that an actor filter is
  selective. Without statistics it walks the time index and filters the rows one by one.
- ``row_value_cursor``: page with ``(timestamp, id) < (?, ?)``, which SQLite turns into an
  index range; ``timestamp < ? OR (timestamp = ? AND id < ?)`` is checked row by row after
  walking every newer row, so a page costs O(depth).
- ``fts_first``: ``episodes_fts CROSS JOIN episodes`` (the full-text index always drives;
  otherwise a time window makes SQLite drive from the time index and run the MATCH, BM25
  included, once per row of the window: seconds per query). Without filters, ``ORDER BY
  f.rank`` with ``rank MATCH 'bm25(1, w)'`` lets FTS5 sort by BM25 itself and the join stop
  after ``limit`` rows; with filters, SQLite's sorter scores only the rows that pass them.
- ``facets``: a third FTS5 column holding one token per group, intent, source, actor and
  month of each episode (built here from the stored rows into ``episodes_fts_facets``),
  weighted 0 in BM25. Filters become ``(terms) AND facets : (tokens)``, so FTS5 intersects
  doclists and BM25 scores only rows that pass; the exact SQL filters still apply after.

Approximate change:

- ``prune_df``: when the query names no facet filter and has both kinds of terms, terms held
  by more than ``prune_df`` of the indexed rows are dropped (``prune_mode="drop"``) or kept
  for scoring only (``"keep_scores"``: ``(all) NOT ((common) NOT (selective))``, FTS5 then
  scores only the phrases of the branch that matched, so scores are unchanged). Either way
  a row holding only common terms is no longer a candidate. With ``prune_fallback``, a
  pruned search that finds fewer than ``limit`` rows is run again with every term.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import apsw
from engram.storage.sqlite.rows import E_COLUMNS, episode_from_row, filter_sql, ts

from engram.models.episodes import Episode, EpisodeFilters
from engram.storage.protocol import CONTEXT_WEIGHT, PageKey, ScoredEpisode
from engram.storage.sqlite.fulltext import fts_query

_TOKENIZER_ARGS = ["unicode61", "remove_diacritics", "2"]
_FACETS_TABLE = "episodes_fts_facets"


def facet(kind: str, value: object) -> str:
    """Return the index token of a filter value: letters and digits only, so no tokenizer splits it."""
    return "x" + kind + hashlib.sha1(str(value).encode()).hexdigest()[:16]


def _months(first: str, last: str) -> list[str]:
    """Return every ``YYYY-MM`` from ``first`` to ``last`` inclusive."""
    year, month = int(first[:4]), int(first[5:7])
    out = []
    while f"{year:04d}-{month:02d}" <= last[:7]:
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


class ProposedStore(SQLStorage):
    """SQLStorage with the proposed read-path changes (each can be switched off)."""

    def __init__(
        self,
        path: Path | str,
        *,
        optimize: bool = True,
        row_value_cursor: bool = True,
        fts_first: bool = True,
        facets: bool = False,
        prune_df: float | None = None,
        prune_mode: str = "drop",
        prune_fallback: bool = True,
    ) -> None:
        super().__init__(path)
        self.row_value_cursor = row_value_cursor
        self.fts_first = fts_first
        self.facets = facets
        self.prune_df = prune_df
        self.prune_mode = prune_mode
        self.prune_fallback = prune_fallback
        self._doc_count: tuple[float, int] | None = None
        if optimize:
            self._write(lambda conn: conn.execute("PRAGMA optimize=0x10002"))
        if facets:
            self._write(self._build_facets)

    # -- list ----------------------------------------------------------------------------------

    def list_episodes(
        self, group_id: str, filters: EpisodeFilters, limit: int, after_key: PageKey | None = None
    ) -> list[Episode]:
        """Return current episodes matching ``filters``, newest first (row-value cursor)."""
        if not self.row_value_cursor or after_key is None:
            return super().list_episodes(group_id, filters, limit, after_key)
        where, params = filter_sql(filters)
        where += " AND (e.timestamp, e.id) < (?, ?)"
        params += [ts(after_key.timestamp), after_key.id]
        rows = (
            self._connection()
            .execute(
                f"SELECT {E_COLUMNS} FROM episodes e WHERE e.group_id = ? AND e.expired_at IS NULL{where} "
                "ORDER BY e.timestamp DESC, e.id DESC LIMIT ?",
                (group_id, *params, limit),
            )
            .fetchall()
        )
        return [episode_from_row(row) for row in rows]  # type: ignore[arg-type]

    # -- search --------------------------------------------------------------------------------

    def search_text(
        self, group_id: str, terms: Sequence[str], filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return current episodes matching any term, best BM25 first (FTS5 drives)."""
        if not self.fts_first or not terms:
            return super().search_text(group_id, terms, filters, limit)
        conn = self._connection()
        facet_clause = self._facet_clause(filters) if self.facets else ""
        expression = fts_query(terms) if facet_clause else self.match_expression(conn, terms)
        found = self._ranked(conn, expression, facet_clause, group_id, filters, limit)
        if len(found) < limit and self.prune_fallback and expression != fts_query(terms):
            found = self._ranked(conn, fts_query(terms), facet_clause, group_id, filters, limit)
        return found

    def _ranked(
        self,
        conn: apsw.Connection,
        expression: str,
        facet_clause: str,
        group_id: str,
        filters: EpisodeFilters,
        limit: int,
    ) -> list[ScoredEpisode]:
        where, params = filter_sql(filters)
        table, weights = "episodes_fts", f"1.0, {CONTEXT_WEIGHT}"
        if self.facets:
            table, weights = _FACETS_TABLE, f"1.0, {CONTEXT_WEIGHT}, 0.0"
        if facet_clause:
            expression = f"({expression}) AND {facet_clause}"
        if where and not facet_clause:
            # Filters FTS5 cannot apply: score only the rows that pass them (SQLite's sorter).
            sql = (
                f"SELECT {E_COLUMNS}, -bm25({table}, {weights}) AS score FROM {table} f "
                "CROSS JOIN episodes e ON e.doc = f.rowid AND e.expired_at IS NULL "
                f"WHERE {table} MATCH ? AND e.group_id = ?{where} ORDER BY score DESC LIMIT ?"
            )
        else:
            sql = (
                f"SELECT {E_COLUMNS}, -f.rank FROM {table} f "
                "CROSS JOIN episodes e ON e.doc = f.rowid AND e.expired_at IS NULL "
                f"WHERE {table} MATCH ? AND f.rank MATCH 'bm25({weights})' "
                f"AND e.group_id = ?{where} ORDER BY f.rank LIMIT ?"
            )
        rows = conn.execute(sql, (expression, group_id, *params, limit)).fetchall()
        return [ScoredEpisode(episode_from_row(row), float(row[18])) for row in rows]  # type: ignore[arg-type]

    @staticmethod
    def _facet_clause(filters: EpisodeFilters) -> str:
        """Return ``facets : (…) AND …`` for the filters FTS5 can apply (empty when none)."""
        parts = []
        for kind, values in (("i", filters.intent), ("s", filters.source), ("a", filters.actor_id)):
            if values:
                parts.append(" OR ".join(f'"{facet(kind, value)}"' for value in values))
        after, before = filters.timestamp_after, filters.timestamp_before
        if after is not None and before is not None:
            months = _months(ts(after), ts(before))
            if len(months) <= 24:
                parts.append(" OR ".join(f'"{facet("m", month)}"' for month in months))
        return " AND ".join(f"facets : ({part})" for part in parts)

    @staticmethod
    def _build_facets(conn: apsw.Connection) -> None:
        """(Re)build the facets table from episode_docs and the current episode rows."""
        conn.execute(f"DROP TABLE IF EXISTS {_FACETS_TABLE}")
        conn.execute(
            f"CREATE VIRTUAL TABLE {_FACETS_TABLE} USING fts5 (text, context, facets, content = '', "
            "contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        rows = conn.execute(
            """
            WITH d AS (
              SELECT doc, thread, text,
                     CASE WHEN thread IS NULL THEN NULL ELSE LAG(text) OVER w END AS previous,
                     CASE WHEN thread IS NULL THEN NULL ELSE LEAD(text) OVER w END AS following
              FROM episode_docs WINDOW w AS (PARTITION BY group_id, thread ORDER BY timestamp, id))
            SELECT d.doc, d.text, trim(coalesce(d.previous, '') || ' ' || coalesce(d.following, '')),
                   e.group_id, e.intent, e.source, e.actor_id, substr(e.timestamp, 1, 7)
            FROM d JOIN episodes e ON e.doc = d.doc AND e.expired_at IS NULL
            """
        ).fetchall()
        for doc, text, context, group_id, intent, source, actor_id, month in rows:
            tokens = [facet("g", group_id), facet("m", month)]
            tokens += [facet(kind, v) for kind, v in (("i", intent), ("s", source), ("a", actor_id)) if v]
            conn.execute(
                f"INSERT INTO {_FACETS_TABLE} (rowid, text, context, facets) VALUES (?, ?, ?, ?)",
                (doc, text, context, " ".join(tokens)),
            )

    # -- pruning -------------------------------------------------------------------------------

    def match_expression(self, conn: apsw.Connection, terms: Sequence[str]) -> str:
        """Return the MATCH expression: any term; with prune_df, only among rows with a selective term."""
        if self.prune_df is None or len(terms) < 2:
            return fts_query(terms)
        limit = self.prune_df * self._documents(conn)
        frequencies = {term: self._document_frequency(conn, term) for term in terms}
        common = [term for term in terms if frequencies[term] > limit]
        selective = [term for term in terms if frequencies[term] <= limit]
        if not common or not selective:
            return fts_query(terms)
        if self.prune_mode == "drop":
            return fts_query(selective)
        return f"({fts_query(terms)}) NOT (({fts_query(common)}) NOT ({fts_query(selective)}))"

    def _documents(self, conn: apsw.Connection) -> int:
        """Return the number of indexed documents (all groups, as FTS5's IDF counts), cached 60 s."""
        now = time.monotonic()
        if self._doc_count is None or now - self._doc_count[0] > 60:
            count = conn.execute("SELECT count(*) FROM episode_docs").fetchone()
            self._doc_count = (now, int(count[0]) if count else 0)
        return self._doc_count[1]

    @staticmethod
    def _document_frequency(conn: apsw.Connection, term: str) -> int:
        """Return how many index rows hold ``term`` (its rarest token, porter-stemmed as FTS5 indexes it)."""
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.episodes_vocab USING fts5vocab(main, episodes_fts, row)"
        )
        tokenizer: Any = conn.fts5_tokenizer("porter", _TOKENIZER_ARGS)
        tokens = tokenizer(
            term.encode(), apsw.FTS5_TOKENIZE_QUERY, None, include_offsets=False, include_colocated=False
        )
        counts = []
        for token in tokens:
            row = conn.execute("SELECT doc FROM temp.episodes_vocab WHERE term = ?", (token,)).fetchone()
            counts.append(int(row[0]) if row else 0)
        return min(counts, default=0)
