"""Workloads of bench/peers.py to run under a sampling profiler, and a summary of its output.

    .venv/bin/pip install py-spy          # not a project dependency
    # a 10k synthetic store of bench/peers.py (build one with: peers.py --sizes 10k --keep)
    py-spy record -r 100 -f raw -o search.txt -- .venv/bin/python bench/peers_profile.py search DIR 10000
    py-spy record -r 100 -f raw -o clients.txt -- .venv/bin/python bench/peers_profile.py clients DIR 10000
    py-spy record -r 100 --gil -f raw -o gil.txt -- .venv/bin/python bench/peers_profile.py clients DIR 10000
    py-spy record -r 50 -f raw -o load.txt -- .venv/bin/python bench/peers_profile.py load NEW_DIR 10000
    .venv/bin/python bench/peers_profile.py top search.txt            # top frames, self and inclusive

``search``: one client, filtered hybrid searches (the query vectors looked up, as in
peers.py) for ``--seconds``; ``clients``: the same from 50 threads; ``load``: the bulk load of
peers.py into a new store under DIR. ``top FILE``: the frames with the most samples of a
``py-spy record -f raw`` file, on their own (self) and with their callees (inclusive).
"""

from __future__ import annotations

import argparse
import collections
import threading
import time
from pathlib import Path

from peers_data import synthetic_set
from peers_systems import EngramLibrary


def top(path: Path, count: int) -> None:
    """Print the ``count`` frames with the most samples, self and inclusive, in % of all samples."""
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, samples = line.rpartition(" ")
        frames, n = stack.split(";"), int(samples)
        total += n
        own[frames[-1]] += n
        for frame in set(frames):
            inclusive[frame] += n
    for title, counter in (("self", own), ("inclusive", inclusive)):
        print(f"-- {title} ({total} samples)")
        for frame, n in counter.most_common(count):
            print(f"{100 * n / total:5.1f}%  {frame}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mode", choices=("search", "clients", "load", "top"))
    parser.add_argument(
        "path", type=Path, help="store directory (search, clients), new directory (load), file (top)"
    )
    parser.add_argument("size", type=int, nargs="?", default=10_000, help="episodes of the synthetic store")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=50)
    args = parser.parse_args()
    if args.mode == "top":
        top(args.path, 25)
        return
    data = synthetic_set(args.size)
    engram = EngramLibrary(args.path)
    if args.mode == "load":
        engram.reset("profile", data.embedder())
        print(
            engram.bulk_load("synth", data.ids, data.texts, data.users, time.perf_counter() + 3600).as_dict()
        )
        engram.close()
        return
    from engram.config import Settings
    from engram.memory import Memory

    settings = Settings(data_dir=args.path, extractor="none", classify_intents=False)
    engram.memory = Memory.open(settings=settings, embedder=data.embedder(), background_indexing=False)
    calls = list(zip(data.query_texts, data.query_vectors, data.query_users, strict=True))
    done = [0]

    def client(offset: int, stride: int, until: float) -> None:
        index = offset
        while time.perf_counter() < until:
            text, vector, user = calls[index % len(calls)]
            engram.search("hybrid", "synth", text, vector, user, 10)
            index += stride
            done[0] += 1

    for i in range(10):  # warm up: the group's matrix loads on the first vector search
        engram.search("hybrid", "synth", *calls[i], 10)
    clients = 1 if args.mode == "search" else args.clients
    until = time.perf_counter() + args.seconds
    threads = [threading.Thread(target=client, args=(i, clients, until)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"{done[0] / args.seconds:.1f} searches/s from {clients} client(s)")
    engram.close()


if __name__ == "__main__":
    main()
