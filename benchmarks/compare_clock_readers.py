"""Two clock readers side by side on the same images: ms per face and how many readings differ.

    git -C /work/main archive 5c59f41 src | tar -x -C /tmp/old
    python benchmarks/compare_clock_readers.py \\
        --old /tmp/old/src/chronoeval/suites/lost_in_time/clock_reader.py --seed 5 --n 120
    python benchmarks/compare_clock_readers.py --old ... --images DIR --labels DIR/labels.csv --every 10

Each image is decoded once and read by both readers in turn, the order alternating from image to
image, in one process: both see the same load, so the ratio is the figure to quote on a shared
machine (the absolute ms move with the load). "New" is the reader on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import sys
import time
from pathlib import Path

from PIL import Image


def _load(path: Path) -> object:
    spec = importlib.util.spec_from_file_location("old_clock_reader", path)
    if spec is None or spec.loader is None:
        sys.exit(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_clock_reader"] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def _generated(seed: int, n: int) -> list[Image.Image]:
    """The faces ``bench_clock_reader.py --look realistic --seeds seed --n n`` reads."""
    from bench_clock_reader import _generated as faces

    out = []
    for _groups, (image, *_rest) in faces("realistic", seed, n, 420):
        image.load()
        out.append(image)
    return out


def _directory(images: Path, labels: Path, every: int) -> list[Image.Image]:
    with labels.open(newline="") as fh:
        rows = list(csv.DictReader(fh))[::every]
    out = []
    for row in rows:
        image = Image.open(images / row["file"])
        image.load()
        out.append(image)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--old", type=Path, required=True, help="the other clock_reader.py")
    ap.add_argument("--seed", type=int, default=5, help="generator seed (realistic faces)")
    ap.add_argument("--n", type=int, default=120)
    ap.add_argument("--images", type=Path)
    ap.add_argument("--labels", type=Path)
    ap.add_argument("--every", type=int, default=1, help="take every k-th image of --labels")
    args = ap.parse_args()

    from chronoeval.suites.lost_in_time import clock_reader as new

    old = _load(args.old)
    if args.images and args.labels:
        images = _directory(args.images, args.labels, args.every)
    else:
        images = _generated(args.seed, args.n)
    spent = {"old": 0.0, "new": 0.0}
    differ = 0
    for k, image in enumerate(images):
        order = (("old", old), ("new", new)) if k % 2 == 0 else (("new", new), ("old", old))
        got = {}
        for name, module in order:
            start = time.perf_counter()
            got[name] = module.read_clock(image)  # type: ignore[attr-defined]
            spent[name] += time.perf_counter() - start
        differ += got["old"] != got["new"]
    n = max(len(images), 1)
    print(
        f"{len(images)} faces: old {1000 * spent['old'] / n:.1f} ms, new {1000 * spent['new'] / n:.1f}"
        f" ms per face (ratio {spent['new'] / max(spent['old'], 1e-9):.3f}); readings differ on"
        f" {differ}/{len(images)}"
    )


if __name__ == "__main__":
    main()
