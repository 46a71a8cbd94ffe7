"""CSV and Markdown tables: every metric of results.json, headline marked, text escaped."""

from __future__ import annotations

import csv
import io
import json

import pytest

from chronoeval.report.compare import paired_tests
from chronoeval.report.runs import load_runs
from chronoeval.report.tables import CSV_COLUMNS, flatten_metrics, to_csv, to_markdown


def _leaf_count(obj) -> int:  # independent walk: count {"value", "ci95", "n"} dicts
    if isinstance(obj, dict):
        if {"value", "ci95", "n"} <= set(obj):
            return 1
        return sum(_leaf_count(v) for v in obj.values())
    return 0


def test_csv_has_every_metric_with_its_interval(make_run) -> None:
    run_dirs = [make_run("scripted:a"), make_run("scripted:b")]
    rows = list(csv.DictReader(io.StringIO(to_csv(load_runs(run_dirs)))))
    assert tuple(rows[0]) == CSV_COLUMNS
    for run_dir in run_dirs:
        res = json.loads((run_dir / "results.json").read_text())
        metrics = res["tasks"]["clockqa"]["metrics"]
        mine = [r for r in rows if r["run"] == res["model"]]
        assert len(mine) == _leaf_count(metrics)
        em = next(r for r in mine if r["metric"] == "overall.em")
        assert float(em["value"]) == pytest.approx(metrics["overall"]["em"]["value"])
        assert float(em["ci95_low"]) == pytest.approx(metrics["overall"]["em"]["ci95"][0])
        assert int(em["n"]) == metrics["overall"]["em"]["n"]
        heads = [r for r in mine if r["headline"]]
        assert [(h["metric"], h["headline"]) for h in heads] == [("overall.em", "EM")]
        assert float(heads[0]["chance"]) == pytest.approx(1 / 43200)


def test_flatten_metrics_paths() -> None:
    m = {"value": 1.0, "ci95": None, "n": 3}
    metrics = {"overall": {"acc": m}, "by": {"x": {"acc": m}}, "label": "not a metric"}
    assert [p for p, _ in flatten_metrics(metrics)] == ["overall.acc", "by.x.acc"]


def test_markdown_escapes_model_text_and_shows_paired_tests(make_run) -> None:
    runs = load_runs(
        [make_run("scripted:a"), make_run("constant:<b>bold</b> | 1:00:00"), make_run("scripted:b")]
    )
    md = to_markdown(runs, paired_tests(runs))
    # escaped with backslashes (CommonMark), no HTML entities: the Markdown reads as plain text
    assert "<b>bold</b>" not in md and "\\<b\\>bold\\</b\\> \\| 1:00:00" in md
    assert "&lt;" not in md and "&gt;" not in md and "&amp;" not in md
    assert "clockqa (EM) %" in md  # proportions in percent, as the papers print them
    assert "| em % | hm_em % | hour_err | mae_s |" in md
    assert "## Paired tests" in md
    line = next(x for x in md.splitlines() if x.startswith("| clockqa | scripted:a | scripted:b"))
    assert "| 0/3 | 0.2500 |" in line


def test_odd_metric_shapes_are_tolerated() -> None:
    from chronoeval.report.tables import fmt_entry

    metrics = {"overall": 0.5, "x": {"value": 0.25, "ci95": [None, None], "n": 4}, "s": "text"}
    flat = dict(flatten_metrics(metrics))
    assert list(flat) == ["overall", "x"]
    assert fmt_entry(flat["overall"]) == "0.500"
    assert fmt_entry(flat["x"]) == "0.250"  # an interval of Nones is left out
    assert fmt_entry({"value": None, "ci95": None, "n": 0}) == "—"
    assert fmt_entry({"value": 0.1, "ci95": [0.05, 0.2], "n": 9}) == "0.100 [0.050, 0.200]"
