"""The one place that maps names to code: tasks, suites and the default job.

Suites register their tasks on import. :data:`TASK_SUITES` says which suite package registers
each task, so that asking for one task imports only its package (a cold ``chronoeval run`` does
not pay for every suite); :func:`load_suites` with no argument still imports every package under
``chronoeval.suites`` (listing commands, unknown names). ``tests/core/test_registry_map.py``
checks the map against what the packages register, so a new task cannot be left out of it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from chronoeval.core.errors import UnknownNameError
from chronoeval.core.task import Task

_TASKS: dict[str, Task] = {}
_loaded = False
PredictionScorer = Callable[[Path, dict[str, str]], str]
"""(a predictions file in a paper's released output layout, options) -> the report to print."""
_PREDICTION_SCORERS: dict[str, PredictionScorer] = {}

DEFAULT_JOB: dict[str, list[str]] = {
    "tasks": ["clockqa", "calendarqa"],
    "models": ["reference", "random"],
}
"""What ``chronoeval run`` does with no arguments: the Lost in Time suite on generated items,
answered by the reference agents and the random baseline."""

TASK_SUITES: dict[str, str] = {
    "calendarqa": "lost_in_time",
    "clockqa": "lost_in_time",
    **{
        f"mined_{n}": "mined"
        for n in (
            "awareness_future",
            "awareness_past",
            "calculation",
            "future_unanswerable_date",
            "judge",
            "previous_unanswerable_date",
            "ranking",
            "robustness",
            "temporal_interval",
            "time_agnostic",
            "timestamp",
            "understanding",
        )
    },
    **{
        f"seeing_{n}": "seeing_time"
        for n in (
            "alignment",
            "localization",
            "shortcut",
            "shortcut_cot",
            "sort",
            "year",
            "year_conf",
        )
    },
    "span": "span",
    **{
        f"tp_{n}": "timepercept"
        for n in ("eii", "ice", "ipr", "isr", "pic", "pov", "recognition", "sov", "tal", "tpl")
    },
    "tvqa_order": "timepercept",
    "tvqa_timelapse": "timepercept",
}
"""Task name -> the package under ``chronoeval.suites`` whose import registers it."""

T = TypeVar("T", bound=type[Task])


def register_task(cls: T) -> T:
    """Class decorator: register one instance of a Task subclass under ``cls.name``."""
    if cls.name in _TASKS and type(_TASKS[cls.name]) is not cls:
        raise ValueError(f"task name {cls.name!r} registered twice")
    _TASKS[cls.name] = cls()
    return cls


def load_suites(tasks: Iterable[str] | None = None) -> None:
    """Import the suite packages that register ``tasks`` (every package when None, or when one
    of them is not in :data:`TASK_SUITES`)."""
    global _loaded
    if _loaded:
        return
    if tasks is not None:
        names = [t for t in tasks if t not in _TASKS]
        if all(t in TASK_SUITES for t in names):
            for package in sorted({TASK_SUITES[t] for t in names}):
                importlib.import_module(f"chronoeval.suites.{package}")
            return
    import chronoeval.suites as suites_pkg

    for mod in pkgutil.iter_modules(suites_pkg.__path__):
        importlib.import_module(f"{suites_pkg.__name__}.{mod.name}")
    _loaded = True


def get_task(name: str) -> Task:
    if name not in _TASKS:
        load_suites([name])
    if name not in _TASKS:
        load_suites()
    try:
        return _TASKS[name]
    except KeyError:
        raise UnknownNameError("task", name, list(_TASKS)) from None


def all_tasks() -> dict[str, Task]:
    load_suites()
    return dict(sorted(_TASKS.items()))


def suite_tasks(suite: str) -> list[str]:
    load_suites()
    names = [n for n, t in _TASKS.items() if t.suite == suite]
    if not names:
        raise UnknownNameError("suite", suite, sorted({t.suite for t in _TASKS.values()}))
    return names


def register_prediction_scorer(name: str) -> Callable[[PredictionScorer], PredictionScorer]:
    """Decorator: ``chronoeval score NAME --predictions PATH`` calls the decorated function."""

    def deco(fn: PredictionScorer) -> PredictionScorer:
        _PREDICTION_SCORERS[name] = fn
        return fn

    return deco


def get_prediction_scorer(name: str) -> PredictionScorer:
    load_suites()
    try:
        return _PREDICTION_SCORERS[name]
    except KeyError:
        raise UnknownNameError("prediction scorer", name, list(_PREDICTION_SCORERS)) from None


def suite_command_apps() -> dict[str, Any]:
    """Suite packages that ship a ``commands.py`` with a typer ``app``: package name -> app.

    The CLI mounts each as ``chronoeval <package> ...``; only those packages are imported here."""
    import chronoeval.suites as suites_pkg

    out: dict[str, Any] = {}
    for mod in pkgutil.iter_modules(suites_pkg.__path__):
        if (Path(suites_pkg.__path__[0]) / mod.name / "commands.py").is_file():
            module = importlib.import_module(f"{suites_pkg.__name__}.{mod.name}.commands")
            if getattr(module, "app", None) is not None:
                out[mod.name] = module.app
    return out
