"""The openai backend against a real `chronoeval serve` process with injected faults."""

from __future__ import annotations

import socket
from pathlib import Path

from chronoeval import api
from chronoeval.engine.runner import RetryPolicy
from chronoeval.engine.store import RunStore
from chronoeval.models.registry import BackendOptions

FAST = RetryPolicy(max_retries=4, base_delay_s=0.01, max_delay_s=0.05)


def run(ds_root: Path, run_dir: Path, url: str, **kw):
    return api.run(
        ["clockqa"],
        "openai:constant:10:10:00",
        data=ds_root,
        run_dir=run_dir,
        backend_options=BackendOptions(base_url=url, timeout_s=kw.pop("timeout", 30)),
        concurrency=kw.pop("concurrency", 1),
        retry=kw.pop("retry", FAST),
        progress=False,
        plots=False,
        **kw,
    )


def test_faults_are_retried_and_nothing_is_lost(serve, clock_dataset, tmp_path: Path) -> None:
    server = serve(
        "--model",
        "constant:10:10:00",
        "--task",
        "clockqa",
        "--faults",
        "500@2,429:0.3@4,malformed@6,empty@8,close@10",
    )
    res = run(clock_dataset.root, tmp_path / "run", server.url)
    s = res.summaries["clockqa"]
    assert (s.answered, s.errors, s.retries) == (12, 0, 5)
    log = server.requests()
    assert len(log) == 17 and sorted(e["fault"] for e in log if "fault" in e) == sorted(
        ["500", "429", "malformed", "empty", "close"]
    )
    assert res.results["complete"] and res.results["tasks"]["clockqa"]["counts"]["answered"] == 12


def test_hang_times_out_and_is_retried(serve, clock_dataset, tmp_path: Path) -> None:
    server = serve("--model", "constant:10:10:00", "--task", "clockqa", "--faults", "hang@1")
    res = run(clock_dataset.root, tmp_path / "run", server.url, timeout=1.0)
    assert res.summaries["clockqa"].answered == 12 and res.summaries["clockqa"].retries == 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_connection_refused_is_an_error_then_resume_completes(serve, clock_dataset, tmp_path):
    dead = f"http://127.0.0.1:{free_port()}/v1"
    res = run(
        clock_dataset.root,
        tmp_path / "run",
        dead,
        retry=RetryPolicy(max_retries=1, base_delay_s=0.01),
    )
    s = res.summaries["clockqa"]
    assert s.errors == 12 and "cannot connect" in s.error_messages[0]
    counts = res.results["tasks"]["clockqa"]["counts"]
    assert counts["error"] == 12 and counts["answered"] == 0 and not res.results["complete"]
    assert res.results["tasks"]["clockqa"]["metrics"] == {}  # errors are never scored as wrong
    server = serve("--model", "constant:10:10:00", "--task", "clockqa")
    res2 = run(clock_dataset.root, tmp_path / "run", server.url)
    assert res2.summaries["clockqa"].called == 12 and res2.results["complete"]
    with RunStore.in_dir(tmp_path / "run") as store:
        assert store.count() == (12, 0)


def test_429_retry_after_header_is_honoured(serve, clock_dataset, tmp_path: Path) -> None:
    import time

    server = serve("--model", "constant:10:10:00", "--task", "clockqa", "--faults", "429:1.2@1")
    start = time.perf_counter()
    res = run(clock_dataset.root, tmp_path / "run", server.url)
    assert res.summaries["clockqa"].answered == 12
    assert time.perf_counter() - start >= 1.2


def test_api_key_is_sent_but_never_written(serve, clock_dataset, tmp_path, monkeypatch) -> None:
    secret = "sk-test-do-not-store-8c1f"
    monkeypatch.setenv("CHRONO_TEST_KEY", secret)
    server = serve("--model", "constant:10:10:00", "--task", "clockqa")
    res = api.run(
        ["clockqa"],
        "openai:constant:10:10:00",
        data=clock_dataset.root,
        run_dir=tmp_path / "run",
        progress=False,
        plots=False,
        backend_options=BackendOptions(base_url=server.url, api_key_env="CHRONO_TEST_KEY"),
    )
    assert res.results["complete"]
    assert server.requests() and all(e["auth"] for e in server.requests())
    for f in (tmp_path / "run").rglob("*"):
        if f.is_file():
            assert secret.encode() not in f.read_bytes(), f
