"""Reference agents in worker processes (models/agent_pool.py) give the very records the agents
give in threads; figures drawn in a worker are the bytes drawn here; the vectorised and memoised
paper-table statistics are the same numbers."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from chronoeval import api
from chronoeval.core.items import ImagePart, Message, TextPart
from chronoeval.engine.request import Request
from chronoeval.models import agent_pool
from chronoeval.models.local import FunctionBackend, PoolBackend, reference_backend
from chronoeval.report import memo
from chronoeval.report.figures import write_run_figures

TASKS = ["clockqa", "calendarqa"]


@pytest.fixture(autouse=True)
def _fork_safe() -> None:
    """Workers are forked; a test process that already loaded torch (another test module imports
    it, as in the whole suite) cannot fork safely, and start() keeps agents in threads there
    (tested below on its own). These tests then run in a fresh process instead:
    tests/models/test_agent_pool_isolated.py."""
    if agent_pool._fork_unsafe():
        pytest.skip("torch loaded in this process: run in a fresh one (test_agent_pool_isolated)")


def _records(res: api.RunResult) -> list[tuple]:
    return [(r.task, r.item_id, r.status, r.response, r.answer, r.scores) for r in res.records]


def _run(tmp: Path, name: str, workers: str, monkeypatch: pytest.MonkeyPatch) -> api.RunResult:
    monkeypatch.setenv(agent_pool.ENV, workers)
    agent_pool.shutdown()
    assert (agent_pool.start(TASKS) is None) == (workers == "0")
    try:
        return api.run(TASKS, "reference", n=12, run_dir=tmp / name, progress=False, plots=False)
    finally:
        agent_pool.shutdown()


def test_workers_give_the_records_of_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chronoeval.core.registry import get_task

    agent_pool.shutdown()
    assert isinstance(reference_backend(get_task("clockqa")), FunctionBackend)  # not started
    monkeypatch.setenv(agent_pool.ENV, "2")
    agent_pool.start()
    assert isinstance(reference_backend(get_task("clockqa")), PoolBackend)
    agent_pool.shutdown()
    monkeypatch.setenv(agent_pool.ENV, "0")
    assert agent_pool.start() is None
    assert isinstance(reference_backend(get_task("clockqa")), FunctionBackend)

    threads = _run(tmp_path, "threads", "0", monkeypatch)
    workers = _run(tmp_path, "workers", "2", monkeypatch)
    assert _records(workers) == _records(threads)
    assert (
        workers.results["tasks"]["clockqa"]["metrics"]
        == (threads.results["tasks"]["clockqa"]["metrics"])
    )
    assert (
        workers.results["tasks"]["calendarqa"]["metrics"]
        == (threads.results["tasks"]["calendarqa"]["metrics"])
    )
    assert sum(r.status == "answered" for r in workers.records) >= 12  # agents really answered


def _request(image: str) -> Request:
    return Request((Message("user", (TextPart("What time?"), ImagePart(image, "0" * 64))),))


def test_requests_with_one_image_go_to_one_worker() -> None:
    pool = agent_pool.AgentPool(2)
    first = pool._route("calendarqa", _request("images/a.png"))
    other = pool._route("calendarqa", _request("images/b.png"))
    assert other != first  # the least busy worker
    for _ in range(3):
        assert pool._route("calendarqa", _request("images/a.png")) == first
    assert pool._route("calendarqa", _request("images/b.png")) == other


def test_a_failing_agent_is_the_error_a_thread_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chronoeval.core.registry import get_task

    task = get_task("clockqa")
    bad = Request(
        (Message("user", (TextPart("?"), ImagePart("images/missing.png", "0" * 64))),),
        image_root=tmp_path,
    )

    async def ask(backend):  # type: ignore[no-untyped-def]
        try:
            await backend.generate(bad)
        except Exception as exc:  # noqa: BLE001
            return exc
        return None

    import asyncio

    monkeypatch.setenv(agent_pool.ENV, "0")
    in_thread = asyncio.run(ask(reference_backend(task)))
    monkeypatch.setenv(agent_pool.ENV, "2")
    agent_pool.shutdown()
    agent_pool.start()
    try:
        backend = reference_backend(task)
        assert isinstance(backend, PoolBackend)
        in_worker = asyncio.run(ask(backend))
        assert in_thread is not None and in_worker is not None
        assert str(in_worker) == f"{type(in_thread).__name__}: {in_thread}"  # runner's wording
        # the worker still answers afterwards
        ds = api.prepare_dataset(task, n=2)
        req = api.item_request(ds.items[0], api.GenerationConfig(), ds.root)
        assert agent_pool.get_pool().submit("clockqa", req).result(timeout=120)  # type: ignore[union-attr]
    finally:
        agent_pool.shutdown()


def test_figures_drawn_in_a_worker_are_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(agent_pool.ENV, "0")
    res = api.run(["clockqa"], "random", n=8, run_dir=tmp_path / "run", progress=False)
    by_model = {"random": (res.results, res.records)}
    memo.clear()
    here = {p.name: p.read_bytes() for p in write_run_figures(by_model, tmp_path / "here")}
    assert here

    monkeypatch.setenv(agent_pool.ENV, "2")
    agent_pool.shutdown()
    agent_pool.start()
    memo.clear()
    try:
        assert write_run_figures(by_model, tmp_path / "bg", wait=False) == []  # not waited for
        assert memo.stats["figure_draws"] == 1
        memo.wait_all()
        assert {p.name: p.read_bytes() for p in (tmp_path / "bg").iterdir()} == here
        # a later request for the same figures reuses the worker's bytes
        again = write_run_figures(by_model, tmp_path / "again")
        assert {p.name: p.read_bytes() for p in again} == here
        assert memo.stats["figure_draws"] == 1 and memo.stats["figure_hits"] == 1
    finally:
        agent_pool.shutdown()
        memo.clear()


def test_vectorised_macro_prf_bootstrap_is_the_same_numbers() -> None:
    from chronoeval.report.paper_tables import Statistic
    from chronoeval.suites.lost_in_time import tables
    from chronoeval.suites.lost_in_time.answers import WEEKDAYS

    rng = np.random.default_rng(3)
    rows = np.array(
        [
            [WEEKDAYS[int(rng.integers(7))], "" if rng.random() < 0.2 else WEEKDAYS[int(i)]]
            for i in rng.integers(0, 7, size=57)
        ],
        dtype=object,
    )
    for k in range(3):
        plain = Statistic("calendarqa", lambda _r: rows, tables._prf(k))
        fast = Statistic("calendarqa", lambda _r: rows, tables._prf(k), tables._prf_batch(k))
        v1, reps1, n1 = plain.compute([])
        v2, reps2, n2 = fast.compute([])
        assert (v1, n1) == (v2, n2)
        assert reps1 is not None and reps2 is not None
        assert np.array_equal(reps1, reps2)  # bit for bit, not approximately


def test_thumbnails_made_in_workers_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chronoeval.report.figures import figures_in_background
    from chronoeval.report.html import prefetch_thumbnails, thumbnail_uri
    from chronoeval.report.runs import run_from_memory

    monkeypatch.setenv(agent_pool.ENV, "2")
    agent_pool.shutdown()
    agent_pool.start()
    memo.clear()
    res = api.run(["clockqa"], "random", n=6, run_dir=tmp_path / "run", progress=False)
    run = run_from_memory(res.run_dir, res.results, res.records)
    items = run.items("clockqa") or {}
    root = run.dataset_root("clockqa")
    assert root is not None and items
    try:
        with figures_in_background():
            prefetch_thumbnails(run)
        assert len(memo._thumbs_pending) == 6
        for item in items.values():
            part = item.images[0]
            data = (root / part.path).read_bytes()
            got = memo.thumbnail(part.sha256, lambda: b"not read", thumbnail_uri)
            assert got == thumbnail_uri(data)  # the worker's bytes, not a fresh make here
        assert memo.stats["thumb_draws"] == 6 and not memo._thumbs_pending
    finally:
        agent_pool.shutdown()
        memo.clear()


def test_workers_end_when_the_job_is_killed(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    if not Path("/proc").is_dir():
        pytest.skip("reads worker states from /proc (Linux)")
    script = (
        "import os, sys, time\n"
        "os.environ['CHRONOEVAL_AGENT_WORKERS'] = '2'\n"
        "from chronoeval.models import agent_pool\n"
        "pool = agent_pool.start()\n"
        "print(' '.join(str(f.result()) for f in pool.warm(())), flush=True)\n"
        "time.sleep(120)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        pids = [int(x) for x in proc.stdout.readline().split()]
        assert len(pids) == 2 and proc.pid not in pids
        proc.send_signal(signal.SIGKILL)  # no chance to shut the pool down
        proc.wait(timeout=30)
        deadline = time.monotonic() + 15
        alive = pids
        while alive and time.monotonic() < deadline:
            time.sleep(0.2)
            alive = [p for p in pids if _alive(p)]
        assert not alive, f"workers {alive} outlived their killed parent"
    finally:
        if proc.poll() is None:
            proc.kill()


def _alive(pid: int) -> bool:
    import os

    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # pragma: no cover
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def test_a_pool_started_in_one_directory_works_in_the_callers_directory_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI run twice in one process (tests, notebooks) from different directories: the
    workers forked for the first run write relative paths where the caller stands now."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    monkeypatch.chdir(first)
    pool = agent_pool.AgentPool(1)
    try:
        assert pool.call(os.getcwd).result(timeout=60) == str(first)
        monkeypatch.chdir(second)
        assert pool.call(os.getcwd).result(timeout=60) == str(second)
    finally:
        pool.shutdown()


def test_no_workers_are_forked_once_a_fork_unsafe_runtime_is_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(agent_pool.ENV, "2")
    agent_pool.shutdown()
    monkeypatch.setattr(agent_pool, "FORK_UNSAFE_MODULES", ("chronoeval_fake_runtime",))
    monkeypatch.setitem(sys.modules, "chronoeval_fake_runtime", types.ModuleType("fake"))
    assert agent_pool.start(TASKS) is None and agent_pool.get_pool() is None


def test_the_cli_run_stops_its_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A later run in the same process (tests, notebooks) must not be served by workers forked
    for an earlier one (they hung in a test session that had loaded onnxruntime meanwhile)."""
    from typer.testing import CliRunner

    from chronoeval.cli import app

    monkeypatch.setenv(agent_pool.ENV, "2")
    monkeypatch.chdir(tmp_path)
    args = ["run", "--task", "clockqa", "--n", "4", "--model", "reference", "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert agent_pool.get_pool() is None


def test_native_libraries_compute_on_one_thread_in_a_worker() -> None:
    """A worker stands for one core: its BLAS libraries run one thread each (spinning BLAS
    threads doubled the clock reader's CPU), and engines it creates are asked for one thread.
    This process keeps the libraries' own defaults. Run after the tests above have used NumPy,
    OpenCV and ONNX Runtime here and in earlier workers (a limit set in a worker forked from
    such a process once hung: OpenCV's)."""
    from threadpoolctl import threadpool_info

    assert agent_pool.native_threads() is None
    pool = agent_pool.AgentPool(1)
    try:
        pool.warm(tuple(TASKS))[0].result(timeout=120)
        assert pool.call(agent_pool.native_threads).result(timeout=60) == 1
        infos = pool.call(threadpool_info).result(timeout=60)
        assert infos and all(i["num_threads"] == 1 for i in infos), infos
    finally:
        pool.shutdown()
