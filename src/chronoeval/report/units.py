"""Which metrics the report shows in percent, as the papers print them.

results.json keeps proportions as fractions (0.734); tables in the HTML report and the Markdown
output show them as percent with one decimal (73.4), the unit the five papers use and the one the
terminal summary and the charts already use. The CSV keeps results.json's raw values.

A metric is shown in percent when its name (the last part of its dotted path) names a proportion
— accuracies, exact match, F1/precision/recall, rates, shares, chance levels, differences of
accuracies — and its value and interval lie in [-1, 1]. Everything else (MAE in seconds or years,
Kendall's tau, counts, a score already on a 0-100 scale such as 50(1+tau)) is shown as stored.
"""

from __future__ import annotations

import re
from typing import Any

PERCENT_NAMES = re.compile(
    r"^(?:acc(?:uracy)?(?:_.*)?|.*_acc(?:uracy)?|em|.*_em|exact|cem(?:_.*)?|f1|"
    r"macro_(?:f1|precision|recall)|precision|recall|rate|.*_rate|within\d+|chance|"
    r"pnr(?:_valid)?|delta|agree|all4|any4|yes_no_leak|outdated|latest|irrelevant|unknown|"
    r"\d{4}(?:-\d{4})?|judge)$",
    re.IGNORECASE,
)
"""Leaf names of proportion metrics (a year range such as ``1985-1994`` is a per-period accuracy)."""


def _in_unit_range(entry: Any) -> bool:
    if not isinstance(entry, dict):
        return False
    value = entry.get("value")
    if not isinstance(value, int | float) or isinstance(value, bool) or not -1 <= value <= 1:
        return False
    ci = entry.get("ci95")
    return not (ci and any(isinstance(c, int | float) and not -1 <= c <= 1 for c in ci))


def is_percent(path: str, entry: Any) -> bool:
    """Whether the metric at dotted ``path`` with ``entry`` ({value, ci95, n}) is a proportion."""
    leaf = path.rsplit(".", 1)[-1].strip()
    return bool(PERCENT_NAMES.match(leaf)) and _in_unit_range(entry)


def label(path: str, pct: bool) -> str:
    """A metric's name for a table row or column: ``accuracy %`` when shown in percent."""
    return f"{path} %" if pct and path else path
