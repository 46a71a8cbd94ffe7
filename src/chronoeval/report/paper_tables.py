"""Each paper's tables across models, from declarative specs: one generic renderer.

A suite declares its paper's tables in ``suites/<suite>/tables.py`` as ``TABLES: list[TableSpec]``
(columns in the paper's order and grouping, each with a :class:`Source` saying how its number is
computed from the per-sample records of one run). This module turns scored runs into those tables:
rows = models (one run per model and task; several runs of one model on a task with different
generation or data seeds are *seeds*, shown as mean ± between-seed standard deviation), the best
value per column marked, written as Markdown, LaTeX (booktabs) and CSV, and as HTML for the report.

Statistics (:mod:`chronoeval.core.stats`, percentile bootstrap, 1,000 resamples): every cell is
recomputed from ``samples.jsonl`` and resampled over its *independent unit* — the item, or a
metadata key that groups records (MINED: the sample, whose four prompt versions are one unit;
TemporalVQA order: the row, asked in both orders). The seed of a column's resamples is derived
from its task name, so columns of one task are resampled together (same units, same draws) and a
composite (:class:`Combine`: an average over dimensions, Seeing Time's S, a CoT Δ change) gets its
interval from the elementwise combination of its inputs' replicates; different tasks are resampled
independently (their items are independent).
"""

from __future__ import annotations

import csv
import html
import importlib
import importlib.util
import io
import json
import math
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from chronoeval.core.errors import ChronoevalError
from chronoeval.core.stats import bootstrap_replicates, percentile_interval
from chronoeval.core.task import SampleRecord
from chronoeval.report.runs import RunData, load_run

Records = list[SampleRecord]


def task_seed(task: str) -> int:
    """The bootstrap seed of every column of ``task`` (stable across processes)."""
    return zlib.crc32(task.encode())


# -- sources ---------------------------------------------------------------------------------------
class Source(Protocol):
    task: str

    def compute(self, records: Records) -> tuple[float | None, np.ndarray | None, int]:
        """(value, bootstrap replicates or None, n units)."""
        ...


def _where(
    records: Records,
    where: Sequence[tuple[str, Any]],
    exclude: Sequence[tuple[str, Any]] = (),
) -> Records:
    """Records whose metadata match every ``where`` pair and no ``exclude`` pair."""
    return [
        r
        for r in records
        if all(r.metadata.get(k) == v for k, v in where)
        and not any(r.metadata.get(k) == v for k, v in exclude)
    ]


def record_value(record: SampleRecord, key: str) -> float | None:
    """``record.scores[key]``, or ``record.usage[...]`` for ``usage.<field>`` (token counts the
    run store kept for the sample; None when the backend reported none)."""
    v = (record.usage or {}).get(key[6:]) if key.startswith("usage.") else record.scores.get(key)
    return None if v is None else float(v)


@dataclass(frozen=True)
class Mean:
    """Mean of a per-sample score (``record.scores[score]``) over independent units.

    ``where``: metadata equality filters. ``unit``: a metadata key; records sharing its value are
    one unit, valued by ``reduce(records)`` (default: the mean of the score over the unit's
    records that have one). Records whose score is None (an error magnitude of a NoAnswer, a
    failed call) are left out, as the task's own aggregate does. ``score`` may be
    ``usage.<field>`` (:func:`record_value`)."""

    task: str
    score: str
    where: tuple[tuple[str, Any], ...] = ()
    unit: str | None = None
    reduce: Callable[[Records], float | None] | None = None
    exclude: tuple[tuple[str, Any], ...] = ()
    select: Callable[[SampleRecord], bool] | None = None
    """A record filter beyond metadata equality (e.g. :class:`InRange`: a confidence bin)."""

    def unit_values(self, records: Records) -> list[float]:
        recs = _where(records, self.where, self.exclude)
        if self.select is not None:
            recs = [r for r in recs if self.select(r)]
        if self.unit is None:
            vals = [record_value(r, self.score) for r in recs]
            return [v for v in vals if v is not None]
        groups: dict[str, Records] = {}
        for r in recs:
            groups.setdefault(str(r.metadata.get(self.unit, r.item_id)), []).append(r)
        out = []
        for g in groups.values():
            if self.reduce is not None:
                v = self.reduce(g)
            else:
                xs = [x for x in (record_value(r, self.score) for r in g) if x is not None]
                v = float(np.mean(xs)) if xs else None
            if v is not None:
                out.append(float(v))
        return out

    def compute(self, records: Records) -> tuple[float | None, np.ndarray | None, int]:
        vals = np.asarray(self.unit_values(records), dtype=float)
        if len(vals) == 0:
            return None, None, 0
        return float(vals.mean()), bootstrap_replicates(vals, seed=task_seed(self.task)), len(vals)


