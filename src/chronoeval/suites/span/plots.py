"""SPAN figures, after the paper's Figures 2–5: accuracy over the evaluation dates, overall (one
line per model) and split by reasoning type, question format and direction group."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from chronoeval.core.task import RunsByModel, SampleRecord  # noqa: E402
from chronoeval.suites.span.metrics import correct_of  # noqa: E402

FIGURES = (
    ("span_fig2_accuracy_by_date.png", None, "Accuracy over evaluation dates (Fig. 2)"),
    ("span_fig3_by_type.png", "type", "Date-based vs festival-based (Fig. 3)"),
    ("span_fig4_by_format.png", "format", "Content vs polar questions (Fig. 4)"),
    ("span_fig5_by_group.png", "group", "Gregorian->others vs others->Gregorian (Fig. 5)"),
)


def _series(records: list[SampleRecord], key: str | None) -> dict[str, dict[str, float]]:
    sums: dict[str, dict[str, list[float]]] = {}
    for r in records:
        if r.status not in ("answered", "no_answer"):
            continue
        label = "all" if key is None else str(r.metadata.get(key))
        sums.setdefault(label, {}).setdefault(str(r.metadata.get("eval_date")), []).append(
            correct_of(r)
        )
    return {lab: {d: sum(v) / len(v) for d, v in sorted(s.items())} for lab, s in sums.items()}


def span_plots(runs: RunsByModel, out_dir: Path) -> list[Path]:
    paths = []
    for fname, key, title in FIGURES:
        fig, ax = plt.subplots(figsize=(8, 4))
        for model, (_res, records) in runs.items():
            for label, series in sorted(_series(records, key).items()):
                xs = list(series)
                ys = [100 * series[x] for x in xs]
                mean = sum(ys) / len(ys) if ys else 0.0
                name = model if key is None else f"{model}: {label}"
                ax.plot([x[:4] for x in xs], ys, marker="o", label=f"{name} (avg {mean:.1f})")
        ax.set_ylim(0, 105)
        ax.set_xlabel("evaluation date (July 1st)")
        ax.set_ylabel("accuracy (%)")
        ax.set_title(f"SPAN: {title}")
        ax.legend(fontsize=7)
        ax.tick_params(axis="x", labelrotation=45)
        fig.tight_layout()
        path = out_dir / fname
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths
