"""Comparisons between runs: a leaderboard of headline metrics, and paired tests between two runs.

A paired test needs both runs to have answered the *same items*: the same dataset (content hash)
and the same item ids in the same order. Runs on different items are refused with a message saying
why (:class:`NotPairedError`), never silently compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from chronoeval.core.errors import ChronoevalError
from chronoeval.core.registry import get_task
from chronoeval.core.stats import N_BOOT, bootstrap_ci
from chronoeval.report.runs import RunData

UNSCORED = ("error", "missing")


class NotPairedError(ChronoevalError):
    """Two runs cannot be compared item by item (different items, or no per-sample headline)."""


# -- headline metrics --------------------------------------------------------------------------
@dataclass(frozen=True)
class Headline:
    label: str
    value: float | None
    ci95: tuple[float, float] | None
    n: int
    chance: float | None


def headline(run: RunData, task: str) -> Headline | None:
    """The task's headline metric in one run (``Task.headline``), with its chance level."""
    t = get_task(task)
    metrics = run.task_entry(task).get("metrics") or {}
    got = t.headline(metrics) if metrics else None
    if got is None:
        return None
    label, entry = got
    ci = entry.get("ci95")
    return Headline(
        label,
        entry.get("value"),
        (float(ci[0]), float(ci[1])) if ci else None,
        int(entry.get("n") or 0),
        t.chance(metrics),
    )


def dataset_hash(run: RunData, task: str) -> str | None:
    return (run.task_entry(task).get("dataset") or {}).get("content_hash")


def same_items(a: RunData, b: RunData, task: str) -> str | None:
    """None when both runs evaluated the same items for ``task``; otherwise the reason why not."""
    ha, hb = dataset_hash(a, task), dataset_hash(b, task)
    if ha != hb:
        return (
            f"{task}: {a.label!r} and {b.label!r} evaluated different datasets (content hash "
            f"{(ha or '?')[:12]}… vs {(hb or '?')[:12]}…)"
        )
    ids_a = [r.item_id for r in a.task_records(task)]
    ids_b = [r.item_id for r in b.task_records(task)]
    if ids_a != ids_b:
        only_a = len(set(ids_a) - set(ids_b))
        only_b = len(set(ids_b) - set(ids_a))
        return (
            f"{task}: {a.label!r} ({len(ids_a)} items) and {b.label!r} ({len(ids_b)} items) "
            f"evaluated different item ids ({only_a} only in the first, {only_b} only in the "
            "second)"
        )
    return None


# -- leaderboard -------------------------------------------------------------------------------
@dataclass
class LeaderRow:
    run: str
    headline: Headline | None
    counts: dict[str, int]
    comparable: bool
    """False when this run's items differ from the first run's items for the task."""


def leaderboard(runs: list[RunData]) -> dict[str, list[LeaderRow]]:
    """Per task (in order of first appearance), one row per run that has the task.

    Rows keep the order the runs were given: a headline's direction (higher or lower is better)
    is not part of the task protocol, so no ranking is implied. ``comparable`` marks runs on the
    same items as the task's first run.
    """
    tasks: list[str] = []
    for r in runs:
        tasks += [t for t in r.tasks if t not in tasks]
    board: dict[str, list[LeaderRow]] = {}
    for task in tasks:
        having = [r for r in runs if task in r.results["tasks"]]
        ref = having[0]
        board[task] = [
            LeaderRow(
                r.label,
                headline(r, task),
                dict(r.task_entry(task).get("counts", {})),
                r is ref or same_items(ref, r, task) is None,
            )
            for r in having
        ]
    return board


def series_names(runs: list[RunData]) -> dict[str, str]:
    """Run label -> the name its headlines appear under in the cross-suite profile.

    A model's runs over different tasks (e.g. one run per suite) form one series named after the
    model; when two runs of a model share a task, each run is its own series (its label)."""
    out = {}
    for r in runs:
        tasks = [t for o in runs if o.model == r.model for t in o.tasks]
        out[r.label] = r.model if len(tasks) == len(set(tasks)) else r.label
    return out


