"""In-process throughput of two source trees side by side, with Inspect's mockllm in the same rounds.

Each round runs, in a rotating order and each in a fresh process: ``api.run`` of the in-process
``constant`` backend on the same ClockQA items with the ``--before`` tree, the same with the
``--after`` tree (each process: one warm-up run, then ``--runs`` timed runs, the median kept), and
Inspect's in-process mockllm (``inspect_same_items.py``) when inspect_ai is importable. It prints
each figure with the load average, and the ratios to Inspect: of wall-clock rates, and of
rates per second of the process's CPU (``time.process_time``, all its threads), which a loaded
shared machine moves less.

    git -C /work/main archive 5c59f41 src benchmarks | tar -x -C /tmp/before
    python benchmarks/bench_inproc_ab.py --before /tmp/before/src --after src --n 2000 --rounds 3
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import tempfile
from pathlib import Path

from clockqa_subprocess import generate_clockqa, inspect_rate, run_with_tree

CHILD = r"""
import os, statistics, sys, tempfile, time
from pathlib import Path
from chronoeval import api
n, runs, data = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
tmp = Path(tempfile.mkdtemp(prefix="inproc-ab-"))
rates, cpu_rates = [], []
for i in range(runs + 1):
    start, cpu = time.perf_counter(), time.process_time()
    res = api.run(["clockqa"], "constant:10:10:00", data=data, run_dir=tmp / f"r{i}",
                  progress=False, plots=False, concurrency=64)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert res.results["tasks"]["clockqa"]["counts"]["answered"] == n
    if i:
        rates.append(n / wall)
        cpu_rates.append(n / cpu)
print("cpu", statistics.median(cpu_rates))
print(statistics.median(rates))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, required=True, help="src directory of the old tree")
    ap.add_argument("--after", type=Path, required=True, help="src directory of the new tree")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--inspect-runs",
        type=int,
        default=1,
        help="Inspect like chronoeval: one warm-up eval, then this many timed (median); 1 = one cold eval",
    )
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-inproc-ab-"))
    env = {**os.environ, "CHRONOEVAL_CACHE": str(tmp / "cache")}
    root = generate_clockqa(args.after, args.n, env)

    cpu_rate: dict[str, float] = {}  # the last figure's items per second of the process's CPU

    def tree(name: str, src: Path) -> float:
        out = run_with_tree(src, env, CHILD, args.n, args.runs, root).split()
        cpu_rate[name] = float(out[out.index("cpu") + 1])
        return float(out[-1])

    def inspect() -> float:
        rate, cpu_rate["inspect"] = inspect_rate(root, runs=args.inspect_runs)
        return rate

    paths = {
        "before": lambda: tree("before", args.before),
        "after": lambda: tree("after", args.after),
    }
    if importlib.util.find_spec("inspect_ai") is not None:
        paths["inspect"] = inspect
    names = list(paths)
    got_all: dict[str, list[float]] = {k: [] for k in names}
    cpu_all: dict[str, list[float]] = {k: [] for k in names}
    for rnd in range(args.rounds):
        order = names[rnd % len(names) :] + names[: rnd % len(names)]
        got = {}
        for name in order:
            load = os.getloadavg()[0]
            got[name] = paths[name]()
            got_all[name].append(got[name])
            cpu_all[name].append(cpu_rate[name])
            print(
                f"round {rnd + 1}: {name} {got[name]:.0f}/s, {cpu_rate[name]:.0f}/s of CPU "
                f"(load {load:.1f} at start)"
            )
        if "inspect" in got:
            cpu = {k: cpu_all[k][-1] for k in names}
            print(
                f"   ratios: before/inspect {got['before'] / got['inspect']:.2f}, "
                f"after/inspect {got['after'] / got['inspect']:.2f}, "
                f"after/before {got['after'] / got['before']:.2f}; per CPU second: "
                f"before/inspect {cpu['before'] / cpu['inspect']:.2f}, "
                f"after/inspect {cpu['after'] / cpu['inspect']:.2f}, "
                f"after/before {cpu['after'] / cpu['before']:.2f}"
            )
    for name, vals in got_all.items():
        print(
            f"{name}: median {statistics.median(vals):.0f}/s ({', '.join(f'{v:.0f}' for v in vals)})"
            f"; per CPU second {statistics.median(cpu_all[name]):.0f}/s "
            f"({', '.join(f'{v:.0f}' for v in cpu_all[name])})"
        )
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