@dataclass(frozen=True)
class InRange:
    """Record filter: ``lo <= value <= hi`` (a bound None is open), where value is
    ``record.scores[key]`` or, for ``key="target"``, the gold as a number; ``missing=True``
    selects the records whose value is None instead (e.g. no readable confidence)."""

    key: str
    lo: float | None = None
    hi: float | None = None
    missing: bool = False

    def __call__(self, record: SampleRecord) -> bool:
        raw = record.target if self.key == "target" else record.scores.get(self.key)
        try:
            v = None if raw is None else float(raw)
        except (TypeError, ValueError):
            v = None
        if self.missing:
            return v is None
        return (
            v is not None
            and (self.lo is None or v >= self.lo)
            and (self.hi is None or v <= self.hi)
        )


@dataclass(frozen=True)
class Count:
    """The number of records (of ``task``, matching ``where`` and ``select``) that have a value
    of ``score``: a table's "Num" column. No interval; shown with ``scale=1``."""

    task: str
    score: str
    where: tuple[tuple[str, Any], ...] = ()
    select: Callable[[SampleRecord], bool] | None = None

    def compute(self, records: Records) -> tuple[float | None, np.ndarray | None, int]:
        n = len(Mean(self.task, self.score, self.where, select=self.select).unit_values(records))
        return float(n), None, n


@dataclass(frozen=True)
class Ratio:
    """Σ num / Σ den over items (TimePerceptBench PNR = ΣP / ΣN), resampled over items. An
    infinite ratio (Σ den = 0) has no value; infinite replicates make an interval bound None."""

    task: str
    num: str
    den: str
    where: tuple[tuple[str, Any], ...] = ()

    def compute(self, records: Records) -> tuple[float | None, np.ndarray | None, int]:
        rows = np.array(
            [
                [float(r.scores[self.num]), float(r.scores[self.den])]
                for r in _where(records, self.where)
                if r.scores.get(self.num) is not None and r.scores.get(self.den) is not None
            ],
            dtype=float,
        ).reshape(-1, 2)
        if len(rows) == 0:
            return None, None, 0

        def ratio(idx: np.ndarray) -> float:
            den = rows[idx, 1].sum()
            return float(rows[idx, 0].sum() / den) if den > 0 else math.inf

        value = ratio(np.arange(len(rows)))
        reps = bootstrap_replicates(rows, ratio, seed=task_seed(self.task))
        return (None if math.isinf(value) else value), reps, len(rows)


@dataclass(frozen=True)
class Statistic:
    """Any statistic of per-item rows: ``rows(records)`` → array (one row per item),
    ``statistic(rows)`` → float; resampled over the rows (e.g. macro-F1 over weekday classes)."""

    task: str
    rows: Callable[[Records], np.ndarray]
    statistic: Callable[[np.ndarray], float]
    batch: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    """Optional: ``batch(rows, idx)`` → the statistic of ``rows[idx[i]]`` for every resample
    ``i`` at once, the very numbers ``statistic`` gives one by one (a vectorised form)."""

    def compute(self, records: Records) -> tuple[float | None, np.ndarray | None, int]:
        rows = np.asarray(self.rows(records))
        if len(rows) == 0:
            return None, None, 0
        batch = self.batch
        reps = bootstrap_replicates(
            rows,
            lambda idx: self.statistic(rows[idx]),
            seed=task_seed(self.task),
            batch=None if batch is None else (lambda idx: batch(rows, idx)),
        )
        return float(self.statistic(rows)), reps, len(rows)


@dataclass(frozen=True)
class Across:
    """Unit values computed from the records of ``task`` together with those of other tasks of
    the same model (e.g. MINED's awareness samples paired with the timestamp samples that ask the
    same question without the context): ``fn(records, {other: records})`` -> one value per unit
    of ``task``, resampled like :class:`Mean` (seeded by ``task``, so two ``Across`` columns of
    one task whose ``fn`` return the same units in the same order move together)."""

    task: str
    others: tuple[str, ...]
    fn: Callable[[Records, dict[str, Records]], list[float]]

    def compute_across(
        self, records: Records, others: dict[str, Records]
    ) -> tuple[float | None, np.ndarray | None, int]:
        vals = np.asarray(self.fn(records, others), dtype=float)
        if len(vals) == 0:
            return None, None, 0
        return float(vals.mean()), bootstrap_replicates(vals, seed=task_seed(self.task)), len(vals)


