"""The one place that maps names to code: tasks, suites and the default job.

Suites register their tasks on import; :func:`load_suites` imports every package under
``chronoeval.suites`` once, so a new suite needs no edit here.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
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

T = TypeVar("T", bound=type[Task])


def register_task(cls: T) -> T:
    """Class decorator: register one instance of a Task subclass under ``cls.name``."""
    if cls.name in _TASKS and type(_TASKS[cls.name]) is not cls:
        raise ValueError(f"task name {cls.name!r} registered twice")
    _TASKS[cls.name] = cls()
    return cls


def load_suites() -> None:
    global _loaded
    if _loaded:
        return
    import chronoeval.suites as suites_pkg

    for mod in pkgutil.iter_modules(suites_pkg.__path__):
        importlib.import_module(f"{suites_pkg.__name__}.{mod.name}")
    _loaded = True


def get_task(name: str) -> Task:
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
