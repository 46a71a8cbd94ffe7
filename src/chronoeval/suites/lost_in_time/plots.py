"""Lost in Time figures: accuracy per clock style and per calendar question type (the paper's
Figures 3–4, one bar per model with 95% intervals), and the clock error histogram."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from chronoeval.core.task import SampleRecord  # noqa: E402
from chronoeval.suites.lost_in_time.answers import CLOCK_STYLES  # noqa: E402
from chronoeval.suites.lost_in_time.calendar_questions import CALENDAR_QUESTION_TYPES  # noqa: E402

Runs = dict[str, tuple[dict[str, Any], list[SampleRecord]]]


def grouped_bars(
    runs: Runs,
    group_key: str,
    metric_of: Any,
    title: str,
    ylabel: str,
    path: Path,
    order: tuple[str, ...] | list[str] = (),
) -> Path:
    """One group of bars per category, one bar per model, error bars from the 95% intervals."""
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
    ax.set_ylim(0, 105)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def clock_plots(runs: Runs, out_dir: Path) -> list[Path]:
    bars = grouped_bars(
        runs,
        "by_style",
        lambda _c, m: m[m.get("headline", "em")],
        "ClockQA: exact match per clock style (HM-EM where there is no second hand)",
        "exact match (%)",
        out_dir / "clockqa_by_style.png",
        order=CLOCK_STYLES,
    )
    fig, ax = plt.subplots(figsize=(6, 4))
    bins = np.linspace(0, 21600, 37)
    for model, (_res, records) in runs.items():
        errs = [r.scores.get("abs_err_s") for r in records if r.status == "answered"]
        errs = [e for e in errs if e is not None]
        ax.hist(errs, bins=bins, alpha=0.6, label=f"{model} (n={len(errs)})")
    ax.set_xlabel("absolute error on the 12-hour dial (s, max 21,600)")
    ax.set_ylabel("answers")
    ax.set_title("ClockQA: error histogram")
    ax.legend(fontsize=8)
    fig.tight_layout()
    hist = out_dir / "clockqa_error_hist.png"
    fig.savefig(hist, dpi=110)
    plt.close(fig)
    return [bars, hist]


def calendar_plots(runs: Runs, out_dir: Path) -> list[Path]:
    return [
        grouped_bars(
            runs,
            "by_qtype",
            lambda _c, m: m["accuracy"],
            "CalendarQA: accuracy per question type",
            "accuracy (%)",
            out_dir / "calendarqa_by_qtype.png",
            order=CALENDAR_QUESTION_TYPES,
        )
    ]
