"""OpenAI's Responses API (``POST /v1/responses``) on ``chronoeval serve``, as a translation.

Clients nobody here wrote speak it by default: Inspect's ``openai/`` provider sends every request
there, and the OpenAI SDK's ``client.responses.create`` does. A Responses body is translated into
the chat-completions body the server already answers (``chat_body``), and the chat completion back
into a ``response`` object (``response_body``), so both routes give the same answer to the same
prompt and settings.

What is translated: ``input`` as a string or a list of message items (roles ``user``, ``system``,
``developer`` (read as ``system``) and ``assistant``; content a string or parts ``input_text``,
``output_text`` and ``input_image`` with a data URL), ``instructions`` (a system message first),
``max_output_tokens``, ``temperature``. Settings with no effect on these backends (``store``,
``include``, ``reasoning``, ``truncation``, ``metadata``, ``top_p``, ...) are accepted and ignored,
as the chat route ignores its own. What is refused, with one line naming the field: tools and
function-call items (tool calling is served on ``/v1/chat/completions``), ``stream``, a
``previous_response_id`` (nothing is stored), image ``file_id``s and non-data image URLs.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

_ROLES = {"user": "user", "system": "system", "developer": "system", "assistant": "assistant"}
_TEXT_PARTS = ("input_text", "output_text", "text")


class ResponsesError(ValueError):
    """A Responses body this server cannot translate; the message names the field."""


def _content(content: Any, where: str) -> str | list[dict[str, Any]]:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise ResponsesError(f"{where}.content must be a string or a list of parts")
    parts: list[dict[str, Any]] = []
    for j, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in _TEXT_PARTS:
            parts.append({"type": "text", "text": str(part.get("text", ""))})
        elif kind == "input_image":
            url = part.get("image_url")
            if not isinstance(url, str) or not url.startswith("data:"):
                raise ResponsesError(
                    f"{where}.content[{j}].image_url must be a data URL "
                    "(file ids and remote URLs are not fetched)"
                )
            parts.append({"type": "image_url", "image_url": {"url": url}})
        else:
            raise ResponsesError(f"{where}.content[{j}]: unsupported part type {kind!r}")
    return parts


def chat_body(body: Any) -> dict[str, Any]:
    """The chat-completions body that asks what a Responses ``body`` asks."""
    if not isinstance(body, dict):
        raise ResponsesError("body must be a JSON object")
    for field in ("tools", "previous_response_id"):
        if body.get(field):
            what = "tool calling" if field == "tools" else "stored responses"
            raise ResponsesError(
                f"{field}: {what} over /v1/responses is not served; use /v1/chat/completions"
            )
    if body.get("stream"):
        raise ResponsesError("stream: streaming is not served; send stream=false")
    messages: list[dict[str, Any]] = []
    instructions = body.get("instructions")
    if instructions:
        if not isinstance(instructions, str):
            raise ResponsesError("instructions must be a string")
        messages.append({"role": "system", "content": instructions})
    items = body.get("input")
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    if not isinstance(items, list) or not items:
        raise ResponsesError("input must be a string or a non-empty list of message items")
    for i, item in enumerate(items):
        where = f"input[{i}]"
        if not isinstance(item, dict) or item.get("type", "message") != "message":
            kind = item.get("type") if isinstance(item, dict) else type(item).__name__
            raise ResponsesError(f"{where}: item type {kind!r} is not served (messages only)")
        role = _ROLES.get(str(item.get("role")))
        if role is None:
            raise ResponsesError(f"{where}.role must be user, system, developer or assistant")
        messages.append({"role": role, "content": _content(item.get("content"), where)})
    out: dict[str, Any] = {"model": body.get("model", ""), "messages": messages}
    if body.get("max_output_tokens") is not None:
        out["max_tokens"] = body["max_output_tokens"]
    if body.get("temperature") is not None:
        out["temperature"] = body["temperature"]
    return out


def response_body(completion: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    """A ``response`` object carrying a chat completion's answer (``completion`` as the chat
    route wrote it; ``request`` the Responses body, echoed where the API echoes it)."""
    choice = completion["choices"][0]
    text = choice["message"]["content"]
    usage = completion.get("usage") or {}
    cut = choice.get("finish_reason") == "length"
    return {
        "id": f"resp_{uuid.uuid4().hex[:24]}",
        "object": "response",
        "created_at": int(time.time()),
        "status": "incomplete" if cut else "completed",
        "incomplete_details": {"reason": "max_output_tokens"} if cut else None,
        "error": None,
        "model": completion.get("model", request.get("model", "")),
        "instructions": request.get("instructions"),
        "max_output_tokens": request.get("max_output_tokens"),
        "temperature": request.get("temperature"),
        "top_p": request.get("top_p"),
        "metadata": request.get("metadata") or {},
        "parallel_tool_calls": False,
        "tool_choice": "none",
        "tools": [],
        "output": [
            {
                "type": "message",
                "id": f"msg_{uuid.uuid4().hex[:24]}",
                "status": "incomplete" if cut else "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        ],
        "usage": {
            "input_tokens": int(usage.get("prompt_tokens", 0)),
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": int(usage.get("completion_tokens", 0)),
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": int(usage.get("total_tokens", 0)),
        },
    }
