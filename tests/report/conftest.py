"""Scored runs for report tests (module-scoped: built once per test module)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import report.scripted  # noqa: F401 - registers the scripted backend
from chronoeval import api
from chronoeval.core.dataset import Dataset
from chronoeval.engine.runner import RetryPolicy
from helpers import make_clock_dataset

RunMaker = Callable[..., Path]


@pytest.fixture(scope="module")
def datasets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Dataset]:
    root = tmp_path_factory.mktemp("datasets")
    return {
        "12": make_clock_dataset(root / "ds12", n=12),
        "8": make_clock_dataset(root / "ds8", n=8),
    }


@pytest.fixture(scope="module")
def make_run(tmp_path_factory: pytest.TempPathFactory, datasets: dict[str, Dataset]) -> RunMaker:
    root = tmp_path_factory.mktemp("runs")

    def make(model: str, ds: str = "12") -> Path:
        run_dir = root / f"{api.slug(model)}-{ds}"
        if not (run_dir / "results.json").is_file():
            api.run(
                ["clockqa"],
                model,
                data=datasets[ds].root,
                run_dir=run_dir,
                progress=False,
                plots=False,
                retry=RetryPolicy(max_retries=0),
            )
        return run_dir

    return make
