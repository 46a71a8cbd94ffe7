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


def _collections_during(action) -> list[int]:
    """The generations the collector collected while ``action`` ran."""
    seen: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        action()
    finally:
        gc.callbacks.remove(note)
    return seen


def test_the_end_of_a_run_walks_none_of_what_it_left_and_loses_no_garbage() -> None:
    """The run's survivors go to the oldest generation without a collection (the young collection
    at the end was on the path of every run); its cyclic garbage is still collectable."""
    gc.collect()
    kept: list[list[int]] = []

    class Node:
        pass

    def run_like() -> None:
        with gc_policy.relaxed():
            kept.extend([i] for i in range(20_000))  # young, alive
            for _ in range(100):  # cyclic garbage
                a, b = Node(), Node()
                a.other, b.other = b, a
        [[j] for j in range(10)]  # a few allocations after the run (threshold restored)

    assert _collections_during(run_like) == []
    assert gc.get_freeze_count() == 0
    assert gc.collect() >= 200  # the cycles were kept for the next full collection, not lost


def test_objects_someone_else_froze_stay_frozen_and_the_collection_comes_as_before() -> None:
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    try:
        kept: list[list[int]] = []

        def run_like() -> None:
            with gc_policy.relaxed():
                kept.extend([i] for i in range(20_000))
            [[j] for j in range(10)]

        assert _collections_during(run_like) != []
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
