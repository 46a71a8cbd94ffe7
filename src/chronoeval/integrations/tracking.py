"""Optional experiment tracking: log a scored run to MLflow (the ``tracking`` extra,
``pip install 'chronoeval[tracking]'``, which installs ``mlflow-skinny``).

What is logged, from the run directory alone (so any scored run can be logged later):

- parameters: the model, every generation setting, ``--limit``, the chronoeval version, and per
  task its dataset content hash, item count, seed and source (``<task>.content_hash`` ...);
- metrics: every metric of results.json as ``<task>.<dotted path>`` with its 95% interval as
  ``….ci95_low`` / ``….ci95_high`` (fractions, as results.json stores them), and the counts
  (``<task>.count.answered`` ...);
- artifacts: config.json, results.json, samples.parquet (the samples table), samples.jsonl and
  report.html where present;
- tags: ``chronoeval.run_dir``, ``chronoeval.complete``.

Offline by default: with no ``uri`` and no ``MLFLOW_TRACKING_URI`` the run goes to a local file
store, ``./mlruns``; nothing is sent anywhere. MLflow 3 put its file store in maintenance mode and
refuses it unless ``MLFLOW_ALLOW_FILE_STORE=true``; for a ``file:`` URI this module sets that
(unless the environment says otherwise), because ``mlflow-skinny`` has no database store
(``sqlite:///mlflow.db`` needs the full ``mlflow`` package). A server (``http://…``) works the
same way when given. Weights & Biases is not supported (not built).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from chronoeval.core.errors import ChronoevalError

_KEY_BAD = re.compile(r"[^A-Za-z0-9_\-./ ]+")
MAX_PARAM_CHARS = 6000  # MLflow's limit on a parameter value


def _key(text: str) -> str:
    """A name MLflow accepts (alphanumerics, ``_ - . / space``)."""
    return _KEY_BAD.sub("_", text).strip("/") or "_"


def _flat(prefix: str, obj: Any) -> dict[str, str]:
    if isinstance(obj, dict):
        out: dict[str, str] = {}
        for k, v in obj.items():
            out.update(_flat(f"{prefix}.{k}" if prefix else str(k), v))
        return out
    text = obj if isinstance(obj, str) else json.dumps(obj, default=str)
    return {_key(prefix): text[:MAX_PARAM_CHARS]}


def run_params(config: dict[str, Any]) -> dict[str, str]:
    params = {"model": str(config.get("model", ""))}
    params["chronoeval_version"] = str(config.get("chronoeval_version", ""))
    params.update(_flat("generation", config.get("generation") or {}))
    if config.get("limit") is not None:
        params["limit"] = str(config["limit"])
    for task, tconf in (config.get("tasks") or {}).items():
        for k in ("content_hash", "n_items", "seed", "source", "backend_identity"):
            if k in tconf:
                params[_key(f"{task}.{k}")] = str(tconf[k])[:MAX_PARAM_CHARS]
    return params


def run_metrics(results: dict[str, Any]) -> dict[str, float]:
    from chronoeval.report.tables import flatten_metrics

    out: dict[str, float] = {}
    for task, entry in (results.get("tasks") or {}).items():
        for path, m in flatten_metrics(entry.get("metrics") or {}):
            value = m.get("value")
            if isinstance(value, int | float) and not isinstance(value, bool):
                key = _key(f"{task}.{path}")
                out[key] = float(value)
                ci = m.get("ci95")
                if isinstance(ci, list | tuple) and len(ci) == 2 and None not in ci:
                    out[key + ".ci95_low"], out[key + ".ci95_high"] = float(ci[0]), float(ci[1])
        for name, count in (entry.get("counts") or {}).items():
            out[_key(f"{task}.count.{name}")] = float(count)
    return out


def log_run_mlflow(run_dir: Path, *, uri: str | None = None, experiment: str = "chronoeval") -> str:
    """Log one scored run directory to MLflow; returns the MLflow run id."""
    try:
        from mlflow.tracking import MlflowClient
    except ImportError:
        raise ChronoevalError(
            "experiment tracking needs MLflow: pip install 'chronoeval[tracking]'"
        ) from None
    run_dir = Path(run_dir)
    for name in ("config.json", "results.json"):
        if not (run_dir / name).is_file():
            raise ChronoevalError(f"{run_dir} has no {name}: track a scored run directory")
    config = json.loads((run_dir / "config.json").read_text())
    results = json.loads((run_dir / "results.json").read_text())
    uri = uri or os.environ.get("MLFLOW_TRACKING_URI") or (Path.cwd() / "mlruns").as_uri()
    if uri.startswith("file:") or "://" not in uri:
        os.environ.setdefault("MLFLOW_ALLOW_FILE_STORE", "true")
    try:
        return _log(MlflowClient(tracking_uri=uri), run_dir, config, results, experiment)
    except Exception as exc:  # noqa: BLE001 - MlflowException and store errors: one clear line
        raise ChronoevalError(f"mlflow ({uri}): {type(exc).__name__}: {exc}") from None


def _log(
    client: Any, run_dir: Path, config: dict[str, Any], results: dict[str, Any], experiment: str
) -> str:
    from mlflow.entities import Metric, Param, RunTag

    exp = client.get_experiment_by_name(experiment)
    exp_id = exp.experiment_id if exp is not None else client.create_experiment(experiment)
    run = client.create_run(exp_id, run_name=str(config.get("model", run_dir.name)))
    rid = run.info.run_id
    params = [Param(k, v) for k, v in run_params(config).items()]
    metrics = [Metric(k, v, 0, 0) for k, v in run_metrics(results).items()]
    tags = [
        RunTag("chronoeval.run_dir", str(run_dir.resolve())),
        RunTag("chronoeval.complete", str(results.get("complete", True)).lower()),
    ]
    for i in range(0, max(len(params), len(metrics), 1), 100):  # MLflow's batch limits
        client.log_batch(
            rid,
            metrics=metrics[i : i + 100],
            params=params[i : i + 100],
            tags=tags if i == 0 else [],
        )
    for name in ("config.json", "results.json", "samples.parquet", "samples.jsonl", "report.html"):
        if (run_dir / name).is_file():
            client.log_artifact(rid, str(run_dir / name))
    client.set_terminated(rid, "FINISHED")
    return rid


TRACKERS = {"mlflow": log_run_mlflow}


def log_run(run_dir: Path, tracker: str = "mlflow", *, uri: str | None = None) -> str:
    if tracker not in TRACKERS:
        raise ChronoevalError(
            f"unknown tracker {tracker!r}; known: {', '.join(TRACKERS)} (W&B is not supported)"
        )
    return TRACKERS[tracker](run_dir, uri=uri)
