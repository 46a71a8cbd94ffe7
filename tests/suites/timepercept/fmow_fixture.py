"""An fMoW-rgb folder in the published layout, for tests (see make_published_fmow)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from PIL import Image

GAPS = (0, 12, 60, 240, 540, 1000)


def fmow_json(category: str | None, ts: datetime, cloud: int, box_id: int) -> dict:
    """Every field the fMoW baseline (code/data_ml_functions/dataFunctions.py) reads, with the
    published types: ISO timestamps with Z, cloud_cover in percent, bounding_boxes a list."""
    box = {"box": [40, 52, 120, 96], "ID": box_id}
    if category is not None:
        box["category"] = category
    angles = {
        f"{k}{s}_dbl": 30.5
        for k in ("target_azimuth", "sun_azimuth", "off_nadir_angle", "sun_elevation")
        for s in ("", "_min", "_max", "_start", "_end")
    }
    res = {
        f"{k}{s}_dbl": 0.52
        for k in ("pan_resolution", "multi_resolution")
        for s in ("", "_min", "_max", "_start", "_end")
    }
    return {
        "gsd": 0.51,
        "img_width": 300,
        "img_height": 280,
        "country_code": "USA",
        "cloud_cover": cloud,
        "timestamp": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "scan_direction": "Forward",
        "utm": "17S",
        "sensor_platform_name": "WORLDVIEW02",
        "approximate_wavelengths": [0.48, 0.545, 0.66],
        "bounding_boxes": [box],
        **angles,
        **res,
    }


def make_published_fmow(root: Path) -> Path:
    t0 = datetime(2013, 3, 1, 15, 40, 12, tzinfo=UTC)
    sites = [
        ("train", "airport_hangar", 101, 6),
        ("train", "airport_terminal", 102, 6),
        ("train", "crop_field", 103, 6),
        ("train", "dam", 104, 6),
        ("val", "lighthouse", 105, 6),
        ("val", "zoo", 106, 6),
    ]
    for split, cat, loc, n in sites:
        d = root / split / cat / f"{cat}_{loc}"
        d.mkdir(parents=True)
        for v in range(n):
            stem = d / f"{cat}_{loc}_{v}_rgb"
            Image.new("RGB", (300, 280), (loc % 256, 20 * v, 80)).save(stem.with_suffix(".jpg"))
            meta = fmow_json(cat, t0 + timedelta(days=GAPS[v] + loc), 0, v)
            stem.with_suffix(".json").write_text(json.dumps(meta))
            # fMoW-full multispectral files beside them are not read
            (d / f"{cat}_{loc}_{v}_msrgb.json").write_text(json.dumps(meta))
    # test/: sequestered labels, test/<id>/<id>_<view>_rgb.*
    d = root / "test" / "0000017"
    d.mkdir(parents=True)
    for v in range(3):
        stem = d / f"0000017_{v}_rgb"
        Image.new("RGB", (300, 280), (9, 9, 9 + v)).save(stem.with_suffix(".jpg"))
        stem.with_suffix(".json").write_text(
            json.dumps(fmow_json(None, t0 + timedelta(days=GAPS[v]), 0, v))
        )
    return root
