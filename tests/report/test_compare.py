"""Leaderboard and paired tests: expected values computed by hand from the scripted outcomes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from chronoeval.report.compare import (
    NotPairedError,
    leaderboard,
    mcnemar_exact,
    paired_test,
    paired_tests,
)
from chronoeval.report.runs import load_runs
from report.scripted import PATTERNS, outcomes


@pytest.mark.parametrize(
    ("a_only", "b_only", "p"),
    [
        (0, 5, 2 / 32),  # 2 * P[X <= 0], X ~ Bin(5, 1/2)
        (5, 0, 2 / 32),
        (1, 9, 2 * (1 + 10) / 1024),
        (3, 3, 1.0),  # the doubled tail exceeds 1: capped
        (0, 0, 1.0),
        (2, 10, 2 * (1 + 12 + 66) / 4096),
    ],
)
def test_mcnemar_exact_hand_computed(a_only: int, b_only: int, p: float) -> None:
    assert math.isclose(mcnemar_exact(a_only, b_only), p, rel_tol=1e-12)


def test_mcnemar_exact_agrees_with_scipy_binomtest() -> None:
    stats = pytest.importorskip("scipy.stats")
    for a_only, b_only in [(0, 7), (4, 11), (13, 2), (20, 21), (1, 40)]:
        expected = stats.binomtest(a_only, a_only + b_only, 0.5).pvalue
        assert math.isclose(mcnemar_exact(a_only, b_only), expected, rel_tol=1e-9)


def test_paired_test_on_the_same_items(make_run) -> None:
    a, b = load_runs([make_run("scripted:a"), make_run("scripted:b")])
    test = paired_test(a, b, "clockqa")
    oa, ob = outcomes(PATTERNS["a"], 12), outcomes(PATTERNS["b"], 12)
    # items where either run errored have no score: left out, counted by reason
    pairs = [(x, y) for x, y in zip(oa, ob, strict=True) if "e" not in (x, y)]
    assert test.n == len(pairs) == 9
    assert test.excluded == {"error in scripted:a": 3}
    xa = np.array([x == "c" for x, _ in pairs], dtype=float)
    xb = np.array([y == "c" for _, y in pairs], dtype=float)
    assert test.score_key == "em"
    assert test.mean_a == pytest.approx(xa.mean()) and test.mean_b == pytest.approx(xb.mean())
    assert test.diff == pytest.approx((xb - xa).mean())
    lo, hi = test.ci95
    assert lo <= test.diff <= hi
    a_only = int(((xa == 1) & (xb == 0)).sum())
    b_only = int(((xa == 0) & (xb == 1)).sum())
    assert (test.mcnemar["a_only"], test.mcnemar["b_only"]) == (a_only, b_only) == (0, 3)
    assert test.mcnemar["p"] == pytest.approx(2 / 8)


def test_runs_on_different_items_are_refused(make_run) -> None:
    a, c = load_runs([make_run("scripted:a", "12"), make_run("scripted:b", "8")])
    with pytest.raises(NotPairedError, match="different datasets .*same items"):
        paired_test(a, c, "clockqa")
    comp = paired_tests([a, c])
    assert comp.tests == [] and len(comp.refusals) == 1
    assert "content hash" in comp.refusals[0].reason
    board = leaderboard([a, c])["clockqa"]
    assert [r.comparable for r in board] == [True, False]


def test_leaderboard_headlines_and_chance(make_run) -> None:
    runs = load_runs([make_run("scripted:a"), make_run("scripted:b")])
    board = leaderboard(runs)["clockqa"]
    assert [r.run for r in board] == ["scripted:a", "scripted:b"]
    # em over answered + no-answer samples (errors are not scored): a = 3 correct of 9
    assert board[0].headline.label == "EM"
    assert board[0].headline.value == pytest.approx(3 / 9)
    assert board[1].headline.value == pytest.approx(6 / 12)
    assert board[0].headline.chance == pytest.approx(1 / 43200)
    assert board[0].counts == {"answered": 6, "no_answer": 3, "error": 3, "missing": 0}
