"""Reference agents for Lost in Time. They see the rendered messages (text and pixels) only.

- clocks: classical computer vision on the image (:mod:`.clock_reader`);
- calendars: the year read off the image title with an offline OCR engine, the asked day read from
  the question text, the weekday computed (:mod:`.calendar_reader`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image

from chronoeval.core.items import ImagePart, Message

UNREADABLE = "I cannot read the answer from this image."

WARM: dict[str, tuple[str, ...]] = {
    "clock_agent": ("chronoeval.suites.lost_in_time.clock_reader",),
    "calendar_agent": ("chronoeval.suites.lost_in_time.calendar_reader", "rapidocr_onnxruntime"),
}
"""Modules each agent imports on its first call; a worker process imports them ahead
(models/agent_pool.py ``warm``), while the datasets are being prepared."""


def _first_image(messages: Sequence[Message], read: Callable[[str], bytes]) -> Image.Image | None:
    for m in messages:
        for p in m.content:
            if isinstance(p, ImagePart):
                return Image.open(io.BytesIO(read(p.path))).convert("RGB")
    return None


def _question(messages: Sequence[Message]) -> str:
    return "\n".join(m.text for m in messages if m.role == "user")


def clock_agent(messages: Sequence[Message], read: Callable[[str], bytes]) -> str:
    from chronoeval.suites.lost_in_time.clock_reader import read_clock

    image = _first_image(messages, read)
    reading = read_clock(image) if image is not None else None
    return f"The time shown is {reading}." if reading is not None else UNREADABLE


def calendar_agent(messages: Sequence[Message], read: Callable[[str], bytes]) -> str:
    from chronoeval.suites.lost_in_time.calendar_reader import answer_calendar

    image = _first_image(messages, read)
    weekday = answer_calendar(image, _question(messages)) if image is not None else None
    return f"Answer: {weekday}" if weekday else UNREADABLE
