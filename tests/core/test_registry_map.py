"""The registry's task -> suite map (``TASK_SUITES``) against what the suite packages register,
and the lazy load it allows: one Lost in Time task run never imports the other suites."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from chronoeval.core import registry

SUITE_PREFIX = "chronoeval.suites."


def test_map_names_every_registered_task_and_its_package() -> None:
    registered = {
        name: type(task).__module__[len(SUITE_PREFIX) :].split(".")[0]
        for name, task in registry.all_tasks().items()
        if type(task).__module__.startswith(SUITE_PREFIX)
    }
    missing = sorted(set(registered) - set(registry.TASK_SUITES))
    assert not missing, f"tasks not in core.registry.TASK_SUITES: {missing}"
    stale = sorted(set(registry.TASK_SUITES) - set(registered))
    assert not stale, f"TASK_SUITES names tasks no suite registers: {stale}"
    wrong = {
        n: (registry.TASK_SUITES[n], p)
        for n, p in registered.items()
        if registry.TASK_SUITES[n] != p
    }
    assert not wrong, f"TASK_SUITES names the wrong package (map, real): {wrong}"


CHILD = r"""
import sys, tempfile
from pathlib import Path
from chronoeval import api
from chronoeval.core.registry import get_task
api.run(["clockqa"], "constant:10:10:00", data=Path(sys.argv[1]),
        run_dir=Path(tempfile.mkdtemp()) / "r", progress=False, plots=False)
loaded = sorted({m.split(".")[2] for m in sys.modules if m.startswith("chronoeval.suites.")})
print(" ".join(loaded))
get_task("span")  # a task of another suite still loads on demand
print("span" in {m.split(".")[2] for m in sys.modules if m.startswith("chronoeval.suites.")})
from chronoeval.models.registry import make_backend
try:  # a suite's own backend is found although its suite was not loaded by the run
    make_backend("grayprior", get_task("clockqa"))
except Exception as exc:
    print(type(exc).__name__)
"""


def test_one_lost_in_time_run_imports_only_its_suite(tmp_path: Path) -> None:
    from helpers import make_clock_dataset

    root = make_clock_dataset(tmp_path / "clocks", n=4).root
    env = {
        **os.environ,
        "CHRONOEVAL_CACHE": str(tmp_path / "cache"),
        "CHRONOEVAL_AGENT_WORKERS": "1",
    }
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(root)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    loaded, span_after, backend = out.stdout.split("\n")[-4:-1]
    assert loaded.split() == ["lost_in_time"]
    assert span_after == "True"
    assert backend == "NotApplicable"  # grayprior's own refusal, not an unknown backend


CLI_CHILD = r"""
import runpy, sys
sys.argv = ["chronoeval", "run", "--task", "clockqa", "--model", "constant:10:10:00",
            "--n", "6", "--out", sys.argv[1]]
try:
    runpy.run_module("chronoeval", run_name="__main__")
except SystemExit as exc:
    assert not exc.code, exc.code
print(" ".join(sorted({m.split(".")[2] for m in sys.modules if m.startswith("chronoeval.suites.")})))
"""


def test_cli_run_of_one_task_imports_only_its_suite(tmp_path: Path) -> None:
    env = {**os.environ, "CHRONOEVAL_CACHE": str(tmp_path / "cache")}
    out = subprocess.run(
        [sys.executable, "-c", CLI_CHILD, str(tmp_path / "run")],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[-2].split() == ["lost_in_time"]
    assert (tmp_path / "run" / "samples.parquet").is_file()
