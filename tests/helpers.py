"""Test helpers importable from any test module (tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import base64
import io
import json
import math
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from chronoeval.core.dataset import BuiltItem, Dataset, image_part, write_dataset
from chronoeval.core.items import Item, TextPart, user_message


def tiny_clock_png(seed: int) -> bytes:
    """A small distinct PNG per item (pixels are irrelevant to the engine tests)."""
    im = Image.new("RGB", (32, 32), (255, 255, 255))
    ImageDraw.Draw(im).rectangle([0, 0, seed % 32, (seed * 7) % 32], fill=(seed % 256, 0, 0))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def make_clock_dataset(root: Path, n: int = 12) -> Dataset:
    def items() -> Iterator[BuiltItem]:
        for i in range(n):
            part, rel, data = image_part(f"c{i}.png", tiny_clock_png(i))
            gold = f"{i % 12 + 1}:{(i * 7) % 60:02d}:{(i * 13) % 60:02d}"
            msg = user_message(
                part, TextPart("What time is shown on the clock in the given image?")
            )
            yield BuiltItem(
                Item(
                    f"c{i:03d}",
                    "lost_in_time",
                    "clockqa",
                    (msg,),
                    gold,
                    metadata={"style": "basic" if i % 2 else "roman"},
                ),
                {rel: data},
            )

    return write_dataset(
        root,
        items(),
        suite="lost_in_time",
        task="clockqa",
        generator_version="test",
        params={"n": n},
        seed=None,
        source="test",
    )


def chronoeval(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: int = 600
) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it: a fresh ``python -m chronoeval`` process, output captured and
    not wrapped (wide COLUMNS), so one-line messages stay one line."""
    return subprocess.run(
        [sys.executable, "-m", "chronoeval", *args],
        cwd=cwd,
        timeout=timeout,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "500", **(env or {})},
    )


def bar_hand(
    d: Any,
    c: float,
    angle: float,
    length: float,
    width: float,
    fill: tuple[int, int, int],
    beside: float = 0.0,
    tail: float = 0.06,
) -> None:
    """A clock hand drawn with PIL (``d`` an ``ImageDraw``): a bar from a short tail behind the
    pivot ``(c, c)`` (``tail`` of ``length``) to ``length``, ``angle`` degrees clockwise from 12,
    its axis ``beside`` pixels to the side of the pivot (0: through it). For clock faces the
    project's renderer did not draw."""
    a = math.radians(angle)
    ux, uy = math.sin(a), -math.cos(a)  # along the hand
    px, py = -uy, ux  # across
    ox, oy = c + beside * px, c + beside * py
    back = tail * length
    pts = [
        (ox - back * ux + s * width / 2 * px, oy - back * uy + s * width / 2 * py) for s in (-1, 1)
    ]
    pts += [
        (ox + length * ux + s * width / 2 * px, oy + length * uy + s * width / 2 * py)
        for s in (1, -1)
    ]
    d.polygon(pts, fill=fill)


def supersampled_face(
    size: int, background: tuple[int, int, int], radius: float, face: tuple[int, int, int]
) -> tuple[Any, Any, float, float]:
    """A canvas 3x ``size`` (drawn large, then resized down to ``size`` by the caller) with a
    round face of ``radius`` (a fraction of the canvas) filled with ``face``: ``(image, draw,
    centre, face radius in pixels)``."""
    s = size * 3
    img = Image.new("RGB", (s, s), background)
    d = ImageDraw.Draw(img)
    c = s / 2
    r = radius * s
    d.ellipse((c - r, c - r, c + r, c + r), fill=face)
    return img, d, c, r


