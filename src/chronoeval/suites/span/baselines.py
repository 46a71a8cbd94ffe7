"""TimeAgent comparison baselines (SPAN paper §5 compares TimeAgent with prompting alone):

- ``timeagent:cot:<inner spec>``: one call to the inner model with a chain-of-thought system
  prompt (reason about the calendars step by step, then answer in the required format) and no
  tools, no code. Same question text as every other SPAN run, so its accuracy pairs item by item
  with the plain model and with ``timeagent:code`` / ``timeagent:tools``.

Not here: code mode *without* the calendar API (the model writes Python with only the standard
library). It needs the sandbox to run code without the calendar functions predefined, and
``suites/span/sandbox.py`` is being rewritten (issue 15); see docs/suites/span.md.
"""

from __future__ import annotations

import time
from typing import Any

from chronoeval.core.items import Message, TextPart
from chronoeval.engine.request import Request
from chronoeval.models.base import Backend, Response

COT_VERSION = 1
"""Part of the backend identity (so of every request key): bump it when the prompt changes."""

COT_SYSTEM = """You answer questions that convert dates between calendars (Gregorian, Chinese,
Hebrew, Islamic, Persian, Shaka). Think step by step: identify the source calendar and date, work
out the corresponding date in the target calendar (month lengths, leap years, festival dates),
check your arithmetic, and then give the final answer in the format the question asks."""


class CotBaseline(Backend):
    """The inner model once, with :data:`COT_SYSTEM` before the question; usage passed through."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.identity = f"timeagent-cot-v{COT_VERSION}/{inner.identity}"

    def describe(self) -> dict[str, Any]:
        return {"identity": self.identity, "inner": self.inner.describe()}

    async def generate(self, request: Request) -> Response:
        start = time.perf_counter()
        messages = (Message("system", (TextPart(COT_SYSTEM),)), *request.messages)
        resp = await self.inner.generate(Request(messages, request.config))
        return Response(
            text=resp.text,
            latency_s=time.perf_counter() - start,
            usage=dict(resp.usage),
            turns=[{"role": "assistant", "content": resp.text}],
        )

    async def aclose(self) -> None:
        await self.inner.aclose()
