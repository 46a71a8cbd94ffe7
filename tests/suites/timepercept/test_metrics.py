"""PNR, τ and their aggregation, checked against hand-computed examples (paper eq. 1)."""

from __future__ import annotations

import pytest

from chronoeval.suites.timepercept.metrics import (
    order_aggregate,
    order_scores,
    pair_counts,
    pnr_metric,
)


def test_pair_counts_by_hand() -> None:
    # true order a<b<c; predicted b,a,c: (a,b) discordant, (a,c) and (b,c) concordant
    assert pair_counts(["b", "a", "c"], ["a", "b", "c"]) == (2, 1)
    assert pair_counts(["a", "b", "c"], ["a", "b", "c"]) == (3, 0)
    assert pair_counts(["c", "b", "a"], ["a", "b", "c"]) == (0, 3)
    # five images, one adjacent swap: 9 concordant, 1 discordant of C(5,2) = 10
    assert pair_counts(list("13245"), list("12345")) == (9, 1)


def test_tau_and_exact() -> None:
    s = order_scores(["b", "a", "c"], ["a", "b", "c"])
    assert s == {"pos": 2.0, "neg": 1.0, "tau": pytest.approx(1 / 3), "exact": 0.0, "valid": 1.0}
    assert order_scores(list("abc"), list("abc"))["exact"] == 1.0


@pytest.mark.parametrize(
    "pred", [["1", "1", "3"], ["1", "2"], ["1", "2", "3", "4"], ["1", "2", "9"], None]
)
def test_invalid_permutation_counts_all_pairs_negative(pred: list[str] | None) -> None:
    s = order_scores(pred, ["1", "2", "3"])
    assert (s["pos"], s["neg"], s["tau"], s["valid"], s["exact"]) == (0.0, 3.0, -1.0, 0.0, 0.0)


def test_pnr_sums_counts_over_samples() -> None:
    # samples (P, N) = (2, 1) and (3, 0): summed 5/1 = 5.0 (a mean of ratios would be undefined)
    m = pnr_metric([2, 3], [1, 0])
    assert m["value"] == 5.0 and m["n"] == 2 and m["infinite"] is False
    # (1, 2) and (2, 1): 3/3 = 1.0, not the mean of 0.5 and 2.0
    assert pnr_metric([1, 2], [2, 1])["value"] == 1.0


def test_pnr_without_discordant_pair_is_infinite_not_a_number() -> None:
    m = pnr_metric([3, 3, 3], [0, 0, 0])
    assert m["value"] is None and m["infinite"] is True
    assert m["ci95"] == [None, None]


def test_order_aggregate_reports_valid_only_pnr_and_invalid_rate() -> None:
    scores = [order_scores(list("acb"), list("abc")), order_scores(None, list("abc"))]
    agg = order_aggregate(scores)
    assert agg["pnr"]["value"] == pytest.approx(2 / 4)  # (2 + 0) / (1 + 3)
    assert agg["pnr_valid"]["value"] == 2.0
    assert agg["invalid_rate"]["value"] == 0.5
    assert agg["tau"]["value"] == pytest.approx((1 / 3 - 1) / 2)


def test_random_orders_give_pnr_near_one() -> None:
    import random

    rng = random.Random(0)
    pos = neg = 0.0
    for _ in range(2000):
        p = list("12345")
        rng.shuffle(p)
        s = order_scores(p, list("12345"))
        pos, neg = pos + s["pos"], neg + s["neg"]
    assert 0.93 < pos / neg < 1.07
