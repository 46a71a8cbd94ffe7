"""In process, cold: one ``api.run`` in a fresh process (after its imports) vs Inspect's one eval in a
fresh process (``inspect_same_items.py``, which builds its samples and reads the images before its
timer starts), on the same 2,000 ClockQA items, alternating, ``--rounds`` times.

Round 1's chronoeval run also checks every image once (a fresh dataset cache); later rounds find the
verify-once stamp. Compare with ``bench_inproc_ab.py --inspect-runs 3`` (both warmed up) and
``bench_targets.py`` (chronoeval warm in a long-lived process, Inspect cold).

    python benchmarks/inproc_cold.py src --rounds 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from clockqa_subprocess import generate_clockqa, inspect_rate, run_with_tree

CHILD = r"""
import sys, time, tempfile
from pathlib import Path
from chronoeval import api
n = int(sys.argv[2])
t, c = time.perf_counter(), time.process_time()
api.run(["clockqa"], "constant:10:10:00", data=Path(sys.argv[1]),
        run_dir=Path(tempfile.mkdtemp()) / "r", progress=False, plots=False, concurrency=64)
t, c = time.perf_counter() - t, time.process_time() - c
print("cpu", n / c)
print(n / t)
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src", type=Path, help="the chronoeval src directory to measure")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    env = {
        **os.environ,
        "PYTHONPATH": str(args.src.resolve()),
        "CHRONOEVAL_CACHE": tempfile.mkdtemp(prefix="inproc-cold-"),
    }
    root = generate_clockqa(args.src, args.n, env)
    ratios, cpu_ratios = [], []
    for r in range(args.rounds):
        got = run_with_tree(args.src, env, CHILD, root, args.n).split()
        ce, ce_cpu = float(got[-1]), float(got[got.index("cpu") + 1])
        ins, ins_cpu = inspect_rate(root, env)
        ratios.append(ce / ins)
        cpu_ratios.append(ce_cpu / ins_cpu)
        print(
            f"round {r + 1}: chronoeval cold {ce:.0f}/s, inspect cold {ins:.0f}/s, "
            f"ratio {ce / ins:.2f}; per CPU second {ce_cpu:.0f}/s vs {ins_cpu:.0f}/s, "
            f"ratio {ce_cpu / ins_cpu:.2f}; load {os.getloadavg()[0]:.1f}"
        )
    print(
        f"median ratio {statistics.median(ratios):.2f}, "
        f"per CPU second {statistics.median(cpu_ratios):.2f}"
    )


if __name__ == "__main__":
    main()
