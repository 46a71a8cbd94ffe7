"""SPAN metrics (Miao, Fu, Wei, AAAI 2026, arXiv 2511.09993).

- accuracy (paper §4: the share of questions answered correctly; content answers must give the
  exact target-calendar date, year included; polar answers the right yes/no), overall and per
  calendar, direction, direction group, reasoning type, format and evaluation date;
- Future-Date Degradation (paper §4.3, named there; the number is ours): accuracy on items whose
  evaluation date is before the cutoff minus accuracy on items on or after it;
- Calendar Asymmetry Bias (paper §4.3; the number is ours): accuracy of Gregorian->others minus
  accuracy of others->Gregorian.

Intervals: percentile bootstrap over items (Efron & Tibshirani 1993; :mod:`chronoeval.core.stats`),
for the two differences by resampling each side independently. Every per-item score here is 0/1,
and the mean of n draws with replacement from 0/1 values with mean p is Binomial(n, p) / n, so the
resampled means are drawn from that binomial directly (the same bootstrap distribution, without
materialising n x 1000 indices; :func:`binary_mean_metric`). A NoAnswer scores 0 and stays in
every denominator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from chronoeval.core.stats import N_BOOT, metric
from chronoeval.core.task import SampleRecord

BREAKDOWNS = {
    "by_calendar": "calendar",
    "by_direction": "direction",
    "by_group": "group",
    "by_type": "type",
    "by_format": "format",
    "by_eval_date": "eval_date",
}


def correct_of(r: SampleRecord) -> float:
    return float(r.scores.get("correct") or 0.0) if r.status in ("answered", "no_answer") else 0.0


def _boot_means(values: Sequence[float], rng: np.random.Generator) -> np.ndarray:
    x = np.asarray(values, float)
    if not np.isin(x, (0.0, 1.0)).all():
        raise ValueError("SPAN scores are 0/1")
    return rng.binomial(len(x), x.mean(), N_BOOT) / len(x)


def binary_mean_metric(values: Sequence[float], *, seed: int = 0) -> dict[str, Any]:
    """Mean of 0/1 scores with its percentile-bootstrap interval (binomial resampling)."""
    if not len(values):
        return metric(None, None, 0)
    value = float(np.mean(values))
    if len(values) < 2:
        return metric(value, None, len(values))
    lo, hi = np.quantile(_boot_means(values, np.random.default_rng(seed)), [0.025, 0.975])
    return metric(value, (float(lo), float(hi)), len(values))


def difference(a: Sequence[float], b: Sequence[float], *, seed: int = 0) -> dict[str, Any]:
    """mean(a) - mean(b) with a percentile-bootstrap interval (sides resampled independently)."""
    if not len(a) or not len(b):
        return metric(None, None, len(a) + len(b))
    value = float(np.mean(a) - np.mean(b))
    rng = np.random.default_rng(seed)
    lo, hi = np.quantile(_boot_means(a, rng) - _boot_means(b, rng), [0.025, 0.975])
    return metric(value, (float(lo), float(hi)), len(a) + len(b))


def span_aggregate(
    records: list[SampleRecord], *, cutoff: str = "2025-07-01", seed: int = 0
) -> dict[str, Any]:
    """Every metric of a SPAN run. Records with status ``error``/``missing`` are counted by the
    engine and kept out of these means (they are not answers)."""
    scored = [r for r in records if r.status in ("answered", "no_answer")]
    out: dict[str, Any] = {
        "overall": {
            "accuracy": binary_mean_metric([correct_of(r) for r in scored], seed=seed),
            "no_answer_rate": binary_mean_metric(
                [float(r.status == "no_answer") for r in scored], seed=seed
            ),
        }
    }
    for name, key in BREAKDOWNS.items():
        groups: dict[str, list[float]] = {}
        for r in scored:
            groups.setdefault(str(r.metadata.get(key)), []).append(correct_of(r))
        out[name] = {
            k: {"accuracy": binary_mean_metric(v, seed=seed)} for k, v in sorted(groups.items())
        }
    past = [correct_of(r) for r in scored if str(r.metadata.get("eval_date")) < cutoff]
    future = [correct_of(r) for r in scored if str(r.metadata.get("eval_date")) >= cutoff]
    g2o = [correct_of(r) for r in scored if r.metadata.get("group") == "gregorian->others"]
    o2g = [correct_of(r) for r in scored if r.metadata.get("group") == "others->gregorian"]
    out["failure_modes"] = {
        "cutoff": cutoff,
        "past_accuracy": binary_mean_metric(past, seed=seed),
        "future_accuracy": binary_mean_metric(future, seed=seed),
        "future_date_degradation": difference(past, future, seed=seed),
        "calendar_asymmetry_bias": difference(g2o, o2g, seed=seed),
    }
    return out
