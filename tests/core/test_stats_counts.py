"""The bootstrap's resample means from resample counts (integer-valued metrics) must be the very
numbers of the gathered means, and anything else must still be gathered."""

from __future__ import annotations

import numpy as np
import pytest

from chronoeval.core import stats
from chronoeval.core.stats import bootstrap_replicates


def _gathered(values: np.ndarray, n_boot: int = 1000, seed: int = 0) -> np.ndarray:
    idx = np.random.default_rng(seed).integers(0, len(values), size=(n_boot, len(values)))
    return values.astype(float)[idx].mean(axis=1)


@pytest.mark.parametrize(
    "values",
    [
        np.random.default_rng(1).integers(0, 2, 2000).astype(float),  # exact match 0/1
        np.random.default_rng(2).integers(0, 21601, 333).astype(float),  # seconds of error
        np.random.default_rng(3).integers(-50, 50, 7).astype(float),  # negative whole numbers
        np.array([0.0, 0.0, 0.0]),
    ],
)
def test_counts_path_equals_gathered_means(values: np.ndarray) -> None:
    assert stats._exact_integer_sums(values, len(values))
    for seed in (0, 3):
        got = bootstrap_replicates(values, seed=seed)
        assert got is not None
        assert np.array_equal(got, _gathered(values, seed=seed))
        assert got.tobytes() == _gathered(values, seed=seed).tobytes()  # -0.0 vs 0.0 too


def test_counts_are_the_resample_counts() -> None:
    n = 50
    counts = stats._resample_counts(n, 1000, 7)
    idx = np.random.default_rng(7).integers(0, n, size=(1000, n))
    ref = np.stack([np.bincount(row, minlength=n) for row in idx])
    assert np.array_equal(counts, ref)
    assert counts.sum(axis=1).tolist() == [n] * 1000


@pytest.mark.parametrize(
    "values",
    [
        np.array([0.5, 1.0, 2.0]),  # not whole
        np.array([1.0, np.nan, 2.0]),
        np.array([1.0, np.inf, 2.0]),
        np.array([-0.0, 1.0, 2.0]),
        np.array([2.0**52, 1.0, 3.0]),  # a sum of three could exceed 2**53
    ],
)
def test_other_values_are_gathered(values: np.ndarray) -> None:
    assert not stats._exact_integer_sums(values, len(values))
    got = bootstrap_replicates(values, seed=0)
    assert got is not None
    assert np.array_equal(got, _gathered(values), equal_nan=True)


def test_mean_metrics_are_each_columns_mean_metric() -> None:
    """Columns sharing one pass over the counts get the very dicts mean_metric gives each alone:
    0/1 and small whole numbers (shared), whole numbers too large for float32 sums, fractions,
    NaN, -0.0, one row, no rows, and more rows than one draw holds (each alone)."""
    from chronoeval.core.stats import mean_metric, mean_metrics

    rng = np.random.default_rng(5)
    n = 333
    columns = [
        rng.integers(0, 2, n).astype(float),
        rng.integers(0, 2, n).astype(float),
        rng.integers(0, 7, n).astype(float),
        rng.integers(0, 21601, n).astype(float),  # n * 21600 < 2**24: shared
        rng.integers(0, 21601, 2000).astype(float),  # 2000 * 21600 > 2**24: alone, float64
        rng.integers(0, 2, 2000).astype(float),
        rng.random(n),  # fractions: the gathered mean
        np.array([0.0, np.nan, 1.0] * 5),
        np.array([-0.0, 1.0, 0.0]),
        np.array([1.0]),
        np.array([]),
        rng.integers(0, 2, 6000).astype(float),  # more rows than one draw
        list(rng.integers(0, 2, n).astype(float)),  # a list, as callers give
    ]
    for seed in (0, 3):
        got = mean_metrics(columns, seed=seed)
        want = [mean_metric(c, seed=seed) for c in columns]
        assert repr(got) == repr(want)  # the same floats (repr round-trips), -0.0 and NaN too
