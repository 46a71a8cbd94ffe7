"""The paper's grayscale transform (Seeing Time, Algorithm 1, Eq. 1–2).

ITU-R BT.601 luma ``Y = 0.299 R + 0.587 G + 0.114 B`` (what ``cv2.cvtColor(..., COLOR_BGR2GRAY)``
computes), rounded to the nearest integer, then copied back into three channels
(``COLOR_GRAY2BGR``) so the result is still an RGB image. OpenCV evaluates the same weights in
14-bit fixed point; the tests check we agree with it to within one grey level.
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

LUMA = (0.299, 0.587, 0.114)


def luma(rgb: np.ndarray) -> np.ndarray:
    """uint8 H×W luma of an H×W×3 uint8 RGB array (Eq. 1, rounded half up)."""
    arr = rgb.astype(np.float64)
    y = arr[..., 0] * LUMA[0] + arr[..., 1] * LUMA[1] + arr[..., 2] * LUMA[2]
    return np.clip(np.floor(y + 0.5), 0, 255).astype(np.uint8)


def to_gray3(rgb: np.ndarray) -> np.ndarray:
    """Eq. 2: ``[Y, Y, Y]`` per pixel, H×W×3 uint8."""
    y = luma(rgb)
    return np.repeat(y[..., None], 3, axis=2)


def gray_png(data: bytes) -> bytes:
    """Any image file's bytes -> the 3-channel grayscale PNG of it."""
    with Image.open(io.BytesIO(data)) as im:
        rgb = np.asarray(im.convert("RGB"))
    out = io.BytesIO()
    Image.fromarray(to_gray3(rgb), "RGB").save(out, format="PNG")
    return out.getvalue()


def is_gray(rgb: np.ndarray) -> bool:
    """True when every pixel has R == G == B."""
    return bool((rgb[..., 0] == rgb[..., 1]).all() and (rgb[..., 1] == rgb[..., 2]).all())
