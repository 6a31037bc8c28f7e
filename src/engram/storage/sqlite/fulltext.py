"""The SQLite full-text index: FTS5 rows of episode text with thread context, and of facts.

An episode's row (rowid = ``episode_docs.doc``) holds its own segmented text and, in a
second column, the text of the previous and next episode of its thread; BM25 weighs that
column at CONTEXT_WEIGHT. A fact's row (rowid = ``fact_docs.doc``) holds its sentence and
the names it connects, in ``facts_fts`` while live and ``archived_facts_fts`` once archived.
The indexes are contentless: the text is given when a row is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import apsw

from engram.models.episodes import Episode, EpisodeFilters
from engram.models.graph import Fact
from engram.storage.backend import FullText
from engram.storage.episodes import CURRENT, filter_sql, held
from engram.storage.rows import EPISODE, FACT, E, F
from engram.storage.sql import Db
from engram.storage.sqlite.backend import SQLiteDb
from engram.storage.sqlite.bulk import next_doc
from engram.storage.types import CONTEXT_WEIGHT, NewEpisode, ScoredEpisode

# Only current episodes lend context: a retracted one's words must not find its neighbours.
_NEIGHBOUR = """
    SELECT n.doc, n.text FROM episode_docs d JOIN episode_docs n
      ON n.group_id = d.group_id AND n.thread = d.thread
     AND (n.timestamp {cmp} d.timestamp OR (n.timestamp = d.timestamp AND n.id {cmp} d.id))
      AND EXISTS (SELECT 1 FROM episodes c WHERE c.doc = n.doc AND c.expired_at IS NULL)
    WHERE d.doc = :doc ORDER BY n.timestamp {order}, n.id {order} LIMIT 1
"""
_AROUND = (_NEIGHBOUR.format(cmp="<", order="DESC"), _NEIGHBOUR.format(cmp=">", order="ASC"))
# The current episodes of one thread from the first to the last of a batch (docs :lo and :hi), and
# the one before and the one after them: every neighbour the batch's rows have, in one read.
_LIVE = (
    "SELECT n.doc, n.text, n.timestamp, n.id FROM episode_docs n WHERE n.group_id = :g AND "
    "n.thread = :t AND (n.timestamp, n.id) {range} AND EXISTS (SELECT 1 FROM episodes c "
    "WHERE c.doc = n.doc AND c.expired_at IS NULL)"
)
_LO, _HI = (
    "(SELECT timestamp, id FROM episode_docs WHERE doc = :lo)",
    "(SELECT timestamp, id FROM episode_docs WHERE doc = :hi)",
)
_SPAN = (
    "SELECT doc, text FROM ("
    f"SELECT * FROM ({_LIVE.format(range='< ' + _LO)} ORDER BY n.timestamp DESC, n.id DESC LIMIT 1) "
    f"UNION ALL {_LIVE.format(range=f'BETWEEN {_LO} AND {_HI}')} "
    f"UNION ALL SELECT * FROM ({_LIVE.format(range='> ' + _HI)} ORDER BY n.timestamp, n.id LIMIT 1)"
    ") ORDER BY timestamp, id"
)

PRUNE_DOCS = 2000
"""A query word found in more episodes than this is too common to make an episode a candidate
on its own (it still counts in the score). PostgreSQL's store prunes the same way."""
FACT_CANDIDATES = 200
"""A fact search reads the rows of this many best BM25 matches first (see search_facts)."""
SELECT_FIRST_MAX = 25_000
"""Filters selecting at most this many episodes are searched among them (see selects_few)."""


def _doc(db: Db, table: str, group_id: str, object_id: str) -> int | None:
    value = db.value(
        f"SELECT doc FROM {table} WHERE group_id = :g AND id = :id", {"g": group_id, "id": object_id}
    )
    return None if value is None else int(value)


def _neighbours(db: Db, doc: int) -> list[tuple[int, str]]:
    """Return (doc, text) of the previous and the next episode in ``doc``'s thread, when they exist."""
    return [(int(row["doc"]), str(row["text"])) for sql in _AROUND for row in db.rows(sql, {"doc": doc})]


