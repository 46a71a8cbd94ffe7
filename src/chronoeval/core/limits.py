"""``--n`` and ``--limit``: how many items a task runs on, for every kind of data source.

``limit`` keeps a dataset's first ``limit`` items (generated, a chronoeval dataset directory, or a
released layout such as DateTimeQA) — the same prefix every time, so a limited run resumes and
re-scores like any other. ``n`` asks a generator for that many items where the generator has an
``n`` parameter; elsewhere (a generator sized by other parameters, e.g. Seeing Time's sort task
with ``n_intra``/``n_cross``, or external data) it is applied as a limit, so ``--n`` works for a
whole suite.
"""

from __future__ import annotations

from chronoeval.core.errors import ChronoevalError
from chronoeval.core.task import Task


def check_limit(limit: int | None, flag: str = "--limit") -> None:
    if limit is not None and (isinstance(limit, bool) or int(limit) != limit or limit < 1):
        raise ChronoevalError(f"{flag} must be a positive whole number, got {limit!r}")


def split_n(
    task: Task, n: int | None, limit: int | None, *, external: bool = False
) -> tuple[int | None, int | None]:
    """(``n`` to pass to the generator, ``limit`` to apply to the items) for one task."""
    check_limit(n, "--n")
    check_limit(limit)
    if n is None or (not external and "n" in task.default_params):
        return n, limit
    return None, n if limit is None else min(n, limit)
