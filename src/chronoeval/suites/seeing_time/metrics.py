"""Seeing Time metrics: Kendall τ, the shortcut Δ, year accuracy/MAE, confidence bins, composite.

Each function names its source: the paper (Zhou et al., arXiv 2606.05702, Sec. V-B/V-C, VII) or
the released scripts (peers/chronovision/prompts.json).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

# Paper Eq. 4: τ = 2(C − D) / (k(k − 1)) over the k items' pairs — Kendall's τ, from core.ranking.
from chronoeval.core.ranking import kendall_tau as kendall_tau
from chronoeval.core.stats import bootstrap_ci, mean_metric, metric


def score50(tau: float) -> float:
    """The paper's Table III sort column: 50 · (1 + τ)."""
    return 50.0 * (1.0 + tau)


# -- shortcut ------------------------------------------------------------------------------------
CONDITIONS = {
    "B": "both in colour",
    "1": "older image in grayscale",
    "2": "newer image in grayscale",
}


def shortcut_summary(rows: list[tuple[str, str, float]], *, seed: int = 0) -> dict[str, Any]:
    """ACC_B, ACC_1, ACC_2 and Δ = ACC_1 − ACC_2 from (pair id, condition, correct) rows.

    Source: paper Sec. IV-B and Table III (ACC_B: both colour; ACC_1: the older image grey, the
    shortcut agrees with the truth; ACC_2: the newer image grey, it conflicts; Δ_ACC = ACC_1 −
    ACC_2, which the paper's Table III and IV rows satisfy exactly). Δ's interval is a bootstrap
    over pairs that have both grey conditions scored.
    """
    by_cond: dict[str, list[float]] = {c: [] for c in CONDITIONS}
    pairs: dict[str, dict[str, float]] = {}
    for pair, cond, correct in rows:
        by_cond[cond].append(correct)
        pairs.setdefault(pair, {})[cond] = correct
    out: dict[str, Any] = {
        "acc_b": mean_metric(by_cond["B"], seed=seed),
        "acc_1": mean_metric(by_cond["1"], seed=seed),
        "acc_2": mean_metric(by_cond["2"], seed=seed),
    }
    a1, a2 = out["acc_1"]["value"], out["acc_2"]["value"]
    both = np.array(
        [[p["1"], p["2"]] for p in pairs.values() if "1" in p and "2" in p], dtype=float
    )
    ci = (
        bootstrap_ci(both, lambda idx: float(both[idx, 0].mean() - both[idx, 1].mean()), seed=seed)
        if len(both)
        else None
    )
    out["delta"] = metric(a1 - a2 if a1 is not None and a2 is not None else None, ci, len(both))
    return out


def cot_effect(plain: dict[str, Any], cot: dict[str, Any]) -> dict[str, Any]:
    """The Δ reduction the CoT debiasing prompt buys (paper Table VII: Δ_CoT − Δ_plain).

    ``plain`` and ``cot`` are shortcut aggregates (``overall`` and ``by_domain``)."""

    def row(p: dict[str, Any], c: dict[str, Any]) -> dict[str, Any]:
        dp, dc = p["delta"]["value"], c["delta"]["value"]
        return {
            "delta_plain": dp,
            "delta_cot": dc,
            "change": dc - dp if dp is not None and dc is not None else None,
        }

    out = {"overall": row(plain["overall"], cot["overall"]), "by_domain": {}}
    for dom in plain.get("by_domain", {}):
        if dom in cot.get("by_domain", {}):
            out["by_domain"][dom] = row(plain["by_domain"][dom], cot["by_domain"][dom])
    return out


# -- year ------------------------------------------------------------------------------------------
def year_scores(pred: int | None, gold: int) -> dict[str, float | None]:
    """Per item: exact (0 when invalid), abs_err (None when invalid), valid, within 1 / 3 years."""
    if pred is None:
        return {"exact": 0.0, "abs_err": None, "valid": 0.0, "within1": 0.0, "within3": 0.0}
    e = abs(pred - gold)
    return {
        "exact": float(e == 0),
        "abs_err": float(e),
        "valid": 1.0,
        "within1": float(e <= 1),
        "within3": float(e <= 3),
    }


def year_summary(scores: list[dict[str, Any]], *, seed: int = 0) -> dict[str, Any]:
    """Released news-year rules: accuracy over all items (invalid = wrong), MAE over valid
    predictions only, and the invalid count (prompts.json ``news_year.scoring``)."""
    errs = [s["abs_err"] for s in scores if s.get("abs_err") is not None]
    return {
        "accuracy": mean_metric([s["exact"] for s in scores], seed=seed),
        "mae": mean_metric(errs, seed=seed),
        "within1": mean_metric([s["within1"] for s in scores], seed=seed),
        "within3": mean_metric([s["within3"] for s in scores], seed=seed),
        "invalid": sum(1 for s in scores if not s.get("valid")),
        "n": len(scores),
    }


