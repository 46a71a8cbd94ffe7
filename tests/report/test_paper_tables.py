"""`chronoeval tables`: paper tables from several scored runs, checked against values computed by
hand from the hand-built clock dataset and the scripted model's known answers.

Dataset (tests/helpers.make_clock_dataset, n=12): item i has gold (i % 12 + 1):(7i % 60):(13i % 60),
style roman for even i, basic for odd i. Scripted pattern "a" (per i % 4: correct, wrong "6:30:30",
no answer, error) and "b" (correct, correct, wrong, no answer).
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.engine.request import GenerationConfig
from chronoeval.engine.runner import RetryPolicy
from chronoeval.report import paper_tables as pt
from chronoeval.report.runs import load_run
from chronoeval.suites.lost_in_time.tables import BY_STYLE, TABLE1


@pytest.fixture(scope="module")
def lit_runs(make_run) -> list[Path]:  # type: ignore[no-untyped-def]
    return [make_run("scripted:a"), make_run("scripted:b"), make_run("constant:6:30:30")]


def _cells(table: pt.Table) -> dict[str, dict[str, pt.Cell]]:
    return {r.model: r.cells for r in table.rows}


def test_table1_numbers_by_hand(lit_runs: list[Path]) -> None:
    runs = [load_run(d) for d in lit_runs]
    cells = _cells(pt.build_table(TABLE1, runs))
    a, b, const = cells["scripted:a"], cells["scripted:b"], cells["constant:6:30:30"]
    # a: 3 correct of 9 scored (3 errors are not scored, 3 no answers score 0 on EM)
    assert a["em"].value == pytest.approx(100 * 3 / 9) and a["em"].n == 9
    # a's wrong answers 6:30:30 (23430 s on the dial) against golds i = 1, 5, 9:
    # 2:07:13 (7633 s), 6:35:05 (23705 s), 10:03:57 (36237 s) -> 15797, 275, 12807; correct -> 0
    assert a["mae"].value == pytest.approx((15797 + 275 + 12807) / 6) and a["mae"].n == 6
    assert a["hour"].value == pytest.approx((4 + 0 + 4) / 6)
    assert a["minute"].value == pytest.approx((23 + 5 + 27) / 6)
    # b: 6 correct of 12; wrong at i = 2, 6, 10: 3:14:26, 7:42:18, 11:10:10
    assert b["em"].value == pytest.approx(50.0) and b["hm_em"].value == pytest.approx(50.0)
    assert b["mae"].value == pytest.approx((11764 + 4308 + 16780) / 9)
    assert b["hour"].value == pytest.approx((3 + 1 + 5) / 9)
    assert b["minute"].value == pytest.approx((16 + 12 + 20) / 9)
    assert const["em"].value == 0.0
    # best per column: EM highest (b), MAE lowest (b); the calendar columns are empty
    assert b["em"].best and not a["em"].best and not const["em"].best
    assert b["mae"].best and not a["mae"].best
    assert a["acc"].value is None and not a["acc"].best
    # intervals bracket the value; a constant-0 column has a zero-width interval
    assert a["em"].ci95[0] <= a["em"].value <= a["em"].ci95[1]
    assert const["em"].ci95 == (0.0, 0.0)
    # the same numbers as the task's own aggregate in results.json
    for run, got in ((runs[0], a), (runs[1], b)):
        overall = run.task_entry("clockqa")["metrics"]["overall"]
        assert got["em"].value == pytest.approx(100 * overall["em"]["value"])
        assert got["mae"].value == pytest.approx(overall["mae_s"]["value"])


def test_style_table_by_hand(lit_runs: list[Path]) -> None:
    cells = _cells(pt.build_table(BY_STYLE, [load_run(d) for d in lit_runs]))
    # a: roman (even i) = 0, 4, 8 correct, 2, 6, 10 no answer -> 3/6; basic (odd) none correct
    assert cells["scripted:a"]["roman"].value == pytest.approx(50.0)
    assert cells["scripted:a"]["basic"].value == 0.0
    # b: roman i = 0, 4, 8 correct, 2, 6, 10 wrong -> 3/6; basic i = 1, 5, 9 correct, 3, 7, 11 none
    assert cells["scripted:b"]["basic"].value == pytest.approx(50.0)
    assert cells["scripted:a"]["easy"].value is None  # no such style in the data


def test_cli_writes_markdown_latex_csv(lit_runs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "tables"
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", "tables", "lost_in_time", *map(str, lit_runs),
         "--out", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr + proc.stdout
    md = (out / "lost_in_time_tables.md").read_text()
    header = next(line for line in md.splitlines() if line.startswith("| Model"))
    # the paper's column order: EM, (HM-EM), MAE, hour, minute, then the calendar columns
    order = ["EM ↑", "HM-EM", "MAE (s)", "Hour err", "Minute err", "Acc", "P ↑", "R ↑", "F1"]
    positions = [header.index(h) for h in order]
    assert positions == sorted(positions)
    assert "**50.00 [" in md  # b's EM, best, in bold
    tex = (out / "lost_in_time_tables.tex").read_text()
    assert r"\toprule" in tex and r"\cmidrule(lr){2-6}" in tex and r"\textbf{50.00}" in tex
    assert "scripted:a" in tex and r"\multicolumn{5}{c}{ClockQA}" in tex
    rows = list(csv.DictReader(io.StringIO((out / "lost_in_time_tables.csv").read_text())))
    em = {r["model"]: r for r in rows if r["table"] == TABLE1.name and r["column"] == "EM"}
    assert float(em["scripted:a"]["value"]) == pytest.approx(100 / 3)
    assert em["scripted:b"]["best"] == "1" and em["scripted:a"]["best"] == "0"


def test_cli_errors_are_one_line(lit_runs: list[Path], tmp_path: Path) -> None:
    for args, msg in (
        (["nosuch", str(lit_runs[0])], "declares no paper tables"),
        (["mined", str(lit_runs[0])], "none of the runs has a task of suite 'mined'"),
        (["lost_in_time", str(tmp_path)], "no results.json"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "chronoeval", "tables", *args, "--out", str(tmp_path / "o")],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert proc.returncode == 2 and msg in " ".join(proc.stdout.split())
        assert "Traceback" not in proc.stdout + proc.stderr


def test_seeds_become_mean_and_spread(datasets, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Two runs of one model with different generation seeds: one row, mean ± between-seed sd."""
    dirs = []
    for s in (0, 1, 2):
        d = tmp_path / f"random-seed{s}"
        api.run(
            ["clockqa"],
            "random",
            data=datasets["12"].root,
            run_dir=d,
            generation=GenerationConfig(seed=s),
            progress=False,
            plots=False,
            retry=RetryPolicy(max_retries=0),
        )
        dirs.append(d)
    runs = [load_run(d, label=str(d)) for d in dirs]
    table = pt.build_table(TABLE1, runs)
    assert [r.model for r in table.rows] == ["random"]
    cell = table.rows[0].cells["minute"]
    per_seed = [
        json.loads((d / "results.json").read_text())["tasks"]["clockqa"]["metrics"]["overall"][
            "minute_err"
        ]["value"]
        for d in dirs
    ]
    mean = sum(per_seed) / 3
    sd = (sum((x - mean) ** 2 for x in per_seed) / 2) ** 0.5
    assert cell.seeds == 3 and cell.value == pytest.approx(mean)
    assert cell.spread == pytest.approx(sd) and sd > 0  # the seeds drew different answers
    assert "(3 seeds)" in pt.to_markdown(table)
    # the same seed twice is refused with both directories named
    with pytest.raises(Exception, match="give one run per model and seed"):
        pt.build_table(TABLE1, [runs[0], load_run(dirs[0], label="again")])


