"""Reference agents for TimePerceptBench: they read only the prompt and the pixels.

Per image they measure the **developed area** (pixels whose colour is not vegetation or bare soil:
roofs, asphalt, concrete, panels), over the pixels that are bright (possible cloud or white roof)
in none of the images compared, so clouds do not count as development. Development only grows, so:

- order tasks sort images by developed area (TAL: the image whose removal leaves the rest sorted,
  or — when one image's vegetation/layout pattern correlates poorly with the others — the image
  from another location);
- interval tasks use the **changed area** of a pair (pixels developed in one image and not the
  other) as a clock: more change, longer span; ICE maps it to categories by fixed thresholds
  (chosen from the train split's pixel statistics, see docs/suites/timepercept.md).

The recognition control classifies the scene from colour statistics (blue panels, a runway strip,
red roofs, beige roofs) and answers the option whose text names that category.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence

import numpy as np
from PIL import Image

from chronoeval.core.items import ImagePart, Message
from chronoeval.core.task import Agent

ICE_THRESHOLDS = (0.009, 0.02, 0.065, 0.14)
"""Changed-area fractions separating A|B|C|D|E (midpoints between the medians of adjacent categories on the train split, seed 0)."""


def _images(messages: Sequence[Message], read: Callable[[str], bytes]) -> list[np.ndarray]:
    out = []
    for m in messages:
        for p in m.content:
            if isinstance(p, ImagePart):
                with Image.open(io.BytesIO(read(p.path))) as im:
                    out.append(np.asarray(im.convert("RGB"), dtype=np.int16))
    return out


def built_mask(img: np.ndarray) -> np.ndarray:
    """Pixels that are not vegetation or soil: vegetation is green-or-olive (G − B > 25 and
    G − R > −30), whatever the season."""
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    return ~((g - b > 25) & (g - r > -30))


def bright_mask(img: np.ndarray) -> np.ndarray:
    return img.min(axis=-1) >= 200


def developed(imgs: Sequence[np.ndarray]) -> list[float]:
    """Developed-area fraction of each image, over pixels bright in none of them."""
    keep = ~np.any([bright_mask(i) for i in imgs], axis=0)
    n = max(1, int(keep.sum()))
    return [float((built_mask(i) & keep).sum()) / n for i in imgs]


def changed(a: np.ndarray, b: np.ndarray) -> float:
    keep = ~(bright_mask(a) | bright_mask(b))
    n = max(1, int(keep.sum()))
    return float(((built_mask(a) ^ built_mask(b)) & keep).sum()) / n


def _pattern(img: np.ndarray) -> np.ndarray:
    x = (img[..., 1] - img[..., 2]).astype(float)
    x = x[::4, ::4]
    return (x - x.mean()) / (x.std() + 1e-6)


def _inversions(values: Sequence[float]) -> int:
    return sum(
        1 for i in range(len(values)) for j in range(i + 1, len(values)) if values[i] > values[j]
    )


def anomaly_index(imgs: Sequence[np.ndarray]) -> int:
    pats = [_pattern(i) for i in imgs]
    k = len(imgs)
    corr = np.array([[float((pats[i] * pats[j]).mean()) for j in range(k)] for i in range(k)])
    mean_corr = (corr.sum(1) - 1) / (k - 1)
    order = np.argsort(mean_corr)
    if mean_corr[order[0]] < 0.5 * mean_corr[order[1]]:
        return int(order[0])
    dev = developed(imgs)
    costs = []
    for i in range(k):
        rest = dev[:i] + dev[i + 1 :]
        expected = np.interp(i, [j for j in range(k) if j != i], rest)
        costs.append((_inversions(rest), -abs(dev[i] - expected)))
    return int(min(range(k), key=lambda i: costs[i]))


def ice_letter(change: float) -> str:
    for letter, t in zip("ABCD", ICE_THRESHOLDS, strict=True):
        if change < t:
            return letter
    return "E"


def _pairs(imgs: Sequence[np.ndarray]) -> list[float]:
    return [changed(imgs[j], imgs[j + 1]) for j in range(0, len(imgs), 2)]


CATEGORY_WORDS = {
    "solar_farm": "solar farm",
    "airport": "airport",
    "residential": "residential",
    "shopping_mall": "shopping mall",
    "factory_or_powerplant": "factory or powerplant",
}


def scene_category(img: np.ndarray) -> str:
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    if ((b - r > 30) & (b - g > 25)).mean() > 0.02:
        return "solar_farm"
    dark = (img.max(-1) < 95) & (abs(r - b) < 15)
    if _longest_run(dark.mean(axis=1) > 0.7) >= 12:  # a runway is wider than any road
        return "airport"
    if ((r - g > 50) & (r > 100)).mean() > 0.005:
        return "residential"
    if ((r - b > 12) & (r - b < 40) & (g - b > 5) & (img.min(-1) > 160)).mean() > 0.01:
        return "shopping_mall"
    return "factory_or_powerplant"


def _longest_run(flags: np.ndarray) -> int:
    best = cur = 0
    for f in flags:
        cur = cur + 1 if f else 0
        best = max(best, cur)
    return best


def _answer_option(text: str, category: str) -> str:
    words = CATEGORY_WORDS[category]
    for m in re.finditer(r"\b([A-E])\. ([^.?]+?)(?= [A-E]\. | Answer|$)", text):
        if m.group(2).strip().lower() == words:
            return m.group(1)
    return "A"


def make_agent(key: str) -> Agent:
    def agent(messages: Sequence[Message], read: Callable[[str], bytes]) -> str:
        imgs = _images(messages, read)
        if key == "recognition":
            text = "\n".join(m.text for m in messages)
            return f"Answer: {_answer_option(text, scene_category(imgs[0]))}"
        if key == "tal":
            return f"Image {anomaly_index(imgs) + 1}"
        if key in ("isr", "sov", "pov", "tpl"):
            dev = developed(imgs)
            if key == "isr":
                return ", ".join(str(j + 1) for j in sorted(range(len(dev)), key=dev.__getitem__))
            if key == "sov":
                return str(all(a <= b for a, b in zip(dev, dev[1:], strict=False)))
            if key == "pov":
                return str(dev[0] <= dev[1])
            return "2" if dev[3] < dev[1] else "4"
        spans = _pairs(imgs)
        if key == "ice":
            return f"Answer: {ice_letter(spans[0])}"
        if key == "pic":
            return str(spans[0] > spans[1])
        if key == "ipr":
            return ", ".join(chr(65 + j) for j in sorted(range(3), key=spans.__getitem__))
        if key == "eii":
            return f"Group {chr(65 + int(np.argmax(spans)))}"
        raise ValueError(f"no reference agent for {key!r}")

    return agent