@dataclass(frozen=True)
class Combine:
    """A composite of other columns of the same table (by key): ``fn(*values)``, applied to the
    point values and elementwise to their bootstrap replicates (numpy arithmetic)."""

    inputs: tuple[str, ...]
    fn: Callable[..., Any]


def average(*xs: Any) -> Any:
    """Unweighted mean of its arguments (floats or replicate arrays)."""
    return sum(xs) / len(xs)


def difference(a: Any, b: Any) -> Any:
    """b − a (e.g. a change from a baseline column to a treatment column)."""
    return b - a


# -- specs -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Col:
    """One column: ``key`` (unique in the table), ``label`` as the paper prints it, ``group`` (the
    paper's spanning header), ``scale`` (100 for percent), ``higher`` (True/False: which end is
    best, marked per column; None: not marked), ``digits`` after the decimal point."""

    key: str
    label: str
    source: Source | Combine | Across
    group: str = ""
    scale: float = 100.0
    higher: bool | None = True
    digits: int = 2
    hidden: bool = False
    """An input of a :class:`Combine` column that the rendered table does not show."""


@dataclass(frozen=True)
class TableSpec:
    """One paper table. ``rank_by``: a column key; adds a Rank column (1 = best). ``average_row``:
    adds the mean over models (no interval), as the paper's "Average" rows."""

    name: str
    title: str
    columns: tuple[Col, ...]
    rank_by: str | None = None
    average_row: bool = False
    note: str = ""
    row_name: Callable[[RunData, str], str] | None = None
    """The row a run's task belongs to (default: the run's model), e.g. the judged model of a
    judge run."""
    variants: tuple[tuple[str, Callable[[Records], bool]], ...] = ()
    """Run variants of a task: ``(suffix, test)``; a run's records of task ``t`` that pass
    ``test`` are filed as task ``t+suffix`` (a column source names ``"seeing_year+rag"``), so a
    model's zero-shot and retrieval-augmented runs are two columns, not two seeds."""

    @property
    def shown(self) -> tuple[Col, ...]:
        return tuple(c for c in self.columns if not c.hidden)

    def tasks(self) -> list[str]:
        """The task keys its columns read (a variant key ``t+suffix`` included)."""
        out: list[str] = []
        for c in self.columns:
            if isinstance(c.source, Combine):
                continue
            out.append(c.source.task)
            if isinstance(c.source, Across):
                out += list(c.source.others)
        return list(dict.fromkeys(out))

    def run_tasks(self) -> list[str]:
        """The task names runs must have for this table (variant suffixes removed)."""
        return list(dict.fromkeys(t.split("+", 1)[0] for t in self.tasks()))


def has_tables(suite: str) -> bool:
    """Whether ``suites/<suite>/tables.py`` exists (False for a name that is no suite package)."""
    try:
        return importlib.util.find_spec(f"chronoeval.suites.{suite}.tables") is not None
    except (ModuleNotFoundError, ValueError):
        return False


def suite_tables(suite: str) -> list[TableSpec]:
    """The suite's ``suites/<suite>/tables.py`` ``TABLES`` (a one-line error when it has none)."""
    if not has_tables(suite):
        raise ChronoevalError(
            f"suite {suite!r} declares no paper tables (suites/{suite}/tables.py)"
        )
    mod = importlib.import_module(f"chronoeval.suites.{suite}.tables")
    return list(mod.TABLES)


# -- computing ---------------------------------------------------------------------------------
@dataclass
class Cell:
    value: float | None
    ci95: tuple[float | None, float | None] | None
    n: int
    seeds: int = 1
    spread: float | None = None
    """Between-seed standard deviation (ddof=1) when the row has several seeds."""
    best: bool = False


@dataclass
class Row:
    model: str
    cells: dict[str, Cell]
    rank: int | None = None


@dataclass
class Table:
    spec: TableSpec
    rows: list[Row]
    average: dict[str, float | None] = field(default_factory=dict)
    groups: list[tuple[str, list[str], dict[str, float | None]]] = field(default_factory=list)
    """Model groups (``--group``) of a table with an average row: (name, member models in row
    order, the unweighted mean of each column over the members that have a value)."""


