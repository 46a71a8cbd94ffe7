"""`chronoeval run --suite timepercept` prints the nine tasks (and the control) with chance lines;
the suite's own commands write and inspect a collection."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _cli(*args: str, cwd: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "COLUMNS": "200"},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_run_suite_prints_nine_tasks_with_chance(tmp_path: Path) -> None:
    out = _cli(
        "run",
        "--suite",
        "timepercept",
        "--model",
        "random",
        "--n",
        "6",
        "--param",
        "n_locations=25",
        "--no-progress",
        cwd=tmp_path,
    )
    import json

    (results,) = tmp_path.glob("runs/*/random/results.json")
    names = ["tp_tal", "tp_isr", "tp_sov", "tp_pov", "tp_tpl", "tp_ice", "tp_pic", "tp_ipr"]
    assert sorted(json.loads(results.read_text())["tasks"]) == sorted(
        [*names, "tp_eii", "tp_recognition"]
    )
    assert all(name in out for name in names)  # the printed table names every task
    assert out.count("chance") >= 10


def test_synth_and_inspect(tmp_path: Path) -> None:
    _cli("timepercept", "synth", "--out", str(tmp_path / "c"), "--locations", "3", cwd=tmp_path)
    out = _cli("timepercept", "inspect", str(tmp_path / "c" / "manifest.csv"), cwd=tmp_path)
    assert "3 locations" in out and "images kept" in out
