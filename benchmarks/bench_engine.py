"""End-to-end harness overhead: build prompt, call, parse, score, persist (SQLite) and write results.

Two paths, on the same generated ClockQA items (one 420 px PNG per sample):
  in-process : the instant ``constant`` backend (no model time at all);
  HTTP       : the openai backend -> ``chronoeval serve`` (constant backend) on 127.0.0.1.
If ``inspect_ai`` is importable, the same items also run through Inspect with an instant model.

    python benchmarks/bench_engine.py --n 2000 [--concurrency 64] [--markdown]
"""

from __future__ import annotations

import argparse
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
    ap.add_argument("--markdown", action="store_true", help="print a markdown table row set")
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
    try:
        import inspect_ai  # noqa: F401
    except ImportError:
        pass
    else:
        inspect_note = bench_inspect(ds, rows)

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


def bench_inspect(ds, rows) -> str:  # pragma: no cover - only with the optional package
    import base64

    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ChatMessageUser, ContentImage, ContentText, ModelOutput, get_model
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    samples = []
    for item in ds.items:
        img = item.images[0]
        url = (
            "data:image/png;base64," + base64.b64encode((ds.root / img.path).read_bytes()).decode()
        )
        text = item.messages[0].text
        samples.append(
            Sample(
                input=[ChatMessageUser(content=[ContentImage(image=url), ContentText(text=text)])],
                target=item.target,
            )
        )
    model = get_model(
        "mockllm/model",
        custom_outputs=(
            ModelOutput.from_content("mockllm/model", "10:10:00") for _ in range(len(samples))
        ),
    )
    start = time.perf_counter()
    eval(
        Task(dataset=samples, solver=generate(), scorer=match()),
        model=model,
        display="none",
        log_dir=tempfile.mkdtemp(),
    )
    wall = time.perf_counter() - start
    rows.append(("Inspect (mockllm, in-process)", wall, len(samples) / wall))
    import inspect_ai

    return f"Inspect {inspect_ai.__version__} ran the same items with its instant mockllm model"


if __name__ == "__main__":
    main()
