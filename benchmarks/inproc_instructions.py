"""Instructions per warm in-process ``api.run``, counted by valgrind (cachegrind), for source trees.

This machine has no hardware counters (``perf stat -e instructions true``: not supported, a KVM
guest), and the CPU time of the same run moves by up to 1.5x from one moment to the next
(docs/benchmarks.md, "Session 9 (s9-21f)"). An instruction count does not: for each tree, two
fresh processes under ``valgrind --tool=cachegrind --cache-sim=no`` each make two warm-up runs of
the in-process ``constant`` backend on the same ClockQA items, then one run or ``1 + --runs`` runs;
the difference of their totals divided by ``--runs`` is one warm run's instructions (imports,
compiling and warm-up cancel). OpenBLAS's idle worker thread (``blas_thread_server``) spins for a
scheduling-dependent while after numpy calls; its instructions are left out of every total.
In session 9 the figure repeated to 0.2-0.3% between pairs of processes of one tree, 2,000
items: before 828.1 M (this script, seed 1) and 826.3 / 827.1 M (a scratch cachegrind script,
seeds 0 and 1); after 785.0 M (this script, seed 1) and 785.9-787.4 M (scratch, seeds 0-2).
A child that fails stops the script with one line: its tree and the end of its stderr.

    python benchmarks/inproc_instructions.py /tmp/before/src src --n 2000 --runs 3 [--seed 0]

Each process runs ~1-2 minutes under valgrind (2,000 items).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from clockqa_subprocess import generate_clockqa

CHILD = r"""
import shutil, sys, tempfile
from pathlib import Path
from chronoeval import api
data, runs = Path(sys.argv[1]), int(sys.argv[2])
tmp = Path(tempfile.mkdtemp(prefix="inproc-instructions-"))
for i in range(2 + runs):
    api.run(["clockqa"], "constant:10:10:00", data=data, run_dir=tmp / f"r{i}",
            progress=False, plots=False, concurrency=64)
    shutil.rmtree(tmp / f"r{i}")
shutil.rmtree(tmp, ignore_errors=True)
"""


def _run(what: str, cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """``cmd`` run to completion; if it fails, one line naming ``what`` and its stderr's end."""
    try:
        return subprocess.run(cmd, check=True, capture_output=True, text=True, **kwargs)
    except subprocess.CalledProcessError as exc:
        tail = " | ".join((exc.stderr or "").strip().splitlines()[-3:])
        raise SystemExit(f"{what}: exit status {exc.returncode}: {tail}") from None


def counted(src: Path, env: dict[str, str], root: str, runs: int, out: Path) -> tuple[int, int]:
    """(all instructions, OpenBLAS idle-thread instructions) of one process."""
    out.with_suffix(".py").write_text(CHILD)
    _run(
        f"{src} (under valgrind)",
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--branch-sim=no",
            f"--cachegrind-out-file={out}",
            sys.executable,
            str(out.with_suffix(".py")),  # a file: a -c program's lines would break the output
            root,
            str(runs),
        ],
        env={**env, "PYTHONPATH": str(Path(src).resolve())},
    )
    # every function listed (the default threshold, 0.1%, leaves a small blas_thread_server out)
    report = _run(f"cg_annotate {out}", ["cg_annotate", "--threshold=0", str(out)]).stdout
    total = blas = 0
    for line in report.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)", line)
        if not m:
            continue
        count = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2):
            total = count
        elif m.group(2).endswith(":blas_thread_server"):
            blas += count
    if total == 0:
        raise SystemExit(f"{out}: no PROGRAM TOTALS in cg_annotate's output")
    return total, blas


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", type=Path, nargs="+", help="src directories to measure")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0, help="PYTHONHASHSEED of every process")
    args = ap.parse_args()
    if shutil.which("valgrind") is None or shutil.which("cg_annotate") is None:
        raise SystemExit("needs valgrind (cachegrind and cg_annotate)")
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-inproc-instructions-"))
    try:
        measure(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def measure(args: argparse.Namespace, tmp: Path) -> None:
    """Print each tree's instructions per warm run; ``tmp`` holds the cache, data and outputs."""
    env = {
        **os.environ,
        "CHRONOEVAL_CACHE": str(tmp / "cache"),
        "PYTHONHASHSEED": str(args.seed),
    }
    root = generate_clockqa(args.trees[0], args.n, env)
    # the items' first loads, natively: every image checked once, then the verify-once stamp
    # written for images settled long enough (core/verified.py RACY_NS), so that no counted
    # process checks images in full
    time.sleep(2.5)
    child = tmp / "warm.py"
    child.write_text(CHILD)
    _run(
        f"{args.trees[0]} (the first, unmeasured load)",
        [sys.executable, str(child), root, "0"],
        env={**env, "PYTHONPATH": str(Path(args.trees[0]).resolve())},
    )
    for i, src in enumerate(args.trees):
        one = counted(src, env, root, 1, tmp / f"t{i}-1.out")
        more = counted(src, env, root, 1 + args.runs, tmp / f"t{i}-more.out")
        per_run = ((more[0] - more[1]) - (one[0] - one[1])) / args.runs
        print(
            f"{src}: {per_run / 1e6:.1f} M instructions per warm run "
            f"(processes: {one[0] / 1e6:.1f} M and {more[0] / 1e6:.1f} M, of which OpenBLAS's "
            f"idle thread {one[1] / 1e6:.1f} M and {more[1] / 1e6:.1f} M)",
            flush=True,
        )


if __name__ == "__main__":
    main()
