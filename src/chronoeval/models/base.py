"""The backend protocol: one async ``generate(request) -> Response`` per way of running a model.

Backends never know about suites. A failed call raises :class:`BackendError` (retryable or not);
the runner retries, and records the final error, which is retried again on resume.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chronoeval.engine.request import Request


@dataclass
class Response:
    text: str
    latency_s: float = 0.0
    usage: dict[str, int] = field(default_factory=dict)
    finish_reason: str | None = None


class BackendError(Exception):
    """A failed model call. ``retryable``: 429, 5xx, timeouts, connection errors, bad bodies."""

    def __init__(self, message: str, *, retryable: bool = True, retry_after: float | None = None):
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after


class Backend:
    identity: str = "backend"
    """Goes into every request key: what model answered (not where it was served from)."""

    max_concurrency: int | None = None

    async def generate(self, request: Request) -> Response:
        raise NotImplementedError

    async def aclose(self) -> None:
        return None

    def describe(self) -> dict[str, Any]:
        return {"identity": self.identity}
