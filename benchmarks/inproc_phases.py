"""Where a warm in-process ``api.run`` spends its CPU time, per phase, for source trees side by side.

For each tree (alternating, ``--rounds`` times), a fresh process generates nothing (the ClockQA
items are generated once, by the first tree), runs ``api.run`` of the in-process ``constant``
backend twice to warm up, then ``--runs`` times with each phase's function wrapped by a timer
(thread CPU time, so the other engineers' load on a shared machine moves the figures less than
wall time would). Phases nest: ``score_records`` holds ``write_samples``, ``aggregate`` (which
holds the bootstrap) and ``read_store`` (from session 6 ``run`` calls ``read_store`` itself, before
it closes the store); ``ask_all`` holds ``put_many``. ``--wall``: wall-clock time per phase
instead, which also counts waiting for the disk (syncs) and for a core.

    python benchmarks/inproc_phases.py /tmp/before/src src --n 2000 --rounds 2 --runs 10 [--wall]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path

from clockqa_subprocess import generate_clockqa, run_with_tree

CHILD = r"""
import collections, functools, shutil, sys, tempfile, time
from pathlib import Path
from chronoeval import api
import chronoeval.core.stats as stats
import chronoeval.engine.store as store
from chronoeval.core.registry import get_task

acc = collections.defaultdict(float)
clock = time.perf_counter if sys.argv[4] == "wall" else time.thread_time

def wrap(owner, name, label):
    f = getattr(owner, name)
    @functools.wraps(f)
    def timed(*a, **k):
        start = clock()
        try:
            return f(*a, **k)
        finally:
            acc[label] += clock() - start
    setattr(owner, name, timed)

for name in ("prepare_dataset", "ask_all", "score_records", "write_samples", "read_store",
             "open_store"):
    wrap(api, name, name)
wrap(type(get_task("clockqa")), "aggregate", "aggregate")
wrap(stats, "bootstrap_ci", "bootstrap_ci")
wrap(store.RunStore, "put_many", "put_many")
n, runs, data = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
tmp = Path(tempfile.mkdtemp(prefix="inproc-phases-"))
def go(i):
    res = api.run(["clockqa"], "constant:10:10:00", data=data, run_dir=tmp / f"r{i}",
                  progress=False, plots=False, concurrency=64)
    assert res.results["tasks"]["clockqa"]["counts"]["answered"] == n
go("w0"); go("w1"); acc.clear()
total = 0.0
for i in range(runs):
    start = clock()
    go(i)
    total += clock() - start
    shutil.rmtree(tmp / f"r{i}")
shutil.rmtree(tmp, ignore_errors=True)
print("run", 1000 * total / runs)
for k, v in sorted(acc.items(), key=lambda kv: -kv[1]):
    print(k, 1000 * v / runs)
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", type=Path, nargs="+", help="src directories to measure")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument(
        "--wall",
        action="store_true",
        help="wall-clock ms per phase instead of the measuring thread's CPU ms (waits for the "
        "disk and for a core count here)",
    )
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-inproc-phases-"))
    env = {**os.environ, "CHRONOEVAL_CACHE": str(tmp / "cache")}
    root = generate_clockqa(args.trees[0], args.n, env)
    for rnd in range(args.rounds):
        for src in args.trees:
            load = os.getloadavg()[0]
            clock = "wall" if args.wall else "cpu"
            out = run_with_tree(src, env, CHILD, args.n, args.runs, root, clock).split("\n")
            cells = [line.rsplit(" ", 1) for line in out if line.strip()]
            body = ", ".join(f"{k} {float(v):.1f}" for k, v in cells)
            what = "wall ms" if args.wall else "CPU ms"
            print(f"round {rnd + 1} {src} (load {load:.1f}): {what} per run: {body}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
