"""How long after a request's arrival ``chronoeval serve --latency`` answers it.

One serve (``constant`` model, ``--latency``, ``--request-log``), ``--requests`` requests at
``--concurrency`` from a raw aiohttp client, each body one 1-px PNG and a question; prints
``answered - arrived - latency`` from serve's log (min, p5, median, mean, p95, in ms). Run it
with ``PYTHONPATH=<tree>/src`` for each tree; the event loop is the tree's choice
(``CHRONOEVAL_EVENT_LOOP``). The label is printed first.

    python benchmarks/serve_lateness.py after [--latency 0.2 --requests 1280 --concurrency 64]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loop_cpu import ask, start_serve  # noqa: E402  (the same raw aiohttp client)

PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5Er"
    "kJggg=="
)


BODY = json.dumps(
    {
        "model": "constant:10:10:00",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
                    {"type": "text", "text": "What time is it?"},
                ],
            }
        ],
    }
).encode()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("label")
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--requests", type=int, default=1280)
    ap.add_argument("--concurrency", type=int, default=64)
    args = ap.parse_args()
    base64.b64decode(PNG)  # a valid image, checked here rather than by serve's 400
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-lateness-"))
    log = tmp / "requests.jsonl"
    proc, url = start_serve(tmp, "--latency", str(args.latency), "--request-log", str(log))
    try:
        load = os.getloadavg()[0]
        asyncio.run(ask(url, [BODY], args.requests, args.concurrency))
        time.sleep(0.3)  # the log's last lines
    finally:
        proc.terminate()
        proc.wait()
    entries = [json.loads(x) for x in log.read_text().splitlines() if x.strip()]
    shutil.rmtree(tmp, ignore_errors=True)
    late = sorted(
        (e["answered"] - e["arrived"] - args.latency) * 1000.0 for e in entries if "answered" in e
    )

    def q(p: float) -> float:
        return late[int(p * (len(late) - 1))]

    print(
        f"{args.label:14s} load {load:4.1f}: answered - arrived - latency: min {late[0]:.3f} "
        f"p5 {q(0.05):.3f} median {q(0.5):.3f} mean {statistics.mean(late):.3f} "
        f"p95 {q(0.95):.3f} ms, n {len(late)}"
    )


if __name__ == "__main__":
    main()
