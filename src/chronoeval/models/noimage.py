"""``noimage:<spec>``: any backend, asked the same prompt with every image removed.

The language-prior baseline for image tasks: the score a model reaches from the question text
alone. Compared with the same model on the same items with images, it shows how much of a score
the pixels earn (e.g. TimePerceptBench's recognition options or a dating question's wording can
carry the answer without any image).

What changes: every :class:`~chronoeval.core.items.ImagePart` is dropped from every message; text
parts (including the "Image 1:" labels, which are part of the prompt) stay verbatim and in order.
Nothing else is added: no note that an image is missing, so the model sees exactly the prompt
minus its pixels. A message left with no content keeps one empty text part (chat APIs reject an
empty content list). The wrapped backend's identity becomes ``noimage(<identity>)``, so its
requests never share a cache key with the model's runs with images.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from chronoeval.core.errors import ChronoevalError
from chronoeval.core.items import ImagePart, Item, Message, TextPart
from chronoeval.core.task import Task
from chronoeval.engine.request import Request
from chronoeval.models.base import Backend, Response
from chronoeval.models.registry import BackendOptions, make_backend, register_backend


def without_images(messages: tuple[Message, ...]) -> tuple[Message, ...]:
    """The messages with every image part removed (text kept verbatim, in order)."""
    out = []
    for m in messages:
        parts = tuple(p for p in m.content if not isinstance(p, ImagePart))
        out.append(Message(m.role, parts or (TextPart(""),)))
    return tuple(out)


def count_images(messages: tuple[Message, ...]) -> int:
    return sum(isinstance(p, ImagePart) for m in messages for p in m.content)


class NoImageBackend(Backend):
    """Forwards each request to ``inner`` without its images."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.identity = f"noimage({inner.identity})"
        self.max_concurrency = inner.max_concurrency
        self.network_bound = getattr(inner, "network_bound", False)  # its loop (event_loop.py)

    async def generate(self, request: Request) -> Response:
        stripped = dataclasses.replace(request, messages=without_images(request.messages))
        return await self.inner.generate(stripped)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def describe(self) -> dict[str, Any]:
        return {"identity": self.identity, "wraps": self.inner.describe(), "images": "removed"}


@register_backend("noimage")
def _noimage(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    if not arg:
        raise ChronoevalError(
            "name the backend to ask without images: --model noimage:<spec>, "
            "e.g. noimage:openai:<model> or noimage:random"
        )
    if arg.split(":", 1)[0] == "noimage":
        raise ChronoevalError("noimage:noimage:... is the same as noimage:...")
    return NoImageBackend(make_backend(arg, task, items, opts))