def tilted(
    img: Image.Image, tilt: tuple[float, float], border: tuple[int, int, int]
) -> Image.Image:
    """The picture seen at a slant (a homography written here, not the project's distortion):
    x' = x / (1 + tx x + ty y), y' likewise, in coordinates centred on the canvas and scaled to
    its half-width, then re-centred so that the whole dial stays in the frame (the outline's
    centre moves away from the dial centre's image); the uncovered corners are ``border``."""
    import cv2
    import numpy as np

    rgb = np.asarray(img)
    n = rgb.shape[0]
    h = n / 2.0
    to_unit = np.array([[1 / h, 0, -1], [0, 1 / h, -1], [0, 0, 1]])
    proj = np.array([[1, 0, 0], [0, 1, 0], [tilt[0], tilt[1], 1]])
    m = np.linalg.inv(to_unit) @ proj @ to_unit
    corners = np.array([[0, 0, 1], [n, 0, 1], [0, n, 1], [n, n, 1]], float).T
    seen = m @ corners
    seen = seen[:2] / seen[2]
    shift = np.array([[1, 0, n / 2 - seen[0].mean()], [0, 1, n / 2 - seen[1].mean()], [0, 0, 1]])
    out = cv2.warpPerspective(rgb, shift @ m, (n, n), flags=cv2.INTER_LINEAR, borderValue=border)
    return Image.fromarray(out)


