"""TimePerceptBench figure: each task's headline (accuracy, or PNR for the ranking tasks) against
the time span its images cover (days → years), one line per model, 95% intervals, chance dashed.
Shows whether temporal order and interval judgements get easier as the span grows."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from chronoeval.core.task import RunsByModel  # noqa: E402
from chronoeval.suites.timepercept.samplers import ICE_LABELS  # noqa: E402

if TYPE_CHECKING:
    from chronoeval.suites.timepercept.tasks import TimePerceptTask


def span_plot(task: TimePerceptTask, runs: RunsByModel, out_dir: Path) -> Path:
    key = "pnr" if task.kind == "order" else "accuracy"
    scale = 1.0 if key == "pnr" else 100.0
    fig, ax = plt.subplots(figsize=(7, 4))
    for model, (res, _records) in runs.items():
        groups: dict[str, Any] = res.get("metrics", {}).get("by_span_bucket", {})
        cats = [c for c in ("same day", *ICE_LABELS) if c in groups]
        xs, ys, lo, hi = [], [], [], []
        for x, c in enumerate(cats):
            m = groups[c][key]
            if m.get("value") is None:
                continue
            v = m["value"] * scale
            ci = m.get("ci95") or [m["value"], m["value"]]
            xs.append(x)
            ys.append(v)
            lo.append(v - (ci[0] if ci[0] is not None else m["value"]) * scale)
            hi.append((ci[1] if ci[1] is not None else m["value"]) * scale - v)
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=model)
        ax.set_xticks(range(len(cats)), cats, rotation=20, ha="right", fontsize=8)
    ax.axhline(task.chance_level * scale, color="grey", linestyle="--", label="chance")
    ax.set_xlabel("time span covered by the item's images")
    ax.set_ylabel("PNR" if key == "pnr" else "accuracy (%)")
    ax.set_title(f"{task.name}: {key} by time span")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / f"{task.name}_by_span.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