def test_html_report_embeds_paper_tables(lit_runs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    api.report(lit_runs, out=out)
    page = out.read_text()
    assert "<section id=paper-tables>" in page and "Table 1: ClockQA and CalendarQA" in page
    assert "<b>50.00 [" in page


def test_default_time_bias_by_hand(lit_runs: list[Path]) -> None:
    """a answers 6:30:30 on 3 of its 6 answered items (the others are distinct golds); the
    constant model answers 6:30 on all 12; nobody answers 10:10."""
    from chronoeval.suites.lost_in_time.tables import DEFAULT_TIME

    runs = [load_run(d) for d in lit_runs]
    cells = _cells(pt.build_table(DEFAULT_TIME, runs))
    assert cells["scripted:a"]["top"].value == pytest.approx(50.0)
    assert cells["scripted:a"]["top"].n == 6
    lo, hi = cells["scripted:a"]["top"].ci95
    assert lo <= 50.0 <= hi  # the top answer is fixed before resampling
    assert cells["constant:6:30:30"]["top"].value == pytest.approx(100.0)
    assert cells["constant:6:30:30"]["ten_ten"].value == 0.0
    bias = runs[2].task_entry("clockqa")["metrics"]["default_time"]
    assert bias["top_answer"] == "6:30" and bias["top_share"]["value"] == 1.0
    assert bias["top_gold_share"]["value"] == 0.0 and bias["top_share"]["n"] == 12
    assert bias["share_10:10"]["value"] == 0.0


def test_suites_without_tables_are_skipped_not_fatal() -> None:
    assert pt.has_tables("mined") and pt.has_tables("lost_in_time")
    assert not pt.has_tables("mined_judge")  # a suite name that is no package
    assert not pt.has_tables("temporalvqa")
