"""zlib settings and the "Up" row filter on the rows a calendar page actually gives zlib.

    PYTHONPATH=src taskset -c 0 python benchmarks/calendar_zlib_settings.py [--pages 100]

The rows that differ from the row above (what ``encode_indexed_rows`` compresses; repeated rows
are hand-built back-references) are collected from fresh-style pages, then each setting
compresses every page's runs with a full flush after each run, as the writer does. Best of 5, CPU
time, per page; the size is the compressed runs only.
"""

from __future__ import annotations

import argparse
import random
import time
import zlib

import numpy as np


def runs(rows: np.ndarray, row_len: int, up: bool) -> list[bytes]:
    h = rows.shape[0]
    words = rows.view(np.uint64)
    repeat = np.zeros(h + 2, np.int8)
    repeat[2 : h + 1] = (words[1:] == words[:-1]).all(axis=1)
    edges = np.diff(repeat)
    starts, ends = np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist()
    src = rows
    if up:  # filter type 2 on every row but the first: each byte minus the byte above
        src = rows.copy()
        src[1:, 1:row_len] -= rows[:-1, 1:row_len]
        src[1:, 0] = 2
    out, start = [], 0
    for first, end in zip((*starts, h), (*ends, h), strict=True):
        if first > start:
            out.append(src[start:first, :row_len].tobytes())
        start = end
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=100)
    args = ap.parse_args()
    from chronoeval.render import calendar as cal

    rng = random.Random(3)
    pages = []
    for _ in range(args.pages):
        style = cal.sample_calendar_style(rng)
        pages.append((cal._page_rows(rng.randint(1600, 2400), style).copy(), style.width + 1))
    settings = [  # (label, level, wbits, memLevel, strategy, up filter)
        ("level 1, memLevel 5 (the writer's)", 1, -15, 5, zlib.Z_DEFAULT_STRATEGY, False),
        ("level 1, memLevel 8", 1, -15, 8, zlib.Z_DEFAULT_STRATEGY, False),
        ("level 1, memLevel 9", 1, -15, 9, zlib.Z_DEFAULT_STRATEGY, False),
        ("level 1, windowBits 13", 1, -13, 8, zlib.Z_DEFAULT_STRATEGY, False),
        ("level 1, windowBits 11", 1, -11, 8, zlib.Z_DEFAULT_STRATEGY, False),
        ("Z_RLE", 1, -15, 9, zlib.Z_RLE, False),
        ("Z_FIXED", 1, -15, 5, zlib.Z_FIXED, False),
        ("level 2", 2, -15, 5, zlib.Z_DEFAULT_STRATEGY, False),
        ("level 1, memLevel 5, Up filter", 1, -15, 5, zlib.Z_DEFAULT_STRATEGY, True),
    ]
    data = {up: [runs(r, n, up) for r, n in pages] for up in (False, True)}
    best = {s[0]: float("inf") for s in settings}
    size = {}
    for _ in range(5):
        for label, level, wbits, mem, strategy, up in settings:
            total, start = 0, time.process_time()
            for page in data[up]:
                comp = zlib.compressobj(level, zlib.DEFLATED, wbits, mem, strategy)
                for run in page:
                    total += len(comp.compress(run)) + len(comp.flush(zlib.Z_FULL_FLUSH))
            best[label] = min(best[label], time.process_time() - start)
            size[label] = total
    print(f"zlib {zlib.ZLIB_RUNTIME_VERSION}; {args.pages} pages")
    print("| setting | ms per page | KiB per page |")
    print("|---|---|---|")
    for label, *_ in settings:
        n = len(pages)
        print(f"| {label} | {best[label] / n * 1e3:.2f} | {size[label] / n / 1024:.1f} |")


if __name__ == "__main__":
    main()
