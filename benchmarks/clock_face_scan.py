"""The clock reader's readings face by face, for before/after comparisons of two reader trees.

``scan`` draws exactly the faces of ``bench_clock_reader.py --look realistic --seeds S --n N``
(the same ``random.Random(f"bench-clock:realistic:{S}:{i}")``, size 420, style ``i % 6``), but
renders and reads only the faces of the named distortions (``--dist``), and writes one line per
face: seed, index, style, design, distortion, hand shape, gold time, reading, 1 if hour and minute
are right. ``compare`` reads two such files (the same faces read by two trees) and prints the
totals per distortion, style and seed, the faces gained and lost, and the faces whose exact
reading changed while staying right or wrong. Run each tree with its own ``PYTHONPATH``:

    PYTHONPATH=/tmp/before/src python benchmarks/clock_face_scan.py scan --seeds 0 3 --out b.txt
    PYTHONPATH=src python benchmarks/clock_face_scan.py scan --seeds 0 3 --out a.txt
    python benchmarks/clock_face_scan.py compare b.txt a.txt
    # other distortions: --dist none stretch (default: perspective warp)

Use dev seeds only (see docs/benchmarks.md on held-out seeds). The reader gets each image as
PNG bytes decoded again and nothing else; the CPU time per face goes to stderr.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from collections import Counter
from pathlib import Path

from PIL import Image


def scan(seeds: list[int], n: int, dists: list[str], out: Path) -> None:
    from chronoeval.render.clock import CLOCK_STYLES, render_clock, sample_look, sample_time
    from chronoeval.render.png import encode_png
    from chronoeval.suites.lost_in_time.clock_reader import read_clock

    spent, count = 0.0, 0
    with out.open("w") as fh:
        for s in seeds:
            for i in range(n):
                style = CLOCK_STYLES[i % len(CLOCK_STYLES)]
                rng = random.Random(f"bench-clock:realistic:{s}:{i}")
                face = sample_look("realistic", style, rng, size=420)
                gold = sample_time(style, rng)
                if face.distortion not in dists:
                    continue
                img = Image.open(io.BytesIO(encode_png(render_clock(gold, face))))
                t = time.thread_time()
                got = read_clock(img)
                spent += time.thread_time() - t
                count += 1
                ok = got is not None and (got.hour, got.minute) == (gold.hour, gold.minute)
                fh.write(
                    f"{s} {i} {style} {face.design} {face.distortion} {face.hand_shape} "
                    f"{gold} {got} {int(ok)}\n"
                )
            fh.flush()
    print(f"{count} faces, {1000 * spent / max(count, 1):.1f} ms CPU per face", file=sys.stderr)


def _load(path: Path) -> dict[tuple[str, str], list[str]]:
    rows = {}
    for line in path.read_text().splitlines():
        p = line.split()
        if len(p) == 9:
            rows[(p[0], p[1])] = p
    return rows


def compare(before: Path, after: Path) -> None:
    b, a = _load(before), _load(after)
    keys = [k for k in a if k in b]
    total, nb, na = Counter(), Counter(), Counter()
    for k in keys:
        for g in ("all", b[k][4], "seed" + k[0], b[k][2]):
            total[g] += 1
            nb[g] += int(b[k][8])
            na[g] += int(a[k][8])
    gained = [k for k in keys if b[k][8] == "0" and a[k][8] == "1"]
    lost = [k for k in keys if b[k][8] == "1" and a[k][8] == "0"]
    changed = [k for k in keys if b[k][7] != a[k][7] and b[k][8] == a[k][8]]
    print(
        f"faces {len(keys)} before {nb['all']} after {na['all']} gained {len(gained)} "
        f"lost {len(lost)} changed (same verdict) {len(changed)}"
    )
    for g in sorted(total):
        print(
            f"  {g:16s} {total[g]:6d} {nb[g]:6d} {100 * nb[g] / total[g]:.2f}% -> "
            f"{na[g]:6d} {100 * na[g] / total[g]:.2f}%"
        )
    for tag, ks in (("GAIN", gained), ("LOSS", lost), ("CHG ", changed)):
        for k in ks:
            print(tag, " ".join(a[k][:7]), b[k][7], "->", a[k][7])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("scan", help="read the faces of some distortions, one line per face")
    s.add_argument("--seeds", type=int, nargs="+", required=True)
    s.add_argument("--n", type=int, default=3600)
    s.add_argument("--dist", nargs="+", default=["perspective", "warp"])
    s.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare", help="compare two scans of the same faces")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args()
    if args.cmd == "scan":
        scan(args.seeds, args.n, args.dist, args.out)
    else:
        compare(args.before, args.after)


if __name__ == "__main__":
    main()
