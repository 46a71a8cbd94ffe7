"""SPAN performance: generation speed on one core and the 21-date sweep for the reference agent.

    python benchmarks/bench_span.py [--skip-sweep]

1. generation: every question of the paper's 21 evaluation dates (38,052 items), counted as
   items per CPU-second of this process (one core): cold (fresh process, calendar tables being
   built), warm (tables cached), and ``Task.build`` (Items included);
2. sweep: ``api.run(["span"], "reference", params={"eval_dates": "sweep"})`` in a fresh run
   directory (generate + write dataset + answer + score + results + plots), wall seconds; then
   the same command again (resume: nothing asked) for the resume cost.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip-sweep", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("CHRONOEVAL_CACHE", tempfile.mkdtemp(prefix="span-bench-cache-"))
    from chronoeval import api
    from chronoeval.core.registry import get_task
    from chronoeval.suites.span.questions import SWEEP, questions_for_date

    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    for label, seed in (("cold", 0), ("warm", 1)):
        t0, w0 = time.process_time(), time.perf_counter()
        n = sum(1 for d in SWEEP for _q in questions_for_date(dt.date.fromisoformat(d), seed=seed))
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        print(f"generation {label}: {n} items, {n / cpu:,.0f} items/CPU-s ({n / wall:,.0f}/wall-s)")
    task = get_task("span")
    params = {**task.default_params, "eval_dates": "sweep"}
    t0 = time.process_time()
    n = sum(1 for _ in task.build(params, 2))
    print(f"Task.build (Items): {n} items, {n / (time.process_time() - t0):,.0f} items/CPU-s")
    if args.skip_sweep:
        return
    with tempfile.TemporaryDirectory() as tmp:
        for label in ("sweep", "resume"):
            w0 = time.perf_counter()
            res = api.run(["span"], "reference", params={"eval_dates": "sweep"},
                          run_dir=Path(tmp) / "run", progress=False)  # fmt: skip
            wall = time.perf_counter() - w0
            t = res.results["tasks"]["span"]
            acc = t["metrics"]["overall"]["accuracy"]["value"]
            print(
                f"{label}: {t['counts']['answered']} answered, accuracy {acc:.4f}, {wall:.1f} s wall"
            )


if __name__ == "__main__":
    main()
