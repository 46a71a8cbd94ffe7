"""SPAN's tables as declarative specs for :mod:`chronoeval.report.paper_tables`: accuracy by
calendar, direction group, reasoning type and question format (paper Fig. 2–5 averages), accuracy
restricted to the dates where the Umm al-Qura implementations agree, and output token counts
(Fig. 2 right; the backend's ``completion_tokens`` as the run store kept them — the paper counts
tiktoken o200k_base tokens, so values from different tokenizers are not comparable)."""

from __future__ import annotations

from chronoeval.report.paper_tables import Col, Mean, TableSpec

CALENDARS = ("chinese", "hebrew", "islamic", "persian", "shaka")


def _acc(where: tuple = (), exclude: tuple = ()) -> Mean:
    return Mean("span", "correct", where, exclude=exclude)


ACCURACY = TableSpec(
    "span_accuracy",
    "SPAN accuracy (%) by calendar, direction, reasoning type and question format",
    (
        Col("all", "Overall", _acc()),
        *(Col(c, c.capitalize(), _acc((("calendar", c),)), "Calendar") for c in CALENDARS),
        Col("g2o", "Gregorian→Others", _acc((("group", "gregorian->others"),)), "Direction"),
        Col("o2g", "Others→Gregorian", _acc((("group", "others->gregorian"),)), "Direction"),
        Col("date", "Date", _acc((("type", "date"),)), "Type"),
        Col("festival", "Festival", _acc((("type", "festival"),)), "Type"),
        Col("content", "Content", _acc((("format", "content"),)), "Format"),
        Col("polar", "Polar", _acc((("format", "polar"),)), "Format"),
    ),
)

AGREEMENT = TableSpec(
    "span_agreement",
    "SPAN accuracy (%) on all items and on items whose dates lie where the Umm al-Qura "
    "implementations agree; mean output tokens per answer",
    (
        Col("all", "All items", _acc()),
        Col("agreed", "Agreed dates", _acc(exclude=(("uq_outside_agreed_window", True),))),
        Col(
            "tokens",
            "Output tokens",
            Mean("span", "usage.completion_tokens"),
            scale=1.0,
            higher=None,
            digits=1,
        ),
    ),
    note="Agreed dates: items flagged uq_outside_agreed_window are left out (hijridate's and "
    "ICU's Umm al-Qura differ outside 1999-04-17..2029-08-10). Output tokens: the backend's "
    "completion_tokens ('—' when the backend reports no usage).",
)

TABLES = [ACCURACY, AGREEMENT]
