"""How harness overhead and memory grow with the item count (1k, 10k, 100k items).

Each size runs in a fresh child process (so its memory high-water mark is its own): load the
dataset, run every item through the engine (prompt, request key, image read + base64 for HTTP,
store commit, parse, score, results.json, samples.jsonl/.parquet), with an instant model, so all the
time is harness time. The items are ClockQA items whose messages point at 64 real 420 px clock PNGs
(~27 KiB each) reused round-robin (100k distinct images would be 2.7 GB of disk); every item has its
own text, id and gold, so every request key is distinct. The runner reads an item's image when its
request is sent and drops it when the response is stored, so the high-water mark should grow with
the item *records* (ids, metadata, results), not with image bytes.

    python benchmarks/bench_scaling.py --sizes 1000 10000 100000 [--http] [--concurrency 64]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def build_dataset(root: Path, n: int) -> Path:
    from chronoeval import api
    from chronoeval.core.dataset import BuiltItem, load_dataset, write_dataset
    from chronoeval.core.items import ImagePart, Item, Message, TextPart

    if (root / "manifest.json").is_file():
        return root
    base = api.generate("clockqa", n=64, seed=0)
    parts: list[ImagePart] = []
    images: dict[str, bytes] = {}
    for it in base.items:
        (msg,) = it.messages
        img = next(p for p in msg.content if isinstance(p, ImagePart))
        parts.append(img)
        images[img.path] = (base.root / img.path).read_bytes()
    template = base.items[0]

    def items():  # type: ignore[no-untyped-def]
        for i in range(n):
            part = parts[i % len(parts)]
            text = f"What time is shown on the clock in the given image? (item {i})"
            msg = Message("user", (part, TextPart(text)))
            item = Item(
                f"s{i:06d}",
                template.suite,
                template.task,
                (msg,),
                base.items[i % len(parts)].target,
                metadata=dict(base.items[i % len(parts)].metadata),
            )
            # the 64 image files are written with the first 64 items, then only referenced
            yield BuiltItem(item, {part.path: images[part.path]} if i < len(parts) else {})

    write_dataset(
        root,
        items(),
        suite=template.suite,
        task=template.task,
        generator_version="bench-scaling",
        params={"n": n},
        seed=None,
        source="bench_scaling",
    )
    return load_dataset(root).root


def child(ds_root: Path, run_dir: Path, url: str | None, concurrency: int) -> None:
    from chronoeval import api
    from chronoeval.core.dataset import load_dataset
    from chronoeval.models.registry import BackendOptions

    t0 = time.perf_counter()
    n = len(load_dataset(ds_root, verify_images=False).items)
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t1 = time.perf_counter()
    marks: dict[str, float] = {}
    real_score = api.score_records

    def score_records(*a, **kw):  # type: ignore[no-untyped-def]
        # the peak so far is the engine's (asking + storing); scoring's comes after
        marks["rss_engine"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        out = real_score(*a, **kw)
        marks["score_s"] = time.perf_counter() - start
        return out

    api.score_records = score_records  # api.run calls it by module attribute
    res = api.run(
        ["clockqa"],
        "openai:constant:10:10:00" if url else "constant:10:10:00",
        data=ds_root,
        run_dir=run_dir,
        backend_options=BackendOptions(base_url=url) if url else None,
        concurrency=concurrency,
        progress=False,
        plots=False,
    )
    wall = time.perf_counter() - t1
    s = res.summaries["clockqa"]
    assert s.answered == n and res.results["tasks"]["clockqa"]["counts"]["answered"] == n
    print(
        json.dumps(
            {
                "n": n,
                "wall_s": wall,
                "load_s": t1 - t0,
                "engine_s": s.wall_s,
                "maxrss_mib_after_load": rss_loaded / 1024,
                "maxrss_mib_engine": marks["rss_engine"] / 1024,
                "score_s": marks["score_s"],
                "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--http", action="store_true", help="also through chronoeval serve")
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--child", nargs=3, metavar=("DATASET", "RUN_DIR", "URL"))
    args = ap.parse_args()
    if args.child:
        ds, run_dir, url = args.child
        child(Path(ds), Path(run_dir), None if url == "-" else url, args.concurrency)
        return

    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-scaling-"))
    os.environ["CHRONOEVAL_CACHE"] = str(tmp / "cache")
    server = None
    url = None
    if args.http:
        ready = tmp / "url"
        server = subprocess.Popen(
            [sys.executable, "-m", "chronoeval", "serve", "--model", "constant:10:10:00",
             "--task", "clockqa", "--port", "0", "--ready-file", str(ready)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        while not ready.exists():
            time.sleep(0.05)
        url = ready.read_text().strip()
    rows = []
    try:
        for n in args.sizes:
            t0 = time.perf_counter()
            ds = build_dataset(tmp / f"ds{n}", n)
            build_s = time.perf_counter() - t0
            paths = [("in-process", "-")] + ([("HTTP", url)] if url else [])
            for label, u in paths:
                proc = subprocess.run(
                    [sys.executable, __file__, "--concurrency", str(args.concurrency),
                     "--child", str(ds), str(tmp / f"run-{label}-{n}"), u or "-"],
                    capture_output=True, text=True,
                )  # fmt: skip
                if proc.returncode != 0:
                    raise SystemExit(proc.stderr[-2000:])
                r = json.loads(proc.stdout.strip().splitlines()[-1])
                r.update(path=label, build_s=build_s)
                rows.append(r)
                print(json.dumps(r), file=sys.stderr)
    finally:
        if server is not None:
            server.terminate()
            server.wait()
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(
        "| items | path | engine (s) | µs/item engine | score + write (s) | total (s) "
        "| RSS after load | peak RSS, engine | peak RSS, with scoring |\n"
        "|---|---|---|---|---|---|---|---|---|"
    )
    for r in rows:
        print(
            f"| {r['n']:,} | {r['path']} | {r['engine_s']:.2f} "
            f"| {1e6 * r['engine_s'] / r['n']:.0f} | {r['score_s']:.2f} | {r['wall_s']:.2f} "
            f"| {r['maxrss_mib_after_load']:.0f} MiB | {r['maxrss_mib_engine']:.0f} MiB "
            f"| {r['maxrss_mib']:.0f} MiB |"
        )
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
