"""Reading an OpenAI-compatible chat-completions reply's message as servers write it: ``content``
as a string or as a list of parts, the reasoning beside the answer, and an error sent in a 200. Shared by the openai
backend (models/openai.py) and SPAN's tool-calling agent (suites/span/timeagent.py); no HTTP here.
"""

from __future__ import annotations

from typing import Any

from chronoeval.core.redact import redact_text
from chronoeval.models.base import BackendError

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
"""HTTP statuses a request is tried again after (the same request may succeed later)."""


def content_parts(content: list[Any]) -> list[tuple[str, str]]:
    """``("text" | "thinking", text)`` for each part of a list ``content`` that holds text: a
    string, ``{"type": "text", "text": ...}`` (or a ``text`` with no type), and ``{"type":
    "thinking", "thinking": ...}`` whose ``thinking`` is a string or a list of such text parts
    (Mistral's ThinkChunk). Other parts (references, images, unknown types) hold no text here."""
    out: list[tuple[str, str]] = []
    for part in content:
        if isinstance(part, str):
            out.append(("text", part))
        elif not isinstance(part, dict):
            continue
        elif part.get("type", "text") == "text" and isinstance(part.get("text"), str):
            out.append(("text", part["text"]))
        elif part.get("type") == "thinking":
            inner = part.get("thinking")
            if isinstance(inner, str):
                out.append(("thinking", inner))
            elif isinstance(inner, list):
                out += [("thinking", t) for _, t in content_parts(inner)]
    return out


def content_text(content: Any) -> Any:
    """A message's ``content`` as its answer: a list of parts gives its text parts joined (None
    where it has none: like a null content); anything else is returned as it is."""
    if not isinstance(content, list):
        return content
    texts = [t for kind, t in content_parts(content) if kind == "text"]
    return "".join(texts) if texts else None


def reply_reasoning(message: dict[str, Any]) -> str | None:
    """The reasoning a reply's message carries beside its answer: vLLM's and DeepSeek's
    ``reasoning_content``, ``reasoning`` (newer vLLM, OpenRouter), or thinking parts of a list
    ``content`` (Mistral); None where there is none."""
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if isinstance(reasoning, str) and reasoning:
        return reasoning
    content = message.get("content")
    if isinstance(content, list):
        thinking = "".join(t for kind, t in content_parts(content) if kind == "thinking")
        return thinking or None
    return None


def raise_reply_error(data: Any, url: str, *, turns: list[dict[str, Any]] | None = None) -> None:
    """Raise a :class:`BackendError` for a 200 reply that carries an error instead of an answer:
    a top-level ``error`` with no choices, or a first choice with ``finish_reason: "error"`` or
    an ``error`` of its own (OpenRouter commits the 200 before the upstream provider runs and puts
    a later failure there: ``{"code": 502, "message": ...}``). A failed call, never a reply to
    score: without this, such a choice with an empty content was scored as NoAnswer. Retryable
    unless its numeric ``code`` is an HTTP status outside :data:`RETRYABLE_STATUS`. ``url`` is named
    redacted; the provider's message is cut to 200 characters. ``turns``: a multi-turn agent's
    turns so far, kept with the error."""
    if not isinstance(data, dict):
        return
    choices = data.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    if first is None:
        error = data.get("error")
    elif isinstance(first, dict) and (first.get("finish_reason") == "error" or first.get("error")):
        error = first.get("error") or "finish_reason: error"
    else:
        return
    if not error:
        return
    code = error.get("code") if isinstance(error, dict) else None
    message = error.get("message", error) if isinstance(error, dict) else error
    http = isinstance(code, int) and not isinstance(code, bool) and 100 <= code <= 599
    raise BackendError(
        redact_text(
            f"error in a 200 reply from {url}: "
            + (f"{code}: " if code is not None else "")
            + str(message)[:200]
        ),
        retryable=code in RETRYABLE_STATUS if http else True,
        turns=turns,
    )
