"""The SQLite full-text index: FTS5 rows of episode text plus the text of thread neighbours.

An episode's row holds its own segmented text and, in a second column, the text of the
previous and next episode of its thread; BM25 weighs that column at CONTEXT_WEIGHT.
"""

from __future__ import annotations

from collections.abc import Sequence

import apsw

from engram.store.sqlite_rows import scalar

_NEIGHBOUR = """
    SELECT n.doc, n.text FROM episode_docs d JOIN episode_docs n
      ON n.group_id = d.group_id AND n.thread = d.thread
     AND (n.timestamp {cmp} d.timestamp OR (n.timestamp = d.timestamp AND n.id {cmp} d.id))
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


def index_with_neighbours(conn: apsw.Connection, doc: int) -> None:
    """Index a new episode, and re-index its neighbours, whose context now includes it."""
    text = str(scalar(conn, "SELECT text FROM episode_docs WHERE doc = ?", (doc,)))
    _write_fts(conn, doc, text)
    for neighbour, neighbour_text in neighbours(conn, doc):
        _write_fts(conn, neighbour, neighbour_text)


def fts_query(terms: Sequence[str]) -> str:
    """Return an FTS5 query matching any of ``terms``, each as a quoted phrase."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
