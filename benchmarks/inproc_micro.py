"""Two microbenchmarks of the in-process asking path, thread CPU, for the tree on PYTHONPATH.

- ``put``: ``open_store(...).put_many`` of 2,000 constant-backend answers in groups of 256
  (the runner's GROUP_COMMIT), a fresh store each repeat; the min and median of ``--repeat``.
- ``init``: ``api.item_request`` and a ``Job`` for each of ``--n`` ClockQA items, the min and
  median of ``--repeat`` passes.

Compare trees by running each in its own process, alternating, from a scratch directory:

    PYTHONPATH=/tmp/before/src python benchmarks/inproc_micro.py put --repeat 9
    PYTHONPATH=src python benchmarks/inproc_micro.py put --repeat 9
    PYTHONPATH=src python benchmarks/inproc_micro.py init --n 2000 --repeat 15

In session 9 (s9-21f, 16:27-16:33 UTC, load ~20, two processes per tree, as scratch scripts
doing the same): put 11.15-11.23 ms before, 10.08-10.09 ms after 702ca75; init 2.64-2.67 ms
before, 1.37-1.38 ms after 96de6f8. This script, 17:19 UTC, load 10-11, two alternated
processes per tree: put 11.53 / 11.76 ms before, 10.13 / 10.58 ms at e391a50; init 2.76 / 3.32 ms
before, 1.44 / 1.35 ms at e391a50 (min of 9 and of 15).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

clock = time.thread_time


def outcomes(tag: int) -> list[tuple[str, dict[str, Any]]]:
    return [
        (
            hashlib.sha256(f"{tag}-{i}".encode()).hexdigest(),
            {
                "item_id": f"clockqa-{i:05d}",
                "task": "clockqa",
                "backend": "constant/10:10:00",
                "text": "10:10:00",
                "error": None,
                "latency_s": 1.2e-6,
                "usage": None,
                "finish_reason": None,
                "attempts": 1,
                "turns": None,
            },
        )
        for i in range(2000)
    ]


def put(args: argparse.Namespace) -> list[float]:
    from chronoeval.engine.runner import GROUP_COMMIT
    from chronoeval.engine.storage import open_store

    times = []
    for rep in range(args.repeat):
        d = Path(tempfile.mkdtemp(prefix="chronoeval-micro-put-"))
        try:
            store, rows = open_store(d), outcomes(rep)
            t = clock()
            for j in range(0, len(rows), GROUP_COMMIT):
                store.put_many(rows[j : j + GROUP_COMMIT])
            times.append(clock() - t)
            store.close()
        finally:
            shutil.rmtree(d, ignore_errors=True)
    return times


def init(args: argparse.Namespace) -> list[float]:
    from chronoeval import api
    from chronoeval.engine.request import GenerationConfig
    from chronoeval.engine.runner import Job

    ds = api.generate("clockqa", n=args.n, seed=0)
    items, root, gen = ds.items, ds.root, GenerationConfig()

    def once() -> None:
        for it in items:
            Job("k", it.id, "clockqa", api.item_request(it, gen, root, None))

    times = []
    for _ in range(args.repeat):
        t = clock()
        once()
        times.append(clock() - t)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["put", "init"])
    ap.add_argument("--n", type=int, default=2000, help="items (init)")
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    run: Callable[[argparse.Namespace], list[float]] = put if args.what == "put" else init
    times = run(args)
    print(
        f"{args.what}: min {1000 * min(times):.2f} ms, median "
        f"{1000 * statistics.median(times):.2f} ms ({len(times)} repeats)"
    )


if __name__ == "__main__":
    main()