# -- paired tests ------------------------------------------------------------------------------
@dataclass
class PairedTest:
    """Run B minus run A on one task, over the items both answered with a score."""

    task: str
    a: str
    b: str
    score_key: str
    n: int
    excluded: dict[str, int]
    mean_a: float
    mean_b: float
    diff: float
    ci95: tuple[float, float] | None
    mcnemar: dict[str, float] | None = None
    """For 0/1 scores: ``a_only`` (A right, B wrong), ``b_only``, exact two-sided ``p``."""
    n_boot: int = N_BOOT
    seed: int = 0


@dataclass
class Refusal:
    task: str
    a: str
    b: str
    reason: str


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Exact two-sided McNemar p-value for discordant counts (A right/B wrong, A wrong/B right).

    Source: McNemar (1947), exact binomial form: under H0 the discordant pairs split
    Binomial(a_only + b_only, 1/2); p = min(1, 2 · P[X ≤ min(a_only, b_only)]) — the same as
    ``statsmodels.stats.contingency_tables.mcnemar(table, exact=True)``. p = 1 with no discordant
    pairs.
    """
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_test(
    a: RunData, b: RunData, task: str, *, seed: int = 0, n_boot: int = N_BOOT
) -> PairedTest:
    """Percentile bootstrap over items of mean(B) − mean(A) of ``Task.headline_score``, and the
    exact McNemar test when every paired score is 0 or 1.

    Items are paired by id. An item without a score in either run (error, never asked, or a score
    of None such as an error magnitude of a NoAnswer) is left out and counted in ``excluded`` by
    reason. Raises :class:`NotPairedError` when the runs did not evaluate the same items or the
    task declares no per-sample headline score.
    """
    for r in (a, b):
        if task not in r.results["tasks"]:
            raise NotPairedError(f"{task}: run {r.label!r} has no results for this task")
    why = same_items(a, b, task)
    if why:
        raise NotPairedError(
            why + "; a paired test needs the same items in both runs — re-run one of them with "
            "`--data <the other run's dataset directory>`"
        )
    t = get_task(task)
    # a task whose headline is a per-unit score (TemporalVQA order: a row is right only when
    # both of its orders are) names the item score and the unit instead of a headline score
    key = t.headline_score or getattr(t, "paired_unit_score", None)
    unit_all = bool(getattr(t, "paired_unit_all", False))
    ratio = getattr(t, "paired_ratio", None)
    if key is None and ratio is not None:
        return _paired_ratio(a, b, task, ratio, seed=seed, n_boot=n_boot)
    if key is None:
        raise NotPairedError(f"{task}: the task declares no per-sample headline score")
    unit = getattr(t, "paired_unit", None)
    by_id_b = {r.item_id: r for r in b.task_records(task)}
    xs, ys = [], []
    units: list[str] = []
    excluded: dict[str, int] = {}
    for ra in a.task_records(task):
        rb = by_id_b[ra.item_id]
        va, vb = ra.scores.get(key), rb.scores.get(key)
        if va is None or vb is None:
            if ra.status in UNSCORED:
                reason = f"{ra.status} in {a.label}"
            elif rb.status in UNSCORED:
                reason = f"{rb.status} in {b.label}"
            else:
                reason = f"no {key!r} score"
            excluded[reason] = excluded.get(reason, 0) + 1
            continue
        xs.append(float(va))
        ys.append(float(vb))
        units.append(str(ra.metadata.get(unit, ra.item_id)) if unit else ra.item_id)
    if not xs:
        raise NotPairedError(f"{task}: no item has a {key!r} score in both runs")
    x, y = np.array(xs), np.array(ys)
    if unit:
        # one value per independent unit (e.g. a MINED sample: the mean over its prompt
        # versions), so the bootstrap and the test resample units, not correlated records
        groups: dict[str, list[int]] = {}
        for i, u in enumerate(units):
            groups.setdefault(u, []).append(i)
        reduce = np.min if unit_all else np.mean
        x = np.array([reduce(x[idx]) for idx in groups.values()])
        y = np.array([reduce(y[idx]) for idx in groups.values()])
    d = y - x
    test = PairedTest(
        task,
        a.label,
        b.label,
        key if not unit else f"{key} ({'all' if unit_all else 'mean'} per {unit})",
        len(d),
        excluded,
        float(x.mean()),
        float(y.mean()),
        float(d.mean()),
        bootstrap_ci(d, n_boot=n_boot, seed=seed),
        n_boot=n_boot,
        seed=seed,
    )
    if np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all():
        a_only = int(((x == 1) & (y == 0)).sum())
        b_only = int(((x == 0) & (y == 1)).sum())
        test.mcnemar = {
            "a_only": a_only,
            "b_only": b_only,
            "p": mcnemar_exact(a_only, b_only),
        }
    return test


def _paired_ratio(
    a: RunData, b: RunData, task: str, ratio: tuple[str, str], *, seed: int, n_boot: int
) -> PairedTest:
    """Ratio-of-sums headlines (TimePerceptBench PNR = ΣP/ΣN): B's ratio minus A's, with a
    percentile-bootstrap interval over items resampled jointly in both runs (paired). A resample
    in which either ratio is infinite (Σ den = 0) makes the interval bound None."""
    num, den = ratio
    by_id_b = {r.item_id: r for r in b.task_records(task)}
    rows = []
    excluded: dict[str, int] = {}
    for ra in a.task_records(task):
        rb = by_id_b[ra.item_id]
        vals = [ra.scores.get(num), ra.scores.get(den), rb.scores.get(num), rb.scores.get(den)]
        if any(v is None for v in vals):
            reason = (
                f"{ra.status} in {a.label}"
                if ra.status in UNSCORED
                else f"{rb.status} in {b.label}"
                if rb.status in UNSCORED
                else f"no {num!r}/{den!r} scores"
            )
            excluded[reason] = excluded.get(reason, 0) + 1
            continue
        rows.append([float(v) for v in vals])  # type: ignore[arg-type]
    if not rows:
        raise NotPairedError(f"{task}: no item has {num!r}/{den!r} scores in both runs")
    m = np.array(rows)

    def ratios(idx: np.ndarray) -> tuple[float, float]:
        s = m[idx].sum(axis=0)
        ra_ = s[0] / s[1] if s[1] > 0 else math.inf
        rb_ = s[2] / s[3] if s[3] > 0 else math.inf
        return ra_, rb_

    def diff(idx: np.ndarray) -> float:
        ra_, rb_ = ratios(idx)
        return rb_ - ra_ if math.isfinite(ra_) and math.isfinite(rb_) else math.nan

    ra0, rb0 = ratios(np.arange(len(m)))
    ci = bootstrap_ci(m, diff, n_boot=n_boot, seed=seed)
    if ci is not None and not all(math.isfinite(c) for c in ci):
        ci = None
    return PairedTest(
        task,
        a.label,
        b.label,
        f"{num}/{den} (ratio of sums)",
        len(m),
        excluded,
        ra0,
        rb0,
        rb0 - ra0,
        ci,
        n_boot=n_boot,
        seed=seed,
    )


@dataclass
class Comparison:
    tests: list[PairedTest] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "paired_tests": [t.__dict__ for t in self.tests],
            "refused": [r.__dict__ for r in self.refusals],
        }


def paired_tests(runs: list[RunData], *, seed: int = 0) -> Comparison:
    """Every pair of runs (A before B in the order given), every task both have."""
    out = Comparison()
    for a, b in combinations(runs, 2):
        for task in a.tasks:
            if task not in b.results["tasks"]:
                continue
            try:
                out.tests.append(paired_test(a, b, task, seed=seed))
            except NotPairedError as exc:
                out.refusals.append(Refusal(task, a.label, b.label, str(exc)))
    return out