CONFIDENCE_BINS = ((0, 59), (60, 69), (70, 79), (80, 89), (90, 94), (95, 100))
"""Paper Table V's bins; its last bin is 95–99, ours holds 100 too (docs: decision C1)."""


def confidence_table(
    rows: list[tuple[float | None, dict[str, Any]]], *, seed: int = 0
) -> dict[str, Any]:
    """Paper Table V: per confidence bin, count, exact accuracy, ≤1 y and ≤3 y accuracy.

    ``rows``: (confidence or None, the item's year scores). Items with no readable confidence
    are their own row, never dropped."""
    out: dict[str, Any] = {}
    for lo, hi in CONFIDENCE_BINS:
        sel = [s for c, s in rows if c is not None and lo <= c <= hi]
        out[f"{lo}-{hi}"] = _bin(sel, seed)
    out["none"] = _bin([s for c, s in rows if c is None], seed)
    return out


def _bin(sel: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    return {
        "n": len(sel),
        "accuracy": mean_metric([s["exact"] for s in sel], seed=seed),
        "within1": mean_metric([s["within1"] for s in sel], seed=seed),
        "within3": mean_metric([s["within3"] for s in sel], seed=seed),
    }


def period_bins(years: Sequence[int], width: int = 10) -> list[tuple[int, int]]:
    """Paper Table VI's periods: ``width``-year ranges from the earliest year (1952–1961, …)."""
    if not years:
        return []
    lo, hi = min(years), max(years)
    return [(y, min(y + width - 1, hi)) for y in range(lo, hi + 1, width)]


def confidence_by_period(rows: list[tuple[int, float | None]], *, seed: int = 0) -> dict[str, Any]:
    """Paper Table VI: mean confidence per period of the gold year (items with a confidence)."""
    out = {}
    for lo, hi in period_bins([y for y, _ in rows]):
        confs = [c for y, c in rows if lo <= y <= hi and c is not None]
        out[f"{lo}-{hi}"] = mean_metric(confs, seed=seed)
    return out


# -- trivial baselines (paper Sec. VII-A) -----------------------------------------------------------
def constant_year_baselines(years: Sequence[int]) -> dict[str, dict[str, float]]:
    """Always answering the mode / mean / median gold year: that year, its MAE and accuracy.

    Source: paper Sec. VII-A. Mode ties go to the earliest year; the mean is rounded to a whole
    year; the median is the lower median (an actual year) — docs: decision B1.
    """
    arr = np.asarray(years, dtype=int)
    vals, counts = np.unique(arr, return_counts=True)
    mode = int(vals[np.argmax(counts)])
    mean = int(np.floor(arr.mean() + 0.5))
    median = int(np.sort(arr)[(len(arr) - 1) // 2])
    out = {}
    for name, y in (("mode", mode), ("mean", mean), ("median", median)):
        out[name] = {
            "year": y,
            "mae": float(np.abs(arr - y).mean()),
            "accuracy": float((arr == y).mean()),
        }
    return out


def constant_label_baselines(labels: Sequence[str]) -> dict[str, float]:
    """Always answering one label (e.g. dynasty): its accuracy (paper Sec. VII-A)."""
    n = len(labels)
    return {lab: sum(1 for x in labels if x == lab) / n for lab in dict.fromkeys(labels)}


# -- composite (paper Sec. V-C) -------------------------------------------------------------------
MAE_MAX = 80.0
"""Paper Eq. 9's normalisation: the 1946–2025 span."""


def composite(
    acc_a: float,
    tau: float,
    acc_b: float,
    delta: float,
    acc_y: float,
    mae: float,
    acc_m: float,
    *,
    mae_max: float = MAE_MAX,
) -> dict[str, float]:
    """Paper Eq. 6–9, all inputs as fractions (not percent):

    S_A = ½(ACC_A + (1 + τ)/2);  S_S = ACC_B · (1 − |Δ|);
    S_N = ½(ACC_Y · (1 − MAE/MAE_max) + ACC_M);  S = (S_A + S_S + S_N)/3.
    """
    s_a = 0.5 * (acc_a + (1.0 + tau) / 2.0)
    s_s = acc_b * (1.0 - abs(delta))
    s_n = 0.5 * (acc_y * (1.0 - mae / mae_max) + acc_m)
    return {"S_A": s_a, "S_S": s_s, "S_N": s_n, "S": (s_a + s_s + s_n) / 3.0}
