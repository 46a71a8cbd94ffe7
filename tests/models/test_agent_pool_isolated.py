"""The agent-pool tests in a fresh process when this one has loaded torch.

Workers are forked, and models/agent_pool.py forks none from a process that has loaded torch (a
worker forked so hung). The whole suite imports torch at collection (the hf and training tests),
so tests/models/test_agent_pool.py skips there; this test runs that file in a new pytest process,
where nothing has loaded torch, and requires every test in it to pass."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from chronoeval.models import agent_pool

ROOT = Path(__file__).resolve().parents[2]


def test_the_agent_pool_tests_pass_in_a_fresh_process() -> None:
    if not agent_pool._fork_unsafe():
        pytest.skip("no torch loaded here: test_agent_pool.py runs in this process itself")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/models/test_agent_pool.py",
        ],  # fmt: skip
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    tail = proc.stdout[-3000:] + proc.stderr[-1000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    passed = re.search(r"(\d+) passed", summary)
    assert passed and int(passed.group(1)) >= 10 and "skipped" not in summary, tail