def _write_row(db: Db, doc: int, text: str, around: list[tuple[int, str]] | None = None) -> None:
    """(Re)write the index row of ``doc``: its own text, and its neighbours' (``around``) as context."""
    context = " ".join(text for _, text in (_neighbours(db, doc) if around is None else around))
    db.run("DELETE FROM episodes_fts WHERE rowid = :doc", {"doc": doc})
    db.run(
        "INSERT INTO episodes_fts (rowid, text, context) VALUES (:doc, :text, :context)",
        {"doc": doc, "text": text, "context": context},
    )


def _reindex(db: Db, docs: Sequence[int]) -> None:
    for doc in docs:
        text = db.value("SELECT text FROM episode_docs WHERE doc = :doc", {"doc": doc})
        if text is not None:
            _write_row(db, doc, str(text))


def fts_query(terms: Sequence[str]) -> str:
    """Return an FTS5 query matching any of ``terms``, each as a quoted phrase."""
    return " OR ".join(_phrase(term) for term in terms)


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def pruned_fts_query(conn: apsw.Connection, terms: Sequence[str], max_docs: int = PRUNE_DOCS) -> str | None:
    """Return a query matching the episodes that hold at least one *rare* term, or None.

    ``(all) NOT ((common) NOT (rare))``: FTS5 scores only the phrases of the branch that
    matched, so every candidate keeps its exact BM25 score; what changes is that an episode
    holding only common words is no longer scored at all. None when no term is common (the
    plain query is as cheap) or every term is (nothing to prune on).
    """
    tokenize = conn.fts5_tokenizer("porter", ["unicode61", "remove_diacritics", "2"])
    tokens: dict[str, list[str]] = {
        term: [str(t[-1]) for t in tokenize(term.encode(), apsw.FTS5_TOKENIZE_QUERY, None)] for term in terms
    }
    wanted = sorted({token for found in tokens.values() for token in found})
    if not wanted:
        return None
    counts: dict[str, int] = {
        str(row[0]): int(row[1])  # type: ignore[arg-type]
        for row in conn.execute(
            f"SELECT term, doc FROM episodes_fts_vocab WHERE term IN ({', '.join('?' * len(wanted))})", wanted
        ).fetchall()
    }
    rare = [t for t, found in tokens.items() if found and min(counts.get(x, 0) for x in found) <= max_docs]
    common = [t for t in terms if t not in rare]
    if not rare or not common:
        return None
    everything = " OR ".join(_phrase(t) for t in terms)
    return (
        f"({everything}) NOT (({' OR '.join(map(_phrase, common))}) NOT ({' OR '.join(map(_phrase, rare))}))"
    )


def selects_few(db: Db, group_id: str, filters: EpisodeFilters) -> bool:
    """Return True when the filters select few enough current episodes to search among them.

    They must name a column a current-version index leads with (intent, source, actor, a time
    window), and select at most SELECT_FIRST_MAX episodes, counted in that index alone. Not at a
    past ``known_at`` (other versions, other indexes), nor with metadata (tested row by row), nor
    for ``as_of`` alone: a wide selection is slower searched this way (docs/decisions.md §15).
    """
    indexed = filters.intent or filters.source or filters.actor_id
    window = filters.timestamp_after is not None or filters.timestamp_before is not None
    if filters.known_at is not None or filters.metadata or not (indexed or window):
        return False
    where, params = filter_sql(db, filters)
    count = db.value(
        f"SELECT count(*) AS n FROM (SELECT 1 FROM episodes e WHERE e.group_id = :g AND {CURRENT}{where} "
        "LIMIT :cap) s",
        {"g": group_id, "cap": SELECT_FIRST_MAX + 1, **params},
    )
    return int(count) <= SELECT_FIRST_MAX


