"""Tables for papers: every metric of every run as CSV rows, and Markdown tables (leaderboard of
headline metrics, each task's overall metrics, paired tests).

The CSV keeps results.json's values as stored; the Markdown tables show proportions in percent
(:mod:`chronoeval.report.units`), as the papers do. Intervals are the 95% percentile-bootstrap
intervals from results.json.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import Any

from chronoeval.core.registry import get_task
from chronoeval.report.compare import Comparison, Headline, leaderboard
from chronoeval.report.runs import RunData

CSV_COLUMNS = (
    "run",
    "model",
    "suite",
    "task",
    "metric",
    "value",
    "ci95_low",
    "ci95_high",
    "n",
    "headline",
    "chance",
)


def is_metric(obj: Any) -> bool:
    """A metric entry as results.json stores it: ``{"value", "ci95", "n"}``."""
    return isinstance(obj, dict) and "value" in obj and "n" in obj


def flatten_metrics(metrics: Any, prefix: str = "") -> Iterator[tuple[str, dict]]:
    """(dotted path, metric entry) for every metric nested in a task's ``metrics``, in order.

    A bare number (a task may store one, e.g. a count) becomes ``{"value": x, "ci95": None,
    "n": None}``; strings, lists and other values are not metrics and are left out."""
    if is_metric(metrics):
        yield prefix.rstrip("."), metrics
        return
    if not isinstance(metrics, dict):
        return
    for key, val in metrics.items():
        path = f"{prefix}{key}"
        if is_metric(val):
            yield path, val
        elif isinstance(val, dict):
            yield from flatten_metrics(val, path + ".")
        elif isinstance(val, int | float) and not isinstance(val, bool):
            yield path, {"value": val, "ci95": None, "n": None}


def fmt_value(v: Any, digits: int = 3) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        if v != 0 and (abs(v) >= 1e5 or abs(v) < 10**-(digits)):
            return f"{v:.{digits}g}"
        return f"{v:.{digits}f}"
    return str(v)


def fmt_entry(
    entry: dict[str, Any] | Headline | None, digits: int = 3, *, pct: bool = False
) -> str:
    """``value [lo, hi]`` (or ``—``); with ``pct``, a proportion as percent with one decimal."""
    if entry is None:
        return "—"
    if isinstance(entry, Headline):
        value, ci = entry.value, entry.ci95
    else:
        value, ci = entry.get("value"), entry.get("ci95")
    if not isinstance(value, int | float):
        return "—" if value is None else str(value)
    scale, digits = (100.0, 1) if pct else (1.0, digits)
    out = fmt_value(float(value) * scale, digits)
    if ci and len(ci) == 2 and all(isinstance(c, int | float) for c in ci):
        lo, hi = (fmt_value(float(c) * scale, digits) for c in ci)
        out += f" [{lo}, {hi}]"
    return out


def fmt_pct_or_value(v: Any, pct: bool) -> str:
    """A bare number (a chance level) in the unit of its metric."""
    if pct and isinstance(v, int | float):
        return fmt_value(100.0 * v, 1)
    return fmt_value(v)


def headline_is_percent(task: str, runs: list[RunData]) -> bool:
    """Whether ``task``'s headline metric is a proportion (shown in percent) in these runs."""
    from chronoeval.report.units import is_percent

    t = get_task(task)
    seen = False
    for run in runs:
        if task not in run.results["tasks"]:
            continue
        metrics = run.task_entry(task).get("metrics") or {}
        head = t.headline(metrics) if metrics else None
        if head is None:
            continue
        path = next((p for p, m in flatten_metrics(metrics) if m is head[1]), head[0])
        if not is_percent(path, head[1]) and not is_percent(head[0].replace(" ", "_"), head[1]):
            return False
        seen = True
    return seen


def metric_rows(runs: list[RunData]) -> list[dict[str, Any]]:
    """One row per (run, task, metric) — every metric in results.json, headline marked."""
    rows = []
    for run in runs:
        for task, entry in run.results["tasks"].items():
            metrics = entry.get("metrics") or {}
            t = get_task(task)
            head = t.headline(metrics) if metrics else None
            chance = t.chance(metrics) if metrics else None
            found = [(path, m) for path, m in flatten_metrics(metrics)]
            if head is not None and not any(m is head[1] for _, m in found):
                found.append((f"headline ({head[0]})", head[1]))  # computed by Task.headline
            for path, m in found:
                ci = m.get("ci95") if isinstance(m.get("ci95"), list | tuple) else [None, None]
                is_head = head is not None and head[1] is m
                rows.append(
                    {
                        "run": run.label,
                        "model": run.model,
                        "suite": entry.get("suite", t.suite),
                        "task": task,
                        "metric": path,
                        "value": m.get("value"),
                        "ci95_low": ci[0],
                        "ci95_high": ci[1],
                        "n": m.get("n"),
                        "headline": head[0] if is_head else "",
                        "chance": chance if is_head else None,
                    }
                )
    return rows


