"""A small scripted OpenAI-compatible server on 127.0.0.1 (stdlib only) that records every request
body and answers with replies written the way real servers write them (vLLM's reasoning parser
puts the thinking into ``message.reasoning_content``; Qwen3 / DeepSeek-R1 without a parser write
``<think>…</think>`` inline; usage carries ``completion_tokens_details``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def chat_reply(content: str, *, reasoning: str | None = None, field: str = "reasoning_content",
               reasoning_tokens: int = 0) -> dict[str, Any]:  # fmt: skip
    message: dict[str, Any] = {"role": "assistant", "content": content, "tool_calls": []}
    if reasoning is not None:
        message[field] = reasoning
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "served",
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": 120,
            "completion_tokens": 30 + reasoning_tokens,
            "total_tokens": 150 + reasoning_tokens,
            "completion_tokens_details": {"reasoning_tokens": reasoning_tokens},
        },
    }


Replies = list[dict[str, Any]] | Callable[[dict[str, Any]], dict[str, Any]]


class Stub:
    def __init__(self, replies: Replies) -> None:
        self.replies = replies
        self.bodies: list[dict[str, Any]] = []
        self.url = ""


@contextmanager
def openai_stub(replies: Replies) -> Iterator[Stub]:
    """Serve ``replies`` in order (the last one repeats) at ``stub.url`` (…/v1); or, given a
    function, its reply to each request body (a scripted model that reads the conversation)."""
    stub = Stub(replies)
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length))
            with lock:
                stub.bodies.append(body)
                if callable(stub.replies):
                    reply = stub.replies(body)
                else:
                    reply = stub.replies[min(len(stub.bodies), len(stub.replies)) - 1]
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
