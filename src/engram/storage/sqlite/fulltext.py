"""The SQLite full-text index: FTS5 rows of episode text plus the text of thread neighbours.

An episode's row holds its own segmented text and, in a second column, the text of the
previous and next episode of its thread; BM25 weighs that column at CONTEXT_WEIGHT.
"""

from __future__ import annotations

from collections.abc import Sequence

import apsw

from engram.storage.sqlite.rows import scalar

# Only current episodes lend context: a retracted one's words must not find its neighbours.
_NEIGHBOUR = """
    SELECT n.doc, n.text FROM episode_docs d JOIN episode_docs n
      ON n.group_id = d.group_id AND n.thread = d.thread
     AND (n.timestamp {cmp} d.timestamp OR (n.timestamp = d.timestamp AND n.id {cmp} d.id))
      AND EXISTS (SELECT 1 FROM episodes c WHERE c.doc = n.doc AND c.expired_at IS NULL)
    WHERE d.doc = ? ORDER BY n.timestamp {order}, n.id {order} LIMIT 1
"""
PREVIOUS = _NEIGHBOUR.format(cmp="<", order="DESC")
NEXT = _NEIGHBOUR.format(cmp=">", order="ASC")


def neighbours(conn: apsw.Connection, doc: int) -> list[tuple[int, str]]:
    """Return (doc, text) of the previous and the next episode in ``doc``'s thread, when they exist."""
    return [
        (int(row[0]), str(row[1]))  # type: ignore[arg-type]
        for sql in (PREVIOUS, NEXT)
        for row in conn.execute(sql, (doc,)).fetchall()
    ]


def _write_fts(conn: apsw.Connection, doc: int, text: str) -> None:
    """(Re)write the index row of ``doc``: its own text, and its neighbours' as context."""
    context = " ".join(neighbour_text for _, neighbour_text in neighbours(conn, doc))
    conn.execute("DELETE FROM episodes_fts WHERE rowid = ?", (doc,))
    conn.execute("INSERT INTO episodes_fts (rowid, text, context) VALUES (?, ?, ?)", (doc, text, context))


def reindex(conn: apsw.Connection, docs: Sequence[int]) -> None:
    """Rewrite the index rows of ``docs`` from their stored text and their current neighbours."""
    for doc in docs:
        text = scalar(conn, "SELECT text FROM episode_docs WHERE doc = ?", (doc,))
        if text is not None:
            _write_fts(conn, doc, str(text))


def index_with_neighbours(conn: apsw.Connection, doc: int) -> None:
    """Index a new episode, and re-index its neighbours, whose context now includes it."""
    text = str(scalar(conn, "SELECT text FROM episode_docs WHERE doc = ?", (doc,)))
    _write_fts(conn, doc, text)
    for neighbour, neighbour_text in neighbours(conn, doc):
        _write_fts(conn, neighbour, neighbour_text)


def fts_query(terms: Sequence[str]) -> str:
    """Return an FTS5 query matching any of ``terms``, each as a quoted phrase."""
    return " OR ".join(_phrase(term) for term in terms)


PRUNE_DOCS = 2000
"""A query word found in more episodes than this is too common to make an episode a candidate
on its own (it still counts in the score). PostgreSQL's store prunes the same way."""


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
            f"SELECT term, doc FROM episodes_fts_vocab WHERE term IN ({', '.join('?' * len(wanted))})",
            wanted,
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
