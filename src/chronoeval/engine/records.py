"""The rendered prompt of a request as it goes into samples.jsonl / samples.parquet.

Text parts as sent; image parts by their dataset-relative path, sha256 and MIME type (never the
bytes), so the records alone say what was asked and which exact image was shown.
"""

from __future__ import annotations

from typing import Any

from chronoeval.core.items import Message, TextPart


def prompt_record(messages: tuple[Message, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        parts: list[dict[str, Any]] = []
        for p in m.content:
            if isinstance(p, TextPart):
                parts.append({"type": "text", "text": p.text})
            else:
                parts.append({"type": "image", "path": p.path, "sha256": p.sha256, "mime": p.mime})
        out.append({"role": m.role, "content": parts})
    return out


def prompt_text(prompt: list[dict[str, Any]] | None) -> str:
    """A plain-text rendering of :func:`prompt_record` (images as ``[image path sha256:…]``):
    a lone user message as its text, several messages each under ``[role]``."""
    blocks: list[tuple[str, str]] = []
    for m in prompt or []:
        body = []
        for p in m.get("content", []):
            if p.get("type") == "text":
                body.append(str(p.get("text", "")))
            else:
                body.append(f"[image {p.get('path')} sha256:{str(p.get('sha256', ''))[:12]}]")
        blocks.append((str(m.get("role")), "\n".join(body)))
    if len(blocks) == 1 and blocks[0][0] == "user":
        return blocks[0][1]
    return "\n\n".join(f"[{role}]\n{text}" for role, text in blocks)
