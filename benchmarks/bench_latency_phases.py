"""Where the time of chronoeval's run goes at a model latency, beside a raw client on the same server.

One ``chronoeval serve`` (instant ``constant`` backend, ``--latency`` seconds per request counted
from its arrival), the same ClockQA items. In each round, in turn: the raw aiohttp client of
bench_targets.py, and ``api.run`` with the openai backend, timed by phase (dataset preparation,
asking = ``ask_all`` with scoring while asking, scoring after asking = ``score_records`` with
results.json and samples, the rest). The limit is concurrency / latency.

    python benchmarks/bench_latency_phases.py --n 2000 --rounds 3
"""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_targets import raw_client, run_clockqa, start_server, target_arguments  # noqa: E402


def main() -> None:
    args = target_arguments().parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-latency-phases-"))
    os.environ["CHRONOEVAL_CACHE"] = str(tmp / "cache")
    from chronoeval import api

    timers: dict[str, float] = {}

    def timed(name: str, label: str) -> None:
        fn = getattr(api, name)

        @functools.wraps(fn)
        def wrapper(*a: Any, **k: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                timers[label] = timers.get(label, 0.0) + time.perf_counter() - start

        setattr(api, name, wrapper)

    timed("prepare_dataset", "prepare")
    timed("ask_all", "asking")
    timed("score_records", "scoring after")
    ds = api.generate("clockqa", n=args.n, seed=0)
    if args.latency <= 0:
        raise SystemExit("--latency must be > 0 (the limit is concurrency / latency)")
    proc, url = start_server(tmp, "s", args.latency)
    try:
        ideal = args.n * args.latency / args.concurrency
        print(
            f"{args.n} items, concurrency {args.concurrency}, latency {args.latency}s: "
            f"ideal {ideal:.2f}s (limit {args.concurrency / args.latency:.0f}/s)"
        )
        for rnd in range(args.rounds):
            load = os.getloadavg()[0]
            start = time.perf_counter()
            got = asyncio.run(raw_client(ds.root, url, args.concurrency))
            raw = time.perf_counter() - start
            assert got == args.n
            timers.clear()
            start = time.perf_counter()
            run_clockqa(ds.root, tmp / f"run{rnd}", args.n, args.concurrency, url)
            wall = time.perf_counter() - start
            rest = wall - sum(timers.values())
            phases = ", ".join(f"{k} {v:.2f}s" for k, v in timers.items())
            print(
                f"round {rnd + 1} (load {load:.1f}): raw {raw:.2f}s = {ideal / raw:.2f} of the "
                f"limit; chronoeval {wall:.2f}s = {ideal / wall:.2f} of the limit ({phases}, "
                f"rest {rest:.2f}s); asking alone = {ideal / timers['asking']:.2f} of the limit"
            )
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
