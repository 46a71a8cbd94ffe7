"""Reading an OpenAI-compatible chat-completions reply's message as servers write it: ``content``
as a string or as a list of parts, and the reasoning beside the answer. Shared by the openai
backend (models/openai.py) and SPAN's tool-calling agent (suites/span/timeagent.py); no HTTP here.
"""

from __future__ import annotations

from typing import Any


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
