"""The collector is relaxed during a run and given back exactly as it was, whatever happens."""

from __future__ import annotations

import gc
import threading

import pytest

from chronoeval import api
from chronoeval.engine import gc_policy


def test_relaxed_inside_restored_after() -> None:
    before = gc.get_threshold()
    with gc_policy.relaxed():
        assert gc.get_threshold()[0] >= gc_policy.FIRST_GENERATION_THRESHOLD
        assert gc.get_threshold()[1:] == before[1:]
        assert gc.get_freeze_count() == 0  # nothing frozen (see the module's docstring)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_restored_after_an_error() -> None:
    before = gc.get_threshold()

    @gc_policy.relaxing
    def fails() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        fails()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_nested_and_threads_share_one_relaxation() -> None:
    before = gc.get_threshold()
    inner_done = threading.Event()
    seen: list[int] = []

    def other() -> None:
        with gc_policy.relaxed():
            seen.append(gc.get_threshold()[0])
        inner_done.set()

    with gc_policy.relaxed():
        t = threading.Thread(target=other)
        t.start()
        inner_done.wait(10)
        t.join()
        # the other thread's run ended first: this one is still relaxed
        assert gc.get_threshold()[0] >= gc_policy.FIRST_GENERATION_THRESHOLD
    assert seen and seen[0] >= gc_policy.FIRST_GENERATION_THRESHOLD
    assert gc.get_threshold() == before


def test_env_default_leaves_the_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(gc_policy.ENV, "default")
    before = gc.get_threshold()
    with gc_policy.relaxed():
        assert gc.get_threshold() == before
        assert gc.get_freeze_count() == 0


def test_api_run_is_relaxed_and_keeps_its_signature(tmp_path, monkeypatch) -> None:
    import inspect

    assert "concurrency" in inspect.signature(api.run).parameters
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path / "cache"))
    seen: list[int] = []
    real = api.score_records

    def spy(*args, **kwargs):  # the threshold while the run scores
        seen.append(gc.get_threshold()[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "score_records", spy)
    before = gc.get_threshold()
    res = api.run(
        ["clockqa"],
        "constant:10:10:00",
        n=4,
        seed=0,
        run_dir=tmp_path / "r",
        progress=False,
        plots=False,
    )
    assert res.results["tasks"]["clockqa"]["counts"]["answered"] == 4
    assert seen == [max(before[0], gc_policy.FIRST_GENERATION_THRESHOLD)]
    assert gc.get_threshold() == before
