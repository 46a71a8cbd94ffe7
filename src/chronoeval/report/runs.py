"""Scored runs as reports read them: config.json, results.json and samples.jsonl of a run
directory, plus the items of each task's dataset (for prompts and images in the sample browser).

Reports never call a model and never re-score: they read what ``chronoeval run`` / ``score`` wrote.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronoeval.core.dataset import load_dataset
from chronoeval.core.errors import ChronoevalError, DataError
from chronoeval.core.items import Item
from chronoeval.core.task import SampleRecord


@dataclass
class RunData:
    """One scored run: ``label`` is unique among the runs of one report."""

    run_dir: Path
    label: str
    model: str
    config: dict[str, Any]
    results: dict[str, Any]
    records: list[SampleRecord]
    _items: dict[str, dict[str, Item] | None] = field(default_factory=dict, repr=False)
    _roots: dict[str, Path | None] = field(default_factory=dict, repr=False)
    problems: list[str] = field(default_factory=list)
    """What could not be read for the report (e.g. a dataset directory that no longer exists)."""

    @property
    def tasks(self) -> list[str]:
        return list(self.results.get("tasks", {}))

    def task_entry(self, task: str) -> dict[str, Any]:
        return self.results["tasks"][task]

    def task_records(self, task: str) -> list[SampleRecord]:
        return [r for r in self.records if r.task == task]

    def dataset_root(self, task: str) -> Path | None:
        self.items(task)
        return self._roots.get(task)

    def items(self, task: str) -> dict[str, Item] | None:
        """The task's items by id, or None (with a recorded problem) if the dataset is gone."""
        if task not in self._items:
            path = Path(self.config.get("tasks", {}).get(task, {}).get("dataset", ""))
            try:
                if not (path / "manifest.json").is_file():  # gone: the run's own copy (prompts)
                    path = self.run_dir / "datasets" / task
                ds = load_dataset(path, verify_images=False)
            except (DataError, OSError) as exc:
                self.problems.append(
                    f"{self.label}: dataset of {task} not readable ({exc}); "
                    "prompts and images are missing from the sample browser"
                )
                self._items[task], self._roots[task] = None, None
            else:
                self._items[task] = {it.id: it for it in ds.items}
                self._roots[task] = ds.root
        return self._items[task]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON ({exc.msg})", file=path, line=exc.lineno) from None
    except RecursionError:
        raise DataError("JSON nested too deeply", file=path) from None


def read_samples(path: Path) -> list[SampleRecord]:
    """samples.jsonl → records; a bad line is a DataError naming file and line."""
    known = set(SampleRecord.__dataclass_fields__)
    out = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"not valid JSON ({exc.msg})", file=path, line=lineno) from None
            except RecursionError:
                raise DataError("JSON nested too deeply", file=path, line=lineno) from None
            if not isinstance(row, dict):
                raise DataError("expected a JSON object", file=path, line=lineno)
            try:
                out.append(SampleRecord(**{k: v for k, v in row.items() if k in known}))
            except TypeError as exc:
                raise DataError(f"not a sample record ({exc})", file=path, line=lineno) from None
    return out


def load_run(run_dir: Path, label: str | None = None) -> RunData:
    run_dir = Path(run_dir)
    for name in ("config.json", "results.json", "samples.jsonl"):
        if not (run_dir / name).is_file():
            raise ChronoevalError(
                f"{run_dir}: no {name} — not a scored run directory "
                f"(run `chronoeval score {run_dir}` on a run directory first)"
            )
    config = _read_json(run_dir / "config.json")
    results = _read_json(run_dir / "results.json")
    if not isinstance(results, dict) or not isinstance(results.get("tasks"), dict):
        raise DataError("no 'tasks' object", file=run_dir / "results.json", field="tasks")
    records = read_samples(run_dir / "samples.jsonl")
    model = str(results.get("model", config.get("model", run_dir.name)))
    return RunData(run_dir, label or model, model, config, results, records)


def run_from_memory(run_dir: Path, results: dict[str, Any], records: list[SampleRecord]) -> RunData:
    """A run just scored in this process, as a report reads it, without reading back the
    results.json and samples.jsonl it wrote (only its small config.json is read)."""
    run_dir = Path(run_dir)
    config = _read_json(run_dir / "config.json")
    # as results.json has it (sorted keys, JSON types): the page is the same as from disk
    results = json.loads(json.dumps(results, sort_keys=True, default=str))
    model = str(results.get("model", config.get("model", run_dir.name)))
    return RunData(run_dir, model, model, config, results, records)


def load_runs(run_dirs: list[Path], loaded: list[RunData] | None = None) -> list[RunData]:
    """Load runs; labels are the model names, with the run directory added where two collide."""
    if not run_dirs:
        raise ChronoevalError("give at least one run directory")
    runs = list(loaded) if loaded is not None else [load_run(d) for d in run_dirs]
    models = [r.model for r in runs]
    for r in runs:
        if models.count(r.model) > 1:
            r.label = f"{r.model} ({r.run_dir})"
    labels = [r.label for r in runs]
    for r in runs:
        if labels.count(r.label) > 1:
            raise ChronoevalError(f"run directory {r.run_dir} given twice")
    return runs
