"""End to end: `chronoeval run` through the openai backend against a real `chronoeval serve`,
killed with SIGKILL halfway, resumed by the same command: no finished request is asked again, and
the final metrics equal an uninterrupted run's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from chronoeval import api
from chronoeval.engine.store import RunStore

N = 60


def cli_run(ds_root: Path, url: str, out: Path) -> subprocess.Popen:
    cmd = [
        sys.executable,
        "-m",
        "chronoeval",
        "run",
        "--task",
        "clockqa",
        "--data",
        str(ds_root),
        "--model",
        "openai:reference/clockqa",
        "--base-url",
        url,
        "--out",
        str(out),
        "--concurrency",
        "4",
        "--no-progress",
    ]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def answered(run_dir: Path) -> set[str]:
    path = run_dir / RunStore.FILENAME
    if not path.exists():
        return set()
    try:
        with RunStore(path) as store:
            return store.answered_keys()
    except Exception:  # the table may not exist yet
        return set()


def test_kill_midway_then_resume(serve, tmp_path: Path) -> None:
    ds = api.generate("clockqa", n=N, seed=11)
    server = serve("--model", "reference", "--latency", "0.05")

    # uninterrupted reference run
    full = cli_run(ds.root, server.url, tmp_path / "full")
    assert full.wait(300) == 0, full.stdout.read().decode()
    n_full = len(server.requests())
    assert n_full == N

    # the same run, killed with SIGKILL once about a third is stored
    victim = cli_run(ds.root, server.url, tmp_path / "resumed")
    deadline = time.time() + 120
    while len(answered(tmp_path / "resumed")) < N // 3:
        assert victim.poll() is None, "run finished before it could be killed"
        assert time.time() < deadline
        time.sleep(0.02)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    time.sleep(0.5)  # let the server finish (and log) what was in flight
    stored_before = answered(tmp_path / "resumed")
    assert N // 3 <= len(stored_before) < N
    n_before = len(server.requests())

    resume = cli_run(ds.root, server.url, tmp_path / "resumed")
    assert resume.wait(300) == 0, resume.stdout.read().decode()
    resumed_keys = [e["key"] for e in server.requests()[n_before:]]
    assert not set(resumed_keys) & stored_before, "a finished request was asked again"
    assert len(resumed_keys) == len(set(resumed_keys)) == N - len(stored_before)
    assert len(answered(tmp_path / "resumed")) == N

    a = json.loads((tmp_path / "full" / "results.json").read_text())
    b = json.loads((tmp_path / "resumed" / "results.json").read_text())
    assert a["tasks"]["clockqa"]["metrics"] == b["tasks"]["clockqa"]["metrics"]
    assert a["tasks"]["clockqa"]["counts"] == b["tasks"]["clockqa"]["counts"]
    assert b["complete"] and b["tasks"]["clockqa"]["counts"]["answered"] == N
