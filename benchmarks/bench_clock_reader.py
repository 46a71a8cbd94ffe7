"""Accuracy of the reference clock reader (``read_clock``), per style and per face feature.

Two sources of faces:

    # the project's own generator: n faces per seed, six paper styles round-robin
    python benchmarks/bench_clock_reader.py --look realistic --seeds 0 1 2 --n 600
    python benchmarks/bench_clock_reader.py --look classic --seeds 0 --n 600

    # any directory of clock images with a labels CSV (header: file,time[,group]); time is
    # H:MM or H:MM:SS on a 12-hour dial; group (optional) names the per-group rows
    python benchmarks/bench_clock_reader.py --images DIR --labels DIR/labels.csv

The reader gets each image as PNG bytes decoded again (what a model sees) and nothing else.
"Hour:minute" is the paper's HM-EM (hour and minute equal); "exact" also needs the seconds and is
only counted where the label has seconds. Images are read in one process (the CPU is shared).
"""

from __future__ import annotations

import argparse
import csv
import io
import random
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from PIL import Image


def _generated(look: str, seed: int, n: int, size: int) -> Iterator[tuple[dict[str, str], object]]:
    from chronoeval.render.clock import CLOCK_STYLES, render_clock, sample_look, sample_time
    from chronoeval.render.png import encode_png

    for i in range(n):
        style = CLOCK_STYLES[i % len(CLOCK_STYLES)]
        rng = random.Random(f"bench-clock:{look}:{seed}:{i}")
        face = sample_look(look, style, rng, size=size)
        gold = sample_time(style, rng)
        image = Image.open(io.BytesIO(encode_png(render_clock(gold, face))))
        groups = {"style": style, "design": face.design, "distortion": face.distortion}
        if look == "realistic":
            groups["hand_shape"] = face.hand_shape
            groups["background"] = "same_as_dial" if face.background == face.dial_color else "other"
        yield groups, (image, gold, True, f"{look}:{seed}:{i}")


def _directory(images: Path, labels: Path) -> Iterator[tuple[dict[str, str], object]]:
    from chronoeval.suites.lost_in_time.answers import ClockTime

    with labels.open(newline="") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            text = (row.get("time") or "").strip()
            parts = text.split(":")
            if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
                sys.exit(f"{labels}:{line}: field 'time' must be H:MM or H:MM:SS, got {text!r}")
            h, m, s = (int(p) for p in (*parts, "0")[:3])
            gold = ClockTime(h % 12 or 12, m, s)
            path = images / row["file"]
            try:
                image = Image.open(io.BytesIO(path.read_bytes()))
                image.load()
            except (OSError, ValueError) as exc:
                sys.exit(f"{labels}:{line}: field 'file': cannot read {path}: {exc}")
            yield {"group": row.get("group") or "all"}, (image, gold, len(parts) == 3, row["file"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--look", choices=("realistic", "classic"), default="realistic")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--n", type=int, default=600, help="faces per seed")
    ap.add_argument("--size", type=int, default=420)
    ap.add_argument("--images", type=Path, help="directory of clock images (with --labels)")
    ap.add_argument("--labels", type=Path, help="CSV: file,time[,group]")
    ap.add_argument("--show-misses", type=int, default=0, help="print up to this many misses")
    args = ap.parse_args()

    from chronoeval.suites.lost_in_time.clock_reader import read_clock

    if args.images or args.labels:
        if not (args.images and args.labels):
            sys.exit("--images and --labels go together")
        sources = [("dir", _directory(args.images, args.labels))]
    else:
        sources = [(f"seed {s}", _generated(args.look, s, args.n, args.size)) for s in args.seeds]

    hm: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    exact: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    misses = []
    spent, count = 0.0, 0
    for label, items in sources:
        seed_hm = [0, 0]
        for groups, (image, gold, has_seconds, name) in items:
            start = time.perf_counter()
            got = read_clock(image)
            spent += time.perf_counter() - start
            count += 1
            ok = got is not None and (got.hour, got.minute) == (gold.hour, gold.minute)
            seed_hm[0] += ok
            seed_hm[1] += 1
            keys = [("all", "all"), *groups.items()]
            for key in keys:
                hm[key][0] += ok
                hm[key][1] += 1
                if has_seconds:
                    exact[key][0] += got == gold
                    exact[key][1] += 1
            if not ok:
                misses.append((name, groups, str(gold), str(got)))
        print(
            f"{label}: hour:minute {seed_hm[0]}/{seed_hm[1]} ({100 * seed_hm[0] / seed_hm[1]:.2f}%)"
        )

    print()
    print("| group | value | faces | hour:minute | exact (H:MM:SS) |")
    print("|---|---|---|---|---|")
    for key in sorted(hm, key=lambda k: (k != ("all", "all"), k)):
        right, total = hm[key]
        e_right, e_total = exact[key]
        e = f"{100 * e_right / e_total:.2f}%" if e_total else "-"
        print(f"| {key[0]} | {key[1]} | {total} | {100 * right / total:.2f}% | {e} |")
    print(f"\nread_clock: {1000 * spent / max(count, 1):.1f} ms per image")
    for miss in misses[: args.show_misses]:
        print("miss", *miss)


if __name__ == "__main__":
    main()