def to_csv(runs: list[RunData]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in metric_rows(runs):
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buf.getvalue()


_MD_SPECIAL = re.compile(r"([\\|<>`*]|&(?=#?\w+;))")


def _md_cell(text: str) -> str:
    """Escaped for a Markdown table cell with backslashes (CommonMark escapes any ASCII
    punctuation): pipes, and the characters that would start raw HTML, an entity, code or
    emphasis. No HTML entities, so the Markdown reads as plain text too."""
    return _MD_SPECIAL.sub(r"\\\1", text).replace("\n", " ")


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(_md_cell(h) for h in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def to_markdown(runs: list[RunData], comparison: Comparison | None = None) -> str:
    """Leaderboard of headline metrics, each task's overall metrics per run, and paired tests."""
    from chronoeval.report.units import is_percent, label

    parts = [
        "# chronoeval results",
        "",
        "Proportions in percent (%); 95% percentile-bootstrap intervals in brackets.",
        "",
    ]
    board = leaderboard(runs)
    tasks = list(board)
    pct = {t: headline_is_percent(t, runs) for t in tasks}
    parts += ["## Headline metrics", ""]
    header = ["run"] + [
        label(
            f"{t} ("
            + next((r.headline.label for r in board[t] if r.headline), "nothing scored")
            + ")",
            pct[t],
        )
        for t in tasks
    ]
    body = []
    for run in runs:
        row = [run.label]
        for t in tasks:
            cell = next((r for r in board[t] if r.run == run.label), None)
            text = fmt_entry(cell.headline, pct=pct[t]) if cell else "—"
            if cell and not cell.comparable:
                text += " (different items)"
            row.append(text)
        body.append(row)
    chance = [
        fmt_pct_or_value(next((r.headline.chance for r in board[t] if r.headline), None), pct[t])
        for t in tasks
    ]
    body.append(["chance"] + chance)
    parts += [_md_table(header, body), ""]
    for task in tasks:
        having = [r for r in runs if task in r.results["tasks"]]
        paths: list[str] = []
        for r in having:
            metrics = r.task_entry(task).get("metrics") or {}
            overall = metrics.get("overall", metrics)
            paths += [p for p, _ in flatten_metrics(overall) if p not in paths]
        parts += [f"## {task}", ""]
        rows = []
        flat = []
        for r in having:
            metrics = r.task_entry(task).get("metrics") or {}
            flat.append(dict(flatten_metrics(metrics.get("overall", metrics))))
        in_pct = {
            p: all(is_percent(p, o[p]) for o in flat if p in o) and any(p in o for o in flat)
            for p in paths
        }
        for r, overall in zip(having, flat, strict=True):
            counts = r.task_entry(task).get("counts", {})
            rows.append(
                [r.label]
                + [fmt_entry(overall.get(p), pct=in_pct[p]) for p in paths]
                + [str(counts.get(k, 0)) for k in ("answered", "no_answer", "error", "missing")]
            )
        header = ["run", *(label(p, in_pct[p]) for p in paths)]
        header += ["answered", "no answer", "error", "missing"]
        parts += [_md_table(header, rows), ""]
    if comparison and (comparison.tests or comparison.refusals):
        parts += ["## Paired tests (B − A, same items)", ""]
        if comparison.tests:
            rows = []
            for t in comparison.tests:
                mc = t.mcnemar
                rows.append(
                    [
                        t.task,
                        t.a,
                        t.b,
                        t.score_key,
                        str(t.n),
                        fmt_pct_or_value(t.diff, pct.get(t.task, False)),
                        "—"
                        if t.ci95 is None
                        else f"[{fmt_pct_or_value(t.ci95[0], pct.get(t.task, False))}, "
                        f"{fmt_pct_or_value(t.ci95[1], pct.get(t.task, False))}]",
                        "—" if mc is None else f"{mc['a_only']}/{mc['b_only']}",
                        "—" if mc is None else fmt_value(mc["p"], 4),
                        ", ".join(f"{k}: {v}" for k, v in t.excluded.items()) or "0",
                    ]
                )
            header = ["task", "A", "B", "score", "n", "mean B − A (% points where %)", "95% CI",
                      "A-only/B-only", "McNemar p", "excluded"]  # fmt: skip
            parts += [_md_table(header, rows), ""]
        for ref in comparison.refusals:
            parts += [f"- refused: {_md_cell(ref.reason)}"]
        parts += [""]
    return "\n".join(parts)
