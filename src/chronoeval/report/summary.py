"""The terminal summary: one row per (task, model) with counts and the task's headline metrics."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from chronoeval.core.registry import get_task
from chronoeval.report.unparsed import print_unparsed


def fmt_metric(m: dict[str, Any] | None, *, pct: bool = False, digits: int = 1) -> str:
    """``value [lo, hi]`` for a metric dict from results.json."""
    if not m or m.get("value") is None:
        return "—"
    scale = 100.0 if pct else 1.0
    value = f"{m['value'] * scale:.{digits}f}"
    if m.get("ci95"):
        lo, hi = (x * scale for x in m["ci95"])
        value += f" [{lo:.{digits}f}, {hi:.{digits}f}]"
    return value


def summary_table(results_by_model: dict[str, dict[str, Any]]) -> Table:
    table = Table(title="chronoeval results (95% bootstrap intervals)", show_lines=False)
    for col in ("task", "model", "answered", "no answer", "errors", "metrics"):
        table.add_column(col, overflow="fold")
    for model, results in results_by_model.items():
        for name, entry in results["tasks"].items():
            counts = entry["counts"]
            rows = get_task(name).summary_rows(entry) if entry.get("metrics") else []
            metrics = "\n".join(f"{label}: {value}" for label, value in rows) or "—"
            errors = counts["error"] + counts["missing"]
            table.add_row(
                Text(name),
                Text(model),  # literal: a model name may contain [markup] or :emoji: codes
                str(counts["answered"]),
                str(counts["no_answer"]),
                f"[red]{errors}[/red]" if errors else "0",
                metrics,
            )
    return table


def print_summary(
    results_by_model: dict[str, dict[str, Any]], console: Console | None = None
) -> None:
    console = console or Console()
    console.print(summary_table(results_by_model))
    print_unparsed(results_by_model, console)
    for model, results in results_by_model.items():
        for task, why in sorted((results.get("skipped") or {}).items()):
            console.print(f"{escape(model)}: {task} skipped: {escape(why)}", emoji=False)
        from chronoeval.report.synthetic import synthetic_labels

        for task, note in sorted(synthetic_labels(results).items()):
            console.print(f"{escape(model)}: {task} ran on its synthetic set: {escape(note)}")
        if not results.get("complete", True):
            console.print(
                f"[yellow]{escape(model)}: incomplete — some items errored or were never asked; "
                "re-run the same command to retry them.[/yellow]",
                emoji=False,
            )
