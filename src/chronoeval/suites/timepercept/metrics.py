"""TimePerceptBench metrics: accuracy, PNR and Kendall τ, each with a percentile-bootstrap interval.

Sources: the paper, §III-D, eq. (1): for every pair of images (i, j) of one sequence, the pair is
*positive* when (rank_pred(i) − rank_pred(j)) · (rank_true(i) − rank_true(j)) > 0 and *negative*
when it is < 0; PNR = N_positive / N_negative. Kendall (1938) τ = (P − N) / C(n, 2) for
permutations without ties. Accuracy is the paper's metric for every other task. Intervals:
:mod:`chronoeval.core.stats` (percentile bootstrap over samples).

Decisions (the paper is silent; see docs/suites/timepercept.md):

- PNR aggregates by **summed counts** over samples: PNR = ΣP / ΣN (a ratio of sums, not a mean of
  per-sample ratios, which is undefined whenever one sample has no negative pair).
- A missing or invalid permutation (duplicates, missing or out-of-range positions, NoAnswer)
  counts as **all pairs negative** (P = 0, N = C(n, 2), τ = −1): it stays in the denominator and
  cannot score better than any real answer. ``pnr_valid`` (over valid answers only) and
  ``invalid_rate`` are reported beside it.
- ΣN = 0 (no discordant pair in the whole set): PNR is infinite; ``value`` is None and
  ``infinite`` is True. A bootstrap resample with ΣN = 0 is infinite too; an interval bound that is
  infinite is reported as None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from chronoeval.core.ranking import pair_counts
from chronoeval.core.stats import N_BOOT, mean_metric, metric


def order_scores(pred_order: Sequence[Any] | None, true_order: Sequence[Any]) -> dict[str, float]:
    """Per-sample scores for a ranking task: ``pos``, ``neg`` (pair counts), ``tau``, ``exact``
    (whole order right), ``valid``. ``pred_order`` None (NoAnswer or invalid): all pairs negative."""
    n_pairs = len(true_order) * (len(true_order) - 1) // 2
    valid = pred_order is not None
    if valid:
        try:
            pos, neg = pair_counts(pred_order, true_order)  # type: ignore[arg-type]
        except ValueError:
            valid = False
    if not valid:
        pos, neg = 0, n_pairs
    return {
        "pos": float(pos),
        "neg": float(neg),
        "tau": (pos - neg) / n_pairs if n_pairs else 0.0,
        "exact": float(valid and pos == n_pairs),
        "valid": float(valid),
    }


def _ratio(p: np.ndarray, n: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n > 0, p / np.where(n > 0, n, 1), np.inf)


def pnr_metric(pos: Sequence[float], neg: Sequence[float], *, seed: int = 0) -> dict[str, Any]:
    """PNR = ΣP / ΣN with a percentile-bootstrap interval over samples (summed counts)."""
    p, n = np.asarray(pos, dtype=float), np.asarray(neg, dtype=float)
    if len(p) == 0:
        return metric(None, None, 0)
    value = float(_ratio(p.sum(keepdims=True), n.sum(keepdims=True))[0])
    ci = None
    if len(p) >= 2:
        idx = np.random.default_rng(seed).integers(0, len(p), size=(N_BOOT, len(p)))
        boot = _ratio(p[idx].sum(1), n[idx].sum(1))
        with np.errstate(invalid="ignore"):
            lo, hi = np.quantile(boot, [0.025, 0.975])
        ci = (float(lo), float(hi))
    out = metric(None if np.isinf(value) else value, None, len(p))
    if ci is not None:
        out["ci95"] = [None if not np.isfinite(x) else x for x in ci]
    out["infinite"] = bool(np.isinf(value))
    return out


def order_aggregate(scores: Sequence[dict[str, Any]], *, seed: int = 0) -> dict[str, Any]:
    """PNR (headline), PNR over valid answers, mean τ, exact-order accuracy, invalid rate."""
    valid = [s for s in scores if s.get("valid")]
    return {
        "pnr": pnr_metric([s["pos"] for s in scores], [s["neg"] for s in scores], seed=seed),
        "pnr_valid": pnr_metric([s["pos"] for s in valid], [s["neg"] for s in valid], seed=seed),
        "tau": mean_metric([s["tau"] for s in scores], seed=seed),
        "exact": mean_metric([s["exact"] for s in scores], seed=seed),
        "invalid_rate": mean_metric([1.0 - s["valid"] for s in scores], seed=seed),
    }


def accuracy_scores(correct: bool) -> dict[str, float]:
    """The paper's accuracy, per sample: 1 if the answer equals the gold (NoAnswer: 0)."""
    return {"correct": float(correct)}


def accuracy_aggregate(scores: Sequence[dict[str, Any]], *, seed: int = 0) -> dict[str, Any]:
    return {"accuracy": mean_metric([s["correct"] for s in scores], seed=seed)}
