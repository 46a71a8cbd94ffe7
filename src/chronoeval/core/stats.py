"""Statistics for reports: percentile bootstrap intervals over items.

Source: Efron & Tibshirani (1993), percentile bootstrap; 95% interval from the 2.5th and 97.5th
percentiles of the statistic recomputed on ``n_boot`` resamples of the items (with replacement),
seeded so that every report is reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

N_BOOT = 1000


def bootstrap_replicates(
    values: Sequence[float] | np.ndarray,
    statistic: Callable[[np.ndarray], float] | None = None,
    *,
    n_boot: int = N_BOOT,
    seed: int = 0,
    batch: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray | None:
    """The statistic on each of ``n_boot`` resamples of the rows of ``values`` (None for fewer
    than two rows). ``statistic`` as in :func:`bootstrap_ci`. Replicates of statistics drawn with
    the same seed over the same rows come from the same resamples, so they can be combined
    elementwise (a composite of several metrics of one task) before taking percentiles.
    ``batch``: optional, ``batch(idx)`` → ``statistic`` of every resample in the (k, n) index
    array at once (the same numbers, vectorised); used instead of ``statistic`` when given."""
    arr = np.asarray(values)
    n = len(arr)
    if n < 2:
        return None
    chunk = _chunk(n, n_boot)
    values_f = arr.astype(float) if statistic is None else arr

    def on(idx: np.ndarray) -> np.ndarray:
        if statistic is None:
            return values_f[idx].mean(axis=1)
        if batch is not None:
            return np.asarray(batch(idx), dtype=float)
        return np.array([statistic(row) for row in idx], dtype=float)

    if chunk >= n_boot:  # one draw: the same index matrix for every metric over n rows
        if statistic is None and _exact_integer_sums(values_f, n):
            # integer values: each resample's sum is exact in any order, so the resample counts
            # times the values give the gathered means' very numbers (``_resample_counts``)
            if _exact_in_float32(values_f, n):
                sums = _rows_dot(_resample_counts32(n, n_boot, seed), values_f.astype(np.float32))
                return sums.astype(np.float64) / n
            return _rows_dot(_resample_counts(n, n_boot, seed), values_f) / n
        return on(_resample_indices(n, n_boot, seed))
    rng = np.random.default_rng(seed)
    return np.concatenate(
        [
            on(rng.integers(0, n, size=(min(chunk, n_boot - start), n)))
            for start in range(0, n_boot, chunk)
        ]
    )


def _chunk(n: int, n_boot: int) -> int:
    """Resamples drawn at once over ``n`` rows: the same numbers as one (n_boot, n) draw from the
    seed, without holding an n_boot x n index matrix (2 GB at 100k items)."""
    return max(1, min(n_boot, 5_000_000 // n))


_INDEX_CACHE: dict[tuple[int, int, int], np.ndarray] = {}
_INDEX_CACHE_MAX = 4_000_000  # elements kept at most (32 MB), most recent first


def _keep(
    cache: dict[tuple[int, int, int], np.ndarray], key: tuple[int, int, int], arr: np.ndarray
) -> np.ndarray:
    """``arr``, kept in ``cache`` as its most recent entry (taken out by the caller when it was
    there), the oldest dropped while the cache holds over ``_INDEX_CACHE_MAX`` elements."""
    if arr.size <= _INDEX_CACHE_MAX:
        cache[key] = arr
        while sum(a.size for a in cache.values()) > _INDEX_CACHE_MAX:
            del cache[next(iter(cache))]
    return arr


def _resample_indices(n: int, n_boot: int, seed: int) -> np.ndarray:
    """``default_rng(seed).integers(0, n, size=(n_boot, n))``, read-only, kept for the next metric
    over the same number of rows: a task's metrics share the draw, so it is made once, not once
    per metric (drawing was two thirds of the bootstrap's time). The numbers are the same."""
    key = (n, n_boot, seed)
    idx = _INDEX_CACHE.pop(key, None)
    if idx is None:
        idx = np.random.default_rng(seed).integers(0, n, size=(n_boot, n))
        idx.flags.writeable = False
    return _keep(_INDEX_CACHE, key, idx)


_COUNTS_CACHE: dict[tuple[int, int, int], np.ndarray] = {}


def _rows_dot(counts: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each row of ``counts`` dotted with ``values`` (``(n,)``: shape ``(n_boot,)``), or with
    each row of ``values`` (``(k, n)``: shape ``(n_boot, k)``, each row of counts read once for
    all k): ``np.vecdot`` (NumPy 2; one thread, 2-3 times faster here than ``einsum``, whose loop
    this replaces where it is missing; ``matmul`` would hand it to a threaded BLAS, which on a
    loaded 2-core machine was 20 times slower)."""
    vecdot = getattr(np, "vecdot", None)
    if values.ndim == 2:
        if vecdot is None:  # pragma: no cover - NumPy 1
            return np.einsum("ij,kj->ik", counts, values)
        return vecdot(counts[:, None, :], values[None, :, :])
    if vecdot is None:  # pragma: no cover - NumPy 1
        return np.einsum("ij,j->i", counts, values)
    return vecdot(counts, values)


def _exact_integer_sums(values: np.ndarray, n: int) -> bool:
    """True when every sum of ``n`` of ``values`` (with repeats) is computed exactly in float64
    whatever the order of the additions: finite whole numbers, none of them -0.0, and
    ``n * max|v| < 2**53`` (every partial sum is then a whole number float64 holds exactly).
    Then a resample's mean is the same number however its sum is formed."""
    if values.ndim != 1 or values.dtype != np.float64 or not len(values):
        return False
    if not np.isfinite(values).all() or (values != np.trunc(values)).any():
        return False
    if (np.signbit(values) & (values == 0)).any():
        return False
    return float(np.abs(values).max()) * n < 2.0**53


def _resample_counts(n: int, n_boot: int, seed: int) -> np.ndarray:
    """How often each of the ``n`` rows occurs in each resample of :func:`_resample_indices`
    (shape ``(n_boot, n)``, float64), kept like the indices: the mean of every resample of a
    metric's values is then one counts-times-values product, not a gather of ``n_boot x n``
    values (3 to 10 times faster here). Used only where the sums are exact
    (:func:`_exact_integer_sums`), so the numbers are the same."""
    key = (n, n_boot, seed)
    counts = _COUNTS_CACHE.pop(key, None)
    if counts is None:
        idx = _resample_indices(n, n_boot, seed)
        counts = np.empty((n_boot, n), dtype=np.float64)
        rows = 64  # resamples counted together: their temporaries stay in the cache
        offsets = (np.arange(rows, dtype=idx.dtype) * n)[:, None]
        for start in range(0, n_boot, rows):
            part = idx[start : start + rows]
            k = len(part)
            flat = (part + offsets[:k]).ravel()
            counts[start : start + k] = np.bincount(flat, minlength=k * n).reshape(k, n)
        counts.flags.writeable = False
    return _keep(_COUNTS_CACHE, key, counts)


_F32_EXACT = 2.0**24
"""Below this, every sum of whole-number products is exact in float32 too (24-bit mantissa)."""


def _exact_in_float32(values: np.ndarray, n: int) -> bool:
    """Whether whole-number ``values`` (:func:`_exact_integer_sums`) also sum exactly in float32
    over any resample of ``n`` rows."""
    return float(np.abs(values).max()) * n < _F32_EXACT


_COUNTS32_CACHE: dict[tuple[int, int, int], np.ndarray] = {}


def _resample_counts32(n: int, n_boot: int, seed: int) -> np.ndarray:
    """:func:`_resample_counts` in float32, kept like it. A metric whose values are whole numbers
    with ``n * max|v| < 2**24`` (0/1 matches, hours, minutes) has every product and every partial
    sum of a resample exact in float32 (the counts of a resample add up to ``n``), so its sums are
    the float64 path's very numbers, read from half the memory (the product reads the whole
    ``n_boot x n`` matrix each time, which was most of a metric's bootstrap)."""
    key = (n, n_boot, seed)
    counts = _COUNTS32_CACHE.pop(key, None)
    if counts is None:
        counts = _resample_counts(n, n_boot, seed).astype(np.float32)
        counts.flags.writeable = False
    return _keep(_COUNTS32_CACHE, key, counts)


def percentile_interval(
    replicates: np.ndarray | None, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile interval of bootstrap replicates (None when there are none)."""
    if replicates is None or len(replicates) == 0:
        return None
    alpha = (1 - level) / 2
    fast = _linear_quantiles(replicates, alpha, 1 - alpha)
    if fast is not None:
        return fast
    lo, hi = np.quantile(replicates, [alpha, 1 - alpha])
    return float(lo), float(hi)


def _linear_quantiles(values: Any, q0: float, q1: float) -> tuple[float, float] | None:
    """``np.quantile(values, [q0, q1])`` (its default ``linear`` method) as the same two floats,
    for a 1-d float64 array without NaN and ``0 <= q0 <= q1 <= 1``; None for anything else (the
    caller asks ``np.quantile``). ``np.quantile``'s own set-up cost more than the selection on a
    bootstrap's 1,000 replicates. This is NumPy's computation (numpy/lib/_function_base_impl.py,
    ``_quantile``, ``_get_indexes``, ``_lerp``) step for step in float64: the virtual index
    ``(n - 1) * q``; the previous index its floor and the next one more, both ``-1`` (the last)
    at or past the last index; the same partition points (``0``, ``-1`` and those indexes, so
    that even equal values of another sign, ``-0.0`` and ``0.0``, land where NumPy puts them);
    ``gamma`` the virtual index minus the previous index; then ``a + (b - a) * gamma``, or
    ``b - (b - a) * (1 - gamma)`` where ``gamma >= 0.5``
    (tests/core/test_stats_quantiles.py compares both bit for bit)."""
    if (
        type(values) is not np.ndarray
        or values.ndim != 1
        or values.dtype != np.float64
        or not 0.0 <= q0 <= q1 <= 1.0
    ):
        return None
    n = len(values)
    if not n or np.isnan(values).any():
        return None
    last = n - 1
    picks = []
    for q in (q0, q1):
        virtual = float(last) * q
        if virtual >= last:
            below = above = -1
        else:
            below = math.floor(virtual)
            above = below + 1
        picks.append((virtual, below, above))
    kth = sorted({0, -1, *(i for _, b, a in picks for i in (b, a))})
    part = np.partition(values, kth)
    out = []
    for virtual, below, above in picks:
        a, b = float(part[below]), float(part[above])
        gamma = virtual - below
        diff = b - a
        out.append(b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma)
    return out[0], out[1]


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    statistic: Callable[[np.ndarray], float] | None = None,
    *,
    n_boot: int = N_BOOT,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of ``statistic`` (default: mean) over the rows of ``values``.

    ``statistic`` receives an index array of resampled rows when given (so multi-column
    statistics such as macro-F1 can be resampled together); with the default mean it is vectorised.
    Returns None for fewer than two rows.
    """
    reps = bootstrap_replicates(values, statistic, n_boot=n_boot, seed=seed)
    return percentile_interval(reps, level)


def metric(value: float | None, ci: tuple[float, float] | None, n: int) -> dict[str, Any]:
    """The shape every reported metric has in results.json."""
    return {"value": value, "ci95": list(ci) if ci is not None else None, "n": n}


def mean_metric(values: Sequence[float], *, seed: int = 0) -> dict[str, Any]:
    """Mean with its bootstrap interval; ``value`` is None when there are no values."""
    if len(values) == 0:
        return metric(None, None, 0)
    arr = np.asarray(values, dtype=float)
    return metric(float(arr.mean()), bootstrap_ci(arr, seed=seed), len(arr))


def mean_metrics(
    columns: Sequence[Sequence[float] | np.ndarray], *, seed: int = 0
) -> list[dict[str, Any]]:
    """:func:`mean_metric` of each column, the very same dicts. Columns of one length whose
    resample sums are exact in float32 (whole numbers, ``n * max|v| < 2**24``: 0/1 matches, hour
    and minute errors) share one pass over the resample counts (``(n_boot, n)``, read once for all
    of them rather than once per column: the bootstrap's products were read-bound); each sum is
    exact, so each column's replicates are the numbers it gets alone. Others go one by one."""
    arrs = [np.asarray(c, dtype=float) for c in columns]
    out: list[dict[str, Any] | None] = [None] * len(arrs)
    shared: dict[int, list[int]] = {}
    for i, arr in enumerate(arrs):
        n = len(arr)
        if (
            n >= 2
            and _chunk(n, N_BOOT) >= N_BOOT  # one draw, as in bootstrap_replicates
            and _exact_integer_sums(arr, n)
            and _exact_in_float32(arr, n)
        ):
            shared.setdefault(n, []).append(i)
        else:
            out[i] = mean_metric(arr, seed=seed)
    for n, at in shared.items():
        counts = _resample_counts32(n, N_BOOT, seed)
        sums = _rows_dot(counts, np.stack([arrs[i].astype(np.float32) for i in at]))  # (n_boot, k)
        for j, i in enumerate(at):
            reps = sums[:, j].astype(np.float64) / n
            out[i] = metric(float(arrs[i].mean()), percentile_interval(reps), n)
    return [m for m in out if m is not None]
