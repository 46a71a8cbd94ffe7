"""MLflow tracking, offline (a local file store): config, metrics and the samples table of a run,
read back with MLflow's own client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

mlflow = pytest.importorskip("mlflow", reason="the tracking extra (mlflow-skinny) is not installed")

from helpers import make_clock_dataset  # noqa: E402


def test_run_track_mlflow_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # MLflow 3's file store, read back
    ds = make_clock_dataset(tmp_path / "ds", n=6)
    store = (tmp_path / "mlruns").as_uri()
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", "run", "--task", "clockqa", "--data", str(ds.root),
         "--model", "constant:1:00:00", "--out", str(tmp_path / "run"), "--limit", "4",
         "--track", "mlflow", "--track-uri", store],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
        env={**os.environ, "COLUMNS": "200", "MLFLOW_TRACKING_URI": ""},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "mlflow run " in proc.stdout
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=store)
    exp = client.get_experiment_by_name("chronoeval")
    runs = client.search_runs([exp.experiment_id])
    assert len(runs) == 1
    run = runs[0]
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    em = results["tasks"]["clockqa"]["metrics"]["overall"]["em"]
    assert run.data.params["model"] == "constant:1:00:00"
    assert run.data.params["limit"] == "4"
    assert run.data.params["clockqa.n_items"] == "4"
    assert run.data.metrics["clockqa.overall.em"] == pytest.approx(em["value"])
    assert run.data.metrics["clockqa.count.answered"] == 4
    arts = {a.path for a in client.list_artifacts(run.info.run_id)}
    assert {"config.json", "results.json", "samples.parquet"} <= arts
    assert run.info.status == "FINISHED"
