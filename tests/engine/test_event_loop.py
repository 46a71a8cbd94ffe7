"""The event loop network-bound asking runs on (engine/event_loop.py): uvloop where installed
(the ``fast`` extra), asyncio's own with ``CHRONOEVAL_EVENT_LOOP=asyncio``. A run against a real
``chronoeval serve`` writes the same results and samples on either loop, including failed calls
retried and errors stored; in-process backends keep asyncio's loop."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from tests.helpers import make_clock_dataset

from chronoeval import api
from chronoeval.core.errors import ChronoevalError
from chronoeval.engine import event_loop
from chronoeval.engine.runner import RetryPolicy
from chronoeval.models.registry import BackendOptions

HAVE_UVLOOP = importlib.util.find_spec("uvloop") is not None
needs_uvloop = pytest.mark.skipif(not HAVE_UVLOOP, reason="uvloop not installed (the fast extra)")


def test_the_setting_picks_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(event_loop.ENV, "asyncio")
    assert event_loop.loop_name() == "asyncio"
    assert event_loop.loop_factory() is None
    monkeypatch.setenv(event_loop.ENV, "")
    assert event_loop.loop_name() == ("uvloop" if HAVE_UVLOOP else "asyncio")
    monkeypatch.setenv(event_loop.ENV, "tokio")
    with pytest.raises(ChronoevalError, match="CHRONOEVAL_EVENT_LOOP='tokio'"):
        event_loop.loop_name()


def test_a_required_uvloop_that_is_missing_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(event_loop.ENV, "uvloop")
    real = importlib.util.find_spec
    monkeypatch.setattr(
        event_loop.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "uvloop" else real(name, *a),
    )

    async def nothing() -> None:
        return None

    with pytest.raises(ChronoevalError, match=r"pip install 'chronoeval\[fast\]'"):
        event_loop.run(nothing())


@needs_uvloop
def test_run_uses_uvloop_only_when_asked_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(event_loop.ENV, raising=False)

    async def loop_type() -> str:
        return type(asyncio.get_running_loop()).__module__

    assert event_loop.run(loop_type()).startswith("uvloop")
    assert event_loop.run(loop_type(), fast=False).startswith("asyncio")
    monkeypatch.setenv(event_loop.ENV, "asyncio")
    assert event_loop.run(loop_type()).startswith("asyncio")


def _outputs(run_dir: Path) -> dict[str, Any]:
    """results.json as is; samples with ``latency_s`` (a measured time) left out, from both the
    JSON lines and the Parquet table."""
    lines = [json.loads(x) for x in (run_dir / "samples.jsonl").read_text().splitlines()]
    table = pq.read_table(run_dir / "samples.parquet").to_pylist()
    for row in lines + table:
        row.pop("latency_s", None)
    return {
        "results": json.loads((run_dir / "results.json").read_text()),
        "lines": lines,
        "parquet": table,
    }


@needs_uvloop
def test_a_run_writes_the_same_files_on_either_loop(
    tmp_path: Path, serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one server (error texts name its URL): of each run's 28 requests the 3rd fails once
    # (retried), the 5th is rate limited (retried after Retry-After), and the 7th gets a protocol
    # error each of the 3 times it is asked (stored as an error, never scored)
    faults = "500@3,429:0.05@5,null@7+8+9,500@31,429:0.05@33,null@35+36+37"
    server = serve("--model", "random", "--task", "clockqa", "--faults", faults)
    ds = make_clock_dataset(tmp_path / "ds", n=24)
    outputs = {}
    for name in ("asyncio", "uvloop"):
        monkeypatch.setenv(event_loop.ENV, name)
        run_dir = tmp_path / name
        res = api.run(
            ["clockqa"], "openai:random", data=ds.root, run_dir=run_dir, progress=False,
            plots=False, concurrency=1, retry=RetryPolicy(max_retries=2, base_delay_s=0.01),
            backend_options=BackendOptions(base_url=server.url),
        )  # fmt: skip
        summary = res.summaries["clockqa"]
        assert (summary.answered, summary.errors, summary.retries) == (23, 1, 4)
        outputs[name] = _outputs(run_dir)
    assert outputs["uvloop"] == outputs["asyncio"]


def test_in_process_backends_keep_asyncios_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real = event_loop.run

    def spy(coro: Any, *, fast: bool = True) -> Any:
        seen.append("fast" if fast else "asyncio")
        return real(coro, fast=fast)

    monkeypatch.setattr(event_loop, "run", spy)
    ds = make_clock_dataset(tmp_path / "ds", n=4)
    api.run(
        ["clockqa"], "random", data=ds.root, run_dir=tmp_path / "r", progress=False, plots=False
    )
    assert seen == ["asyncio"]


def test_a_bad_setting_is_refused_before_a_run_writes_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked first, even for a backend that would never use the fast loop."""
    monkeypatch.setenv(event_loop.ENV, "tokio")
    out = tmp_path / "run"
    with pytest.raises(ChronoevalError, match="CHRONOEVAL_EVENT_LOOP='tokio'"):
        api.run(["clockqa"], "constant:10:10:00", run_dir=out, n=2, progress=False)
    assert not out.exists()