def _seed_key(run: RunData, task: str) -> str:
    gen = (run.config.get("generation") or {}).get("seed")
    data = (run.config.get("tasks", {}).get(task) or {}).get("seed")
    return f"gen={gen},data={data}"


def model_records(
    runs: list[RunData],
    tasks: list[str],
    row_name: Callable[[RunData, str], str] | None = None,
    variants: Sequence[tuple[str, Callable[[Records], bool]]] = (),
) -> dict[str, dict[str, dict[str, Records]]]:
    """model → task → seed key → records, models in the order first given. The same model, task
    and seed twice is an error naming both run directories. ``variants``: see
    :attr:`TableSpec.variants` (the task key becomes ``task+suffix``)."""
    out: dict[str, dict[str, dict[str, Records]]] = {}
    where: dict[tuple[str, str, str], Path] = {}
    for run in runs:
        for run_task in run.tasks:
            task = run_task
            if variants:
                recs = run.task_records(run_task)
                task = next(
                    (f"{run_task}+{sfx}" for sfx, test in variants if recs and test(recs)),
                    run_task,
                )
            if task not in tasks:
                continue
            key = _seed_key(run, run_task)
            model = row_name(run, run_task) if row_name else run.model
            if (model, task, key) in where:
                raise ChronoevalError(
                    f"{task}: model {model!r} with {key} is in both {where[(model, task, key)]}"
                    f" and {run.run_dir}; give one run per model and seed"
                )
            where[(model, task, key)] = run.run_dir
            out.setdefault(model, {}).setdefault(task, {})[key] = run.task_records(run_task)
    return out


def _scaled_ci(reps: np.ndarray | None, scale: float) -> tuple[float | None, float | None] | None:
    if reps is None:
        return None
    with np.errstate(invalid="ignore"):
        finite = reps[np.isfinite(reps)]
    if len(finite) == 0:
        return None
    with np.errstate(invalid="ignore"):
        ci = percentile_interval(np.where(np.isfinite(reps), reps, np.inf))
    if ci is None:
        return None
    return tuple(None if not math.isfinite(x) else x * scale for x in ci)  # type: ignore[return-value]


_COMPUTED: OrderedDict[Any, tuple[tuple[float | None, np.ndarray | None, int], Records]] = (
    OrderedDict()
)
_COMPUTED_MAX = 256


def _computed(src: Any, records: Records) -> tuple[float | None, np.ndarray | None, int]:
    """``src.compute(records)``, once per column source and records in this process: a job's
    per-run reports and its combined report show the same rows of the same records. Keyed by the
    source and each record's identity and scored content; the records are kept with the entry, so
    their identities cannot be reused while it lives."""
    try:
        key = (
            src,
            tuple(
                (id(r), r.status, repr(r.answer), repr(r.scores), repr(r.usage)) for r in records
            ),
        )
        hit = _COMPUTED.get(key)
    except TypeError:  # an unhashable source: computed every time
        return src.compute(records)
    if hit is not None:
        _COMPUTED.move_to_end(key)
        return hit[0]
    value = src.compute(records)
    _COMPUTED[key] = (value, records)
    while len(_COMPUTED) > _COMPUTED_MAX:
        _COMPUTED.popitem(last=False)
    return value


def _one_seed(
    spec: TableSpec, by_task: dict[str, Records]
) -> dict[str, tuple[float | None, np.ndarray | None, int]]:
    got: dict[str, tuple[float | None, np.ndarray | None, int]] = {}
    for col in spec.columns:
        src = col.source
        if isinstance(src, Combine):
            ins = [got.get(k) for k in src.inputs]
            if any(i is None or i[0] is None for i in ins):
                got[col.key] = (None, None, 0)
                continue
            value = float(src.fn(*[i[0] for i in ins]))  # type: ignore[index]
            reps = None
            if all(i[1] is not None for i in ins):  # type: ignore[index]
                reps = np.asarray(src.fn(*[i[1] for i in ins]), dtype=float)  # type: ignore[index]
            got[col.key] = (value, reps, min(i[2] for i in ins))  # type: ignore[index]
        elif isinstance(src, Across):
            if src.task in by_task and all(o in by_task for o in src.others):
                others = {o: by_task[o] for o in src.others}
                got[col.key] = src.compute_across(by_task[src.task], others)
            else:
                got[col.key] = (None, None, 0)
        elif src.task in by_task:
            got[col.key] = _computed(src, by_task[src.task])
        else:
            got[col.key] = (None, None, 0)
    return got