REPLY_CORPUS = Path(__file__).resolve().parent / "reply_corpus"
MINED_PEERS = Path("/work/shared/peers/mined")


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def real_reply_texts() -> list[str]:
    """Text nobody here generated, for parser shortcuts to be checked against their full paths:
    every reply of tests/reply_corpus, and every string of MINED's released data (questions and
    answers written by its authors, read in place; left out where the peers are absent)."""
    import json

    texts = []
    for path in sorted(REPLY_CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                texts.append(json.loads(line)["reply"])
    assert len(texts) > 100
    for path in sorted(MINED_PEERS.glob("Dimension*.json")) if MINED_PEERS.is_dir() else []:
        texts += _strings(json.loads(path.read_text(encoding="utf-8")))
    return texts


def age_file(path: Path, seconds: int = 10) -> None:
    """Move a file's mtime forward: a rewrite the verify-once and parsed-items stamps must notice
    (its size unchanged, its times past the "racily clean" window)."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 1_000_000_000))


def data_url(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


def clock_parts(url: str, detail: str | None = None) -> list[dict[str, object]]:
    """A chat-completions user content: the ClockQA question and one image."""
    image: dict[str, object] = {"url": url}
    if detail:
        image["detail"] = detail
    return [
        {"type": "text", "text": "What time does the clock show?"},
        {"type": "image_url", "image_url": image},
    ]


def post_json(url: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST a JSON body with urllib (a client nobody can accuse of our client's habits):
    (HTTP status, the JSON reply), error statuses included."""
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def plain_chat_answer(base: str, url: str, **settings: object) -> str:
    """The answer ``chronoeval serve`` at ``base`` gives a bare urllib chat-completions body
    asking about the image ``url`` (temperature 0, max_tokens 64 unless ``settings`` say)."""
    body = {
        "model": "random",
        "messages": [{"role": "user", "content": clock_parts(url)}],
        "temperature": 0,
        "max_tokens": 64,
        **settings,
    }
    status, reply = post_json(base + "/chat/completions", body)
    assert status == 200, reply
    return str(reply["choices"][0]["message"]["content"])


def store_row(key: str, **over: object) -> tuple[str, dict[str, Any]]:
    """``(key, fields)`` of one answered request as ``RunStore.put_many`` takes it (item ``i``,
    task ``t``, backend ``b``, text ``yes``), with ``over`` replacing fields."""
    fields: dict[str, Any] = {
        "item_id": "i",
        "task": "t",
        "backend": "b",
        "text": "yes",
        "error": None,
        "latency_s": 0.1,
        "usage": {"prompt_tokens": 3},
        "finish_reason": "stop",
        "attempts": 1,
        "turns": None,
    }
    fields.update(over)
    return key, fields


def png_bytes(size: tuple[int, int] = (16, 16), mode: str = "RGB") -> bytes:
    """A blank PNG of ``size`` in ``mode`` (PIL)."""
    buf = io.BytesIO()
    Image.new(mode, size).save(buf, format="PNG")
    return buf.getvalue()


def write_test_dataset(root: Path, built: list[BuiltItem]) -> Dataset:
    """A clockqa dataset directory of ``built`` items, with a test manifest."""
    return write_dataset(
        root,
        built,
        suite="lost_in_time",
        task="clockqa",
        generator_version="t",
        params={},
        seed=None,
        source="test",
    )


def record_image_checks(monkeypatch: Any) -> list[str]:
    """Record each full per-image check of a chronoeval dataset (its image's path, in order);
    files count as settled at once (``verified.RACY_NS`` = 0), and the verify-once stamp is on.
    The core tests' ``checks`` and the suite tests' ``image_checks`` fixtures."""
    from chronoeval.core import dataset as dataset_mod
    from chronoeval.core import verified

    monkeypatch.setattr(verified, "RACY_NS", 0)
    monkeypatch.delenv("CHRONOEVAL_VERIFY_ALWAYS", raising=False)
    seen: list[str] = []
    real = dataset_mod._check_image

    def counting(root, part, *args):  # type: ignore[no-untyped-def]
        seen.append(part.path)
        return real(root, part, *args)

    monkeypatch.setattr(dataset_mod, "_check_image", counting)
    return seen


def minute_ticks(
    d: Any,
    c: float,
    r: float,
    colour: tuple[int, int, int],
    inner: tuple[float, float] = (0.88, 0.93),
) -> None:
    """Sixty ticks drawn with PIL's ``ImageDraw`` ``d`` on a dial of centre ``(c, c)`` and radius
    ``r``: from ``inner[0]`` r (every fifth, 0.02 r wide) or ``inner[1]`` r (0.008 r wide) out to
    0.97 r."""
    for k in range(60):
        a = math.radians(6 * k)
        ux, uy = math.sin(a), -math.cos(a)
        start = inner[0] if k % 5 == 0 else inner[1]
        width = int((0.02 if k % 5 == 0 else 0.008) * r)
        d.line(
            [(c + start * r * ux, c + start * r * uy), (c + 0.97 * r * ux, c + 0.97 * r * uy)],
            fill=colour,
            width=width,
        )


def hour_ticks(
    d: Any,
    c: float,
    r: float,
    fill: tuple[int, int, int],
    span: tuple[float, float],
    width: float = 0.02,
) -> None:
    """Twelve radial ticks drawn with PIL's ``ImageDraw`` ``d`` on a dial of centre ``(c, c)`` and
    radius ``r``, one per hour, from ``span[0]`` r out to ``span[1]`` r, ``width`` r wide."""
    for k in range(12):
        a = math.radians(30 * k)
        ux, uy = math.sin(a), -math.cos(a)
        d.line(
            (
                c + span[0] * r * ux,
                c + span[0] * r * uy,
                c + span[1] * r * ux,
                c + span[1] * r * uy,
            ),
            fill,
            round(width * r),
        )


def polar_remap(img: Any, source: Any, border: tuple[int, int, int]) -> Image.Image:
    """A square RGB face (numpy array) bent about its centre: each point seen at angle ``a``
    (radians, clockwise from 12) and radius ``rho`` shows the flat face's point
    ``source(a, rho)`` -> ``(angle, radius)`` (float32 arrays; OpenCV's remap, bilinear, the
    outside ``border``)."""
    import cv2
    import numpy as np

    size = img.shape[0]
    c = (size - 1) / 2.0
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    dx, dy = xs - c, ys - c
    src_a, src_rho = source(np.arctan2(dx, -dy), np.hypot(dx, dy))
    map_x = (c + src_rho * np.sin(src_a)).astype(np.float32)
    map_y = (c - src_rho * np.cos(src_a)).astype(np.float32)
    out = cv2.remap(img, map_x, map_y, cv2.INTER_LINEAR, borderValue=border)
    return Image.fromarray(out, "RGB")


def run_clockqa_over_http(ds_root: Path, run_dir: Path, url: str, retry: Any, **kw: Any) -> Any:
    """``api.run`` of ClockQA through the OpenAI backend against ``url`` (a real `serve`), one
    request at a time, with the retry policy ``retry``, no progress and no plots."""
    from chronoeval import api
    from chronoeval.models.registry import BackendOptions

    return api.run(
        ["clockqa"],
        "openai:constant:10:10:00",
        data=ds_root,
        run_dir=run_dir,
        backend_options=BackendOptions(base_url=url, timeout_s=30),
        concurrency=1,
        retry=retry,
        progress=False,
        plots=False,
        **kw,
    )
