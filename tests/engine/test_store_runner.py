from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from chronoeval.core.items import TextPart, user_message
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import Job, RetryPolicy, run_jobs
from chronoeval.engine.store import RunStore
from chronoeval.models.base import Backend, BackendError, Response


class ScriptedBackend(Backend):
    """Fails according to a script of (item_id -> list of errors before success)."""

    identity = "scripted"

    def __init__(self, failures: dict[str, list[BackendError]] | None = None) -> None:
        self.failures = {k: list(v) for k, v in (failures or {}).items()}
        self.calls: list[str] = []

    async def generate(self, request: Request) -> Response:
        item = request.messages[0].text
        self.calls.append(item)
        if self.failures.get(item):
            raise self.failures[item].pop(0)
        return Response(text=f"answer to {item}")


def jobs(n: int) -> list[Job]:
    out = []
    for i in range(n):
        req = Request((user_message(TextPart(f"q{i}")),), GenerationConfig())
        out.append(Job(req.key("scripted"), f"i{i}", "toy", req))
    return out


def test_store_keeps_answers_over_later_errors(tmp_path: Path) -> None:
    with RunStore(tmp_path / "s.sqlite") as store:
        common = dict(
            item_id="a", task="t", backend="b", latency_s=0.1, usage={}, finish_reason=None
        )
        store.put("k", text=None, error="boom", attempts=1, **common)
        assert store.answered_keys() == set()
        store.put("k", text="yes", error=None, attempts=1, **common)
        store.put("k", text=None, error="later failure", attempts=1, **common)
        row = store.all()["k"]
        assert row.text == "yes" and row.error is None and row.attempts == 2
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_resume_asks_only_missing(tmp_path: Path) -> None:
    js = jobs(20)
    with RunStore(tmp_path / "s.sqlite") as store:
        first = ScriptedBackend()
        asyncio.run(run_jobs(js[:8], first, store, progress=False))
        second = ScriptedBackend()
        summary = asyncio.run(run_jobs(js, second, store, progress=False))
    assert summary.cached == 8 and summary.called == 12
    assert sorted(second.calls) == sorted(f"q{i}" for i in range(8, 20))


def test_retries_then_error_is_stored_and_retried_on_resume(tmp_path: Path) -> None:
    js = jobs(3)
    fails = {"q1": [BackendError("503") for _ in range(10)], "q2": [BackendError("500")]}
    policy = RetryPolicy(max_retries=2, base_delay_s=0.001)
    with RunStore(tmp_path / "s.sqlite") as store:
        backend = ScriptedBackend(fails)
        s = asyncio.run(run_jobs(js, backend, store, retry=policy, progress=False))
        assert (s.answered, s.errors) == (2, 1)
        assert backend.calls.count("q1") == 3  # first try + 2 retries
        assert store.all()[js[1].key].error == "503"
        # resume: only the errored one is asked again, and now succeeds
        backend.failures = {}
        s2 = asyncio.run(run_jobs(js, backend, store, retry=policy, progress=False))
        assert (s2.cached, s2.called, s2.answered) == (2, 1, 1)
        assert store.all()[js[1].key].text == "answer to q1"


def test_non_retryable_error_is_not_retried(tmp_path: Path) -> None:
    js = jobs(1)
    backend = ScriptedBackend({"q0": [BackendError("HTTP 400", retryable=False)]})
    with RunStore(tmp_path / "s.sqlite") as store:
        s = asyncio.run(run_jobs(js, backend, store, progress=False))
    assert s.errors == 1 and backend.calls == ["q0"]


def test_retry_after_is_honoured(tmp_path: Path) -> None:
    js = jobs(1)
    backend = ScriptedBackend({"q0": [BackendError("429", retry_after=0.6)]})
    policy = RetryPolicy(max_retries=3, base_delay_s=0.001)
    start = time.perf_counter()
    with RunStore(tmp_path / "s.sqlite") as store:
        s = asyncio.run(run_jobs(js, backend, store, retry=policy, progress=False))
    assert s.answered == 1 and time.perf_counter() - start >= 0.6


@pytest.mark.parametrize("attempt", [0, 3, 10])
def test_backoff_is_bounded(attempt: int) -> None:
    import random

    policy = RetryPolicy(base_delay_s=0.5, max_delay_s=4.0)
    rng = random.Random(1)
    for _ in range(50):
        d = policy.delay(attempt, None, rng)
        assert 0 <= d <= min(4.0, 0.5 * 2**attempt)
    assert policy.delay(0, 7.0, rng) >= 7.0


def test_request_key_covers_what_changes_the_answer() -> None:
    m = (user_message(TextPart("q")),)
    base = Request(m, GenerationConfig()).key("x")
    assert Request(m, GenerationConfig(temperature=0.5)).key("x") != base
    assert Request(m, GenerationConfig()).key("y") != base
    assert Request((user_message(TextPart("q2")),), GenerationConfig()).key("x") != base
    assert Request(m, GenerationConfig(), image_root=Path("/elsewhere")).key("x") == base


class CrashingBackend(Backend):
    identity = "crashing"

    async def generate(self, request: Request) -> Response:
        if request.messages[0].text == "q1":
            raise ZeroDivisionError("bug in a backend")
        return Response(text="ok")


def test_unexpected_backend_exception_is_recorded_not_fatal(tmp_path: Path) -> None:
    js = jobs(3)
    with RunStore(tmp_path / "s.sqlite") as store:
        s = asyncio.run(run_jobs(js, CrashingBackend(), store, progress=False))
        assert (s.answered, s.errors) == (2, 1)
        assert "ZeroDivisionError: bug in a backend" in store.all()[js[1].key].error
