"""Draw each figure and thumbnail once per process.

``chronoeval run`` scores a run (writing ``plots/``), then writes the run's HTML report, then, for
several models, the comparison figures and a combined report: the same task figures used to be
drawn two or three times from the same numbers (matplotlib's savefig is most of a small job's
fixed cost). Here a figure is keyed by what it is drawn from — the task, and for each run its label,
task results and sample records, as canonical JSON — and its PNG bytes are kept; a second request
for the same figure copies the bytes instead of drawing. Thumbnails of dataset images are keyed by
the image's sha256 (the dataset's own content address).

The memo lives only in this process and is bounded; it never changes what is drawn: a hit writes
the very bytes a fresh draw of the same input wrote before.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from chronoeval.core.task import RunsByModel

MAX_FIGURE_SETS = 64
MAX_THUMBS = 4096

_figures: OrderedDict[str, list[tuple[str, bytes]]] = OrderedDict()
_pending: dict[str, Future[list[tuple[str, bytes]]]] = {}
"""Figure sets being drawn in a worker process (:func:`schedule_task_figures`)."""
_thumbs: OrderedDict[str, str] = OrderedDict()
stats = {"figure_draws": 0, "figure_hits": 0, "thumb_draws": 0, "thumb_hits": 0}
"""Counters for benchmarks and tests (draws vs reuses in this process)."""


def _digest(obj: Any) -> str:
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def runs_key(task: str, runs: RunsByModel) -> str:
    """The identity of a task's figures: what they are drawn from, nothing else."""
    return _digest(
        [
            "task",
            task,
            [
                [label, entry, [r.to_json() for r in records]]
                for label, (entry, records) in runs.items()
            ],
        ]
    )


def _put(memo: OrderedDict[str, Any], key: str, value: Any, cap: int) -> None:
    memo[key] = value
    memo.move_to_end(key)
    while len(memo) > cap:
        memo.popitem(last=False)


def memo_figures(key: str, out_dir: Path, draw: Callable[[], list[Path]]) -> list[Path]:
    """The figures ``draw`` writes into ``out_dir``, drawn once per ``key`` in this process (or
    once in a worker process, when :func:`schedule_task_figures` sent them there)."""
    _collect(key)
    hit = _figures.get(key)
    if hit is not None:
        stats["figure_hits"] += 1
        out_dir.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, data in hit:
            path = out_dir / name
            if not (path.is_file() and path.read_bytes() == data):
                path.write_bytes(data)
            paths.append(path)
        return paths
    stats["figure_draws"] += 1
    paths = draw()
    _put(_figures, key, [(p.name, p.read_bytes()) for p in paths], MAX_FIGURE_SETS)
    return paths


def task_figures(task: str, runs: RunsByModel, out_dir: Path) -> list[Path]:
    """``get_task(task).plots(runs, out_dir)``, drawn once per distinct input."""
    from chronoeval.core.registry import get_task

    return memo_figures(runs_key(task, runs), out_dir, lambda: get_task(task).plots(runs, out_dir))


def _draw_in_worker(task: str, runs: RunsByModel, out_dir: str) -> list[tuple[str, bytes]]:
    """In a worker process: ``get_task(task).plots`` into ``out_dir``, returned as (name, bytes)."""
    from chronoeval.core.registry import get_task

    paths = get_task(task).plots(runs, Path(out_dir))
    return [(p.name, p.read_bytes()) for p in paths]


def schedule_task_figures(task: str, runs: RunsByModel, out_dir: Path) -> bool:
    """Start drawing ``task_figures(task, runs, out_dir)`` in a worker process (the agent pool,
    models/agent_pool.py) and return at once; False (nothing started) without a pool.

    The worker writes the files into ``out_dir``; the bytes come back into this memo, so a later
    :func:`task_figures` of the same input (a report) waits for them instead of drawing again.
    The figures are drawn by the same code from the same input in a fork of this process: the
    bytes are those a draw here would write."""
    from chronoeval.models.agent_pool import get_pool

    key = runs_key(task, runs)
    if key in _figures or key in _pending:
        return True
    pool = get_pool()
    if pool is None:
        return False
    out_dir.mkdir(parents=True, exist_ok=True)
    _pending[key] = pool.call(_draw_in_worker, task, runs, str(out_dir))
    stats["figure_draws"] += 1
    return True


