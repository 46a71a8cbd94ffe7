"""End-to-end harness overhead: build prompt, call, parse, score, persist (SQLite) and write results.

Two paths, on the same generated ClockQA items (one 420 px PNG per sample):
  in-process : the instant ``constant`` backend (no model time at all);
  HTTP       : the openai backend -> ``chronoeval serve`` (constant backend) on 127.0.0.1.
If ``inspect_ai`` is importable (or ``--inspect-python`` names a Python that has it), the same items
also run through Inspect: with its instant mockllm model in process, and through its
OpenAI-compatible provider (``openai-api/...``) against the same ``chronoeval serve`` endpoint, with
the same number of connections; the HTTP ratio chronoeval/Inspect is printed.

    python benchmarks/bench_engine.py --n 2000 [--concurrency 64] [--inspect-python PY]

(``--inspect-http-worker DATASET_DIR BASE_URL CONNECTIONS`` is the mode the Inspect Python runs this
file in: it needs only inspect_ai, not chronoeval.)
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
    ap.add_argument("--inspect-http-worker", nargs=3, metavar=("DATASET", "URL", "CONNECTIONS"))
    args = ap.parse_args()
    if args.inspect_http_worker:
        ds_dir, url, conns = args.inspect_http_worker
        inspect_http_worker(Path(ds_dir), url, int(conns))
        return

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
    inspect_note = "inspect_ai not installed: no side-by-side Inspect run"
    python = args.inspect_python
    if python is None and importlib.util.find_spec("inspect_ai") is not None:
        python = sys.executable
    try:
        while not ready.exists():
            time.sleep(0.05)
        url = ready.read_text().strip()
        timed(
            "HTTP (chronoeval serve, loopback)",
            model="openai:constant:10:10:00",
            backend_options=BackendOptions(base_url=url),
        )
        if python:
            inspect_note = bench_inspect_http(ds.root, python, url, args.concurrency, rows)
    finally:
        server.terminate()
        server.wait()

    if python:
        inspect_note += "; " + bench_inspect(ds.root, python, rows)

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
    ours = next((r for label, _, r in rows if label.startswith("HTTP (chronoeval")), None)
    theirs = next((r for label, _, r in rows if "OpenAI-compatible" in label), None)
    if ours and theirs:
        print(f"HTTP ratio chronoeval / Inspect: {ours / theirs:.1f}x (target >= 5x)")
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


def bench_inspect_http(ds_root: Path, python: str, url: str, connections: int, rows: list) -> str:
    """The same items through Inspect's OpenAI-compatible provider against ``url``."""
    proc = subprocess.run(
        [python, __file__, "--inspect-http-worker", str(ds_root), url, str(connections)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        return f"Inspect HTTP run failed: {proc.stderr.strip()[-500:]}"
    line = proc.stdout.strip().splitlines()[-1]  # inspect <version> <n> samples <wall>s ...
    parts = line.split()
    wall = float(parts[4].rstrip("s"))
    label = f"Inspect {parts[1]} HTTP (OpenAI-compatible provider -> chronoeval serve)"
    rows.append((label, wall, int(parts[2]) / wall))
    return f"Inspect {parts[1]} (openai-api provider, max_connections={connections}, {python})"


def inspect_http_worker(root: Path, url: str, connections: int) -> None:
    """Runs in the Inspect environment (needs only inspect_ai): items -> Inspect -> ``url``."""
    import base64
    import json

    import inspect_ai
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    samples = []
    for line in (root / "items.jsonl").read_text().splitlines():
        item = json.loads(line)
        content: list = []
        for part in item["messages"][0]["content"]:
            if part["type"] == "image":
                data = base64.b64encode((root / part["path"]).read_bytes()).decode()
                content.append(ContentImage(image=f"data:image/png;base64,{data}"))
            else:
                content.append(ContentText(text=part["text"]))
        samples.append(Sample(input=[ChatMessageUser(content=content)], target=item["target"]))
    os.environ["CHRONOSERVE_BASE_URL"] = url
    os.environ["CHRONOSERVE_API_KEY"] = "unused"
    start = time.perf_counter()
    logs = eval(
        Task(dataset=samples, solver=generate(), scorer=match()),
        model="openai-api/chronoserve/constant:10:10:00",
        model_base_url=url,
        max_connections=connections,
        temperature=0.0,
        max_tokens=512,
        display="none",
        log_dir=tempfile.mkdtemp(),
        max_samples=connections,
    )
    wall = time.perf_counter() - start
    assert logs[0].status == "success", logs[0].error
    print(
        f"inspect {inspect_ai.__version__} {len(samples)} samples {wall:.2f}s "
        f"{len(samples) / wall:.0f}/s"
    )


if __name__ == "__main__":
    main()
