"""Seeing Time's tables (paper Tables III–VIII) as declarative specs for
:mod:`chronoeval.report.paper_tables`.

Table III: Artifacts ACC_A and 50·(1+τ), Shortcut ACC_B / ACC_1 / ACC_2 / Δ_ACC, News ACC_Y / MAE /
ACC_M, the composite Score S (the suite's own :func:`~chronoeval.suites.seeing_time.metrics.composite`,
Eq. 6–9, applied to the point values and to the bootstrap replicates) and the Rank by S, with the
average over models (and per ``--group``). Δ_ACC is resampled over shortcut *pairs* (its two grey
conditions together). Table IV (the paper's layout): per domain ACC_1, ACC_2 and Δ_ACC with the CoT
prompt; an extended Table IV (ours): Δ_ACC per domain without and with CoT. Tables V and VI:
confidence bins and confidence per period of ``seeing_year_conf``, rows = models. Table VII: Δ
without CoT, with CoT, and the change (Δ_CoT − Δ_plain). Table VIII: zero-shot vs
retrieval-augmented runs (the ``+rag`` variant). Δ columns mark no "best": a Δ near 0 is what the
paper rewards (S_S uses 1 − |Δ|), neither end of the column.
"""

from __future__ import annotations

from typing import Any

from chronoeval.report.paper_tables import (
    Col,
    Combine,
    Count,
    InRange,
    Mean,
    TableSpec,
    difference,
)
from chronoeval.suites.seeing_time.metrics import CONFIDENCE_BINS, composite


def has_rag(records: list) -> bool:
    """A run of a task with retrieved passages (the ``rag_corpus`` parameter or the rag-pipeline's
    dataset): every item carries ``metadata.rag``."""
    return all("rag" in r.metadata for r in records)


VARIANTS = (("rag", has_rag),)
"""Retrieval-augmented runs are the task's ``+rag`` variant (Table VIII's RAG columns); no other
table reads them, so a model's zero-shot and RAG runs of one task and seed do not collide."""


def _spec(*args: Any, **kwargs: Any) -> TableSpec:
    return TableSpec(*args, variants=VARIANTS, **kwargs)


DOMAINS = ("diversity", "electronics", "emergency", "politics", "sports")


def pair_delta(group: list) -> float | None:
    """One shortcut pair's ACC_1 − ACC_2 contribution (None unless both grey conditions scored)."""
    by = {r.metadata.get("condition"): r.scores.get("correct") for r in group}
    if by.get("1") is None or by.get("2") is None:
        return None
    return float(by["1"]) - float(by["2"])


def _delta(task: str, where: tuple = ()) -> Mean:
    return Mean(task, "correct", where, unit="pair", reduce=pair_delta)


def _score(acc_a: Any, s50: Any, acc_b: Any, delta: Any, acc_y: Any, mae: Any, acc_m: Any) -> Any:
    """Composite S from the table's columns (fractions; 50·(1+τ) is stored on its 0–100 scale)."""
    return composite(acc_a, s50 / 50.0 - 1.0, acc_b, delta, acc_y, mae, acc_m)["S"]


def _cond(c: str) -> tuple:
    return (("condition", c),)


TABLE3 = _spec(
    "seeing_time_table3",
    "Table III: evaluation results (%, MAE in years), composite Score and Rank",
    (
        Col("acc_a", "ACC_A", Mean("seeing_localization", "correct"), "Artifacts"),
        Col("s50", "50×(1+τ)", Mean("seeing_sort", "score50"), "Artifacts", scale=1.0),
        Col("acc_b", "ACC_B", Mean("seeing_shortcut", "correct", _cond("B")), "Shortcut"),
        Col("acc_1", "ACC_1", Mean("seeing_shortcut", "correct", _cond("1")), "Shortcut"),
        Col("acc_2", "ACC_2", Mean("seeing_shortcut", "correct", _cond("2")), "Shortcut"),
        Col("delta", "Δ_ACC", _delta("seeing_shortcut"), "Shortcut", higher=None),
        Col("acc_y", "ACC_Y", Mean("seeing_year", "exact"), "News"),
        Col("mae", "MAE", Mean("seeing_year", "abs_err"), "News", scale=1.0, higher=False),
        Col("acc_m", "ACC_M", Mean("seeing_alignment", "correct"), "News"),
        Col(
            "score",
            "Score",
            Combine(("acc_a", "s50", "acc_b", "delta", "acc_y", "mae", "acc_m"), _score),
            "Overall",
        ),
    ),
    rank_by="score",
    average_row=True,
)

PAPER_DOMAINS = ("sports", "politics", "emergency", "electronics", "diversity")
"""Table IV's column order."""


def _dom(d: str, c: str) -> tuple:
    return (("domain", d), ("condition", c))


