"""Figures for runs: each task draws its own paper figures; this module only routes records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chronoeval.core.registry import get_task
from chronoeval.core.task import SampleRecord


def write_run_figures(
    by_model: dict[str, tuple[dict[str, Any], list[SampleRecord]]], out_dir: Path
) -> list[Path]:
    """Figures for one run (one model) or a job (several models on the same tasks)."""
    tasks: list[str] = []
    for results, _records in by_model.values():
        tasks += [t for t in results["tasks"] if t not in tasks]
    written: list[Path] = []
    for name in tasks:
        runs = {
            model: (results["tasks"][name], [r for r in records if r.task == name])
            for model, (results, records) in by_model.items()
            if name in results["tasks"]
        }
        out_dir.mkdir(parents=True, exist_ok=True)
        written += get_task(name).plots(runs, out_dir)
    return written
