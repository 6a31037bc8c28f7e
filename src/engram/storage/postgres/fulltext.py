"""Full text on PostgreSQL: GIN-indexed tsvectors ranked by a BM25 approximation.

Core PostgreSQL has no BM25: ``ts_rank_cd`` knows nothing of how rare a word is, so an episode
with two common words outranks one with the single rare word a question is about, and it is
computed for every matching row. Instead, each query term ``t`` scores

    idf(t) · match(t) · (k1 + 1) / (1 + k1 · (1 − b + b · len / avglen))

with ``match`` 1 when the document's own text holds the term (as a phrase), CONTEXT_WEIGHT when
only its thread neighbours' text does (episodes), 0 otherwise (term frequency counts once: the
"binary" BM25), ``len`` the number of distinct words, ``k1`` 1.2 and ``b`` 0.75 as in FTS5.
``idf`` uses document frequencies from the planner's statistics (``pg_stats`` keeps the 1,000
most common words of ``text_doc`` with the share of rows holding each; rarer words count as half
as frequent as the rarest listed one), table-wide like FTS5's, read at most every STATS_SECONDS.

Candidates come from the GIN indexes: words are taken rarest first while the rows expected to
hold them stay within the candidate cap (the rarest always); only rows holding one of those are
scored, with every word. If the candidates give fewer than ``limit`` rows, every word is searched.

An episode's ``episode_docs`` row holds its segmented text and, in ``context_doc``, the text of
its previous and next episode of the thread; a fact's ``fact_docs`` row (``archived_fact_docs``
once archived) its sentence and the names it connects, split as queries are split.
"""

from __future__ import annotations

import math
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engram.models.episodes import EpisodeFilters
from engram.models.graph import Fact
from engram.storage.backend import FullText
from engram.storage.episodes import CURRENT, filter_sql, held
from engram.storage.postgres.backend import PostgresDb
from engram.storage.postgres.migrations import TEXT_CONFIG
from engram.storage.rows import EPISODE, FACT, E, F
from engram.storage.sql import Db
from engram.storage.types import CONTEXT_WEIGHT, NewEpisode, ScoredEpisode

K1 = 1.2
B = 0.75
CANDIDATE_ROWS = 2000
"""Expected episode matches up to which query words make candidates, rarest first."""
CANDIDATE_FACTS = 500
"""The same for facts: every fact candidate is joined to its versions before it is ranked."""
STATS_SECONDS = 60.0
LEXEME_CACHE = 20_000
EPISODE_LENGTH = "(length({d}text_doc) + length({d}context_doc))"
"""An episode's length for BM25: distinct words of its own text and of its thread context."""

# Only current episodes lend context: a retracted one's words must not find its neighbours.
_CURRENT_NEIGHBOUR = (
    "EXISTS (SELECT 1 FROM episodes c WHERE c.group_id = {alias}.group_id AND c.id = {alias}.id "
    "AND c.expired_at IS NULL)"
)
_NEIGHBOUR_TEXT = f"""
    SELECT n.text FROM episode_docs n
    WHERE n.group_id = d.group_id AND n.thread = d.thread AND (n.timestamp, n.id) {{cmp}} (d.timestamp, d.id)
      AND {_CURRENT_NEIGHBOUR.format(alias="n")}
    ORDER BY n.timestamp {{order}}, n.id {{order}} LIMIT 1
"""
_REFRESH_CONTEXT = (
    f"UPDATE episode_docs d SET context_doc = to_tsvector('{TEXT_CONFIG}', concat_ws(' ', "
    f"({_NEIGHBOUR_TEXT.format(cmp='<', order='DESC')}), ({_NEIGHBOUR_TEXT.format(cmp='>', order='ASC')}))) "
    "WHERE d.group_id = :g AND d.id = ANY(:ids)"
)
_STORED_NEIGHBOUR = f"""
    SELECT s.id, s.timestamp, s.text FROM episode_docs s
    WHERE s.group_id = :g AND s.thread = k.thread AND (s.timestamp, s.id) {{cmp}} (k.ts, k.id)
      AND {_CURRENT_NEIGHBOUR.format(alias="s")}
    ORDER BY s.timestamp {{order}}, s.id {{order}} LIMIT 1
"""
_SEPARATORS = re.compile(r"[\W_]+")
_LATIN_FOLD = {
    code: "".join(c for c in unicodedata.normalize("NFD", chr(code)) if not unicodedata.combining(c))
    for code in range(0xC0, 0x250)
}


