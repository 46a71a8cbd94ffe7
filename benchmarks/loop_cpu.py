"""CPU seconds per request of an aiohttp client and of ``chronoeval serve`` on each event loop.

One serve at latency 0 (``constant`` model), ``--requests`` requests at ``--concurrency`` from a
raw aiohttp client, each body a 420-px ClockQA PNG (8 generated images, cycled) and a question.
The client runs on uvloop unless ``CHRONOEVAL_EVENT_LOOP=asyncio``, and serve makes the same
choice (engine/event_loop.py), so alternate the two settings:

    python benchmarks/loop_cpu.py uvloop
    CHRONOEVAL_EVENT_LOOP=asyncio python benchmarks/loop_cpu.py asyncio
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def ask(url: str, bodies: list[bytes], requests: int, concurrency: int) -> None:
    import aiohttp

    left = [requests]
    headers = {"Content-Type": "application/json"}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency)) as s:

        async def worker() -> None:
            while left[0] > 0:
                left[0] -= 1
                body = bodies[left[0] % len(bodies)]
                async with s.post(f"{url}/chat/completions", data=body, headers=headers) as r:
                    json.loads(await r.read())

        await asyncio.gather(*(worker() for _ in range(concurrency)))


def start_serve(tmp: Path, *options: str) -> tuple[subprocess.Popen, str]:
    """``chronoeval serve`` (``constant`` model, ClockQA) on a free port, with ``options``."""
    ready = tmp / "url"
    proc = subprocess.Popen(
        [sys.executable, "-m", "chronoeval", "serve", "--model", "constant:10:10:00", "--task",
         "clockqa", "--port", "0", "--ready-file", str(ready), *options],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    while not ready.exists():
        if proc.poll() is not None:
            raise SystemExit("chronoeval serve did not start")
        time.sleep(0.05)
    return proc, ready.read_text().strip()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("label")
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=64)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-loopcpu-"))
    os.environ.setdefault("CHRONOEVAL_CACHE", str(tmp / "cache"))
    from chronoeval import api

    ds = api.generate("clockqa", n=8, seed=0)
    bodies = []
    for png in sorted((ds.root / "images").glob("*.png")):
        url = "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode("ascii")
        content = [
            {"type": "image_url", "image_url": {"url": url}},
            {"type": "text", "text": "What time is it?"},
        ]
        msg = {"role": "user", "content": content}
        bodies.append(json.dumps({"model": "constant:10:10:00", "messages": [msg]}).encode())
    proc, url = start_serve(tmp)
    try:
        load = os.getloadavg()[0]
        c0, s0, t0 = time.process_time(), proc_cpu(proc.pid), time.perf_counter()
        if os.environ.get("CHRONOEVAL_EVENT_LOOP", "").strip().lower() == "asyncio":
            asyncio.run(ask(url, bodies, args.requests, args.concurrency))
        else:
            import uvloop

            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                runner.run(ask(url, bodies, args.requests, args.concurrency))
        c1, s1, t1 = time.process_time(), proc_cpu(proc.pid), time.perf_counter()
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    per = 1000.0 / args.requests
    print(
        f"{args.label:8s} load {load:4.1f}: client {(c1 - c0) * per:.3f} ms CPU/request, serve "
        f"{(s1 - s0) * per:.3f} ms CPU/request, wall {t1 - t0:.2f} s"
    )


if __name__ == "__main__":
    main()