TABLE4 = _spec(
    "seeing_time_table4",
    "Table IV: shortcut task with CoT per domain: ACC_1, ACC_2, Δ_ACC (%)",
    tuple(
        col
        for d in PAPER_DOMAINS
        for col in (
            Col(
                f"{d}_acc1",
                "ACC_1",
                Mean("seeing_shortcut_cot", "correct", _dom(d, "1")),
                d.capitalize(),
            ),
            Col(
                f"{d}_acc2",
                "ACC_2",
                Mean("seeing_shortcut_cot", "correct", _dom(d, "2")),
                d.capitalize(),
            ),
            Col(
                f"{d}_delta",
                "Δ_ACC",
                _delta("seeing_shortcut_cot", (("domain", d),)),
                d.capitalize(),
                higher=None,
            ),
        )
    ),
    average_row=True,
)

TABLE4_PLAIN_VS_COT = _spec(
    "seeing_time_table4_plain_vs_cot",
    "Table IV (ours, extended): Δ_ACC (%) per domain, without and with the CoT prompt",
    tuple(
        Col(f"{d}_{t}", d.capitalize(), _delta(task, (("domain", d),)), label, higher=None)
        for t, task, label in (
            ("plain", "seeing_shortcut", "Without CoT"),
            ("cot", "seeing_shortcut_cot", "With CoT"),
        )
        for d in DOMAINS
    ),
)

TABLE7 = _spec(
    "seeing_time_table7",
    "Table VII: Δ_ACC (%) without and with the CoT verification prompt, and its change",
    (
        Col("plain", "Δ_ACC", _delta("seeing_shortcut"), "Without CoT", higher=None),
        Col("cot", "Δ_ACC", _delta("seeing_shortcut_cot"), "With CoT", higher=None),
        Col("change", "Δ change", Combine(("plain", "cot"), difference), "CoT", higher=None),
    ),
    average_row=True,
)


def _bin_cols(label: str, select: InRange) -> tuple[Col, ...]:
    task = "seeing_year_conf"
    return (
        Col(f"{label}_n", "Num", Count(task, "exact", select=select), label, scale=1.0,
            higher=None, digits=0),
        Col(f"{label}_acc", "Acc", Mean(task, "exact", select=select), label),
        Col(f"{label}_w1", "≤1y", Mean(task, "within1", select=select), label),
        Col(f"{label}_w3", "≤3y", Mean(task, "within3", select=select), label),
    )  # fmt: skip


TABLE5 = _spec(
    "seeing_time_table5",
    "Table V: News-Year accuracy (%) per confidence bin (seeing_year_conf)",
    tuple(
        col
        for label, select in (
            *((f"{lo}–{hi}", InRange("confidence", lo, hi)) for lo, hi in CONFIDENCE_BINS),
            ("no confidence", InRange("confidence", missing=True)),
        )
        for col in _bin_cols(label, select)
    ),
    note="Rows = models (the paper shows one model, bins as rows). Bins as the task's own "
    "confidence_bins (the last one holds 100 too); answers without a readable confidence are "
    "their own bin, never dropped. Num: items in the bin.",
)

PERIODS = ((1952, 1961), (1962, 1971), (1972, 1981), (1982, 1991), (1992, 2001), (2002, 2011),
           (2012, 2021), (2022, 2025))  # fmt: skip
"""Table VI's periods as the paper prints them (items with an earlier gold year: "before 1952")."""

TABLE6 = _spec(
    "seeing_time_table6",
    "Table VI: average confidence per period of the gold year (seeing_year_conf)",
    tuple(
        col
        for label, select in (
            ("before 1952", InRange("target", None, 1951)),
            *((f"{lo}–{hi}", InRange("target", lo, hi)) for lo, hi in PERIODS),
        )
        for col in (
            Col(
                f"{label}_n",
                "Num",
                Count("seeing_year_conf", "exact", select=select),
                label,
                scale=1.0,
                higher=None,
                digits=0,
            ),
            Col(
                f"{label}_conf",
                "Avg. Conf",
                Mean("seeing_year_conf", "confidence", select=select),
                label,
                scale=1.0,
                higher=None,
            ),
        )
    ),
    note="Rows = models. Num: items whose gold year is in the period; Avg. Conf: over those with "
    "a readable confidence. Fixed periods (the paper's), where the task's own "
    "confidence_by_period starts at the data's earliest year.",
)

TABLE8 = _spec(
    "seeing_time_table8",
    "Table VIII: zero-shot (ZS) and retrieval-augmented (RAG) accuracy (%)",
    (
        Col("dyn_zs", "Dynasty_ZS", Mean("seeing_localization", "correct")),
        Col("dyn_rag", "Dynasty_RAG", Mean("seeing_localization+rag", "correct")),
        Col("year_zs", "Year_ZS", Mean("seeing_year", "exact")),
        Col("year_rag", "Year_RAG", Mean("seeing_year+rag", "exact")),
    ),
    note="RAG: runs whose items carry retrieved passages (metadata.rag: `--param rag_corpus=` or "
    "`chronoeval seeing_time rag-pipeline`, its rag/ run); ZS: the same task without them.",
)

TABLES = [TABLE3, TABLE4, TABLE4_PLAIN_VS_COT, TABLE5, TABLE6, TABLE7, TABLE8]
