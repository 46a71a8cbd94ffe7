"""CPU of preparing a released-layout dataset whose import is cached (a warm ``chronoeval run``'s
load), for source trees side by side: Seeing Time localisation on the released annotation files
(../shared/peers/chronovision, read in place) with an ``images_root`` holding a placeholder PNG
at every path the release names (9,286 files: artefacts, shortcut pairs, news tests).

For each tree (alternating, ``--rounds`` times) a fresh process with its own cache imports once,
then prepares the dataset ``--runs`` times inside ``deferred_images.collecting`` (as ``api.run``
does) and prints the median and least thread CPU time. ``--decode`` also times the full decode of one
1024x768 JPEG (``check_image_bytes``: what an import now does per image it copies).

    python benchmarks/import_reuse.py /tmp/before/src src --rounds 3 --runs 20 [--decode]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path, PureWindowsPath

PEERS = Path(__file__).resolve().parents[2] / "shared" / "peers" / "chronovision"
if not PEERS.is_dir():
    PEERS = Path("/work/shared/peers/chronovision")

CHILD = r"""
import statistics, sys, time
from pathlib import Path
from chronoeval import api
from chronoeval.core import deferred_images
from chronoeval.core.registry import get_task
peers, images, runs = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
task = get_task("seeing_localization")
params = {"images_root": images}
api.prepare_dataset(task, data=peers, params=params)  # the import
times = []
for _ in range(runs):
    start = time.thread_time()
    with deferred_images.collecting():
        ds = api.prepare_dataset(task, data=peers, params=params)
    times.append(time.thread_time() - start)
print(len(ds.items), 1000 * statistics.median(times), 1000 * min(times))
"""


def placeholders(root: Path) -> int:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (120, 80, 40)).save(buf, format="PNG")
    png, rels = buf.getvalue(), set()
    for f in (PEERS / "artifacts").rglob("*.jsonl"):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                for p in [row["image"]] if "image" in row else row["images"]:
                    rels.add("/".join(PureWindowsPath(p).parts[1:]))
    for d in (PEERS / "shortcut").iterdir():
        for original, rnd in json.loads((d / "test.json").read_text(encoding="utf-8")).items():
            rels.add(f"{d.name}/{original.split('/')[0]}/{rnd}")
    for f in (PEERS / "news").glob("*/*.json"):
        for row in json.loads(f.read_text(encoding="utf-8")):
            for im in row["images"]:
                rels.add(f"{f.parent.name}/{row['test_id']}/{im['new_name']}")
    for rel in rels:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(png)
    return len(rels)


def decode_ms() -> float:
    import random
    import statistics
    import time

    from PIL import Image

    from chronoeval.core.imagecheck import check_image_bytes

    rng = random.Random(0)
    im = Image.frombytes(
        "RGB", (1024, 768), bytes(rng.getrandbits(8) for _ in range(1024 * 768 * 3))
    )
    buf = io.BytesIO()
    im.save(buf, format="JPEG", quality=90)
    data, times = buf.getvalue(), []
    for _ in range(20):
        start = time.thread_time()
        check_image_bytes(data)
        times.append(time.thread_time() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", nargs="+")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--decode", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        images = Path(tmp) / "images"
        print(f"{placeholders(images)} placeholder images under {images}")
        for r in range(args.rounds):
            for i, tree in enumerate(args.trees):
                env = {**os.environ, "PYTHONPATH": tree}
                env["CHRONOEVAL_CACHE"] = str(Path(tmp) / f"cache{r}-{i}")
                cmd = [sys.executable, "-c", CHILD, str(PEERS), str(images), str(args.runs)]
                out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
                n, med, low = out.stdout.split()
                print(
                    f"round {r} {tree}: {n} items, CPU per prepare median {float(med):.1f} ms, min {float(low):.1f} ms"
                )
    if args.decode:
        print(f"full decode of a 1024x768 JPEG: {decode_ms():.1f} ms CPU")


if __name__ == "__main__":
    main()
