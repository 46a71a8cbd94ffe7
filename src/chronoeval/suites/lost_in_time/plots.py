"""Lost in Time figures: accuracy per clock style and per calendar question type (the paper's
Figures 3–4, one bar per model with 95% intervals), and the clock error histogram."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from chronoeval.core.task import RunsByModel as Runs  # noqa: E402
from chronoeval.report.figures import grouped_bars  # noqa: E402
from chronoeval.suites.lost_in_time.answers import CLOCK_STYLES  # noqa: E402
from chronoeval.suites.lost_in_time.calendar_questions import CALENDAR_QUESTION_TYPES  # noqa: E402


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