Groups = dict[str, list[str]]
"""Group name -> model names (``chronoeval tables --group NAME=MODEL,MODEL``)."""


def parse_groups(values: Sequence[str]) -> Groups:
    """``NAME=MODEL,MODEL`` options as groups; a malformed option or a model named in two groups
    is a one-line error."""
    out: Groups = {}
    seen: dict[str, str] = {}
    for v in values:
        name, eq, members = v.partition("=")
        models = [m.strip() for m in members.split(",") if m.strip()]
        if not eq or not name.strip() or not models:
            raise ChronoevalError(f"--group {v!r}: expected NAME=MODEL[,MODEL...]")
        name = name.strip()
        if name in out:
            raise ChronoevalError(f"--group {name!r} is given twice")
        for m in models:
            if m in seen:
                raise ChronoevalError(f"--group: model {m!r} is in groups {seen[m]!r} and {name!r}")
            seen[m] = name
        out[name] = models
    return out


def _check_groups(groups: Groups, models: Sequence[str]) -> None:
    for name, members in groups.items():
        for m in members:
            if m not in models:
                raise ChronoevalError(
                    f"--group {name}: model {m!r} is in none of the runs "
                    f"(models: {', '.join(models)})"
                )


def build_table(spec: TableSpec, runs: list[RunData], groups: Groups | None = None) -> Table:
    """The table over ``runs``. With ``groups`` (and a spec with an average row), rows come in
    group order (each group's models in the order given, ungrouped models last) and each group
    gets its average row, as the paper's "Closed-Source Average" / "Open-Source Average"."""
    per_model = model_records(runs, spec.tasks(), spec.row_name, spec.variants)
    rows = []
    for model, tasks in per_model.items():
        keys = sorted({k for seeds in tasks.values() for k in seeds})
        per_seed = []
        for key in keys:
            # a task run with one seed only stands for every seed of the model
            by_task = {
                t: seeds[key] if key in seeds else next(iter(seeds.values()))
                for t, seeds in tasks.items()
                if key in seeds or len(seeds) == 1
            }
            per_seed.append(_one_seed(spec, by_task))
        cells = {}
        for col in spec.columns:
            vals = [s[col.key] for s in per_seed]
            if len(vals) == 1:
                v, reps, n = vals[0]
                cells[col.key] = Cell(
                    None if v is None else v * col.scale, _scaled_ci(reps, col.scale), n
                )
            else:
                xs = [v[0] * col.scale for v in vals if v[0] is not None]
                cells[col.key] = Cell(
                    float(np.mean(xs)) if xs else None,
                    None,
                    vals[0][2],
                    seeds=len(xs),
                    spread=float(np.std(xs, ddof=1)) if len(xs) > 1 else None,
                )
        rows.append(Row(model, cells))
    table = Table(spec, rows)
    for col in spec.columns:
        present = [r.cells[col.key].value for r in rows if r.cells[col.key].value is not None]
        # a column where every model ties marks nobody (nothing is best)
        if (
            col.higher is not None
            and present
            and not all(math.isclose(v, present[0]) for v in present)
        ):
            best = max(present) if col.higher else min(present)
            for r in rows:
                if r.cells[col.key].value is not None and math.isclose(
                    r.cells[col.key].value, best
                ):
                    r.cells[col.key].best = True
        table.average[col.key] = float(np.mean(present)) if present else None
    if spec.rank_by:
        col = next(c for c in spec.columns if c.key == spec.rank_by)
        ranked = [r for r in rows if r.cells[col.key].value is not None]
        ranked.sort(key=lambda r: r.cells[col.key].value, reverse=bool(col.higher))  # type: ignore[arg-type,return-value]
        for i, r in enumerate(ranked, start=1):
            r.rank = i
    if groups and spec.average_row:
        by_model = {r.model: r for r in rows}
        present_groups = {g: [m for m in ms if m in by_model] for g, ms in groups.items()}
        ordered: list[Row] = []
        for name, members in present_groups.items():
            if not members:
                continue
            ordered += [by_model[m] for m in members]
            avg: dict[str, float | None] = {}
            for col in spec.columns:
                vals = [v for m in members if (v := by_model[m].cells[col.key].value) is not None]
                avg[col.key] = float(np.mean(vals)) if vals else None
            table.groups.append((name, members, avg))
        grouped = {m for _, ms, _ in table.groups for m in ms}
        table.rows = ordered + [r for r in rows if r.model not in grouped]
    return table