def held_by_docs(db: Db, docs: Sequence[int], known_at: Any = None) -> dict[int, Episode]:
    """Return the versions of ``docs`` held now (or at ``known_at``), by doc."""
    if not docs:
        return {}
    clause, params = held(known_at)
    index = "" if known_at is None else db.dialect.indexed_by("episodes_doc_versions")
    docs_in, more = db.dialect.in_list("e.doc", "docs", list(docs))
    rows = db.tuples(
        f"SELECT {E}, e.doc FROM episodes e{index} WHERE {docs_in} AND {clause}", {**params, **more}
    )
    return {int(row[EPISODE.width]): EPISODE(db, row) for row in rows}


Hydrate = Callable[[SQLiteDb, str, Sequence[int]], dict[int, Episode]]
"""Return the current versions of a group's docs, by doc (SQLiteVectors.current_episodes keeps them)."""


class SQLiteFullText(FullText):
    """FTS5 indexes of episodes and facts; hits held now are read through ``current`` (kept in memory)."""

    def __init__(self, current: Hydrate | None = None) -> None:
        self._current: Hydrate = current or (lambda db, _group, docs: held_by_docs(db, docs))

    # -- episodes ----------------------------------------------------------------------------------

    def add_documents(self, db: Db, items: Sequence[NewEpisode]) -> list[tuple[int, NewEpisode]]:
        # Numbered here as SQLite would number them (max + 1, …: the writer holds the write lock),
        # so the rows go in one executemany rather than one statement each for its rowid.
        first = next_doc(db)
        docs = [(first + i, item) for i, item in enumerate(items)]
        db.run_many(
            "INSERT INTO episode_docs (doc, group_id, id, fingerprint, thread, timestamp, text) "
            "VALUES (:doc, :g, :id, :fingerprint, :thread, :timestamp, :text)",
            [
                {
                    "doc": doc,
                    "g": item.episode.group_id,
                    "id": item.episode.id,
                    "fingerprint": item.episode.fingerprint,
                    "thread": item.thread,
                    "timestamp": item.episode.timestamp,
                    "text": item.search_text,
                }
                for doc, item in docs
            ],
        )
        return docs

    def added_docs(self, added: list[tuple[int, NewEpisode]]) -> list[int]:
        return [doc for doc, _ in added]

    def index_added(self, db: Db, added: list[tuple[int, NewEpisode]]) -> None:
        # An episode without a thread has no neighbours: its row is its own text, written in one go.
        db.run_many(
            "INSERT INTO episodes_fts (rowid, text, context) VALUES (:doc, :text, '')",
            [{"doc": doc, "text": item.search_text} for doc, item in added if item.thread is None],
        )
        # The whole batch is in episode_docs already, so a threaded row's neighbours are final when
        # it is written; the older rows beside new ones (whose context now includes them) are
        # rewritten once each, after (not once per new neighbour: bench/RESULTS.md, "Storage
        # written once").
        threads: dict[tuple[str, str], list[tuple[int, NewEpisode]]] = {}
        for doc, item in added:
            if item.thread is not None:
                threads.setdefault((item.episode.group_id, item.thread), []).append((doc, item))
        fresh = {doc for batch in threads.values() for doc, _ in batch}
        older: dict[int, str] = {}
        for (group_id, thread), batch in threads.items():
            batch.sort(key=lambda added: (added[1].episode.timestamp, added[1].episode.id))
            bounds = {"g": group_id, "t": thread, "lo": batch[0][0], "hi": batch[-1][0]}
            span = [(int(row[0]), str(row[1])) for row in db.tuples(_SPAN, bounds)]
            at = {doc: index for index, (doc, _) in enumerate(span)}
            for doc, item in batch:
                if doc in at:
                    around = [span[i] for i in (at[doc] - 1, at[doc] + 1) if 0 <= i < len(span)]
                else:  # not current (a group's history imported row by row): found on its own
                    around = _neighbours(db, doc)
                _write_row(db, doc, item.search_text, around)
                older.update((neighbour, text) for neighbour, text in around if neighbour not in fresh)
        for doc, text in older.items():
            _write_row(db, doc, text)

    def refresh(self, db: Db, group_id: str, episode_ids: Sequence[str]) -> None:
        docs = [_doc(db, "episode_docs", group_id, i) for i in dict.fromkeys(episode_ids)]
        _reindex(db, [doc for doc in docs if doc is not None])

    def remove_episode(self, db: Db, group_id: str, episode_id: str) -> None:
        doc = _doc(db, "episode_docs", group_id, episode_id)
        if doc is not None:
            db.run("DELETE FROM episodes_fts WHERE rowid = :doc", {"doc": doc})
            db.run("DELETE FROM episode_docs WHERE doc = :doc", {"doc": doc})

    def search_episodes(
        self, db: Db, group_id: str, terms: Sequence[str], filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        assert isinstance(db, SQLiteDb)
        if selects_few(db, group_id, filters):
            return self._ranked_among(db, fts_query(terms), group_id, filters, limit)
        pruned = pruned_fts_query(db.conn, terms)
        if pruned is not None:
            found = self._ranked(db, pruned, group_id, filters, limit)
            if len(found) >= limit:
                return found
        return self._ranked(db, fts_query(terms), group_id, filters, limit)

    def _ranked(
        self, db: SQLiteDb, expression: str, group_id: str, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return the best BM25 matches of an FTS5 expression that pass the filters."""
        where, params = filter_sql(db, filters)
        if where:
            # Filters: score only the rows that pass them. FTS5 drives, through the doc index
            # (without it SQLite may walk the time index and probe FTS5 per row: seconds).
            order = f"-bm25(episodes_fts, 1.0, {CONTEXT_WEIGHT}) AS score"
            rank, sort = "", "score DESC"
        else:
            # No filter: FTS5 ranks by itself, so the join stops after ``limit`` rows instead of
            # decoding every match for SQLite's sorter (same scores).
            order = "-f.rank AS score"
            rank, sort = f" AND f.rank MATCH 'bm25(1.0, {CONTEXT_WEIGHT})'", "f.rank"
        # At a past transaction time, the versions of each matching doc through (doc, version).
        clause, at = held(filters.known_at)
        index = "episodes_current_doc" if filters.known_at is None else "episodes_doc_versions"
        now = filters.known_at is None  # current versions: only their docs here, the rows from memory
        rows = db.tuples(
            f"SELECT {'e.doc' if now else E}, {order} FROM episodes_fts f CROSS JOIN episodes e "
            f"INDEXED BY {index} ON e.doc = f.rowid AND {clause} "
            f"WHERE episodes_fts MATCH :q{rank} AND e.group_id = :g{where} ORDER BY {sort} LIMIT :limit",
            {"q": expression, "g": group_id, "limit": limit, **at, **params},
        )
        if not now:
            return [ScoredEpisode(EPISODE(db, row), float(row[-1])) for row in rows]
        found = self._current(db, group_id, [int(doc) for doc, _ in rows])
        return [ScoredEpisode(found[doc], float(score)) for doc, score in rows if doc in found]

    def _ranked_among(
        self, db: SQLiteDb, expression: str, group_id: str, filters: EpisodeFilters, limit: int
    ) -> list[ScoredEpisode]:
        """Return the best BM25 matches among the current episodes an indexed filter selects.

        The filters pick their docs from a covering index first (one actor: a few hundred);
        FTS5 then walks its matches, tests each against that set and scores only those in it,
        and only the ``limit`` best are read from the table. ``+rowid``: a plain rowid
        constraint would let SQLite probe FTS5 once per selected doc.
        """
        where, params = filter_sql(db, filters)
        rows = db.rows(
            f"SELECT rowid, -bm25(episodes_fts, 1.0, {CONTEXT_WEIGHT}) AS score FROM episodes_fts "
            "WHERE episodes_fts MATCH :q AND +rowid IN "
            f"(SELECT e.doc FROM episodes e WHERE e.group_id = :g AND {CURRENT}{where}) "
            "ORDER BY score DESC LIMIT :limit",
            {"q": expression, "g": group_id, "limit": limit, **params},
        )
        scored = [(int(row["rowid"]), float(row["score"])) for row in rows]
        found = self._current(db, group_id, [doc for doc, _ in scored])
        return [ScoredEpisode(found[doc], score) for doc, score in scored if doc in found]

    # -- facts -------------------------------------------------------------------------------------

    @staticmethod
    def _fact_doc(db: Db, group_id: str, fact_id: str) -> tuple[int, bool]:
        """Return the fact's document number and whether it was given one here (it had none)."""
        key = {"g": group_id, "id": fact_id}
        given = db.value(
            "INSERT INTO fact_docs (group_id, id) VALUES (:g, :id) ON CONFLICT DO NOTHING RETURNING doc", key
        )
        if given is not None:
            return int(given), True
        return int(db.value("SELECT doc FROM fact_docs WHERE group_id = :g AND id = :id", key)), False

    def index_fact(self, db: Db, fact: Fact, text: str, *, archived: bool = False) -> None:
        doc, new = self._fact_doc(db, fact.group_id, fact.id)
        index = "archived_facts_fts" if archived else "facts_fts"
        if not new:  # a new document has no indexed text to replace
            db.run(f"DELETE FROM {index} WHERE rowid = :doc", {"doc": doc})
        db.run(f"INSERT INTO {index} (rowid, text) VALUES (:doc, :text)", {"doc": doc, "text": text})

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
            ("facts_fts", "archived_facts_fts") if archive else ("archived_facts_fts", "facts_fts")
        )
        for fact in latest:
            doc, _ = self._fact_doc(db, group_id, fact.id)
            db.run(f"DELETE FROM {source} WHERE rowid = :doc", {"doc": doc})
            db.run(
                f"INSERT INTO {target} (rowid, text) VALUES (:doc, :text)",
                {"doc": doc, "text": index_text(fact)},
            )

    def remove_facts(self, db: Db, group_id: str, fact_ids: Sequence[str]) -> None:
        for fact_id in fact_ids:
            doc = _doc(db, "fact_docs", group_id, fact_id)
            if doc is not None:
                for index in ("facts_fts", "archived_facts_fts"):
                    db.run(f"DELETE FROM {index} WHERE rowid = :doc", {"doc": doc})
                db.run("DELETE FROM fact_docs WHERE doc = :doc", {"doc": doc})

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
        table = "archived_facts" if archived else "facts"
        clause, params = where
        values = {"weight": inactive_weight, "q": fts_query(terms), "g": group_id, "limit": limit, **params}
        weight = "(CASE WHEN f.status IN ('current', 'disputed') THEN 1.0 ELSE :weight END)"
        join = (
            "CROSS JOIN fact_docs k ON k.doc = x.rowid "
            f"CROSS JOIN {table} f ON f.group_id = k.group_id AND f.id = k.id"
        )
        passing = f"k.group_id = :g AND {clause} ORDER BY score DESC LIMIT :limit"
        # Reading a fact row per match dominates a common word's search (3,700 matches: 17 ms), so
        # the rows of the best FACT_CANDIDATES matches by BM25 alone are read first. That answer is
        # exact when the candidates were every match, or when its limit-th score is no lower than
        # the last candidate's BM25 (a weight only lowers a score); else every match is read.
        rows = db.tuples(
            f"WITH x AS (SELECT rowid, -bm25({table}_fts) AS raw FROM {table}_fts "
            f"WHERE {table}_fts MATCH :q ORDER BY raw DESC LIMIT :pool) "
            f"SELECT {F}, x.raw * {weight} AS score, (SELECT count(*) FROM x), (SELECT min(raw) FROM x) "
            f"FROM x {join} WHERE {passing}",
            {**values, "pool": FACT_CANDIDATES},
        )
        if rows and (rows[0][-2] < FACT_CANDIDATES or (len(rows) == limit and rows[-1][-3] >= rows[0][-1])):
            return [(FACT(db, row), float(row[-3])) for row in rows]
        rows = db.tuples(
            f"SELECT {F}, -bm25({table}_fts) * {weight} AS score FROM {table}_fts x {join} "
            f"WHERE {table}_fts MATCH :q AND {passing}",
            values,
        )
        return [(FACT(db, row), float(row[-1])) for row in rows]
