"""The reader's result depends on the pixels only, not on what the process allocated before.

``cv2.warpPolar`` without ``WARP_FILL_OUTLIERS`` leaves the unwrap's samples beyond the image as
whatever memory the output array was given. With a pivot near the image's edge (the crop round it
clipped at 0), the hand unwrap reaches past the image, and the scene read from the same pixels
changed with the heap's contents (3-5 different scenes in 12 looks before the fix). The study's
distorted faces read 148-155 of 600 from run to run, one face 2:13 or 2:15 by the script's text."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from chronoeval.suites.lost_in_time import clock_reader as cr
from chronoeval.suites.lost_in_time.clock_reader import read_clock


def _face(cx: int, cy: int, r: int, size: int = 320) -> np.ndarray:
    """A dial centred near the top-left corner: hour, minute and second hands."""
    im = Image.new("RGB", (size, size), (250, 250, 245))
    d = ImageDraw.Draw(im)
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(255, 255, 255), outline=(20, 20, 20), width=4)
    for deg, length, width in ((40, 0.5, 8), (200, 0.85, 5), (300, 0.95, 2)):
        a = math.radians(deg)
        tip = (cx + length * r * math.sin(a), cy - length * r * math.cos(a))
        d.line([(cx, cy), tip], fill=(0, 0, 0), width=width)
    return np.asarray(im)


def _dirty_heap(nbytes: int, count: int) -> None:
    """Leave freed blocks full of 0xFF where the next arrays of about ``nbytes`` will be put."""
    blocks = [np.full(nbytes + k * 4096, 255, np.uint8) for k in range(count)]
    del blocks


def _scene_key(scene: cr._Scene | None) -> object:
    if scene is None:
        return None
    tracks = [(t.tip, t.radii, t.centres, t.sums, t.peaks) for t in scene.tracks]
    return repr(tracks), scene.hands.tobytes(), scene.ink.tobytes()


def test_the_hand_unwrap_does_not_read_memory_beyond_the_image() -> None:
    rgb = _face(70, 60, 110)
    keys = set()
    for i in range(12):
        _dirty_heap(180 * cr.N_THETA * (i % 3 + 1), 8)
        keys.add(_scene_key(cr._look(rgb, 70.0, 60.0, 110.0)))
    assert len(keys) == 1


def test_readings_do_not_change_with_the_heap() -> None:
    faces = [_face(cx, cy, r) for cx, cy, r in ((70, 60, 110), (250, 80, 120), (160, 160, 158))]
    first = [str(read_clock(Image.fromarray(f))) for f in faces]
    for i in range(4):
        _dirty_heap(200 * cr.N_THETA * (i + 1), 8)
        assert [str(read_clock(Image.fromarray(f))) for f in faces] == first
