"""The ``grayprior`` backend: :func:`~chronoeval.suites.seeing_time.agents.gray_prior_agent` on the
shortcut tasks (a deliberately biased pixel reader, to show what Δ measures)."""

from __future__ import annotations

from chronoeval.core.errors import NotApplicable
from chronoeval.core.items import Item
from chronoeval.core.task import Task
from chronoeval.models.base import Backend
from chronoeval.models.registry import BackendOptions, register_backend


@register_backend("grayprior")
def _grayprior(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.local import FunctionBackend
    from chronoeval.suites.seeing_time.agents import gray_prior_agent

    if not task.name.startswith("seeing_shortcut"):
        raise NotApplicable(
            f"grayprior answers the seeing_shortcut tasks only (a grey-vs-colour pair); "
            f"{task.name} has none"
        )
    return FunctionBackend(
        f"grayprior/{task.name}",
        lambda r: gray_prior_agent(r.messages, r.read_image),
        threaded=True,
    )
