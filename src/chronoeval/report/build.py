"""Write a report over scored runs: the HTML file, and optionally Markdown and CSV tables."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from chronoeval.report.compare import Comparison, paired_tests
from chronoeval.report.html import render_html
from chronoeval.report.runs import RunData, load_runs
from chronoeval.report.tables import fmt_value, to_csv, to_markdown


@dataclass
class Report:
    runs: list[RunData]
    comparison: Comparison
    html: Path | None
    markdown: Path | None
    csv: Path | None

    @property
    def problems(self) -> list[str]:
        return [p for r in self.runs for p in r.problems]


def _write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file. A full disk or a file-size limit is one
    line naming the file (a failed write's OSError names none), and the partial file is removed."""
    from chronoeval.engine.storage import storage_errors

    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with storage_errors(path, "writing the report", REPORT_KEPT):
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    return path


REPORT_KEPT = "the runs' results are kept; run `chronoeval report` again once there is room"


def write_report(
    run_dirs: list[Path],
    *,
    out: Path | None = None,
    markdown: Path | None = None,
    csv: Path | None = None,
    max_samples: int | None = None,
    bootstrap_seed: int = 0,
    loaded: list[RunData] | None = None,
) -> Report:
    """Read the runs, run the paired tests (two or more runs), and write what was asked for.

    ``loaded``: the runs already in memory (:func:`chronoeval.report.runs.run_from_memory`), in
    the order of ``run_dirs``; nothing is read back from them."""
    runs = load_runs([Path(d) for d in run_dirs], loaded)
    comparison = paired_tests(runs, seed=bootstrap_seed) if len(runs) > 1 else Comparison()
    html_path = md_path = csv_path = None
    if out is not None:
        html_path = _write(out, render_html(runs, comparison, max_samples=max_samples))
    if markdown is not None:
        md_path = _write(markdown, to_markdown(runs, comparison))
    if csv is not None:
        csv_path = _write(csv, to_csv(runs))
    return Report(runs, comparison, html_path, md_path, csv_path)


def print_comparison(comparison: Comparison, console: Console) -> None:
    """The paired tests as a terminal table, and every refusal with its reason."""
    if comparison.tests:
        table = Table(
            title="paired tests: B − A on the same items (95% bootstrap CI, exact McNemar)"
        )
        for col in ("task", "A", "B", "score", "n", "B − A [95% CI]", "A-only/B-only", "p"):
            table.add_column(col, overflow="fold")
        for t in comparison.tests:
            ci = "" if t.ci95 is None else f" [{fmt_value(t.ci95[0])}, {fmt_value(t.ci95[1])}]"
            mc = t.mcnemar
            table.add_row(
                Text(t.task),
                Text(t.a),
                Text(t.b),
                t.score_key,
                str(t.n),
                fmt_value(t.diff) + ci,
                "—" if mc is None else f"{mc['a_only']}/{mc['b_only']}",
                "—" if mc is None else fmt_value(mc["p"], 4),
            )
        console.print(table)
    for ref in comparison.refusals:
        console.print(
            f"[yellow]paired test refused:[/yellow] {escape(ref.reason)}",
            highlight=False,
            emoji=False,
        )
