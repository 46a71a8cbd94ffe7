"""Tables for papers: every metric of every run as CSV rows, and Markdown tables (leaderboard of
headline metrics, each task's overall metrics, paired tests).

Values are written as results.json stores them (no rescaling: a task's metrics carry their own
units); intervals are the 95% percentile-bootstrap intervals from results.json.
"""

from __future__ import annotations

import csv
import html
import io
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


def fmt_entry(entry: dict[str, Any] | Headline | None, digits: int = 3) -> str:
    """``value [lo, hi]`` (or ``—``)."""
    if entry is None:
        return "—"
    if isinstance(entry, Headline):
        value, ci = entry.value, entry.ci95
    else:
        value, ci = entry.get("value"), entry.get("ci95")
    if not isinstance(value, int | float):
        return "—" if value is None else str(value)
    out = fmt_value(float(value), digits)
    if ci and len(ci) == 2 and all(isinstance(c, int | float) for c in ci):
        out += f" [{fmt_value(float(ci[0]), digits)}, {fmt_value(float(ci[1]), digits)}]"
    return out


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


def _md_cell(text: str) -> str:
    """Escaped for a Markdown table cell: pipes, and HTML (Markdown renders raw HTML)."""
    return html.escape(text, quote=False).replace("|", "\\|").replace("\n", " ")


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(_md_cell(h) for h in header) + " |"]
    lines.append("|" + "|".join("---" for _ in header) + "|")
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def to_markdown(runs: list[RunData], comparison: Comparison | None = None) -> str:
    """Leaderboard of headline metrics, each task's overall metrics per run, and paired tests."""
    parts = ["# chronoeval results", "", "95% percentile-bootstrap intervals in brackets.", ""]
    board = leaderboard(runs)
    tasks = list(board)
    parts += ["## Headline metrics", ""]
    header = ["run"] + [
        f"{t} ({next((r.headline.label for r in board[t] if r.headline), 'no headline')})"
        for t in tasks
    ]
    body = []
    for run in runs:
        row = [run.label]
        for t in tasks:
            cell = next((r for r in board[t] if r.run == run.label), None)
            text = fmt_entry(cell.headline) if cell else "—"
            if cell and not cell.comparable:
                text += " (different items)"
            row.append(text)
        body.append(row)
    chance = [
        fmt_value(next((r.headline.chance for r in board[t] if r.headline), None)) for t in tasks
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
        for r in having:
            metrics = r.task_entry(task).get("metrics") or {}
            overall = dict(flatten_metrics(metrics.get("overall", metrics)))
            counts = r.task_entry(task).get("counts", {})
            rows.append(
                [r.label]
                + [fmt_entry(overall.get(p)) for p in paths]
                + [str(counts.get(k, 0)) for k in ("answered", "no_answer", "error", "missing")]
            )
        header = ["run", *paths, "answered", "no answer", "error", "missing"]
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
                        fmt_value(t.diff),
                        "—"
                        if t.ci95 is None
                        else f"[{fmt_value(t.ci95[0])}, {fmt_value(t.ci95[1])}]",
                        "—" if mc is None else f"{mc['a_only']}/{mc['b_only']}",
                        "—" if mc is None else fmt_value(mc["p"], 4),
                        ", ".join(f"{k}: {v}" for k, v in t.excluded.items()) or "0",
                    ]
                )
            header = ["task", "A", "B", "score", "n", "mean B − A", "95% CI", "A-only/B-only",
                      "McNemar p", "excluded"]  # fmt: skip
            parts += [_md_table(header, rows), ""]
        for ref in comparison.refusals:
            parts += [f"- refused: {_md_cell(ref.reason)}"]
        parts += [""]
    return "\n".join(parts)
