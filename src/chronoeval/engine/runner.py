"""The async runner: asks a backend for every request not yet answered in the store.

A fixed pool of ``concurrency`` workers pulls jobs in order (memory stays flat for any item count:
image bytes are read when a request is sent, or up to ``AHEAD`` jobs before for a backend that
prepares ahead, and dropped once it returns). A failed call is retried
with exponential backoff and full jitter, waiting at least as long as a server's Retry-After says;
after ``max_retries`` retries the error is stored (never scored as wrong) and asked again on resume.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from chronoeval.engine import event_loop
from chronoeval.engine.progress import PlainProgress
from chronoeval.engine.request import Request
from chronoeval.engine.store import RunStore, StoredResponse
from chronoeval.models.base import Backend, BackendError

GROUP_COMMIT = 256
"""The most answers committed in one transaction (engine/store.py ``put_many``)."""

AHEAD = 4
"""The most jobs taken ahead and prepared (``Backend.prepare``) while the loop waits, for a
backend that ``prepares_ahead``."""


@dataclass(frozen=True, init=False)
class Job:
    key: str
    item_id: str
    task: str
    request: Request

    def __init__(self, key: str, item_id: str, task: str, request: Request) -> None:
        # one per item: the instance's dict written directly, at half the cost of the generated
        # frozen __init__ (object.__setattr__ per field); frozen as before once made
        fields = self.__dict__
        fields["key"] = key
        fields["item_id"] = item_id
        fields["task"] = task
        fields["request"] = request


@dataclass
class RetryPolicy:
    max_retries: int = 5
    base_delay_s: float = 0.5
    max_delay_s: float = 30.0
    max_retry_after_s: float = 120.0

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        backoff = rng.uniform(0, min(self.max_delay_s, self.base_delay_s * 2**attempt))
        if retry_after is not None:
            return max(min(retry_after, self.max_retry_after_s), backoff)
        return backoff


@dataclass
class RunSummary:
    total: int = 0
    cached: int = 0
    called: int = 0
    answered: int = 0
    errors: int = 0
    retries: int = 0
    wall_s: float = 0.0
    error_messages: list[str] = field(default_factory=list)


async def run_jobs(
    jobs: Sequence[Job],
    backend: Backend,
    store: RunStore,
    *,
    concurrency: int = 16,
    retry: RetryPolicy | None = None,
    progress: bool = True,
    description: str = "",
    on_result: Callable[[Job, bool], None] | None = None,
    progress_every: float | None = None,
    on_stored: Callable[[Job, StoredResponse], None] | None = None,
) -> RunSummary:
    """Ask ``backend`` for every job not answered in ``store``. ``progress``: a live bar (for a
    terminal); ``progress_every``: instead, a plain line every that many seconds
    (:mod:`chronoeval.engine.progress`, for logs). ``on_stored``: called with each outcome once
    it is committed, as it was offered to the store (redacted), e.g. to score while asking."""
    retry = retry or RetryPolicy()
    done = store.answered_keys()
    # nothing stored yet: every job, read as workers take them (a JobList makes each then)
    todo = [j for j in jobs if j.key not in done] if done else jobs
    checkpoints = getattr(store, "checkpoints", None)
    apart = getattr(backend, "network_bound", False)  # its workers start apart (below)
    if checkpoints is not None and todo and apart:
        checkpoints.begin_log()  # the log's first write and syncs off this loop (wal_checkpoint.py)
    summary = RunSummary(total=len(jobs), cached=len(jobs) - len(todo))
    if backend.max_concurrency:
        concurrency = min(concurrency, backend.max_concurrency)
    concurrency = max(1, min(concurrency, len(todo) or 1))
    rng = random.Random(0)
    start = time.perf_counter()
    queue_iter = iter(todo)

    bar = _progress(progress and progress_every is None)
    bar_task = bar.add_task(
        description or backend.identity, total=len(jobs), completed=summary.cached
    )
    plain = (
        PlainProgress(
            description or backend.identity, len(jobs), summary.cached, interval_s=progress_every
        )
        if progress_every is not None
        else None
    )

    # Group commit: the answers that arrive in one turn of the event loop are committed together
    # (one SQLite transaction instead of one per answer) by a callback in the loop's next turn, so
    # a worker sends its next request before its answer is committed and scored: the commit is
    # off the slot's path from one reply to its next request. At most GROUP_COMMIT answers wait;
    # whatever waits is committed on the way out. A commit that fails stops the run (below).
    pending: list[tuple[str, dict[str, Any]]] = []
    pending_jobs: list[Job] = []
    loop = asyncio.get_running_loop()
    turn: asyncio.Handle | None = None  # the commit of this turn's answers, once scheduled
    failure: BaseException | None = None  # a scheduled commit's failure, raised by the run
    workers: list[asyncio.Future[None]] = []

    def commit() -> None:
        if not pending:
            return
        batch, batch_jobs = pending[:], pending_jobs[:]
        pending.clear()
        pending_jobs.clear()
        written = store.put_many(batch)
        if on_stored is not None:
            for job, resp in zip(batch_jobs, written, strict=True):
                on_stored(job, resp)

    def commit_turn() -> None:
        """The scheduled commit. It runs as a loop callback, so its failure would only be logged
        by the loop: it is kept and the workers are stopped, and the run raises it."""
        nonlocal turn, failure
        turn = None
        try:
            commit()
        except Exception as exc:  # KeyboardInterrupt / SystemExit leave the loop as they are
            if failure is None:
                failure = exc
            for w in workers:
                w.cancel()

    def stored(job: Job, **fields: Any) -> None:
        """Offer an outcome to the group commit: committed at once when the group is full, else
        by the commit scheduled for the next turn of the loop (scheduled by the turn's first)."""
        nonlocal turn
        pending.append((job.key, fields))
        pending_jobs.append(job)
        if len(pending) >= GROUP_COMMIT:
            commit()
        elif turn is None:
            turn = loop.call_soon(commit_turn)

    async def one(job: Job) -> None:
        attempt = 0
        while True:
            try:
                resp = await backend.generate(job.request)
            except Exception as raw:  # noqa: BLE001 - any failure is recorded, never fatal
                exc = (
                    raw
                    if isinstance(raw, BackendError)
                    else BackendError(f"{type(raw).__name__}: {raw}", retryable=False)
                )
                if exc.retryable and attempt < retry.max_retries:
                    summary.retries += 1
                    await asyncio.sleep(retry.delay(attempt, exc.retry_after, rng))
                    attempt += 1
                    continue
                stored(
                    job,
                    item_id=job.item_id,
                    task=job.task,
                    backend=backend.identity,
                    text=None,
                    error=str(exc),
                    latency_s=None,
                    usage=None,
                    finish_reason=None,
                    attempts=attempt + 1,
                    turns=getattr(exc, "turns", None),
                )
                summary.errors += 1
                if len(summary.error_messages) < 5:
                    summary.error_messages.append(f"{job.item_id}: {exc}")
                ok = False
            else:
                stored(
                    job,
                    item_id=job.item_id,
                    task=job.task,
                    backend=backend.identity,
                    text=resp.text,
                    error=None,
                    latency_s=resp.latency_s,
                    usage=resp.usage,
                    finish_reason=resp.finish_reason,
                    attempts=attempt + 1,
                    turns=resp.turns or None,
                )
                summary.answered += 1
                ok = True
            summary.called += 1
            if not bar.disable:  # a hidden bar still costs a lock and a timestamp per answer
                bar.advance(bar_task)
            if plain is not None:
                plain.advance(ok)
            if on_result is not None:
                on_result(job, ok)
            return

    # Jobs taken ahead: for a backend that prepares ahead (the openai backend encodes a body), the
    # next jobs are taken from the shared iterator, in order, and prepared by a loop callback
    # scheduled when a worker takes one (it runs after that worker's request went out), so a
    # worker whose reply arrives sends the next prepared job at once. Any worker takes them, in
    # order, before the iterator's next. A job that cannot be made (core/deferred_images.py) is
    # raised by the worker that takes its place, as it would have been there.
    prepare = backend.prepare if getattr(backend, "prepares_ahead", False) else None
    ahead: deque[Job] = deque()
    ahead_error: BaseException | None = None  # making a job taken ahead failed
    preparing: asyncio.Handle | None = None

    def prepare_next() -> None:
        nonlocal preparing, ahead_error
        preparing = None
        if ahead_error is not None or len(ahead) >= AHEAD or prepare is None:
            return
        try:
            job = next(queue_iter, None)
        except Exception as exc:  # noqa: BLE001 - raised by the worker that takes its place
            ahead_error = exc
            return
        if job is None:
            return
        prepare(job.request)
        ahead.append(job)
        if len(ahead) < AHEAD:  # one job per turn of the loop: replies are read in between
            preparing = loop.call_soon(prepare_next)

    def take() -> Job | None:
        nonlocal preparing
        if ahead:
            job = ahead.popleft()
        elif ahead_error is not None:
            raise ahead_error
        else:
            job = next(queue_iter, None)  # shared iterator: each job taken exactly once
        if prepare is not None and preparing is None and job is not None:
            preparing = loop.call_soon(prepare_next)
        return job

    async def worker() -> None:
        while (job := take()) is not None:
            await one(job)

    with bar:
        try:
            # a network-bound backend's workers start one loop turn apart: each first request
            # goes out (connection, send) while the next ones are being made, instead of all
            # being made before any is sent (~25 ms at 64, every later wave as late). Workers of
            # a backend that batches what is queued start together: apart, its first batch would
            # hold one request
            for i in range(concurrency):
                workers.append(asyncio.ensure_future(worker()))
                if apart and i + 1 < concurrency:
                    await asyncio.sleep(0)
                    if failure is not None:  # a scheduled commit failed meanwhile
                        break
            await asyncio.gather(*workers)
        except BaseException as exc:
            # one worker failed (e.g. an item's image changed: core/deferred_images.py), or a
            # scheduled commit did and cancelled them: the others stop asking now; an answer
            # already in hand is committed below, a request in flight is dropped (asked again on
            # resume)
            for w in workers:
                w.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            if failure is not None and isinstance(exc, asyncio.CancelledError):
                raise failure from None
            raise
        finally:
            for handle in (turn, preparing):
                if handle is not None:
                    handle.cancel()
            turn = preparing = None
            commit()  # nothing that was answered is left uncommitted, whatever happened
        if failure is not None:  # the last turn's commit failed after every worker had ended
            raise failure
    if plain is not None:
        plain.close()
    summary.wall_s = time.perf_counter() - start
    return summary


def _progress(enabled: bool) -> Progress:
    return Progress(
        TextColumn("{task.description}", markup=False),  # a model spec is literal text
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        disable=not enabled,
        transient=False,
    )


class _RateColumn(ProgressColumn):
    """Samples per second."""

    def render(self, task) -> Text:  # type: ignore[no-untyped-def]
        speed = task.finished_speed or task.speed
        return Text("   ?/s" if speed is None else f"{speed:6.1f}/s", style="progress.data.speed")


def ask_all(jobs: Sequence[Job], backend: Backend, store: RunStore, **options: Any) -> RunSummary:
    """:func:`run_jobs` from synchronous code (one event loop), the backend closed afterwards
    whatever happened: the one way ``run``, the answer extractor and pipelines ask a backend."""

    async def ask() -> RunSummary:
        try:
            return await run_jobs(jobs, backend, store, **options)
        finally:
            await backend.aclose()

    # uvloop where installed, for a backend that declares its asking network-bound (the openai
    # backend: engine/event_loop.py); asyncio's loop for everything else, as before
    return event_loop.run(ask(), fast=getattr(backend, "network_bound", False))
