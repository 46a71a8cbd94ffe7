"""Where the CPU of the default job goes, per process (issue 21).

Runs ``chronoeval run --no-progress`` (the default job) once in a fresh process, through the real
CLI, from the current directory (a ``runs/`` directory is written there), with every call into
an agent worker (models/agent_pool.py) timed in the worker: CPU seconds (``process_time``, all
of that worker's threads) and wall seconds per kind of call (the reference agent per task, figure
sets, thumbnails, profile charts, the warm-up), and the main process's own CPU and the
interval of a few of its steps (``api.run``, ``ask_all``, ``report``, ``memo.wait_all``).
Seconds are counted from the start of this script.

    mkdir -p /tmp/job && cd /tmp/job && python /path/to/benchmarks/bench_job_processes.py

The printout is one line per (process, kind of call): calls, CPU, wall, first start and last end.
"""

from __future__ import annotations

import collections
import json
import os
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_fixed_costs import run_default_job_here

T0 = time.time()
LOAD0 = os.getloadavg()[0]
LOG = Path(tempfile.mkdtemp(prefix="chronoeval-procs-")) / "calls.jsonl"


def log(**kw: Any) -> None:
    with LOG.open("a") as f:
        f.write(json.dumps({"pid": os.getpid(), **kw}) + "\n")


def timed(owner: Any, name: str, label: str) -> None:
    real = getattr(owner, name)

    def wrapper(*a: Any, **kw: Any) -> Any:
        c, w = time.process_time(), time.time()
        try:
            return real(*a, **kw)
        finally:
            log(fn=label(a) if callable(label) else label, cpu=time.process_time() - c,
                start=w - T0, wall=time.time() - w)  # fmt: skip

    # a module-level name, so that the pool can pickle it (it sends ``_in_dir`` by reference)
    wrapper.__qualname__ = wrapper.__name__ = f"_timed_{name}"
    globals()[wrapper.__qualname__] = wrapper
    setattr(owner, name, wrapper)


def main() -> None:
    from chronoeval import api, cli
    from chronoeval.models import agent_pool
    from chronoeval.report import memo

    log(fn="main: imports", cpu=time.process_time(), start=0.0, wall=time.time() - T0)
    # forked workers inherit these wrappers
    timed(
        agent_pool,
        "_in_dir",
        lambda a: a[1].__name__ + (f":{a[2]}" if a[1].__name__ == "_answer" else ""),
    )
    timed(agent_pool, "_warm", "warm")
    for name in ("run", "ask_all", "report"):
        timed(api, name, f"main: {name}")
    timed(memo, "wait_all", "main: wait_all")
    run_default_job_here(cli)
    log(fn="main: whole process", cpu=time.process_time(), start=0.0, wall=time.time() - T0)
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    log(fn="workers: whole processes", cpu=ru.ru_utime + ru.ru_stime, start=0.0, wall=0.0)
    agg: dict[tuple[int, str], list[float]] = collections.defaultdict(
        lambda: [0, 0.0, 0.0, 1e9, 0.0]
    )
    for line in LOG.read_text().splitlines():
        r = json.loads(line)
        a = agg[(r["pid"], r["fn"])]
        a[0] += 1
        a[1] += r["cpu"]
        a[2] += r["wall"]
        a[3] = min(a[3], r["start"])
        a[4] = max(a[4], r["start"] + r["wall"])
    print(f"load average (1 min): {LOAD0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    for (pid, fn), (n, cpu, wall, first, last) in sorted(
        agg.items(), key=lambda kv: (kv[0][0], kv[1][3])
    ):
        print(f"{pid} {fn:26s} calls {int(n):4d}  cpu {cpu:6.2f} s  wall {wall:6.2f} s  "
              f"from {first:5.2f} to {last:5.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
