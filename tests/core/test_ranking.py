"""Pair counts and Kendall's τ, checked against scipy-free hand cases and a brute-force identity."""

from __future__ import annotations

import itertools

import pytest

from chronoeval.core.ranking import kendall_tau, pair_counts


def test_pair_counts_and_tau_hand_cases() -> None:
    assert pair_counts([2, 1, 3], [1, 2, 3]) == (2, 1)
    assert kendall_tau([2, 1, 3], [1, 2, 3]) == pytest.approx(1 / 3)
    assert kendall_tau(list("dcba"), list("abcd")) == -1.0


def test_tau_is_symmetric_in_its_arguments_over_all_permutations() -> None:
    truth = [3, 0, 2, 1]
    for p in itertools.permutations(truth):
        assert kendall_tau(list(p), truth) == kendall_tau(truth, list(p))


@pytest.mark.parametrize("pred", [[0, 0, 1], [0, 1], [0, 1, 5]])
def test_non_permutations_are_refused(pred: list[int]) -> None:
    with pytest.raises(ValueError, match="not a permutation"):
        pair_counts(pred, [0, 1, 2])
