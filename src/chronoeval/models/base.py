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
    turns: list[dict[str, Any]] = field(default_factory=list)
    """For multi-turn agents (e.g. a tool-using agent): every turn, in order, as JSON-able dicts.
    Stored with the response and written into the sample record."""


class BackendError(Exception):
    """A failed model call. ``retryable``: 429, 5xx, timeouts, connection errors, bad bodies."""

    def __init__(
        self,
        message: str,
        *,
        retryable: bool = True,
        retry_after: float | None = None,
        turns: list[dict[str, Any]] | None = None,
    ):
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after
        self.turns = turns
        """The turns a multi-turn agent completed before failing (stored with the error)."""


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
