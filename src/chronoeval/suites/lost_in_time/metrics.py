"""Lost in Time metrics, as the paper defines them (Saxena et al. 2025, §3 and Appendix C).

Per-sample scores come from :func:`clock_scores` / :func:`weekday_scores`; aggregates carry 95%
percentile-bootstrap intervals (:mod:`chronoeval.core.stats`). A NoAnswer scores 0 on every
exact-match metric (it stays in the denominator) and has no error magnitude; error magnitudes are
averaged over answered samples and reported with that count (``n``) beside them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from chronoeval.core.answers import NoAnswer
from chronoeval.core.stats import N_BOOT, mean_metric, mean_metrics, metric
from chronoeval.suites.lost_in_time.answers import SECONDS_ON_DIAL, WEEKDAYS, ClockTime

MAX_ERROR_S = SECONDS_ON_DIAL // 2  # 21,600 s


def circular_seconds_error(true: ClockTime, pred: ClockTime) -> int:
    """Paper, Appendix C.1 "MAE (Seconds)": min(|Δ|, 43200 − |Δ|) on the 12-hour dial, ≤ 21,600."""
    d = abs(true.dial_seconds - pred.dial_seconds)
    return min(d, SECONDS_ON_DIAL - d)


def circular_hour_error(true: ClockTime, pred: ClockTime) -> int:
    """Paper, Appendix C.1 "Hour Error": min(|H_t − H_p|, 12 − |H_t − H_p|), hours mod 12."""
    d = abs(true.hour % 12 - pred.hour % 12)
    return min(d, 12 - d)


def circular_minute_error(true: ClockTime, pred: ClockTime) -> int:
    """Paper, Appendix C.1 "Minute Error": min(|M_t − M_p|, 60 − |M_t − M_p|)."""
    d = abs(true.minute - pred.minute)
    return min(d, 60 - d)


def clock_scores(pred: ClockTime | NoAnswer, true: ClockTime) -> dict[str, float | None]:
    """Per-sample ClockQA scores.

    - ``em``: paper's Exact Match (Appendix C.1), all of H:MM:SS equal.
    - ``hm_em``: hours and minutes equal (the issue's "EM on hours and minutes", the headline for
      clocks without a second hand, whose seconds are not visible).
    - ``abs_err_s``, ``hour_err``, ``minute_err``: the paper's circular errors (None if NoAnswer).
    """
    if isinstance(pred, NoAnswer):
        return {"em": 0.0, "hm_em": 0.0, "abs_err_s": None, "hour_err": None, "minute_err": None}
    return {
        "em": float(pred == true),
        "hm_em": float(pred.hour == true.hour and pred.minute == true.minute),
        "abs_err_s": float(circular_seconds_error(true, pred)),
        "hour_err": float(circular_hour_error(true, pred)),
        "minute_err": float(circular_minute_error(true, pred)),
    }


def clock_aggregate(scores: Sequence[dict[str, float | None]], *, seed: int = 0) -> dict[str, Any]:
    """EM, HM-EM (over all samples), MAE/hour/minute error (over answered), no-answer rate."""
    return clock_aggregate_columns(ClockScoreColumns(scores), seed=seed)


class ClockScoreColumns:
    """The per-sample clock scores as one float column per score (None as NaN, with a mask of the
    samples that have it), read once from the score dicts: the aggregate of any subset of the
    samples (a style) is then a selection of rows, not a pass over dicts per metric."""

    KEYS = ("em", "hm_em", "abs_err_s", "hour_err", "minute_err")

    def __init__(self, scores: Sequence[dict[str, float | None]]) -> None:
        self.values: dict[str, np.ndarray] = {}
        self.present: dict[str, np.ndarray] = {}
        for key in self.KEYS:
            column = [s[key] for s in scores]
            values = np.array(column, dtype=float)  # None becomes NaN
            nan = np.isnan(values)
            # where a NaN shows, tell a None (no answer) from a NaN score, which counts as before
            self.present[key] = ~nan if not nan.any() else np.array([v is not None for v in column])
            self.values[key] = values


def clock_aggregate_columns(
    columns: ClockScoreColumns, rows: np.ndarray | None = None, *, seed: int = 0
) -> dict[str, Any]:
    """:func:`clock_aggregate` of the samples at ``rows`` (indexes, in order; all when None): the
    same values in the same order, so the same means and bootstrap intervals."""

    def column(key: str) -> tuple[np.ndarray, np.ndarray]:
        values, present = columns.values[key], columns.present[key]
        return (values, present) if rows is None else (values[rows], present[rows])

    em, hm_em = column("em")[0], column("hm_em")[0]  # every sample (a None, never given, as NaN)
    errors = []
    for key in ("abs_err_s", "hour_err", "minute_err"):  # over the samples that have them
        values, present = column(key)
        errors.append(values if present.all() else values[present])
    no_answer = (~column("abs_err_s")[1]).astype(float)
    names = ("em", "hm_em", "mae_s", "hour_err", "minute_err", "no_answer_rate")
    # one pass over the resample counts for the columns of one length (core/stats.py)
    return dict(zip(names, mean_metrics([em, hm_em, *errors, no_answer], seed=seed), strict=True))


def weekday_scores(pred: str | NoAnswer, true: str) -> dict[str, float | None]:
    """Per-sample CalendarQA score: ``correct`` (paper's Accuracy, Appendix C.2)."""
    return {"correct": 0.0 if isinstance(pred, NoAnswer) else float(pred == true)}


def _macro_prf_counts(g: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Vectorised macro P/R/F1 for rows of class codes (0..6; -1 = no answer).

    ``g`` and ``p`` have shape (rows, n); returns (rows, 3). A class counts towards the average of
    a row when it occurs in that row's gold or predictions.
    """
    classes = np.arange(len(WEEKDAYS))[:, None, None]
    is_g = g[None] == classes  # (7, rows, n)
    is_p = p[None] == classes
    tp = (is_g & is_p).sum(-1).astype(float)  # (7, rows)
    n_true = is_g.sum(-1).astype(float)
    n_pred = is_p.sum(-1).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(n_pred > 0, tp / n_pred, 0.0)
        rec = np.where(n_true > 0, tp / n_true, 0.0)
        f1 = np.where(prec + rec > 0, 2 * prec * rec / (prec + rec), 0.0)
    present = (n_true + n_pred) > 0
    k = np.maximum(present.sum(0), 1)
    return np.stack([(m * present).sum(0) / k for m in (prec, rec, f1)], axis=-1)


def _codes(values: Sequence[str | None]) -> np.ndarray:
    index = {w: i for i, w in enumerate(WEEKDAYS)}
    return np.array([index.get(v, -1) if v is not None else -1 for v in values], dtype=int)


def macro_prf(golds: Sequence[str], preds: Sequence[str | None]) -> tuple[float, float, float]:
    """Macro-averaged precision, recall and F1 over the seven weekday classes.

    Source: the paper's "standard classification metrics … macro-averaged" (Appendix C.2), read as
    scikit-learn's ``precision_recall_fscore_support(average="macro", zero_division=0)`` over the
    weekday classes that occur in the gold or the predictions. A NoAnswer (None) is a miss for its
    gold class's recall and no class's prediction.
    """
    if not golds:
        return 0.0, 0.0, 0.0
    row = _macro_prf_counts(_codes(golds)[None], _codes(preds)[None])[0]
    return float(row[0]), float(row[1]), float(row[2])


def calendar_aggregate(
    golds: Sequence[str], preds: Sequence[str | None], *, seed: int = 0
) -> dict[str, Any]:
    """Accuracy and macro P/R/F1 (over weekday classes), each with a bootstrap interval."""
    g, p = _codes(golds), _codes(preds)
    n = len(g)
    correct = ((g == p) & (p >= 0)).astype(float)
    out: dict[str, Any] = {"accuracy": mean_metric(correct.tolist(), seed=seed)}
    point = _macro_prf_counts(g[None], p[None])[0]
    cis: list[tuple[float, float] | None] = [None, None, None]
    if n >= 2:
        idx = np.random.default_rng(seed).integers(0, n, size=(N_BOOT, n))
        boot = _macro_prf_counts(g[idx], p[idx])
        lo, hi = np.quantile(boot, [0.025, 0.975], axis=0)
        cis = [(float(lo[i]), float(hi[i])) for i in range(3)]
    for i, name in enumerate(("precision", "recall", "f1")):
        out[f"macro_{name}"] = metric(float(point[i]), cis[i], n)
    out["no_answer_rate"] = mean_metric([float(v is None) for v in preds], seed=seed)
    return out


# -- default-time bias (paper §4: "some models exhibit bias toward a single 'default' time") ------
DEFAULT_TIMES = ("10:10",)
"""Times known as defaults: 10:10 is the advertising pose of watch and clock photographs."""


@functools.lru_cache(maxsize=65536)  # a pure function of the string; answers repeat
def _hour_minute(answer: str) -> str | None:
    parts = answer.split(":")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    return f"{int(parts[0])}:{parts[1]}"


def hour_minute(answer: str) -> str | None:
    """``H:MM`` of a stored ClockQA answer (``H:MM:SS``); None for anything else (NoAnswer)."""
    return _hour_minute(str(answer))


def default_time_bias(
    answers: Sequence[str | None], golds: Sequence[str], *, seed: int = 0
) -> dict[str, Any]:
    """How far answers collapse onto one time (hours and minutes), against the golds.

    Source: the paper's observation (§4, Fig. 3a) that some models answer one "default" time;
    the measure is ours (docs/suites/lost_in_time.md): over answered samples, the most frequent
    answered H:MM (``top_answer``), its share (``top_share``, interval by bootstrap of the share of
    that answer; its ``n`` is the number answered), the share of golds with that H:MM
    (``top_gold_share``: what the share would be without a bias), and the share of each known
    default time (``share_10:10``).
    """
    hm = [hour_minute(a) for a in answers if a is not None]
    hm = [a for a in hm if a is not None]
    gold_hm = [hour_minute(g) for g in golds]
    out: dict[str, Any] = {}
    if hm:
        values, counts = np.unique(np.asarray(hm, dtype=str), return_counts=True)
        top = str(values[int(np.argmax(counts))])
        out["top_answer"] = top
        out["top_share"] = mean_metric([float(a == top) for a in hm], seed=seed)
        out["top_gold_share"] = metric(
            sum(1 for g in gold_hm if g == top) / len(gold_hm) if gold_hm else None,
            None,
            len(gold_hm),
        )
    for t in DEFAULT_TIMES:
        out[f"share_{t}"] = mean_metric([float(a == t) for a in hm], seed=seed)
    return out