def _background_pool() -> Any:
    """The worker pool, while figures are drawn in the background
    (``report.figures.figures_in_background``, ``chronoeval run``) and a pool is started; else
    None."""
    from chronoeval.report import figures

    if not figures.in_background():
        return None
    from chronoeval.models.agent_pool import get_pool

    return get_pool()


def schedule_call(fn: Callable[..., Any], *args: Any) -> Future[Any] | None:
    """``fn(*args)`` started in a worker process while figures are drawn in the background; None
    otherwise (the caller then computes it itself)."""
    pool = _background_pool()
    return None if pool is None else pool.call(fn, *args)


def profile_png(rows: list[Any]) -> bytes:
    """The temporal-profile chart's PNG bytes (``report.figures.profile_chart``)."""
    import tempfile

    from chronoeval.report.figures import profile_chart

    with tempfile.TemporaryDirectory(prefix="chronoeval-profile-") as tmp:
        return profile_chart(rows, Path(tmp) / "profile.png").read_bytes()


def _collect(key: str) -> None:
    fut = _pending.pop(key, None)
    if fut is not None:
        _put(_figures, key, fut.result(), MAX_FIGURE_SETS)


def wait_all() -> None:
    """Wait for every figure set still being drawn in a worker (its files then exist); a failed
    draw raises here as it would have where it was asked for."""
    for key in list(_pending):
        _collect(key)


_thumbs_pending: dict[str, Future[dict[str, str]]] = {}
"""Thumbnails being made in a worker process (:func:`schedule_thumbnails`), by sha256."""


def _thumbs_in_worker(jobs: list[tuple[str, str]], make: Callable[[bytes], str]) -> dict[str, str]:
    """In a worker: ``make(bytes of the file)`` per (sha256, path); an image that cannot be
    made is left out (the report then makes it itself and reports the problem as before)."""
    out = {}
    for sha256, path in jobs:
        try:
            out[sha256] = make(Path(path).read_bytes())
        except Exception:  # noqa: BLE001, S112 - redone (and reported) where it is shown
            continue
    return out


def schedule_thumbnails(jobs: list[tuple[str, str]], make: Callable[[bytes], str]) -> None:
    """Start making the thumbnails of (sha256, image path) pairs in the worker processes (split
    evenly among them) while figures are drawn in the background; nothing otherwise. A later
    :func:`thumbnail` of one of them waits for its batch instead of making it here."""
    pool = _background_pool()
    if pool is None:
        return
    todo = list(
        dict.fromkeys(
            (sha, path) for sha, path in jobs if sha not in _thumbs and sha not in _thumbs_pending
        )
    )
    parts = max(1, min(pool.workers, len(todo)))
    for k in range(parts):
        batch = todo[k::parts]
        if batch:
            fut = pool.call(_thumbs_in_worker, batch, make)
            for sha, _path in batch:
                _thumbs_pending.setdefault(sha, fut)


def thumbnail(sha256: str, read: Callable[[], bytes], make: Callable[[bytes], str]) -> str:
    """``make(read())`` for an image, computed once per sha256 in this process (or in a worker,
    when :func:`schedule_thumbnails` sent it there)."""
    fut = _thumbs_pending.pop(sha256, None)
    if fut is not None and sha256 not in _thumbs:
        made = fut.result().get(sha256)
        if made is not None:
            stats["thumb_draws"] += 1
            _put(_thumbs, sha256, made, MAX_THUMBS)
            return made
    uri = _thumbs.get(sha256)
    if uri is not None:
        stats["thumb_hits"] += 1
        return uri
    stats["thumb_draws"] += 1
    uri = make(read())
    _put(_thumbs, sha256, uri, MAX_THUMBS)
    return uri


def clear() -> None:
    wait_all()
    for fut in _thumbs_pending.values():
        fut.result()
    _thumbs_pending.clear()
    _figures.clear()
    _thumbs.clear()
    for k in stats:
        stats[k] = 0
