"""Paper tables of TimePerceptBench and Seeing Time over reference / random / majority runs on tiny
synthetic sets, checked against sums computed here from samples.jsonl and against each suite's own
aggregates (PNR = ΣP/ΣN; Seeing Time's composite S from its composite module); the PNR paired test
(ISR/IPR, formerly refused) resamples items jointly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.report import paper_tables as pt
from chronoeval.report.compare import paired_test
from chronoeval.report.runs import load_run
from chronoeval.suites.seeing_time.composite import composite_from_metrics, task_metrics
from chronoeval.suites.seeing_time.tables import TABLE3, TABLE7
from chronoeval.suites.timepercept.tables import TABLE1

MODELS = ("reference", "random", "majority")
TP = {"tp_tal": 8, "tp_isr": 8, "tp_sov": 8, "tp_pov": 8, "tp_tpl": 8}
ST = {
    "seeing_localization": {"n": 6},
    "seeing_sort": {"n_intra": 3, "n_cross": 3, "pool": 60},
    "seeing_shortcut": {"n_pairs": 6, "pool": 60},
    "seeing_shortcut_cot": {"n_pairs": 6, "pool": 60},
    "seeing_year": {"n": 6},
    "seeing_alignment": {"n": 6, "pool": 160},
}


def _samples(run_dir: Path, task: str) -> list[dict]:
    rows = [json.loads(x) for x in (run_dir / "samples.jsonl").read_text().splitlines()]
    return [r for r in rows if r["task"] == task]


@pytest.fixture(scope="module")
def tp_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("tp")
    out = []
    for m in MODELS:
        api.run(list(TP), m, n=8, seed=1, params={"n_locations": 25}, run_dir=root / m,
                progress=False, plots=False)  # fmt: skip
        out.append(root / m)
    return out


@pytest.fixture(scope="module")
def st_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    root = tmp_path_factory.mktemp("st")
    out: dict[str, list[Path]] = {}
    for m in MODELS:
        for task, params in ST.items():
            d = root / m / task
            api.run([task], m, params=params, seed=1, run_dir=d, progress=False, plots=False)
            out.setdefault(m, []).append(d)
    return out


def test_timepercept_table1_pnr_and_tou_average(tp_runs: list[Path]) -> None:
    table = pt.build_table(TABLE1, [load_run(d) for d in tp_runs])
    assert [r.model for r in table.rows] == list(MODELS)
    for d, row in zip(tp_runs, table.rows, strict=True):
        isr = _samples(d, "tp_isr")
        pos, neg = sum(r["scores"]["pos"] for r in isr), sum(r["scores"]["neg"] for r in isr)
        cell = row.cells["ISR"]
        if neg == 0:
            assert cell.value is None
        else:
            assert cell.value == pytest.approx(pos / neg)
        accs = []
        for task, label in (("tp_tal", "TAL"), ("tp_sov", "SOV"), ("tp_pov", "POV"),
                            ("tp_tpl", "TPL")):  # fmt: skip
            rs = _samples(d, task)
            acc = 100 * sum(r["scores"]["correct"] for r in rs) / len(rs)
            assert row.cells[label].value == pytest.approx(acc)
            accs.append(acc)
        assert row.cells["TOU_avg"].value == pytest.approx(sum(accs) / 4)
        assert row.cells["ICE"].value is None and row.cells["TIU_avg"].value is None
    assert table.rows[0].cells["TOU_avg"].best  # the reference agent reads the pixels


def test_pnr_paired_test_is_no_longer_refused(tp_runs: list[Path]) -> None:
    a, b = load_run(tp_runs[1]), load_run(tp_runs[2])
    test = paired_test(a, b, "tp_isr")
    ra, rb = _samples(tp_runs[1], "tp_isr"), _samples(tp_runs[2], "tp_isr")
    pnr_a = sum(r["scores"]["pos"] for r in ra) / sum(r["scores"]["neg"] for r in ra)
    pnr_b = sum(r["scores"]["pos"] for r in rb) / sum(r["scores"]["neg"] for r in rb)
    assert test.n == 8 and test.mean_a == pytest.approx(pnr_a)
    assert test.diff == pytest.approx(pnr_b - pnr_a) and test.mcnemar is None
    assert "ratio of sums" in test.score_key


def test_seeing_time_table3_uses_the_suites_composite(st_runs: dict[str, list[Path]]) -> None:
    runs = [load_run(d, label=str(d)) for m in MODELS for d in st_runs[m]]
    table = pt.build_table(TABLE3, runs)
    assert [r.model for r in table.rows] == list(MODELS)
    scores = {}
    for m, row in zip(MODELS, table.rows, strict=True):
        metrics = task_metrics(st_runs[m])
        comp = composite_from_metrics(metrics)
        assert row.cells["score"].value == pytest.approx(100 * comp["S"])
        sc = metrics["seeing_shortcut"]["overall"]
        assert row.cells["delta"].value == pytest.approx(100 * sc["delta"]["value"])
        assert row.cells["acc_b"].value == pytest.approx(100 * sc["acc_b"]["value"])
        assert row.cells["mae"].value == pytest.approx(
            metrics["seeing_year"]["overall"]["mae"]["value"]
        )
        scores[m] = row.cells["score"].value
        lo, hi = row.cells["score"].ci95
        assert lo is not None and lo <= row.cells["score"].value + 1e-9 and hi >= lo
    ranks = {r.model: r.rank for r in table.rows}
    assert ranks[max(scores, key=scores.get)] == 1 and sorted(ranks.values()) == [1, 2, 3]
    assert table.average["score"] == pytest.approx(sum(scores.values()) / 3)
    assert "Average" in pt.to_markdown(table)


def test_seeing_time_table7_cot_change(st_runs: dict[str, list[Path]]) -> None:
    runs = [load_run(d, label=str(d)) for m in MODELS for d in st_runs[m]]
    table = pt.build_table(TABLE7, runs)
    for m, row in zip(MODELS, table.rows, strict=True):
        metrics = task_metrics(st_runs[m])
        effect = composite_from_metrics(metrics)["cot_effect"]["overall"]
        assert row.cells["change"].value == pytest.approx(100 * effect["change"])
        assert not any(c.best for c in row.cells.values())  # Δ columns mark no best


def test_latex_is_ascii_with_the_papers_symbols(st_runs: dict[str, list[Path]]) -> None:
    runs = [load_run(d, label=str(d)) for m in MODELS for d in st_runs[m]]
    tex = pt.to_latex(pt.build_table(TABLE3, runs))
    assert tex.isascii()
    assert r"50$\times$(1+$\tau$)" in tex and r"$\Delta$\_ACC" in tex and r"\toprule" in tex
    assert pt.tex_escape("Qwen2.5-VL_7B 100% & ünï") == r"Qwen2.5-VL\_7B 100\% \& ?n?"


def test_seeing_time_table4_paper_layout_by_hand(st_runs: dict[str, list[Path]]) -> None:
    """Paper Table IV: per domain ACC_1, ACC_2 and Δ_ACC (over pairs) of the CoT shortcut task."""
    from chronoeval.suites.seeing_time.tables import PAPER_DOMAINS, TABLE4

    runs = [load_run(d, label=str(d)) for m in MODELS for d in st_runs[m]]
    table = pt.build_table(TABLE4, runs)
    assert [c.group for c in TABLE4.shown][:3] == ["Sports"] * 3
    assert [c.label for c in TABLE4.shown][:3] == ["ACC_1", "ACC_2", "Δ_ACC"]
    checked = 0
    for m, row in zip(MODELS, table.rows, strict=True):
        cot = next(d for d in st_runs[m] if d.name == "seeing_shortcut_cot")
        recs = _samples(cot, "seeing_shortcut_cot")
        for d in PAPER_DOMAINS:
            dom = [r for r in recs if r["metadata"]["domain"] == d]
            for cond, key in (("1", "acc1"), ("2", "acc2")):
                xs = [r["scores"]["correct"] for r in dom if r["metadata"]["condition"] == cond]
                want = 100 * sum(xs) / len(xs) if xs else None
                assert row.cells[f"{d}_{key}"].value == pytest.approx(want)
            pairs: dict[str, dict[str, float]] = {}
            for r in dom:
                pairs.setdefault(r["metadata"]["pair"], {})[r["metadata"]["condition"]] = r[
                    "scores"
                ]["correct"]
            deltas = [p["1"] - p["2"] for p in pairs.values() if "1" in p and "2" in p]
            want = 100 * sum(deltas) / len(deltas) if deltas else None
            assert row.cells[f"{d}_delta"].value == pytest.approx(want)
            checked += bool(deltas)
    assert checked >= 3
    vals = [r.cells["sports_acc1"].value for r in table.rows]
    if all(v is not None for v in vals):
        assert table.average["sports_acc1"] == pytest.approx(sum(vals) / 3)


def test_group_average_rows_by_hand(st_runs: dict[str, list[Path]], tmp_path: Path) -> None:
    """``--group``: rows in group order, each group's average row (the paper's Closed-/Open-Source
    Average), the overall average over every model; ranks stay over all models."""
    import csv
    import io
    import subprocess
    import sys

    from chronoeval.core.errors import ChronoevalError

    runs = [load_run(d, label=str(d)) for m in MODELS for d in st_runs[m]]
    groups = pt.parse_groups(["Closed=majority", "Open=random,reference"])
    assert groups == {"Closed": ["majority"], "Open": ["random", "reference"]}
    plain = pt.build_table(TABLE3, runs)
    table = pt.build_table(TABLE3, runs, groups)
    assert [r.model for r in table.rows] == ["majority", "random", "reference"]
    score = {m: 100 * composite_from_metrics(task_metrics(st_runs[m]))["S"] for m in MODELS}
    (closed, cm, cavg), (open_, om, oavg) = table.groups
    assert (closed, cm, open_, om) == ("Closed", ["majority"], "Open", ["random", "reference"])
    assert cavg["score"] == pytest.approx(score["majority"])
    assert oavg["score"] == pytest.approx((score["random"] + score["reference"]) / 2)
    assert table.average["score"] == pytest.approx(sum(score.values()) / 3)
    assert {r.model: r.rank for r in table.rows} == {r.model: r.rank for r in plain.rows}
    md = pt.to_markdown(table).splitlines()
    names = [line.split(" | ")[0].lstrip("| ") for line in md if line.startswith("| ")]
    assert names == ["Model", "majority", "Closed Average", "random", "reference",
                     "Open Average", "Average"]  # fmt: skip
    # tables without an average row get no group rows
    from chronoeval.suites.seeing_time.tables import TABLE4_PLAIN_VS_COT

    assert not pt.build_table(TABLE4_PLAIN_VS_COT, runs, groups).groups
    for bad, msg in ((["x"], "expected NAME=MODEL"), (["A=a", "B=a"], "in groups 'A' and 'B'"),
                     (["A=a", "A=b"], "given twice")):  # fmt: skip
        with pytest.raises(ChronoevalError, match=msg):
            pt.parse_groups(bad)
    out = tmp_path / "t"
    dirs = [str(d) for m in MODELS for d in st_runs[m]]
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", "tables", "seeing_time", *dirs, "--out", str(out),
         "--group", "Closed=majority", "--group", "Open=random,reference"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "| Open Average |" in (out / "seeing_time_tables.md").read_text()
    assert r"Open Average &" in (out / "seeing_time_tables.tex").read_text()
    rows = list(csv.DictReader(io.StringIO((out / "seeing_time_tables.csv").read_text())))
    got = [r for r in rows if r["model"] == "Open Average" and r["column"] == "Score"]
    assert len(got) == 1 and float(got[0]["value"]) == pytest.approx(oavg["score"])
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", "tables", "seeing_time", *dirs, "--out", str(out),
         "--group", "Closed=gpt-9"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and "model 'gpt-9' is in none of the runs" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr
