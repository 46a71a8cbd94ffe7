"""Lost in Time's tables (Saxena et al. 2025) as declarative specs for
:mod:`chronoeval.report.paper_tables`.

Table 1: ClockQA EM, MAE (s), hour and minute errors, CalendarQA accuracy and macro P/R/F1, rows =
models. EM is the paper's headline (all of H:MM:SS); HM-EM (hours and minutes) stays beside it.
Errors are means over answered samples (a NoAnswer has no error magnitude; its count is the
``no_answer_rate`` in results.json). Macro P/R/F1 are resampled over items together.
"""

from __future__ import annotations

import numpy as np

from chronoeval.report.paper_tables import Col, Mean, Statistic, TableSpec
from chronoeval.suites.lost_in_time.answers import WEEKDAYS
from chronoeval.suites.lost_in_time.metrics import _codes, _macro_prf_counts, hour_minute, macro_prf

STYLES = ("easy", "basic", "black_dial", "no_second_hand", "roman", "arrow_hands")


def _weekday_rows(records: list) -> np.ndarray:
    """(gold, prediction) per scored item; a NoAnswer is no class (as ``calendar_aggregate``)."""
    rows = [
        [
            str(r.target).strip().capitalize(),
            r.answer if r.status == "answered" and r.answer in WEEKDAYS else "",
        ]
        for r in records
        if r.status in ("answered", "no_answer")
    ]
    return np.array(rows, dtype=object).reshape(-1, 2)


def _prf(k: int):  # type: ignore[no-untyped-def]
    def stat(rows: np.ndarray) -> float:
        return macro_prf(list(rows[:, 0]), [p or None for p in rows[:, 1]])[k]

    return stat


def _prf_batch(k: int):  # type: ignore[no-untyped-def]
    """``_prf(k)`` of every resample ``rows[idx[i]]`` at once (the same vectorised counts)."""

    def stat(rows: np.ndarray, idx: np.ndarray) -> np.ndarray:
        g = _codes(list(rows[:, 0]))
        p = _codes([p or None for p in rows[:, 1]])
        return _macro_prf_counts(g[idx], p[idx])[:, k]

    return stat


TABLE1 = TableSpec(
    "lost_in_time_table1",
    "Table 1: ClockQA and CalendarQA (%, errors in seconds / hours / minutes)",
    (
        Col("em", "EM", Mean("clockqa", "em"), "ClockQA"),
        Col("hm_em", "HM-EM", Mean("clockqa", "hm_em"), "ClockQA"),
        Col("mae", "MAE (s)", Mean("clockqa", "abs_err_s"), "ClockQA", 1.0, False, 0),
        Col("hour", "Hour err", Mean("clockqa", "hour_err"), "ClockQA", 1.0, False),
        Col("minute", "Minute err", Mean("clockqa", "minute_err"), "ClockQA", 1.0, False),
        Col("acc", "Acc", Mean("calendarqa", "correct"), "CalendarQA"),
        Col("p", "P", Statistic("calendarqa", _weekday_rows, _prf(0), _prf_batch(0)), "CalendarQA"),
        Col("r", "R", Statistic("calendarqa", _weekday_rows, _prf(1), _prf_batch(1)), "CalendarQA"),
        Col(
            "f1", "F1", Statistic("calendarqa", _weekday_rows, _prf(2), _prf_batch(2)), "CalendarQA"
        ),
    ),
    note="EM is the paper's headline (H:MM:SS all equal); HM-EM (hours and minutes) beside it.",
)

BY_STYLE = TableSpec(
    "lost_in_time_clock_styles",
    "ClockQA EM by clock style (%, Fig. 4a)",
    tuple(
        Col(s, s.replace("_", " "), Mean("clockqa", "em", (("style", s),)), "EM by style")
        for s in STYLES
    ),
)


def _answered_hm(records: list) -> np.ndarray:
    """The answered H:MM of every answered ClockQA sample."""
    hm = [hour_minute(str(r.answer)) for r in records if r.status == "answered"]
    return np.array([h for h in hm if h is not None], dtype=str)


def _is_top_answer(records: list) -> np.ndarray:
    """1 for each answered sample whose H:MM is the run's most frequent answered H:MM (chosen
    once on all samples, as results.json ``default_time.top_share``; re-choosing it in every
    resample would bias the share upwards and leave the estimate outside its interval)."""
    hm = _answered_hm(records)
    if len(hm) == 0:
        return np.zeros(0)
    values, counts = np.unique(hm, return_counts=True)
    return (hm == values[int(np.argmax(counts))]).astype(float)


def _mean(rows: np.ndarray) -> float:
    return float(np.mean(rows))


DEFAULT_TIME = TableSpec(
    "lost_in_time_default_time",
    "ClockQA default-time bias (% of answered samples)",
    (
        Col(
            "top",
            "Most frequent answer's share",
            Statistic("clockqa", _is_top_answer, _mean),
            "Default time",
            higher=None,
        ),
        Col(
            "ten_ten",
            "10:10 share",
            Statistic("clockqa", _answered_hm, lambda a: float((a == "10:10").mean())),
            "Default time",
            higher=None,
        ),
    ),
    note="A model that reads clocks answers each time about as often as it is the gold; a share "
    "far above the gold's (results.json default_time.top_gold_share) is a collapse onto one time.",
)

TABLES = [TABLE1, BY_STYLE, DEFAULT_TIME]