def _group_after(table: Table) -> dict[str, tuple[str, dict[str, float | None]]]:
    """Last member model of each group -> (group name, its averages): where its row goes."""
    return {ms[-1]: (name, avg) for name, ms, avg in table.groups}


# -- rendering ---------------------------------------------------------------------------------
def _num(x: float | None, digits: int) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def cell_text(cell: Cell, digits: int) -> str:
    """``value [lo, hi]``, or ``mean ± sd (k seeds)`` for several seeds, or ``—``."""
    if cell.value is None:
        return "—"
    out = _num(cell.value, digits)
    if cell.seeds > 1:
        return f"{out} ± {_num(cell.spread, digits)} ({cell.seeds} seeds)"
    if cell.ci95 is not None:
        out += f" [{_num(cell.ci95[0], digits)}, {_num(cell.ci95[1], digits)}]"
    return out


def _arrow(col: Col) -> str:
    return "" if col.higher is None else (" ↑" if col.higher else " ↓")


def _md_cell(text: str) -> str:
    return html.escape(text, quote=False).replace("|", "\\|").replace("\n", " ")


def to_markdown(table: Table) -> str:
    spec = table.spec
    head = ["Model"] + [
        (f"{c.group}: " if c.group else "") + c.label + _arrow(c) for c in spec.shown
    ]
    if spec.rank_by:
        head.append("Rank")
    lines = [f"### {spec.title}", ""]
    if spec.note:
        lines += [spec.note, ""]
    lines += ["| " + " | ".join(_md_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    after = _group_after(table)
    for row in table.rows:
        cells = [_md_cell(row.model)]
        for c in spec.shown:
            text = _md_cell(cell_text(row.cells[c.key], c.digits))
            cells.append(f"**{text}**" if row.cells[c.key].best else text)
        if spec.rank_by:
            cells.append("—" if row.rank is None else str(row.rank))
        lines.append("| " + " | ".join(cells) + " |")
        if row.model in after:
            name, gavg = after[row.model]
            g = [_md_cell(f"{name} Average")] + [_num(gavg[c.key], c.digits) for c in spec.shown]
            lines.append("| " + " | ".join(g + (["—"] if spec.rank_by else [])) + " |")
    if spec.average_row:
        avg = ["Average"] + [_num(table.average[c.key], c.digits) for c in spec.shown]
        lines.append("| " + " | ".join(avg + (["—"] if spec.rank_by else [])) + " |")
    lines += ["", "Bold: best per column. 95% percentile-bootstrap intervals in brackets.", ""]
    return "\n".join(lines)


_TEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


_TEX_SYMBOLS = {
    "↑": r"$\uparrow$",
    "↓": r"$\downarrow$",
    "→": r"$\rightarrow$",
    "Δ": r"$\Delta$",
    "τ": r"$\tau$",
    "×": r"$\times$",
    "±": r"$\pm$",
    "—": "--",
}


def tex_escape(text: str) -> str:
    """LaTeX-safe text: special characters escaped, the symbols the specs use as math, anything
    else outside ASCII (a model name) replaced by ``?`` so that pdflatex never fails on it."""
    out = "".join(_TEX.get(ch, ch) for ch in text)
    for ch, tex in _TEX_SYMBOLS.items():
        out = out.replace(ch, tex)
    return out.encode("ascii", "replace").decode("ascii")


def to_latex(table: Table) -> str:
    """A booktabs table: group headers with \\cmidrule, best per column in bold, intervals small."""
    spec = table.spec
    cols = list(spec.shown)
    ncol = 1 + len(cols) + (1 if spec.rank_by else 0)
    out = [
        "% " + tex_escape(spec.title),
        r"\begin{tabular}{l" + "c" * (ncol - 1) + "}",
        r"\toprule",
    ]
    if any(c.group for c in cols):
        spans: list[tuple[str, int, int]] = []
        for i, c in enumerate(cols, start=2):
            if spans and spans[-1][0] == c.group:
                spans[-1] = (c.group, spans[-1][1], i)
            else:
                spans.append((c.group, i, i))
        parts = [""]
        rules = []
        for group, a, b in spans:
            parts.append(rf"\multicolumn{{{b - a + 1}}}{{c}}{{{tex_escape(group)}}}")
            if group:
                rules.append(rf"\cmidrule(lr){{{a}-{b}}}")
        if spec.rank_by:
            parts.append("")
        out.append(" & ".join(parts) + r" \\")
        out.append(" ".join(rules))
    head = ["Model"] + [tex_escape(c.label + _arrow(c)) for c in cols]
    if spec.rank_by:
        head.append("Rank")
    out += [" & ".join(head) + r" \\", r"\midrule"]
    after = _group_after(table)
    for row in table.rows:
        cells = [tex_escape(row.model)]
        for c in cols:
            cell = row.cells[c.key]
            text = _num(cell.value, c.digits)
            if cell.best:
                text = rf"\textbf{{{text}}}"
            if cell.value is not None and cell.seeds > 1:
                text += rf" {{\scriptsize$\pm${_num(cell.spread, c.digits)}}}"
            elif cell.value is not None and cell.ci95 is not None:
                lo, hi = (_num(x, c.digits) for x in cell.ci95)
                text += rf" {{\scriptsize[{lo}, {hi}]}}"
            cells.append(text.replace("—", "--"))
        if spec.rank_by:
            cells.append("--" if row.rank is None else str(row.rank))
        out.append(" & ".join(cells) + r" \\")
        if row.model in after:
            name, gavg = after[row.model]
            g = [tex_escape(f"{name} Average")]
            g += [_num(gavg[c.key], c.digits).replace("—", "--") for c in cols]
            out += [r"\midrule", " & ".join(g + (["--"] if spec.rank_by else [])) + r" \\"]
            out.append(r"\midrule")
    if spec.average_row:
        if out[-1] != r"\midrule":
            out.append(r"\midrule")
        avg = ["Average"] + [_num(table.average[c.key], c.digits).replace("—", "--") for c in cols]
        out.append(" & ".join(avg + (["--"] if spec.rank_by else [])) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}", ""]
    return "\n".join(out)


CSV_COLUMNS = (
    "table", "model", "group", "column", "value", "ci95_low", "ci95_high", "n", "seeds",
    "seed_sd", "best", "rank",
)  # fmt: skip


def csv_rows(table: Table) -> list[dict[str, Any]]:
    out = []
    for row in table.rows:
        for c in table.spec.shown:
            cell = row.cells[c.key]
            ci = cell.ci95 or (None, None)
            out.append(
                {
                    "table": table.spec.name,
                    "model": row.model,
                    "group": c.group,
                    "column": c.label,
                    "value": cell.value,
                    "ci95_low": ci[0],
                    "ci95_high": ci[1],
                    "n": cell.n,
                    "seeds": cell.seeds,
                    "seed_sd": cell.spread,
                    "best": int(cell.best),
                    "rank": row.rank,
                }
            )
    for name, members, gavg in table.groups:
        for c in table.spec.shown:
            out.append({"table": table.spec.name, "model": f"{name} Average", "group": c.group,
                        "column": c.label, "value": gavg[c.key], "ci95_low": None,
                        "ci95_high": None, "n": len(members), "seeds": None, "seed_sd": None,
                        "best": 0, "rank": None})  # fmt: skip
    return out


def to_csv(tables: list[Table]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    w.writeheader()
    for t in tables:
        for r in csv_rows(t):
            w.writerow({k: "" if v is None else v for k, v in r.items()})
    return buf.getvalue()


def to_html(table: Table) -> str:
    """An HTML table (every string escaped), best per column in bold."""
    e = html.escape
    spec = table.spec
    head = "".join(f"<th>{e((c.group + ' ') if c.group else '')}{e(c.label + _arrow(c))}</th>"
                   for c in spec.shown)  # fmt: skip
    if spec.rank_by:
        head += "<th>Rank</th>"
    body = []
    after = _group_after(table)
    for row in table.rows:
        tds = []
        for c in spec.shown:
            text = e(cell_text(row.cells[c.key], c.digits))
            tds.append(f"<td><b>{text}</b></td>" if row.cells[c.key].best else f"<td>{text}</td>")
        if spec.rank_by:
            tds.append(f"<td>{'—' if row.rank is None else row.rank}</td>")
        body.append(f"<tr><td>{e(row.model)}</td>{''.join(tds)}</tr>")
        if row.model in after:
            name, gavg = after[row.model]
            g = "".join(f"<td>{e(_num(gavg[c.key], c.digits))}</td>" for c in spec.shown)
            rank = "<td>—</td>" if spec.rank_by else ""
            body.append(f"<tr><td>{e(name)} Average</td>{g}{rank}</tr>")
    if spec.average_row:
        avg = "".join(f"<td>{e(_num(table.average[c.key], c.digits))}</td>" for c in spec.shown)
        body.append(f"<tr><td>Average</td>{avg}{'<td>—</td>' if spec.rank_by else ''}</tr>")
    note = f"<p class=note>{e(spec.note)}</p>" if spec.note else ""
    return (
        f"<h4>{e(spec.title)}</h4>{note}<table class=paper><tr><th>Model</th>{head}</tr>"
        + "".join(body)
        + "</table>"
    )


# -- entry points ------------------------------------------------------------------------------
def expand_run_dirs(paths: list[Path]) -> list[Path]:
    """Run directories; a directory without results.json stands for the run directories below
    it (a job root such as ``runs/<tasks>/``, up to three levels deep), in sorted order."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if (p / "results.json").is_file() or not p.is_dir():
            out.append(p)
            continue
        found = sorted(
            {q.parent for depth in ("*/", "*/*/", "*/*/*/") for q in p.glob(depth + "results.json")}
        )
        if not found:
            raise ChronoevalError(f"{p}: no results.json in it or below it (not a scored run)")
        out += found
    return out


def suite_runs(suite: str, run_dirs: list[Path]) -> list[RunData]:
    return [load_run(d, label=str(d)) for d in expand_run_dirs(run_dirs)]


def build_tables(suite: str, runs: list[RunData], groups: Groups | None = None) -> list[Table]:
    specs = suite_tables(suite)
    wanted = {t for s in specs for t in s.run_tasks()}
    if not any(t in wanted for r in runs for t in r.tasks):
        raise ChronoevalError(
            f"none of the runs has a task of suite {suite!r} ({', '.join(sorted(wanted))})"
        )
    tables = [
        build_table(s, runs, groups)
        for s in specs
        if any(t in r.tasks for r in runs for t in s.run_tasks())
    ]
    if groups:
        _check_groups(groups, list(dict.fromkeys(r.model for t in tables for r in t.rows)))
    return tables


def write_tables(
    suite: str, run_dirs: list[Path], out: Path, groups: Groups | None = None
) -> dict[str, Path]:
    """``chronoeval tables``: ``<out>/<suite>_tables.md``, ``.tex`` and ``.csv``."""
    runs = suite_runs(suite, run_dirs)
    tables = build_tables(suite, runs, groups)
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "markdown": out / f"{suite}_tables.md",
        "latex": out / f"{suite}_tables.tex",
        "csv": out / f"{suite}_tables.csv",
    }
    paths["markdown"].write_text(
        f"## {suite}: paper tables\n\n" + "\n".join(to_markdown(t) for t in tables),
        encoding="utf-8",
    )
    paths["latex"].write_text(
        "% needs \\usepackage{booktabs}\n" + "\n".join(to_latex(t) for t in tables),
        encoding="utf-8",
    )
    paths["csv"].write_text(to_csv(tables), encoding="utf-8")
    return paths


def html_section(runs: list[RunData], problems: list[str] | None = None) -> str:
    """The report's "Paper tables" section: every suite with specs that the runs cover. A suite
    whose tables cannot be built is named in ``problems`` instead of aborting the report."""
    suites = list(
        dict.fromkeys(str(r.task_entry(t).get("suite", "")) for r in runs for t in r.tasks)
    )
    parts = []
    for suite in suites:
        if not has_tables(suite):
            continue
        try:
            tables = build_tables(suite, runs)
        except (ChronoevalError, KeyError, ValueError, TypeError) as exc:
            if problems is not None:
                problems.append(f"paper tables of {suite}: {exc}")
            continue
        parts.append(f"<h3>{html.escape(suite)}</h3>" + "".join(to_html(t) for t in tables))
    if not parts:
        return ""
    return (
        "<section id=paper-tables><h2>Paper tables</h2><p class=note>Rows = models, the papers' "
        "column order; bold = best per column; 95% bootstrap intervals over the independent unit."
        "</p>" + "".join(parts) + "</section>"
    )


def tables_json(tables: list[Table]) -> str:
    return json.dumps([csv_rows(t) for t in tables], indent=1)