def index_text(text: str) -> str:
    """Return ``text`` split as SQLite's ``unicode61 remove_diacritics 2`` splits it, words joined by spaces.

    Every run of characters that is not a letter or a digit separates words (so "DEAL-7890" is
    "DEAL 7890" and "user@example.com" three words, where PostgreSQL's parser would keep emails,
    paths and signed numbers whole), and Latin letters lose their diacritics ("café" is "cafe").
    Applied to indexed text and to query terms alike.
    """
    return _SEPARATORS.sub(" ", text.translate(_LATIN_FOLD)).strip()


def _idf(share: float, rows: float) -> float:
    """Return BM25's idf, ``ln(1 + (N − n + 0.5) / (n + 0.5))``, for a word held by ``share`` of ``rows``."""
    if rows <= 0:
        return 1.0
    found = min(share * rows, rows)
    return math.log(1 + (rows - found + 0.5) / (found + 0.5))


@dataclass
class _Stats:
    rows: float = 0.0
    average_length: float = 1.0
    shares: dict[str, float] = field(default_factory=dict)
    rare_share: float = 0.0
    read_at: float = -math.inf


class _WordStatistics:
    """The cached planner statistics and lexemes of one table's ``text_doc``; thread-safe."""

    def __init__(self, table: str, length: str) -> None:
        self._table = table
        self._length = length
        self._stats = _Stats()
        self._lexemes: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def invalidate(self) -> None:
        with self._lock:
            self._stats = _Stats()

    def stats(self, db: PostgresDb) -> _Stats:
        with self._lock:
            if time.monotonic() - self._stats.read_at < STATS_SECONDS:
                return self._stats
        row = db.one(
            "SELECT c.reltuples AS n, s.most_common_elems::text::text[] AS words, "
            "s.most_common_elem_freqs AS shares FROM pg_class c LEFT JOIN pg_stats s "
            "ON s.schemaname = current_schema() AND s.tablename = :t AND s.attname = 'text_doc' "
            "WHERE c.oid = CAST(:t AS regclass)",
            {"t": self._table},
        )
        average = db.value(f"SELECT avg({self._length}) AS a FROM (SELECT * FROM {self._table} LIMIT 2000) s")
        stats = _Stats(read_at=time.monotonic())
        if row is not None and row["words"] and row["shares"]:
            words, shares = list(row["words"]), list(row["shares"])
            stats.rows = max(float(row["n"]), 1.0)
            stats.shares = dict(zip(words, shares[: len(words)], strict=True))
            stats.rare_share = float(shares[len(words)]) / 2  # after the words: min, max, null share
        if average:
            stats.average_length = max(float(average), 1.0)
        with self._lock:
            self._stats = stats
        return stats

    def lexemes(self, db: PostgresDb, words: Sequence[str]) -> list[tuple[str, ...]]:
        """Return each word's lexemes (several for a phrase such as "DEAL 7890"), cached."""
        missing = [word for word in dict.fromkeys(words) if word not in self._lexemes]
        if missing:
            rows = db.rows(
                f"SELECT w, array(SELECT lexeme FROM unnest(to_tsvector('{TEXT_CONFIG}', w))) AS lexemes "
                "FROM unnest(CAST(:words AS text[])) AS w",
                {"words": missing},
            )
            with self._lock:
                if len(self._lexemes) > LEXEME_CACHE:
                    self._lexemes.clear()
                self._lexemes.update({str(row["w"]): tuple(row["lexemes"]) for row in rows})
        return [self._lexemes.get(word, ()) for word in words]


