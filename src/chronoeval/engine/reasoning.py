"""Reasoning kept apart from the answer that is parsed.

Reasoning models return their thinking either in a separate message field (``reasoning_content``
from vLLM's and SGLang's reasoning parsers and DeepSeek's API; ``reasoning`` from Ollama and
OpenRouter) or inline, as ``<think>…</think>`` blocks in the content (Qwen3, DeepSeek-R1 served
without a reasoning parser; with R1's chat template the opening ``<think>`` is part of the prompt,
so the reply holds only the closing tag).

The run store keeps one text per response: a separately returned reasoning is stored in the same
inline form, ``<think>{reasoning}</think>{content}``, so nothing the model returned is lost and
old stores need no new column. Scoring calls :func:`split_reasoning` on the stored text: the
reasoning goes to the sample record's ``reasoning`` field and only the rest is parsed. A reply
cut off inside its reasoning (an unclosed ``<think>``) has no answer: it is parsed as NoAnswer,
never as the half-finished thought.
"""

from __future__ import annotations

import re

OPEN, CLOSE = "<think>", "</think>"
_BLOCK = re.compile(r"<think>(.*?)</think>", re.DOTALL | re.IGNORECASE)


def join_reasoning(reasoning: str | None, content: str) -> str:
    """The stored form of a reply whose reasoning came in a separate field."""
    if not reasoning:
        return content
    return f"{OPEN}{reasoning}{CLOSE}{content}"


def split_reasoning(text: str | None) -> tuple[str | None, str]:
    """(reasoning or None, the answer text to parse) of a model's reply."""
    if not text:
        return None, text or ""
    lower = text.lower()
    if OPEN not in lower and CLOSE not in lower:
        return None, text
    parts: list[str] = []
    rest = text
    close_at = rest.lower().find(CLOSE)
    open_at = rest.lower().find(OPEN)
    if close_at != -1 and (open_at == -1 or close_at < open_at):
        # the opening tag was in the prompt (DeepSeek-R1's template): all before it is reasoning
        parts.append(rest[:close_at])
        rest = rest[close_at + len(CLOSE) :]
    parts.extend(m.group(1) for m in _BLOCK.finditer(rest))
    rest = _BLOCK.sub("", rest)
    open_at = rest.lower().find(OPEN)
    if open_at != -1:  # cut off while thinking: the unfinished thought is no answer
        parts.append(rest[open_at + len(OPEN) :])
        rest = rest[:open_at]
    reasoning = "\n\n".join(p.strip() for p in parts if p.strip())
    return reasoning or None, rest.strip()
