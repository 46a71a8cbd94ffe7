"""Figures for runs: each task draws its own paper figures from the shared chart helpers here;
:func:`write_run_figures` routes each task's results and records to it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from chronoeval.core.task import RunsByModel, SampleRecord  # noqa: E402
from chronoeval.report.memo import schedule_task_figures, task_figures  # noqa: E402

_deferred = False


@contextmanager
def figures_in_background() -> Iterator[None]:
    """Within: :func:`write_run_figures` starts each task's figures in a worker process
    (report/memo.py ``schedule_task_figures``) and returns without waiting, when there is a
    worker pool. ``chronoeval run`` draws each run's figures so, while it goes on with the next
    run and the reports; the reports wait for the figures they show, and
    ``memo.wait_all()`` for the rest."""
    global _deferred
    before, _deferred = _deferred, True
    try:
        yield
    finally:
        _deferred = before


def in_background() -> bool:
    """Within :func:`figures_in_background`."""
    return _deferred


def write_run_figures(
    by_model: dict[str, tuple[dict[str, Any], list[SampleRecord]]],
    out_dir: Path,
    *,
    wait: bool | None = None,
) -> list[Path]:
    """Figures for one run (one model) or a job (several models on the same tasks).

    With ``wait=False``, or within :func:`figures_in_background` unless ``wait=True``, a task's
    figures go to a worker process when there is one and are not in the returned list (they are
    written when drawn)."""
    defer = _deferred if wait is None else not wait
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
        if not any(
            r.status in ("answered", "no_answer") for _, recs in runs.values() for r in recs
        ):
            continue  # nothing answered: no empty charts (the report says so in words)
        out_dir.mkdir(parents=True, exist_ok=True)
        if defer and schedule_task_figures(name, runs, out_dir):
            continue
        written += task_figures(name, runs, out_dir)
    return written


def grouped_bars(
    runs: RunsByModel,
    group_key: str,
    metric_of: Any,
    title: str,
    ylabel: str,
    path: Path,
    order: tuple[str, ...] | list[str] = (),
    ylim: tuple[float, float] = (0, 105),
) -> Path:
    """One group of bars per category, one bar per model, error bars from the 95% intervals.

    Values are fractions drawn as percent; ``ylim`` (in percent) must admit negative values for
    signed metrics such as a difference of accuracies."""
    models = list(runs)
    cats: list[str] = []
    for res, _ in runs.values():
        cats += [c for c in res.get("metrics", {}).get(group_key, {}) if c not in cats]
    rank = {c: i for i, c in enumerate(order)}
    cats.sort(key=lambda c: (rank.get(c, len(rank)), c))
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(cats) * max(1, len(models)) ** 0.5), 4))
    width = 0.8 / max(1, len(models))
    x = np.arange(len(cats))
    for k, model in enumerate(models):
        groups = runs[model][0].get("metrics", {}).get(group_key, {})
        vals, lo, hi = [], [], []
        for c in cats:
            m = metric_of(c, groups[c]) if c in groups else None
            v = (m or {}).get("value")
            vals.append(100 * v if v is not None else 0)
            ci = (m or {}).get("ci95") or [v, v]
            lo.append(100 * (v - ci[0]) if v is not None and ci[0] is not None else 0)
            hi.append(100 * (ci[1] - v) if v is not None and ci[1] is not None else 0)
        ax.bar(
            x + (k - (len(models) - 1) / 2) * width,
            vals,
            width,
            yerr=[lo, hi],
            capsize=3,
            label=model,
        )
    ax.set_xticks(x, cats, rotation=20, ha="right")
    ax.set_ylim(*ylim)
    if ylim[0] < 0:
        ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel(ylabel)
    fit_title(ax, title, fig.get_figwidth())
    if len(models) > 1:  # beside the axes, never over the bars; one model needs no legend
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def fit_title(ax: Any, title: str, width_in: float, fontsize: float = 10) -> None:
    """A title wrapped to the figure's width (about 1/7 inch per character at 10 pt) instead of
    clipped at its edges."""
    import textwrap

    per_line = max(20, int(width_in * 72 / (fontsize * 0.6)))
    ax.set_title(textwrap.fill(title, per_line), fontsize=fontsize)


def profile_chart(
    rows: list[tuple[str, str, str, str, dict[str, Any]]],
    path: Path,
) -> Path:
    """The cross-suite temporal profile: one group of bars per task, one bar per run, each the
    task's headline metric (in %) with its 95% interval; a black tick marks the task's chance.

    ``rows``: (suite, task, headline label, run label, {"value", "ci95", "chance"}); values must be
    proportions in [0, 1] (the caller leaves other units out and says so).
    """
    tasks: list[tuple[str, str, str]] = []
    runs: list[str] = []
    for suite, task, label, run, _ in rows:
        if (suite, task, label) not in tasks and all(t[1] != task for t in tasks):
            tasks.append((suite, task, label))
        if run not in runs:
            runs.append(run)
    tasks.sort(key=lambda t: (t[0], t[1]))
    index = {t[1]: i for i, t in enumerate(tasks)}
    width = 0.8 / max(1, len(runs))
    fig, ax = plt.subplots(
        figsize=(max(6.0, 1.0 + 1.2 * len(tasks) * max(1, len(runs)) ** 0.5), 4.2)
    )
    for k, run in enumerate(runs):
        xs, vals, lo, hi = [], [], [], []
        for _suite, task, _label, r, m in rows:
            if r != run or m.get("value") is None:
                continue
            v = float(m["value"])
            ci = m.get("ci95") or (v, v)
            xs.append(index[task] + (k - (len(runs) - 1) / 2) * width)
            vals.append(100 * v)
            lo.append(100 * max(0.0, v - ci[0]))
            hi.append(100 * max(0.0, ci[1] - v))
        ax.bar(xs, vals, width, yerr=[lo, hi], capsize=3, label=run)
    for i, (_suite, task, _label) in enumerate(tasks):
        chance = next((m.get("chance") for _, t, _, _, m in rows if t == task), None)
        if chance is not None:
            ax.hlines(100 * chance, i - 0.45, i + 0.45, colors="black", linewidths=2)
    ax.set_xticks(
        np.arange(len(tasks)),
        [f"{s}\n{t}\n({label})" for s, t, label in tasks],
        fontsize=8,
    )
    ax.set_ylim(0, 105)
    ax.set_ylabel("headline metric (%)")
    ax.set_title("Temporal profile (headline metric, 95% CI; black: chance)", fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
