"""The default job (`chronoeval run`, no arguments) of two source trees, side by side (issue 21).

Each round runs the job once per tree, in a fresh directory, in a fresh process, with the same
dataset cache (built once, before the rounds: "datasets cached"); the order of the trees
alternates from round to round. Reported per run: wall time, the CPU time of the job and every
process it started (user + system), and the load average before it. Then the results are compared:
results.json and samples.jsonl of both trees must hold the same records (latencies, wall times and
the Python version left out), the reports the same page (the generation stamp left out), the
figures the same bytes.

    python benchmarks/bench_default_job.py --before /tmp/main/src --after src --rounds 3

``--before`` / ``--after``: directories that hold the ``chronoeval`` package (a checkout's
``src``); e.g. ``git archive <commit> src | tar -x -C /tmp/main`` for a commit's tree.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def run_job(src: Path, work: Path, env: dict[str, str]) -> dict[str, float]:
    work.mkdir(parents=True)
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "chronoeval", "run", "--no-progress"],
        cwd=work,
        env={**env, "PYTHONPATH": str(src.resolve())},
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu, "load": load}


_DROP = ("latency_s", "wall_s", "python")


def _strip(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in _DROP}
    if isinstance(obj, list):
        return [_strip(x) for x in obj]
    return obj


def _page(path: Path) -> str:
    return re.sub(r"generated \d{4}-\d\d-\d\d \d\d:\d\d UTC", "generated -", path.read_text())


def compare(a: Path, b: Path) -> list[str]:
    """Differences between two job directories (an empty list: the same results)."""
    ra, rb = (next((d / "runs").iterdir()) for d in (a, b))
    diffs = []
    for path in sorted(ra.rglob("*")):
        rel = path.relative_to(ra)
        other = rb / rel
        if path.is_dir() or path.suffix in (".sqlite", ".parquet") or "snapshot" in str(rel):
            continue
        if not other.is_file():
            diffs.append(f"{rel}: only in the first")
        elif path.name == "results.json":
            if _strip(json.loads(path.read_text())) != _strip(json.loads(other.read_text())):
                diffs.append(str(rel))
        elif path.name == "samples.jsonl":
            rows = [_strip(json.loads(x)) for x in path.read_text().splitlines()]
            if rows != [_strip(json.loads(x)) for x in other.read_text().splitlines()]:
                diffs.append(str(rel))
        elif path.suffix == ".html":
            if _page(path) != _page(other):
                diffs.append(str(rel))
        elif path.suffix == ".png" and path.read_bytes() != other.read_bytes():
            diffs.append(str(rel))
    return diffs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--after", type=Path, default=Path("src"))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-job-"))
    env = {**os.environ, "CHRONOEVAL_CACHE": str(tmp / "cache")}
    trees = {"before": args.before, "after": args.after}
    print(f"cores {os.cpu_count()}, load average at start {os.getloadavg()[0]:.1f}")
    run_job(args.after, tmp / "warm", env)  # builds the datasets once (not timed)
    rows: dict[str, list[dict[str, float]]] = {k: [] for k in trees}
    for rnd in range(args.rounds):
        order = list(trees) if rnd % 2 == 0 else list(reversed(trees))
        for name in order:
            got = run_job(trees[name], tmp / f"{name}{rnd}", env)
            rows[name].append(got)
            print(
                f"round {rnd + 1} {name}: wall {got['wall_s']:.2f} s, cpu {got['cpu_s']:.2f} s, "
                f"load before {got['load']:.1f}",
                flush=True,
            )
    for name in trees:
        walls = [r["wall_s"] for r in rows[name]]
        cpus = [r["cpu_s"] for r in rows[name]]
        print(
            f"{name}: wall median {statistics.median(walls):.2f} s (min {min(walls):.2f}), "
            f"cpu median {statistics.median(cpus):.2f} s"
        )
    ratios = [b["wall_s"] / a["wall_s"] for a, b in zip(rows["after"], rows["before"], strict=True)]
    print(f"before / after wall, per round: {', '.join(f'{r:.2f}' for r in ratios)}")
    diffs = compare(tmp / "before0", tmp / "after0")
    print("results, samples, reports, figures: " + ("identical" if not diffs else "DIFFER:"))
    for d in diffs:
        print(f"  {d}")


if __name__ == "__main__":
    main()