def _candidates(shares: Sequence[float], words: Sequence[str], rows: float, cap: int) -> list[str]:
    """Return the words to draw candidates from: rarest first while the expected matches stay within "
    "``cap``."""
    wanted: list[str] = []
    expected = 0.0
    for share, word in sorted(zip(shares, words, strict=True)):
        if wanted and expected + share * rows > cap:
            break
        wanted.append(word)
        expected += share * rows
    return wanted


def _matches(
    words: Sequence[str], weights: Sequence[float], context: bool
) -> tuple[str, str, dict[str, Any]]:
    """Return (the tsqueries subselect, the match sum over ``d``, their parameters)."""
    phrase = f"phraseto_tsquery('{TEXT_CONFIG}', CAST(:w{{i}} AS text)) AS t{{i}}"
    queries = ", ".join(phrase.format(i=i) for i in range(len(words)))
    params: dict[str, Any] = {f"w{i}": word for i, word in enumerate(words)}
    parts = []
    for i, weight in enumerate(weights):
        params[f"m{i}"] = weight
        other = ""
        if context:
            params[f"c{i}"] = weight * CONTEXT_WEIGHT
            other = f"WHEN d.context_doc @@ q.t{i} THEN CAST(:c{i} AS float8) "
        parts.append(f"(CASE WHEN d.text_doc @@ q.t{i} THEN CAST(:m{i} AS float8) {other}ELSE 0 END)")
    return queries, " + ".join(parts), params


def _any_of(words: Sequence[str], wanted: Sequence[str]) -> str:
    return " || ".join(f"q.t{i}" for i, word in enumerate(words) if word in wanted)


def _fact_doc(table: str) -> str:
    """Return the statement writing a fact's text (``:group_id``, ``:id``, ``:doc_text``) to ``table``."""
    return (
        f"INSERT INTO {table} (group_id, id, text) VALUES (:group_id, :id, :doc_text) ON CONFLICT "
        f"(group_id, id) DO UPDATE SET text = excluded.text WHERE {table}.text IS DISTINCT FROM excluded.text"
    )


