"""End-to-end harness overhead: build prompt, call, parse, score, persist (SQLite) and write results.

Two paths, on the same generated ClockQA items (one 420 px PNG per sample):
  in-process : the instant ``constant`` backend (no model time at all);
  HTTP       : the openai backend -> ``chronoeval serve`` (constant backend) on 127.0.0.1.
If ``inspect_ai`` is importable, the same items also run through Inspect with an instant model.

    python benchmarks/bench_engine.py --n 2000 [--concurrency 64] [--inspect-python PY]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--inspect-python", help="a Python with inspect_ai installed (side by side)")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-bench-"))
    os.environ["CHRONOEVAL_CACHE"] = str(tmp / "cache")
    from chronoeval import api
    from chronoeval.models.registry import BackendOptions

    t0 = time.perf_counter()
    ds = api.generate("clockqa", n=args.n, seed=0)
    gen_s = time.perf_counter() - t0
    rows: list[tuple[str, float, float]] = []

    def timed(label: str, **kw: object) -> None:
        start = time.perf_counter()
        res = api.run(
            ["clockqa"],
            data=ds.root,
            run_dir=tmp / label,
            progress=False,
            plots=False,
            concurrency=args.concurrency,
            **kw,
        )  # type: ignore[arg-type]
        wall = time.perf_counter() - start
        counts = res.results["tasks"]["clockqa"]["counts"]
        assert counts["answered"] == args.n, counts
        rows.append((label, wall, args.n / wall))

    timed("in-process", model="constant:10:10:00")

    ready = tmp / "url"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "chronoeval",
            "serve",
            "--model",
            "constant:10:10:00",
            "--task",
            "clockqa",
            "--port",
            "0",
            "--ready-file",
            str(ready),
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        while not ready.exists():
            time.sleep(0.05)
        timed(
            "HTTP (chronoeval serve, loopback)",
            model="openai:constant:10:10:00",
            backend_options=BackendOptions(base_url=ready.read_text().strip()),
        )
    finally:
        server.terminate()
        server.wait()

    inspect_note = "inspect_ai not installed: no side-by-side Inspect run"
    python = args.inspect_python
    if python is None and importlib.util.find_spec("inspect_ai") is not None:
        python = sys.executable
    if python:
        inspect_note = bench_inspect(ds.root, python, rows)

    print(
        f"machine: {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(
        f"items: {args.n} ClockQA items (generated in {gen_s:.1f}s), concurrency {args.concurrency}"
    )
    print("| path | wall (s) | samples/s |\n|---|---|---|")
    for label, wall, rate in rows:
        print(f"| {label} | {wall:.2f} | {rate:.0f} |")
    print(inspect_note)
    shutil.rmtree(tmp, ignore_errors=True)


def bench_inspect(ds_root: Path, python: str, rows: list) -> str:
    """The same items through Inspect (instant mockllm model), in ``python``'s environment."""
    script = Path(__file__).with_name("inspect_same_items.py")
    proc = subprocess.run([python, str(script), str(ds_root)], capture_output=True, text=True)
    if proc.returncode != 0:
        return f"Inspect run failed: {proc.stderr.strip()[-300:]}"
    line = proc.stdout.strip().splitlines()[-1]  # inspect <version> <n> samples <wall>s <rate>/s
    parts = line.split()
    wall = float(parts[4].rstrip("s"))
    rows.append((f"Inspect {parts[1]} (mockllm, in-process)", wall, int(parts[2]) / wall))
    return f"Inspect {parts[1]} ran the same items with its instant mockllm model ({python})"


if __name__ == "__main__":
    main()
