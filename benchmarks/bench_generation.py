"""Image generation speed on one core: sample + render + PNG encode, as the generators do it.

    taskset -c 0 python benchmarks/bench_generation.py [--clocks 1200] [--calendars 120]

Clocks: a fresh face and time per image, all six styles round-robin, 420 px (what `clockqa` build
does). Calendars: a fresh style per image (what `calendarqa` build does, one image per year), and
one style reused across years for comparison.
"""

from __future__ import annotations

import argparse
import os
import random
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clocks", type=int, default=1200)
    ap.add_argument("--calendars", type=int, default=120)
    args = ap.parse_args()
    from chronoeval.render import calendar as cal
    from chronoeval.render import clock
    from chronoeval.render.png import encode_png

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"cores available to this process: {cores}")

    def clocks(n: int, seed: int) -> int:
        total = 0
        for i in range(n):
            style = clock.CLOCK_STYLES[i % len(clock.CLOCK_STYLES)]
            rng = random.Random(f"bench:{seed}:{i}")
            face = clock.sample_face(style, rng)
            total += len(encode_png(clock.render_clock(clock.sample_time(style, rng), face)))
        return total

    clocks(60, 99)  # warm fonts and glyph caches
    start = time.perf_counter()
    size = clocks(args.clocks, 0)
    wall = time.perf_counter() - start
    print(
        f"| clock, 420 px, fresh face per image | {args.clocks} | {wall:.2f} | "
        f"{args.clocks / wall:.0f} | {size / args.clocks / 1024:.0f} KiB |"
    )

    def calendars(n: int, fresh_style: bool) -> tuple[float, int]:
        rng = random.Random(1)
        fixed = cal.sample_calendar_style(random.Random(0))
        total = 0
        start = time.perf_counter()
        for _ in range(n):
            style = cal.sample_calendar_style(rng) if fresh_style else fixed
            total += len(encode_png(cal.render_year_calendar(rng.randint(1600, 2400), style)))
        return time.perf_counter() - start, total

    calendars(5, True)
    for fresh, label in ((True, "fresh style per image"), (False, "one style reused")):
        wall, size = calendars(args.calendars, fresh)
        w, h = cal.calendar_size(cal.sample_calendar_style(random.Random(0)))
        print(
            f"| yearly calendar, {w}×{h}, {label} | {args.calendars} | {wall:.2f} | "
            f"{args.calendars / wall:.0f} | {size / args.calendars / 1024:.0f} KiB |"
        )


if __name__ == "__main__":
    main()