class PostgresFullText(FullText):
    """tsvector documents of episodes and facts, ranked by the BM25 approximation above."""

    def __init__(self) -> None:
        self._episodes = _WordStatistics("episode_docs", EPISODE_LENGTH.format(d=""))
        self._facts = _WordStatistics("fact_docs", "length(text_doc)")

    def invalidate(self) -> None:
        """Forget the cached statistics (after ANALYZE)."""
        self._episodes.invalidate()
        self._facts.invalidate()

    # -- episodes ----------------------------------------------------------------------------------

    def add_documents(self, db: Db, items: Sequence[NewEpisode]) -> list[tuple[str, str]]:
        """Write the new documents with their thread context worked out first (one write each); return
        the stored episodes that gain a new neighbour (their context is rewritten by index_added)."""
        new, stale = _contexts(db, items)
        db.run_many(
            "INSERT INTO episode_docs (group_id, id, fingerprint, thread, timestamp, created_at, text, "
            "context_doc) "
            "VALUES (:g, :id, :fingerprint, :thread, :timestamp, :created_at, :text, "
            f"to_tsvector('{TEXT_CONFIG}', :context))",
            [
                {
                    "g": item.episode.group_id,
                    "id": item.episode.id,
                    "fingerprint": item.episode.fingerprint,
                    "thread": item.thread,
                    "timestamp": item.episode.timestamp,
                    "created_at": item.episode.recorded_at,
                    "text": index_text(item.search_text),
                    "context": new.get((item.episode.group_id, item.episode.id), ""),
                }
                for item in items
            ],
        )
        return stale

    def index_added(self, db: Db, added: list[tuple[str, str]]) -> None:
        for group_id in dict.fromkeys(group for group, _ in added):
            ids = [episode_id for group, episode_id in added if group == group_id]
            db.run(_REFRESH_CONTEXT, {"g": group_id, "ids": ids})

    def refresh(self, db: Db, group_id: str, episode_ids: Sequence[str]) -> None:
        if episode_ids:
            db.run(_REFRESH_CONTEXT, {"g": group_id, "ids": list(dict.fromkeys(episode_ids))})

    def remove_episode(self, db: Db, group_id: str, episode_id: str) -> None:
        db.run("DELETE FROM episode_docs WHERE group_id = :g AND id = :id", {"g": group_id, "id": episode_id})

    def search_episodes(
        self, db: Db, group_id: str, terms: Sequence[str], filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        assert isinstance(db, PostgresDb)
        words = [word for word in dict.fromkeys(index_text(term) for term in terms) if word]
        if not words:
            return []
        stats = self._episodes.stats(db)
        shares = [
            min((stats.shares.get(lexeme, stats.rare_share) for lexeme in parts), default=0.0)
            for parts in self._episodes.lexemes(db, words)
        ]
        weights = [_idf(share, stats.rows) for share in shares]
        wanted = _candidates(shares, words, stats.rows, CANDIDATE_ROWS)
        hits = self._episode_query(db, group_id, words, weights, wanted, stats, filters, limit)
        if len(hits) < limit and len(wanted) < len(words):
            hits = self._episode_query(db, group_id, words, weights, words, stats, filters, limit)
        return hits

    @staticmethod
    def _episode_query(
        db: PostgresDb,
        group_id: str,
        words: Sequence[str],
        weights: Sequence[float],
        wanted: Sequence[str],
        stats: _Stats,
        filters: EpisodeFilters,
        limit: int,
    ) -> list[ScoredEpisode]:
        queries, match, params = _matches(words, weights, context=True)
        where, more = filter_sql(db, filters)
        clause, at = held(filters.known_at)
        candidates = _any_of(words, wanted)
        # Without filters the best ``limit`` are chosen before the join (a narrow sort); at a past
        # transaction time the join drops episodes stored later, so it counts as a filter.
        filtered = bool(where) or clause != CURRENT
        inner_limit = "" if filtered else " ORDER BY score DESC, d.id LIMIT :limit"
        # The best ``limit`` passing the filter are chosen on ids alone (the filter indexes carry
        # the id: an index-only scan meets the candidates in a hash join), then their rows read.
        sql = (
            f"SELECT {E}, top.score FROM (SELECT m.id, m.score FROM (SELECT d.group_id, d.id, "
            f"({match}) * {K1 + 1} / (1 + {K1} * ({1 - B} + {B} * {EPISODE_LENGTH.format(d='d.')} / "
            f"CAST(:avg AS float8))) AS score FROM (SELECT {queries}) q, episode_docs d "
            f"WHERE d.group_id = :g AND (d.text_doc @@ ({candidates}) OR d.context_doc @@ ({candidates}))"
            f"{inner_limit}"
            f") m JOIN episodes e ON e.group_id = m.group_id AND e.id = m.id AND {clause} "
            f"WHERE true{where} ORDER BY m.score DESC, m.id LIMIT :limit) top "
            f"JOIN episodes e ON e.group_id = :g AND e.id = top.id AND {clause} ORDER BY top.score DESC, e.id"
        )
        values = {**params, **more, **at, "avg": stats.average_length, "g": group_id, "limit": limit}
        rows = db.tuples_unprepared(sql, values)  # planned for these very words (rare words: index scans)
        return [ScoredEpisode(EPISODE(db, row), float(row[-1])) for row in rows]

    # -- facts -------------------------------------------------------------------------------------

    def index_fact(self, db: Db, fact: Fact, text: str, *, archived: bool = False) -> None:
        table = "archived_fact_docs" if archived else "fact_docs"
        # Split as the query side splits: PostgreSQL's parser reads "INV-39393" as 'inv' and
        # '-39393' (a signed number), so the id's number was not found.
        db.run(_fact_doc(table), {"group_id": fact.group_id, "id": fact.id, "doc_text": index_text(text)})

    def put_fact(self, db: Db, insert: str, row: dict[str, Any], fact: Fact, text: str) -> None:
        # The row and its text in one statement: fact texts were a quarter of a graph build's.
        db.run(f"WITH doc AS ({_fact_doc('fact_docs')}) {insert}", {**row, "doc_text": index_text(text)})

    def move_facts(
        self,
        db: Db,
        group_id: str,
        latest: Sequence[Fact],
        index_text: Callable[[Fact], str],
        *,
        archive: bool,
    ) -> None:
        source, target = (
            ("fact_docs", "archived_fact_docs") if archive else ("archived_fact_docs", "fact_docs")
        )
        params = {"g": group_id, "ids": [fact.id for fact in latest]}
        db.run(
            f"INSERT INTO {target} (group_id, id, text) SELECT group_id, id, text FROM {source} "
            "WHERE group_id = :g AND id = ANY(:ids) ON CONFLICT (group_id, id) DO UPDATE SET text = "
            "excluded.text",
            params,
        )
        db.run(f"DELETE FROM {source} WHERE group_id = :g AND id = ANY(:ids)", params)

    def remove_facts(self, db: Db, group_id: str, fact_ids: Sequence[str]) -> None:
        for table in ("fact_docs", "archived_fact_docs"):
            db.run(
                f"DELETE FROM {table} WHERE group_id = :g AND id = ANY(:ids)",
                {"g": group_id, "ids": list(fact_ids)},
            )

    def search_facts(
        self,
        db: Db,
        group_id: str,
        terms: Sequence[str],
        where: tuple[str, dict[str, Any]],
        limit: int,
        inactive_weight: float,
        *,
        archived: bool = False,
    ) -> list[tuple[Fact, float]]:
        assert isinstance(db, PostgresDb)
        candidates = [word for word in dict.fromkeys(index_text(term) for term in terms) if word]
        found = [(w, p) for w, p in zip(candidates, self._facts.lexemes(db, candidates), strict=True) if p]
        if not found:
            return []
        stats = self._facts.stats(db)
        words = [word for word, _ in found]
        if stats.shares:
            rows = stats.rows
            shares = [
                min(stats.shares.get(lexeme, stats.rare_share) for lexeme in parts) for _, parts in found
            ]
        else:  # no planner statistics yet (a young table): count, which is cheap while it is small
            rows, shares = _counted_shares(db, group_id, words)  # the live table's, as the stats are
        weights = [_idf(share, rows) for share in shares]
        wanted = _candidates(shares, words, rows, CANDIDATE_FACTS)
        tables = ("archived_facts", "archived_fact_docs") if archived else ("facts", "fact_docs")
        query = (db, group_id, words, weights, stats.average_length, where, limit, inactive_weight, tables)
        hits = _fact_query(*query, wanted)
        if len(hits) < limit and len(wanted) < len(words):
            hits = _fact_query(*query, words)
        return hits


def _counted_shares(db: Db, group_id: str, words: Sequence[str]) -> tuple[float, list[float]]:
    """Return (rows, share of rows holding each word) of the group's live fact documents, counted."""
    counts = ", ".join(
        f"count(*) FILTER (WHERE text_doc @@ phraseto_tsquery('{TEXT_CONFIG}', CAST(:w{i} AS text))) AS n{i}"
        for i in range(len(words))
    )
    row = db.one(
        f"SELECT count(*) AS total, {counts} FROM fact_docs WHERE group_id = :g",
        {"g": group_id, **{f"w{i}": word for i, word in enumerate(words)}},
    )
    assert row is not None
    rows = max(float(row["total"]), 1.0)
    return rows, [float(row[f"n{i}"]) / rows for i in range(len(words))]


def _fact_query(
    db: PostgresDb,
    group_id: str,
    words: Sequence[str],
    weights: Sequence[float],
    average_length: float,
    where: tuple[str, dict[str, Any]],
    limit: int,
    inactive_weight: float,
    tables: tuple[str, str],
    wanted: Sequence[str],
) -> list[tuple[Fact, float]]:
    queries, match, params = _matches(words, weights, context=False)
    clause, more = where
    facts, docs = tables
    sql = (
        f"SELECT {F}, ({match}) * {K1 + 1} / (1 + {K1} * ({1 - B} + {B} * length(d.text_doc) / CAST(:avg AS "
        "float8))) "
        "* (CASE WHEN f.status IN ('current', 'disputed') THEN 1 ELSE CAST(:weight AS float8) END) AS score "
        f"FROM (SELECT {queries}) q, {docs} d JOIN {facts} f ON f.group_id = d.group_id AND f.id = d.id "
        f"WHERE d.group_id = :g AND d.text_doc @@ ({_any_of(words, wanted)}) AND {clause} "
        "ORDER BY score DESC, f.id, f.version LIMIT :limit"
    )
    values = {
        **params,
        **more,
        "avg": average_length,
        "weight": inactive_weight,
        "g": group_id,
        "limit": limit,
    }
    return [(FACT(db, row), float(row[-1])) for row in db.tuples_unprepared(sql, values)]


def _contexts(
    db: Db, created: Sequence[NewEpisode]
) -> tuple[dict[tuple[str, str], str], list[tuple[str, str]]]:
    """Work out the thread context of new episodes before they are written (one write each).

    A new episode's neighbours are among the other new episodes of its thread and the stored
    episodes right before and after it, so one lookup of those and a sort per thread suffice.
    Returns (context text by (group, id) of each new episode, the stored episodes that become
    neighbours of a new one: their context is stale).
    """
    new: dict[tuple[str, str], str] = {}
    stale: list[tuple[str, str]] = []
    by_group: dict[str, list[NewEpisode]] = {}
    for item in created:
        if item.thread is not None:
            by_group.setdefault(item.episode.group_id, []).append(item)
    for group_id, items in by_group.items():
        rows = db.rows(
            "SELECT k.thread, p.id AS p_id, p.timestamp AS p_ts, p.text AS p_text, "
            "n.id AS n_id, n.timestamp AS n_ts, n.text AS n_text "
            "FROM unnest(CAST(:ids AS text[]), CAST(:threads AS text[]), CAST(:stamps AS timestamptz[])) "
            "AS k(id, thread, ts) "
            f"LEFT JOIN LATERAL ({_STORED_NEIGHBOUR.format(cmp='<', order='DESC')}) p ON true "
            f"LEFT JOIN LATERAL ({_STORED_NEIGHBOUR.format(cmp='>', order='ASC')}) n ON true",
            {
                "ids": [item.episode.id for item in items],
                "threads": [item.thread for item in items],
                "stamps": [item.episode.timestamp for item in items],
                "g": group_id,
            },
        )
        nodes: dict[str, dict[str, tuple[datetime, str, bool]]] = {}
        for item in items:
            assert item.thread is not None
            nodes.setdefault(item.thread, {})[item.episode.id] = (
                item.episode.timestamp,
                index_text(item.search_text),
                True,
            )
        for row in rows:
            for side in ("p", "n"):
                found = row[f"{side}_id"]
                if found is not None and found not in nodes[row["thread"]]:
                    nodes[row["thread"]][found] = (row[f"{side}_ts"], row[f"{side}_text"], False)
        for members in nodes.values():
            order = sorted(members.items(), key=lambda member: (member[1][0], member[0]))
            for position, (episode_id, (_, _, is_new)) in enumerate(order):
                neighbours = [order[i] for i in (position - 1, position + 1) if 0 <= i < len(order)]
                if is_new:
                    new[(group_id, episode_id)] = " ".join(text for _, (_, text, _) in neighbours)
                elif any(neighbour_new for _, (_, _, neighbour_new) in neighbours):
                    stale.append((group_id, episode_id))
    return new, stale
