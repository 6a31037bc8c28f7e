"""Markdown tables of a bench/peers.py run: every figure beside the peer's and the baseline's, with ratios."""

from __future__ import annotations

from typing import Any

from _common import print_table

NOT_OFFERED = "not offered"


def _ratio(mine: float | None, theirs: float | None) -> str:
    if mine is None or theirs is None or theirs == 0:
        return ""
    return f"{mine / theirs:.2f}×"


def _qps(cell: dict[str, Any] | None) -> str:
    if not cell:
        return ""
    text = (
        f"{cell['qps']:,.0f} / {cell.get('p50', 0):.0f} / {cell.get('p95', 0):.0f} / {cell.get('p99', 0):.0f}"
    )
    return text + (f" ({cell['errors']} errors)" if cell.get("errors") else "")


def _ms(cell: dict[str, Any] | None) -> str:
    if not cell:
        return ""
    text = f"{cell['p50']:.2f} / {cell['p95']:.2f}"
    if "cpu p50" in cell:
        text += f" (cpu {cell['cpu p50']:.2f})"
    return text + (f" ({cell['budget hit']})" if cell.get("budget hit") else "")


def _row(label: str, mine: Any, peer: Any, base: Any, fmt: Any, key: str) -> dict[str, str]:
    def value(cell: Any) -> float | None:
        return cell.get(key) if isinstance(cell, dict) else None

    row = {"figure": label, "Engram": fmt(mine) if isinstance(mine, dict) else mine or ""}
    row["Chroma"] = fmt(peer) if isinstance(peer, dict) else peer or ""
    row["Engram/Chroma"] = _ratio(value(mine), value(peer))
    row["numpy + BM25"] = fmt(base) if isinstance(base, dict) else base or ""
    row["Engram/baseline"] = _ratio(value(mine), value(base))
    return row


COLUMNS = ["figure", "Engram", "Chroma", "Engram/Chroma", "numpy + BM25", "Engram/baseline"]


QPS_ROWS = [
    ("in process, filtered hybrid¹", "engram hybrid", "chroma vector", "numpy hybrid"),
    ("in process, filtered vector", "engram vector", "chroma vector", "numpy vector"),
    ("in process, filtered BM25", "engram bm25", None, "numpy bm25"),
    ("in process, filtered list", "engram list", "chroma list", "numpy list"),
]
HTTP_ROWS = [
    ("HTTP, filtered BM25² (vs client ceiling)", "bm25", "ceiling healthz"),
    ("HTTP, filtered list (vs client ceiling)", "list", "ceiling healthz"),
    ("HTTP, hybrid with a client-provided vector", None, None),
    (
        "HTTP, hybrid, query embedded by the server (vs the embedder alone)",
        "hybrid server-embedded",
        "embedder alone",
    ),
    ("the embedder alone, 2 threads", None, "embedder alone, 2 threads"),
    ("client ceiling: GET /healthz", "ceiling healthz", None),
]
LATENCY_ROWS = [
    ("filtered hybrid¹", "engram hybrid", "chroma vector", "numpy hybrid"),
    ("filtered vector", "engram vector", "chroma vector", "numpy vector"),
    ("filtered BM25", "engram bm25", None, "numpy bm25"),
    ("unfiltered hybrid¹", "engram hybrid unfiltered", "chroma vector unfiltered", "numpy hybrid unfiltered"),
    ("unfiltered vector", "engram vector unfiltered", "chroma vector unfiltered", "numpy vector unfiltered"),
    ("filtered list", "engram list", "chroma list", "numpy list"),
]


def print_concurrency(size: str, out: dict[str, Any], clients: int) -> None:
    q, http = out["qps"], out.get("http", {})
    rows = [
        _row(label, q.get(mine), q.get(peer) if peer else NOT_OFFERED, q.get(base), _qps, "qps")
        for label, mine, peer, base in QPS_ROWS
    ]
    for label, mine, base in HTTP_ROWS if http else ():
        engram = http.get(mine) if mine else ("not offered by the REST API³" if base is None else "")
        rows.append(_row(label, engram, "", http.get(base) if base else "", _qps, "qps"))
    title = f"{clients} concurrent clients at {int(size):,}: QPS / p50 / p95 / p99 ms (ratios: QPS)"
    print_table(rows, COLUMNS, title)
    if http:
        cpu = {k: v.get("server_cpu_ms_per_request") for k, v in http.items() if isinstance(v, dict)}
        shown = ", ".join(f"{k} {v:.2f}" for k, v in cpu.items() if v is not None)
        print(f"\nserver CPU ms per request: {shown}")
    print(
        "\n¹ Engram: every channel (BM25, vector, graph) fused, boosts on; Chroma: vector only; "
        "baseline: RRF of numpy and BM25.\n"
        "² `engram serve` with ENGRAM_EMBEDDER=none: BM25 and the (empty) graph channel.\n"
        "³ POST /v1/episodes/search takes query text only; the server embeds it."
    )


