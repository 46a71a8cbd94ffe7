"""Seeing Time Tables V and VI across models (rows = models, bins / periods as column groups) over
reference / random / majority runs of ``seeing_year_conf``: Table V against the task's own
``confidence_bins`` in results.json (a separate implementation), Table VI by hand from
samples.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.report import paper_tables as pt
from chronoeval.report.runs import load_run
from chronoeval.suites.seeing_time.metrics import CONFIDENCE_BINS
from chronoeval.suites.seeing_time.tables import PERIODS, TABLE5, TABLE6

MODELS = ("reference", "random", "majority")
TASK = "seeing_year_conf"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("conf")
    out = []
    for m in MODELS:
        api.run([TASK], m, n=16, seed=3, run_dir=root / m, progress=False, plots=False)
        out.append(root / m)
    return out


def _samples(d: Path) -> list[dict]:
    return [json.loads(x) for x in (d / "samples.jsonl").read_text().splitlines()]


def test_table5_matches_the_tasks_own_confidence_bins(runs: list[Path]) -> None:
    table = pt.build_table(TABLE5, [load_run(d) for d in runs])
    assert [r.model for r in table.rows] == list(MODELS)
    filled = 0
    for d, row in zip(runs, table.rows, strict=True):
        bins = json.loads((d / "results.json").read_text())["tasks"][TASK]["metrics"]
        bins = bins["confidence_bins"]
        labels = [(f"{lo}–{hi}", f"{lo}-{hi}") for lo, hi in CONFIDENCE_BINS]
        total = 0
        for label, key in [*labels, ("no confidence", "none")]:
            own = bins[key]
            assert row.cells[f"{label}_n"].value == own["n"]
            total += own["n"]
            for col, metric in (("acc", "accuracy"), ("w1", "within1"), ("w3", "within3")):
                want = own[metric]["value"]
                got = row.cells[f"{label}_{col}"].value
                assert got == (None if want is None else pytest.approx(100 * want))
            filled += own["n"] > 0
        assert total == 16  # every item in exactly one bin, none dropped
    assert filled >= 4
    ref = table.rows[0].cells
    assert ref["95–100_n"].value + ref["0–59_n"].value == 16  # the reference says 97 or 40


def test_table6_by_hand(runs: list[Path]) -> None:
    table = pt.build_table(TABLE6, [load_run(d) for d in runs])
    checked = 0
    for d, row in zip(runs, table.rows, strict=True):
        recs = _samples(d)
        periods = [("before 1952", None, 1951)] + [(f"{lo}–{hi}", lo, hi) for lo, hi in PERIODS]
        n_all = 0
        for label, lo, hi in periods:
            sel = [r for r in recs if (lo is None or r["target"] >= lo) and r["target"] <= hi]
            confs = [
                r["scores"]["confidence"] for r in sel if r["scores"].get("confidence") is not None
            ]
            assert row.cells[f"{label}_n"].value == len(sel)
            want = sum(confs) / len(confs) if confs else None
            assert row.cells[f"{label}_conf"].value == (
                None if want is None else pytest.approx(want)
            )
            checked += bool(confs)
            n_all += len(sel)
        assert n_all == len([r for r in recs if r["target"] <= 2025])
    assert checked >= 6
    assert not any(c.best for r in table.rows for c in r.cells.values())  # no direction marked
