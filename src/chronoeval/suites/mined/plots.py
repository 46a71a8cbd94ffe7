"""MINED figures: per task, CEM by prompt configuration and by knowledge type (one bar per model);
for time-agnostic, the Latest / Outdated / Irrelevant shares (paper Table 4). The per-dimension
figure over a whole suite run is :func:`dimension_plot` (``chronoeval mined table``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chronoeval.core.task import RunsByModel
from chronoeval.report.figures import grouped_bars
from chronoeval.suites.mined.itembuild import CONFIG_NAMES, DIMENSIONS


def task_plots(task: str, subtask: str, runs: RunsByModel, out_dir: Path) -> list[Path]:
    paths = [
        grouped_bars(
            runs,
            "by_config",
            lambda _c, entry: entry["cem"],
            f"MINED {subtask}: CEM by prompt configuration",
            "CEM %",
            out_dir / f"{task}_by_config.png",
            order=CONFIG_NAMES,
        ),
        grouped_bars(
            runs,
            "by_type",
            lambda _c, entry: entry["cem"],
            f"MINED {subtask}: CEM by knowledge type",
            "CEM %",
            out_dir / f"{task}_by_type.png",
        ),
    ]
    if any("loi" in res.get("metrics", {}) for res, _ in runs.values()):
        paths.append(
            grouped_bars(
                runs,
                "loi",
                lambda _c, entry: entry,
                f"MINED {subtask}: Latest / Outdated / Irrelevant",
                "% of samples",
                out_dir / f"{task}_loi.png",
                order=("latest", "outdated", "irrelevant"),
            )
        )
    return paths


def dimension_plot(by_model: dict[str, dict[str, Any]], path: Path) -> Path:
    """CEM per dimension (the mean of its subtasks' scores), one bar per model.

    ``by_model``: model -> the ``dimensions`` table of :func:`suite_table` (value in [0, 1])."""
    runs: RunsByModel = {
        model: ({"metrics": {"by_dimension": dims}}, []) for model, dims in by_model.items()
    }
    return grouped_bars(
        runs,
        "by_dimension",
        lambda _c, entry: entry,
        "MINED: CEM by dimension (mean of subtasks)",
        "CEM %",
        path,
        order=DIMENSIONS,
    )
