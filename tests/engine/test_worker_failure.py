"""A job that cannot be made (an item's image changed after the load: core/deferred_images.py)
stops the whole run: the other workers stop asking at once, every answer already in hand is
committed, and the failure is raised as it was."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from chronoeval.core.errors import DataError
from chronoeval.core.items import TextPart, user_message
from chronoeval.engine.job_list import JobList
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import Job, RetryPolicy, ask_all
from chronoeval.engine.storage import open_store
from chronoeval.models.base import Backend, BackendError, Response


class Slow(Backend):
    """Answers each request after a few milliseconds, noting what it was asked and answered; a
    request still in flight when the backend is closed fails (as an HTTP client's would)."""

    identity = "slow"

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.answered: list[str] = []
        self.closed = False

    async def generate(self, request: Request) -> Response:
        self.asked.append(request.messages[0].text)
        await asyncio.sleep(0.005)
        if self.closed:
            raise BackendError("session closed")
        self.answered.append(request.messages[0].text)
        return Response(text="ok")

    async def aclose(self) -> None:
        self.closed = True
        await asyncio.sleep(0.02)  # closing takes a few turns of the loop (an HTTP client's)


class SlowAhead(Slow):
    """:class:`Slow` that prepares requests ahead (as the openai backend encodes bodies): a
    request is noted as asked only when generate takes it."""

    prepares_ahead = True

    def __init__(self) -> None:
        super().__init__()
        self.prepared: list[str] = []

    def prepare(self, request: Request) -> None:
        self.prepared.append(request.messages[0].text)


def make(i: int) -> Job:
    if i == 20:
        raise DataError("image bytes do not match their sha256", item_id=f"i{i}", field="image 0")
    req = Request((user_message(TextPart(f"q{i}")),), GenerationConfig())
    return Job(req.key("slow"), f"i{i}", "toy", req)


@pytest.mark.parametrize("ahead", [False, True])
@pytest.mark.parametrize("concurrency", [1, 8])
def test_a_job_that_cannot_be_made_stops_the_run_and_keeps_the_answers(
    tmp_path: Path, concurrency: int, ahead: bool
) -> None:
    backend = SlowAhead() if ahead else Slow()
    jobs = JobList(list(range(50)), make)
    with open_store(tmp_path) as store:
        with pytest.raises(DataError, match="i20"):
            ask_all(
                jobs,
                backend,
                store,
                concurrency=concurrency,
                progress=False,
                retry=RetryPolicy(max_retries=0),
            )
        kept = {r.item_id for r in store.all().values() if r.error is None}
        errors = [r for r in store.all().values() if r.error is not None]
    assert all(int(t[1:]) < 20 for t in backend.asked)  # nothing after the bad item was asked
    assert kept == {f"i{t[1:]}" for t in backend.answered}  # every answer in hand committed
    # the requests in flight were dropped (asked again on resume), not failed by the backend's
    # close and stored as errors
    assert not errors
    if concurrency == 1:
        assert kept == {f"i{i}" for i in range(20)}


def test_jobs_prepared_ahead_are_asked_once_each_in_order(tmp_path: Path) -> None:
    """A backend that prepares ahead gets most requests prepared before a worker takes them (while
    the loop waits), every job asked exactly once, in the jobs' order, and all answers stored."""
    backend = SlowAhead()
    jobs = JobList(list(range(21, 81)), make)
    with open_store(tmp_path) as store:
        summary = ask_all(jobs, backend, store, concurrency=4, progress=False)
        assert summary.answered == 60 and len(store.answered_keys()) == 60
    expected = [f"q{i}" for i in range(21, 81)]
    assert backend.asked == expected  # the order of the jobs, each once
    assert len(set(backend.prepared)) == len(backend.prepared)  # each prepared at most once
    assert set(backend.prepared) <= set(expected)
    assert len(backend.prepared) >= 50  # all but the first wave's few, prepared ahead
