"""Shared fixtures: an isolated cache, a real `chronoeval serve` on a free loopback port, and a
small hand-built ClockQA dataset (built here, independent of the generator)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from chronoeval.core.dataset import Dataset
from helpers import make_clock_dataset


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


class Server:
    def __init__(self, proc: subprocess.Popen, url: str, log: Path) -> None:
        self.proc, self.url, self.log = proc, url, log

    def requests(self) -> list[dict]:
        import json

        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start `chronoeval serve` as a real process on 127.0.0.1 and a free port."""
    started: list[Server] = []

    def start(*args: str) -> Server:
        n = len(started)
        ready = tmp_path / f"serve{n}.url"
        log = tmp_path / f"serve{n}.log"
        cmd = [
            sys.executable,
            "-m",
            "chronoeval",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--ready-file",
            str(ready),
            "--request-log",
            str(log),
            *args,
        ]
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.time() + 60
        while not ready.exists():
            if proc.poll() is not None:
                raise RuntimeError(f"serve exited: {proc.stderr.read().decode()}")
            if time.time() > deadline:
                proc.kill()
                raise RuntimeError("serve did not start in 60 s")
            time.sleep(0.05)
        server = Server(proc, ready.read_text().strip(), log)
        started.append(server)
        return server

    yield start
    for s in started:
        s.stop()


@pytest.fixture
def clock_dataset(tmp_path: Path) -> Dataset:
    return make_clock_dataset(tmp_path / "ds")
