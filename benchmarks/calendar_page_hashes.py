"""SHA-256 of the calendar pages as delivered (PNG bytes) and of their decoded pixels, to compare
two checkouts' output on the same style and year draws.

    PYTHONPATH=<checkout>/src python benchmarks/calendar_page_hashes.py [--pages 400] [--seed 2121]

Every page has a fresh style (``sample_calendar_style``); a third start the week on Monday; half
the years come from 1..9999, half from 1600..2400. Pixels are hashed for every fourth page,
decoded with Pillow and converted to RGB. Equal hashes on two checkouts mean byte-identical pages.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import random


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2121)
    args = ap.parse_args()
    import numpy as np
    from PIL import Image

    from chronoeval.render import calendar as cal

    rng = random.Random(args.seed)
    png_hash, pixel_hash = hashlib.sha256(), hashlib.sha256()
    for i in range(args.pages):
        style = cal.sample_calendar_style(rng, week_start="monday" if i % 3 == 0 else "sunday")
        year = rng.randint(1, 9999) if i % 2 else rng.randint(1600, 2400)
        png = cal.render_year_calendar_png(year, style)
        png_hash.update(png)
        if i % 4 == 0:
            rgb = Image.open(io.BytesIO(png)).convert("RGB")
            pixel_hash.update(np.asarray(rgb).tobytes())
    print(f"{args.pages} pages, seed {args.seed}")
    print("png bytes", png_hash.hexdigest())
    print("pixels", pixel_hash.hexdigest())


if __name__ == "__main__":
    main()
