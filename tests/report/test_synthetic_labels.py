"""Results measured on a synthetic default set are labelled with what that set can and cannot
measure: in `chronoeval list`, the printed summary and the HTML report; loaded data is not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from chronoeval import api
from chronoeval.report.synthetic import synthetic_labels
from suites.timepercept.fmow_fixture import make_published_fmow


def _cli(*args: str, cwd: Path) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "250"},
    )
    assert proc.returncode == 0, proc.stderr[-1500:]
    return proc.stdout


def test_list_names_what_each_synthetic_set_measures(tmp_path: Path) -> None:
    out = _cli("list", cwd=tmp_path)
    assert "Synthetic default sets" in out
    assert "seeing_year: Synthetic scenes encode time as arbitrary codes" in out
    assert "tp_tal:" in out and "solvable by scene category alone" in out


def test_summary_and_report_label_synthetic_runs(tmp_path: Path) -> None:
    out = _cli("run", "--task", "seeing_year", "--model", "random", "--n", "3", "--no-progress",
               "--out", str(tmp_path / "r"), cwd=tmp_path)  # fmt: skip
    assert "seeing_year ran on its synthetic set" in out
    html = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "Synthetic set." in html and "cannot read these dating cues" in html


def test_loaded_data_is_not_labelled(tmp_path: Path) -> None:
    root = make_published_fmow(tmp_path / "fmow")
    res = api.run(["tp_pov"], "random", data=root, params={"split": "all"}, n=4,
                  run_dir=tmp_path / "l", progress=False, plots=False)  # fmt: skip
    assert synthetic_labels(res.results) == {}
    gen = api.run(["tp_pov"], "random", n=4, params={"n_locations": 25},
                  run_dir=tmp_path / "g", progress=False, plots=False)  # fmt: skip
    assert set(synthetic_labels(gen.results)) == {"tp_pov"}
