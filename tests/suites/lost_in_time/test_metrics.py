"""Lost in Time metrics against hand-computed values (independent of the implementation)."""

from __future__ import annotations

import pytest

from chronoeval.core.answers import NoAnswer
from chronoeval.suites.lost_in_time.answers import ClockTime
from chronoeval.suites.lost_in_time.metrics import (
    calendar_aggregate,
    clock_aggregate,
    clock_scores,
    macro_prf,
)

T = ClockTime


@pytest.mark.parametrize(
    ("true", "pred", "abs_s", "hour", "minute"),
    [
        (T(12, 0, 0), T(12, 0, 0), 0, 0, 0),
        (T(12, 0, 0), T(6, 0, 0), 21600, 6, 0),  # the maximum error
        (T(11, 59, 59), T(12, 0, 1), 2, 1, 1),  # across 12 o'clock, the short way round
        (T(1, 5, 0), T(11, 55, 0), 4200, 2, 10),
        (T(3, 45, 20), T(3, 45, 0), 20, 0, 0),
        (T(9, 10, 0), T(3, 50, 0), 19200, 6, 20),
    ],
)
def test_circular_errors(true, pred, abs_s, hour, minute) -> None:
    s = clock_scores(pred, true)
    assert (s["abs_err_s"], s["hour_err"], s["minute_err"]) == (abs_s, hour, minute)
    assert s["em"] == float(true == pred)


def test_hm_em_ignores_seconds_and_noanswer_scores_zero() -> None:
    assert clock_scores(T(3, 45, 0), T(3, 45, 20))["hm_em"] == 1.0
    assert clock_scores(T(3, 45, 0), T(3, 45, 20))["em"] == 0.0
    s = clock_scores(NoAnswer("empty"), T(3, 45, 20))
    assert s["em"] == 0.0 and s["abs_err_s"] is None


def test_clock_aggregate_keeps_noanswers_in_em_denominator() -> None:
    true = T(1, 0, 0)
    scores = [
        clock_scores(T(1, 0, 0), true),
        clock_scores(T(2, 0, 0), true),
        clock_scores(NoAnswer(), true),
        clock_scores(NoAnswer(), true),
    ]
    agg = clock_aggregate(scores)
    assert agg["em"]["value"] == 0.25 and agg["em"]["n"] == 4
    assert agg["mae_s"]["value"] == 1800 and agg["mae_s"]["n"] == 2
    assert agg["no_answer_rate"]["value"] == 0.5
    lo, hi = agg["em"]["ci95"]
    assert 0 <= lo <= 0.25 <= hi <= 1


def test_macro_prf_hand_computed() -> None:
    golds = ["Monday", "Monday", "Tuesday", "Wednesday"]
    preds = ["Monday", "Tuesday", "Tuesday", None]
    # Monday: P 1/1, R 1/2, F 2/3; Tuesday: P 1/2, R 1/1, F 2/3; Wednesday: P 0, R 0, F 0
    p, r, f = macro_prf(golds, preds)
    assert p == pytest.approx((1 + 0.5 + 0) / 3)
    assert r == pytest.approx((0.5 + 1 + 0) / 3)
    assert f == pytest.approx((2 / 3 + 2 / 3 + 0) / 3)
    agg = calendar_aggregate(golds, preds)
    assert agg["accuracy"]["value"] == 0.5
    assert agg["macro_f1"]["value"] == pytest.approx(4 / 9)
    assert agg["no_answer_rate"]["value"] == 0.25


def test_macro_prf_perfect_and_bootstrap_interval() -> None:
    golds = ["Monday", "Friday", "Sunday"] * 10
    agg = calendar_aggregate(golds, list(golds))
    for k in ("accuracy", "macro_precision", "macro_recall", "macro_f1"):
        assert agg[k]["value"] == 1.0 and agg[k]["ci95"] == [1.0, 1.0]


def _per_dict_aggregate(scores, seed=0):
    """clock_aggregate as written before session 11 (one pass over the dicts per metric): the
    columnar aggregate must give these very numbers."""
    from chronoeval.core.stats import mean_metric

    out = {}
    for key in ("em", "hm_em"):
        out[key] = mean_metric([s[key] for s in scores], seed=seed)
    for key, name in (
        ("abs_err_s", "mae_s"),
        ("hour_err", "hour_err"),
        ("minute_err", "minute_err"),
    ):
        out[name] = mean_metric([s[key] for s in scores if s[key] is not None], seed=seed)
    out["no_answer_rate"] = mean_metric([float(s["abs_err_s"] is None) for s in scores], seed=seed)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_clockqa_aggregate_by_columns_equals_the_per_dict_aggregate(seed: int) -> None:
    """ClockQA.aggregate reads each score once into columns; overall and per style it equals, to
    the last bit, the per-dict aggregate over the same samples in the same order (NoAnswers,
    styles missing or not strings, a style with no samples, one sample)."""
    import json
    import random

    from chronoeval.core.registry import get_task
    from chronoeval.core.task import SampleRecord

    rng = random.Random(seed)
    styles = ["basic", "roman", "no_second_hand", "lonely"]
    records = []
    for i in range(300 + seed):
        true = ClockTime.from_dial_seconds(rng.randrange(43200))
        pred = (
            NoAnswer("x")
            if rng.random() < 0.15
            else ClockTime.from_dial_seconds(rng.randrange(43200))
        )
        meta: dict = {}
        pick = rng.random()
        if pick < 0.9:
            meta["style"] = styles[rng.randrange(3)]
        elif pick < 0.95:
            meta["style"] = 7  # not a string: listed as "7", no samples
        if i == 5:
            meta["style"] = "lonely"
        records.append(
            SampleRecord(
                item_id=f"i{i}",
                task="clockqa",
                status="no_answer" if isinstance(pred, NoAnswer) else "answered",
                target=str(true),
                response="r",
                answer=None if isinstance(pred, NoAnswer) else str(pred),
                scores=clock_scores(pred, true),
                metadata=meta,
            )
        )
    got = get_task("clockqa").aggregate(records, seed=seed)
    assert got["overall"] == _per_dict_aggregate([r.scores for r in records], seed)
    assert set(got["by_style"]) == {"basic", "roman", "no_second_hand", "lonely", "7", "?"}
    for style, entry in got["by_style"].items():
        want = _per_dict_aggregate(
            [r.scores for r in records if r.metadata.get("style") == style], seed
        )
        assert {k: v for k, v in entry.items() if k != "headline"} == want, style
    assert json.dumps(got["overall"]) == json.dumps(
        _per_dict_aggregate([r.scores for r in records], seed)
    )
    assert got["by_style"]["lonely"]["em"]["n"] == 1 and got["by_style"]["?"]["em"]["n"] == 0
