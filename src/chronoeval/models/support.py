"""Impossible set-ups, refused before any dataset is built or any request is sent.

``--model random`` on a task with no random baseline, ``--model reference`` on a task without a
reference agent, ``--model hf:…`` without the ``hf`` extra installed: each is one line saying what
is wrong and how to fix it, instead of one stored error per item (or a traceback).
"""

from __future__ import annotations

import importlib.util

from chronoeval.core.errors import ChronoevalError, NotApplicable
from chronoeval.core.task import Task

EXTRA_MODULES = {
    "hf": ("hf", ("torch", "transformers")),
    "ray": ("ray", ("ray",)),
    "ray-vllm": ("ray", ("ray",)),
}
"""Backend name -> (the extra that installs it, the modules it needs)."""


def missing_extra(name: str) -> str | None:
    """The install command for a backend whose modules are absent; None when it can load."""
    if name not in EXTRA_MODULES:
        return None
    extra, modules = EXTRA_MODULES[name]
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            return f"pip install 'chronoeval[{extra}]' (the {name} backend needs {module})"
    return None


def check_supported(spec: str, tasks: list[Task]) -> None:
    """Raise :class:`ChronoevalError` when ``spec`` cannot load (a missing extra), and
    :class:`NotApplicable` when it cannot answer one of ``tasks`` at all."""
    name = spec.partition(":")[0].strip()
    install = missing_extra(name)
    if install:
        raise ChronoevalError(f"--model {spec}: not installed; {install}")
    for task in tasks:
        if name == "random" and type(task).random_answer is Task.random_answer:
            raise NotApplicable(
                f"task {task.name!r} has no random baseline; use --model majority or "
                "constant:<answer>, or drop the task"
            )
        if name == "reference" and task.reference_agent() is None:
            raise NotApplicable(f"task {task.name!r} has no reference agent")
