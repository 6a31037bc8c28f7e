"""SQLite's BM25 candidate pruning: common words alone no longer make a candidate; scores stay exact."""

from __future__ import annotations

from pathlib import Path

from engram.models.episodes import EpisodeFilters
from engram.storage.open import open_sqlite
from engram.storage.sqlite.fulltext import fts_query, pruned_fts_query
from store.test_contract import new_episode, operation


def test_pruned_query_keeps_rare_word_episodes_with_their_exact_scores(tmp_path: Path) -> None:
    store = open_sqlite(tmp_path / "engram.db")
    texts = ["apple banana", "apple cherry pie", "apple", "apples and more apples"]
    store.insert_episodes([new_episode(f"e{i}", text) for i, text in enumerate(texts)], operation())
    conn = store._backend.connection()  # type: ignore[attr-defined]
    terms = ["apple", "cherry"]
    assert pruned_fts_query(conn, terms, max_docs=10) is None, "nothing is common: the plain query"
    assert pruned_fts_query(conn, ["apple"], max_docs=1) is None, "only common words: nothing to prune on"
    pruned = pruned_fts_query(conn, terms, max_docs=1)
    assert pruned is not None

    def scores(expression: str) -> dict[int, float]:
        rows = conn.execute(
            "SELECT rowid, bm25(episodes_fts) FROM episodes_fts WHERE episodes_fts MATCH ?", (expression,)
        ).fetchall()
        return {int(r[0]): float(r[1]) for r in rows}  # type: ignore[arg-type]

    everything, kept = scores(fts_query(terms)), scores(pruned)
    assert len(everything) == 4 and len(kept) == 1
    [(doc, score)] = kept.items()
    assert everything[doc] == score
    [hit] = store.search_text("g1", ["cherry"], EpisodeFilters(), 10)
    assert hit.episode.id == "e1"
    store.close()
