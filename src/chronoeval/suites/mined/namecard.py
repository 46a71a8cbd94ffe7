"""Name cards: the subject's name drawn as an image, for running MINED where no entity photographs
exist. A model then reads who the question is about instead of recognising them, so this variant
measures temporal knowledge with recognition removed; items carry ``image_kind: name_card`` and
reports label the run so."""

from __future__ import annotations

import io
import textwrap

from PIL import Image, ImageDraw

from chronoeval.render.fonts import truetype


def name_card_png(name: str, *, variant: int = 0, size: tuple[int, int] = (448, 224)) -> bytes:
    """A deterministic PNG with ``name`` centred; ``variant`` 1 (the paraphrase image) uses other
    colours and a frame, so the two images of a sample differ as the paper's two photos do."""
    bg, fg = ((255, 255, 255), (20, 20, 20)) if variant == 0 else ((30, 40, 80), (250, 240, 200))
    im = Image.new("RGB", size, bg)
    draw = ImageDraw.Draw(im)
    if variant:
        draw.rectangle([6, 6, size[0] - 7, size[1] - 7], outline=fg, width=3)
    lines = textwrap.wrap(name, width=22) or [name]
    font = truetype("DejaVuSans-Bold.ttf", 30 if len(lines) < 3 else 22)
    heights = [draw.textbbox((0, 0), line, font=font)[3] for line in lines]
    y = (size[1] - sum(heights) - 8 * (len(lines) - 1)) / 2
    for line, h in zip(lines, heights, strict=True):
        w = draw.textbbox((0, 0), line, font=font)[2]
        draw.text(((size[0] - w) / 2, y), line, fill=fg, font=font)
        y += h + 8
    buf = io.BytesIO()
    im.save(buf, format="PNG", optimize=False)
    return buf.getvalue()
