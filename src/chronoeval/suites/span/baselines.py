"""TimeAgent comparison baselines (SPAN paper §5 compares TimeAgent with prompting alone):

- ``timeagent:cot:<inner spec>``: one call to the inner model with a chain-of-thought system
  prompt (reason about the calendars step by step, then answer in the required format) and no
  tools, no code. Same question text as every other SPAN run, so its accuracy pairs item by item
  with the plain model and with ``timeagent:code`` / ``timeagent:tools``.

- ``timeagent:code-nocal:<inner spec>``: TimeAgent's code mode (same loop, rounds, sandbox and
  limits as ``timeagent:code``) but the code runs WITHOUT the calendar API: nothing predefined,
  only the standard-library modules of :data:`~chronoeval.suites.span.sandbox.STDLIB_MODULES`
  importable, site-packages and chronoeval's source off the path (and, with bubblewrap, not
  mounted / hidden), and the prompt says so. It isolates what the calendar functions add over
  "the model can run code".
"""

from __future__ import annotations

import time
from typing import Any

from chronoeval.core.items import Message, TextPart
from chronoeval.engine.request import Request
from chronoeval.models.base import Backend, Response
from chronoeval.suites.span.sandbox import STDLIB_MODULES
from chronoeval.suites.span.timeagent import CodeTimeAgent

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


NOCAL_VERSION = 1
"""Part of the ``code-nocal`` identity (so of every request key): bump it when its prompt or
sandbox contract changes."""

NOCAL_SYSTEM = f"""You answer questions that convert dates between calendars (Gregorian, Chinese,
Hebrew, Islamic, Persian, Shaka) by writing Python. Reply with one ```python code block that prints
what you need. It runs in a sandbox with NO calendar library; only these standard-library modules
can be imported:
{", ".join(STDLIB_MODULES)}
(`datetime` and `calendar` know only the Gregorian calendar: other calendars you must compute
yourself). Nothing else is installed and no calendar functions are predefined.
You then see the printed output and give the final answer in the format the question asks."""


class NoCalendarCodeBaseline(CodeTimeAgent):
    """TimeAgent's code loop with :data:`NOCAL_SYSTEM` and the sandbox's standard-library-only
    mode (``run_code(..., calendar_api=False)``); every code turn records its isolation layers,
    ``no-calendar-api`` among them."""

    system = NOCAL_SYSTEM
    calendar_api = False
    label, version = "code-nocal", NOCAL_VERSION
