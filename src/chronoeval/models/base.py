"""The backend protocol: one async ``generate(request) -> Response`` per way of running a model.

Backends never know about suites. A failed call raises :class:`BackendError` (retryable or not);
the runner retries, and records the final error, which is retried again on resume.
"""

from __future__ import annotations

import asyncio
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

    idle_while_asking: bool = True
    """Whether this process mostly waits while the backend answers (a server, worker processes, a
    device): a run then makes each record's sample texts as its answer arrives
    (engine/scoring_memo.py), in time it would spend waiting. False where the answers are
    computed in this process, whose CPU the run would only move, not save."""

    prepares_ahead: bool = False
    """Whether :meth:`prepare` does work worth doing before a request's turn (the runner then
    prepares the next jobs' requests while its loop waits: engine/runner.py)."""

    def prepare(self, request: Request) -> None:
        """Do now what :meth:`generate` would do for ``request`` before sending it (e.g. encode
        its body), so that ``generate(request)`` sends at once. A failure here is kept and raised
        by ``generate(request)``, as if it had happened there. Default: nothing."""
        return None

    async def generate(self, request: Request) -> Response:
        raise NotImplementedError

    async def aclose(self) -> None:
        return None

    def describe(self) -> dict[str, Any]:
        return {"identity": self.identity}


Pending = list[tuple[Request, "asyncio.Future[Response]"]]


def same_config_batch(pending: Pending, batch_size: int) -> tuple[Pending, Pending]:
    """Up to ``batch_size`` requests sharing the first one's generation config, and the rest (a
    batch-answering backend generates one config per call)."""
    config = pending[0][0].config
    batch: Pending = []
    rest: Pending = []
    for entry in pending:
        if entry[0].config == config and len(batch) < batch_size:
            batch.append(entry)
        else:
            rest.append(entry)
    return batch, rest


class BatchingBackend(Backend):
    """A backend that answers requests in batches (a model in process, a Ray Dataset window).

    The runner's workers call :meth:`generate` one request at a time; each call parks a future in
    a queue, and one drainer task takes batches off it (:meth:`_take`), skips requests whose caller
    has gone, and hands the rest to :meth:`_run_batch`, which must settle every future it gets.
    """

    gather_delay_s: float = 0.0
    """How long the drainer yields before taking a batch, so other workers can enqueue theirs."""

    def __init__(self) -> None:
        self._pending: Pending = []
        self._drainer: asyncio.Task[None] | None = None

    async def generate(self, request: Request) -> Response:
        fut: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        self._pending.append((request, fut))
        if self._drainer is None or self._drainer.done():
            self._drainer = asyncio.create_task(self._drain())
        return await fut

    def _take(self, pending: Pending) -> tuple[Pending, Pending]:
        """(the next batch, what stays queued); default: everything queued."""
        return pending, []

    async def _run_batch(self, batch: Pending) -> None:
        raise NotImplementedError

    async def _drain(self) -> None:
        while self._pending:
            await asyncio.sleep(self.gather_delay_s)
            batch, self._pending = self._take(self._pending)
            live = [(r, f) for r, f in batch if not f.done()]
            if live:
                await self._run_batch(live)

    async def aclose(self) -> None:
        if self._drainer is not None and not self._drainer.done():
            self._drainer.cancel()
        for _, fut in self._pending:
            if not fut.done():
                fut.cancel()
        self._pending = []
