"""A warm in-process run's CPU over time, beside two calibration loops: is a slow round the code's
or the machine's?

Every ``--every`` seconds until ``--minutes`` have passed, one process times two pure-Python
loops, then one warm ``api.run`` of the ``constant`` backend on ``--n`` ClockQA items:

- ``arith``: an L1-bound arithmetic loop (its CPU time moves with the core's clock and sharing);
- ``cache``: random reads over a 32 MB list (its CPU time moves with memory and cache speed);
- the run: thread and process CPU, wall, system time, minor faults, steal jiffies, load.

It prints one line per run, then the median run CPU and the correlation of the run's thread CPU
with each loop's. In session 9 (s9-21f, 16:20-17:01 UTC, 117 runs, load 8.4-24.7) the run's CPU
moved 112-164 ms and followed ``cache`` (r = 0.48), not ``arith`` (r = -0.01).

    python benchmarks/inproc_monitor.py --n 2000 --every 20 --minutes 40

Run it from a scratch directory with the tree to watch on PYTHONPATH (it writes under a temp
directory, removed at the end).
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from chronoeval import api

clock = time.thread_time


def arith() -> float:
    """ms of thread CPU for an L1-bound arithmetic loop."""
    t, s = clock(), 0
    for i in range(600_000):
        s += i * i % 7
    return 1000 * (clock() - t)


BIG = list(range(4_000_000))  # ~32 MB of pointers and ints: beyond any cache
_rng = random.Random(0)
IDX = [_rng.randrange(4_000_000) for _ in range(300_000)]


def cache() -> float:
    """ms of thread CPU for 300,000 random reads of BIG."""
    t, s = clock(), 0
    for j in IDX:
        s += BIG[j]
    return 1000 * (clock() - t)


def steal() -> int:
    with open("/proc/stat") as f:
        return int(f.readline().split()[8])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--every", type=float, default=20.0, help="seconds between runs")
    ap.add_argument("--minutes", type=float, default=40.0)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-inproc-monitor-"))
    try:
        data = api.generate("clockqa", n=args.n, seed=0).root

        def run(name: str) -> None:
            api.run(["clockqa"], "constant:10:10:00", data=data, run_dir=tmp / name,
                    progress=False, plots=False, concurrency=64)  # fmt: skip
            shutil.rmtree(tmp / name)

        run("w0")
        run("w1")
        until, rows = time.time() + 60 * args.minutes, []
        while time.time() < until:
            a, c = arith(), cache()
            ru0, st0 = resource.getrusage(resource.RUSAGE_SELF), steal()
            w0, p0, t0 = time.perf_counter(), time.process_time(), clock()
            run(f"r{len(rows)}")
            w1, p1, t1 = time.perf_counter(), time.process_time(), clock()
            ru1, st1 = resource.getrusage(resource.RUSAGE_SELF), steal()
            rows.append((1000 * (t1 - t0), a, c))
            with open("/proc/loadavg") as f:
                load = f.read().split()[0]
            print(
                time.strftime("%H:%M:%S", time.gmtime()),
                f"thr {1000 * (t1 - t0):.0f} proc {1000 * (p1 - p0):.0f} "
                f"wall {1000 * (w1 - w0):.0f} sys {1000 * (ru1.ru_stime - ru0.ru_stime):.0f} "
                f"flt {ru1.ru_minflt - ru0.ru_minflt} steal {st1 - st0} "
                f"arith {a:.1f} cache {c:.1f} load {load}",
                flush=True,
            )
            time.sleep(args.every)
        if len(rows) >= 3:
            thr, ar, ca = zip(*rows, strict=True)
            print(
                f"{len(rows)} runs: thread CPU {min(thr):.0f}-{max(thr):.0f} ms, median "
                f"{statistics.median(thr):.0f}; r(run, arith) = "
                f"{statistics.correlation(thr, ar):.2f}, r(run, cache) = "
                f"{statistics.correlation(thr, ca):.2f}"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