def print_latency(size: str, out: dict[str, Any]) -> None:
    lat, load = out["latency"], out["load"]
    rows = [
        _row(label, lat.get(mine), lat.get(peer) if peer else NOT_OFFERED, lat.get(base), _ms, "p95")
        for label, mine, peer, base in LATENCY_ROWS
    ]
    print_table(rows, COLUMNS, f"one client at {int(size):,}: p50 / p95 ms, query embedding excluded")
    print(
        "\nRatios: p95, lower is better for Engram. cpu: the calling thread's CPU ms p50, what a call "
        "costs when other processes take the cores."
    )
    for name, r in load.items():
        if r.get("finished untimed"):
            print(
                f"- {name}: load did not finish in its budget; finished untimed (--finish-untimed) "
                "before the searches"
            )
        elif not r["finished"]:
            print(
                f"- {name}: load did not finish; measured on {r['with_vectors']:,} with vectors "
                f"of {r['stored']:,} stored"
            )
    if out.get("agreement"):
        shares = ", ".join(f"{name} {share:.3f}" for name, share in out["agreement"].items())
        print(
            f"- filtered vector top-10 shared with numpy's exact top-10 (same vectors, 50 queries): {shares}"
        )


def print_loads(sizes: dict[str, Any], budget: float) -> None:
    def cell(load: dict[str, Any] | None) -> Any:
        if not load:
            return ""
        if not load["finished"]:
            return (
                f"did not finish in {budget:.0f} s: {load['stored']:,} stored, "
                f"{load['with_vectors']:,} with vectors ({load['per_s'] or 0:,.0f}/s)"
            )
        text = f"{load['per_s']:,.0f}/s"
        if load.get("vector_seconds"):
            text += f" (store {load['stored'] / load['insert_seconds']:,.0f}/s, vectors "
            text += f"{load['with_vectors'] / load['vector_seconds']:,.0f}/s)"
        return {"per_s": load["per_s"], "text": text}

    rows = []
    for size, out in sizes.items():
        engram, chroma, numpy = (cell(out["load"].get(name)) for name in ("engram", "chroma", "numpy"))
        rows.append(_row(f"bulk load, {int(size):,}", engram, chroma, numpy, lambda c: c["text"], "per_s"))
    print_table(rows, COLUMNS, "bulk load with vectors: episodes/s (ratios: throughput)")


def print_locomo(out: dict[str, Any]) -> None:
    def recall(cell: dict[str, Any] | None) -> str:
        return "" if not cell else f"{cell['recall@10']:.3f} (p50 {cell['p50']:.2f} ms)"

    rows = [
        _row(
            label,
            out.get(f"engram_{mine}"),
            out.get("chroma_vector"),
            out.get(f"numpy_{base}"),
            recall,
            "recall@10",
        )
        for label, mine, base in (
            ("recall@10, full pipeline¹", "full", "hybrid"),
            ("recall@10, vectors only", "vector", "vector"),
        )
    ]

    def rate(value: float | None) -> str:
        return "" if value is None else f"{value:,.0f}/s"

    builtin, chroma, numpy = (out.get(f"{n}_import_per_s") for n in ("engram_builtin", "chroma", "numpy"))
    none = out.get("engram_none_import_per_s")
    rows.append(
        {
            "figure": "import, episodes/s (Engram: builtin extractor / none)",
            "Engram": f"{rate(builtin)} / {rate(none)}",
            "Chroma": rate(chroma),
            "Engram/Chroma": _ratio(builtin, chroma),
            "numpy + BM25": rate(numpy),
            "Engram/baseline": _ratio(builtin, numpy),
        }
    )
    print_table(
        rows, COLUMNS, f"LoCoMo dev: {out['turns']:,} turns, {out['questions']} questions (same vectors)"
    )
    print(
        f"\nEngram embedded the turns' cached vectors at {out.get('engram_vectors_per_s', 0):,.0f}/s; "
        "texts the cache did not hold (the extractor's facts and entity names; embedded by the "
        f"packaged model, then cached): {out.get('engram_texts_embedded_by_model')}. "
        "Import: Engram through its importer (500 per transaction); the peers one call per session."
    )


def print_rss(sizes: dict[str, Any]) -> None:
    rows = []
    for size, out in sizes.items():
        for name, probe in out.get("rss", {}).items():
            load = out["load"].get(name, {})
            rows.append(
                {
                    "size": f"{int(size):,}",
                    "system": name,
                    "episodes with vectors": load.get("with_vectors"),
                    "RSS MiB": probe.get("rss_mib"),
                    "peak RSS MiB": probe.get("peak_rss_mib"),
                    "query embedder": probe.get("embedder", probe.get("error", "")),
                }
            )
    columns = ["size", "system", "episodes with vectors", "RSS MiB", "peak RSS MiB", "query embedder"]
    print_table(rows, columns, "RSS of a fresh process after 100 filtered searches", digits=0)


def print_report(results: dict[str, Any]) -> None:
    """Print every table of a run."""
    versions = ", ".join(f"{k} {v}" for k, v in results["versions"].items())
    print(f"\nversions: {versions}; wall {results.get('wall_seconds', 0):.0f} s")
    if "locomo" in results:
        print_locomo(results["locomo"])
    sizes = results["sizes"]
    args = results["args"]
    for size, out in sizes.items():
        if out["qps"]:
            print_concurrency(size, out, args["clients"])
    for size, out in sizes.items():
        print_latency(size, out)
    if sizes:
        print_loads(sizes, args["budget_seconds"])
        print_rss(sizes)
