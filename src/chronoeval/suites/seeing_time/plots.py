"""Seeing Time figures: accuracy per era, τ per level, ACC_B/ACC_1/ACC_2 and Δ per domain, the
year-error histogram, alignment accuracy per domain (one bar per model, 95% intervals)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from chronoeval.core.task import RunsByModel  # noqa: E402
from chronoeval.report.figures import fit_title, grouped_bars  # noqa: E402
from chronoeval.suites.seeing_time.eras import DYNASTY_ORDER  # noqa: E402


def localization_plots(runs: RunsByModel, out_dir: Path) -> list[Path]:
    return [
        grouped_bars(
            runs,
            "by_era",
            lambda _c, m: m["accuracy"],
            "Era localisation: accuracy per era",
            "accuracy (%)",
            out_dir / "seeing_localization_by_era.png",
            order=list(DYNASTY_ORDER),
        )
    ]


def sort_plots(runs: RunsByModel, out_dir: Path) -> list[Path]:
    def half(_c: str, m: dict) -> dict:
        v, ci = m["tau"]["value"], m["tau"]["ci95"]
        return {
            "value": None if v is None else (1 + v) / 2,
            "ci95": None if not ci else [(1 + x) / 2 for x in ci],
        }

    return [
        grouped_bars(
            runs,
            "by_level",
            half,
            "Sorting: 50·(1+τ) per level",
            "50·(1+τ)",
            out_dir / "seeing_sort_by_level.png",
            order=["intra", "cross"],
        )
    ]


def shortcut_plots(runs: RunsByModel, out_dir: Path, name: str) -> list[Path]:
    """Δ per domain for each model, and ACC_B / ACC_1 / ACC_2 per domain for the first model."""
    paths = [
        grouped_bars(
            runs,
            "by_domain",
            lambda _c, m: m["delta"],
            f"{name}: Δ = ACC_1 − ACC_2 per domain",
            "Δ (points)",
            out_dir / f"{name}_delta_by_domain.png",
            ylim=(-105, 105),
        )
    ]
    model, (res, _records) = next(iter(runs.items()))
    doms = res.get("metrics", {}).get("by_domain", {})
    if doms:
        fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(doms)), 4))
        x = np.arange(len(doms))
        for k, key in enumerate(("acc_b", "acc_1", "acc_2")):
            vals = [100 * (m[key]["value"] or 0) for m in doms.values()]
            ax.bar(x + (k - 1) * 0.27, vals, 0.27, label=key.upper())
        ax.set_xticks(x, list(doms), rotation=20, ha="right")
        ax.set_ylim(0, 105)
        ax.set_ylabel("accuracy (%)")
        fit_title(
            ax,
            f"{name} · {model}: both colour (B), older grey (1), newer grey (2)",
            fig.get_figwidth(),
        )
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        fig.tight_layout()
        p = out_dir / f"{name}_conditions.png"
        fig.savefig(p, dpi=110)
        plt.close(fig)
        paths.append(p)
    return paths


def year_plots(runs: RunsByModel, out_dir: Path, name: str) -> list[Path]:
    fig, ax = plt.subplots(figsize=(6, 4))
    for model, (_res, records) in runs.items():
        errs = [r.scores.get("abs_err") for r in records if r.scores.get("abs_err") is not None]
        ax.hist(errs, bins=np.arange(0, 41, 1), alpha=0.6, label=f"{model} (valid n={len(errs)})")
    ax.set_xlabel("absolute year error")
    ax.set_ylabel("images")
    ax.set_title(f"{name}: year error histogram")
    ax.legend(fontsize=8)
    fig.tight_layout()
    p = out_dir / f"{name}_error_hist.png"
    fig.savefig(p, dpi=110)
    plt.close(fig)
    return [p]


def alignment_plots(runs: RunsByModel, out_dir: Path) -> list[Path]:
    return [
        grouped_bars(
            runs,
            "by_domain",
            lambda _c, m: m["accuracy"],
            "Event alignment: strict accuracy per domain",
            "accuracy (%)",
            out_dir / "seeing_alignment_by_domain.png",
        )
    ]
