"""Helpers for the MINED tests: the released data's path, placeholder images, tiny sample files."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from PIL import Image

PEERS = Path("/work/shared/peers/mined")


def placeholder_png(seed: int) -> bytes:
    im = Image.new("RGB", (16, 16), (seed * 37 % 256, seed * 91 % 256, 128))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def placeholder_images(root: Path, files: list[str]) -> Path:
    """A small distinct PNG for every image the named released files reference."""
    names: set[str] = set()
    for f in files:
        for x in json.loads((PEERS / f).read_text()):
            names |= {x["image"], x["paraphrase_image"]}
    for i, name in enumerate(sorted(names)):
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(placeholder_png(i))
    return root


def sample(**over: Any) -> dict[str, Any]:
    s = {
        "id": 1,
        "type": "company",
        "eval_type": "timestamp",
        "subject": "Apple",
        "hypernym": "company",
        "property": "the CEO of",
        "questions": "Who was the CEO of Apple in 1979?",
        "paraphrase_completion": "In 1979, the CEO of Apple was",
        "mm_questions": "Who was the CEO of the company in the image in 1979?",
        "mm_paraphrase_completion": "In 1979, the CEO of the company in the image was",
        "image": "Apple/Apple_4.jpg",
        "paraphrase_image": "Apple/Apple_3.jpg",
        "answers": [
            "Michael Scott |S: +1977-00-00T00:00:00Z |E: +1981-00-00T00:00:00Z",
            "Tim Cook |S: +2011-00-00T00:00:00Z",
        ],
        "current_answer": "Michael Scott",
    }
    s.update(over)
    return s


def write_sample_file(tmp: Path, subtask: str, drop: str | None = None, **over: Any) -> Path:
    s = sample(**over)
    if drop:
        s.pop(drop)
    path = tmp / f"Dimension1_{subtask}.json"
    path.write_text(json.dumps([s]))
    return path
