"""The bootstrap draws its resamples in chunks; the interval must equal the one-matrix draw."""

from __future__ import annotations

import numpy as np
import pytest

from chronoeval.core.stats import bootstrap_ci


@pytest.mark.parametrize("n", [5, 7_000, 60_000])
def test_chunked_bootstrap_equals_one_draw(n: int) -> None:
    values = np.random.default_rng(1).random(n)
    idx = np.random.default_rng(0).integers(0, n, size=(1000, n))  # the unchunked reference
    ref = np.quantile(values[idx].mean(axis=1), [0.025, 0.975])
    assert bootstrap_ci(values, seed=0) == (float(ref[0]), float(ref[1]))
    # a custom statistic sees the same resampled index rows
    got = bootstrap_ci(values, lambda rows: float(values[rows].max()), seed=0)
    ref_max = np.quantile(values[idx].max(axis=1), [0.025, 0.975])
    assert got == (float(ref_max[0]), float(ref_max[1]))
