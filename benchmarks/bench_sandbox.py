"""Cost of SPAN's code sandbox per code turn, side by side: bubblewrap, the process fallback, and
(with ``--old FILE``, a copy of the pre-issue-15 ``sandbox.py``) the old in-process-filter sandbox.

    git show 4017cb0:src/chronoeval/suites/span/sandbox.py > /tmp/old_sandbox.py
    python benchmarks/bench_sandbox.py --runs 6 --old /tmp/old_sandbox.py

Prints the median wall time of one ``run_code`` of a single ``search_calendar`` call per mode.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from chronoeval.suites.span.sandbox import bwrap_works, run_code

CODE = "print(search_calendar('gregorian', 'hebrew', date='2000-07-01'))"


def _time(fn: Callable[[str], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        res = fn(CODE)
        times.append(time.perf_counter() - start)
        assert res.ok, res
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--old", help="a copy of the old sandbox.py to compare with")
    args = ap.parse_args()
    modes: list[tuple[str, Callable[[str], Any], str | None]] = []
    if args.old:
        spec = importlib.util.spec_from_file_location("old_sandbox", args.old)
        assert spec and spec.loader
        old = importlib.util.module_from_spec(spec)
        sys.modules["old_sandbox"] = old
        spec.loader.exec_module(old)
        modes.append(("old in-process filters", old.run_code, None))
    if bwrap_works():
        modes.append(("bwrap", run_code, "bwrap"))
    if os.getuid() == 0:
        modes.append(("process fallback", run_code, "process"))
    for name, fn, mode in modes:
        if mode:
            os.environ["CHRONOEVAL_SANDBOX"] = mode
        print(f"{name:24s} median {_time(fn, args.runs):.3f} s per code turn")


if __name__ == "__main__":
    main()
