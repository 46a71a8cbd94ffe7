"""The calendar reader's year OCR on pages as a model gets them (PNG bytes decoded), for fresh styles.

    python benchmarks/calendar_year_reading.py [--pages 200] [--seed 21]

Half the years are drawn from 1600..2400 (the CalendarQA default), half from 1..9999; each page
has a new style and week start. Runs on older checkouts too (it falls back to
``encode_png(render_year_calendar(...))``), so before and after can be compared on the same draws.
"""

from __future__ import annotations

import argparse
import io
import random
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=200)
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args()
    from PIL import Image

    from chronoeval.render import calendar as cal
    from chronoeval.render.png import encode_png
    from chronoeval.suites.lost_in_time.calendar_reader import read_year

    render_png = getattr(cal, "render_year_calendar_png", None)
    rng = random.Random(args.seed)
    correct, wrong = 0, []
    start = time.perf_counter()
    for i in range(args.pages):
        style = cal.sample_calendar_style(rng, week_start=rng.choice(("sunday", "monday")))
        year = rng.randint(1, 9999) if i % 2 else rng.randint(1600, 2400)
        if render_png is not None:
            png = render_png(year, style)
        else:
            png = encode_png(cal.render_year_calendar(year, style))
        got = read_year(Image.open(io.BytesIO(png)))
        correct += got == year
        if got != year:
            wrong.append((year, got, style.bold_font, style.title_format))
    per_page = (time.perf_counter() - start) / args.pages * 1000
    print(f"{correct}/{args.pages} years read ({per_page:.0f} ms per page); wrong: {wrong}")


if __name__ == "__main__":
    main()
