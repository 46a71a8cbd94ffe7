"""MINED Table 3 from three runs on the first three samples of every released file: cells are the
released per-sample score resampled over samples (not prompt versions), Avg. is the mean of the
eleven dimensions, paired tests group a sample's four versions, and Robustness's chance level is
the gold distribution's majority share."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.registry import get_task
from chronoeval.report import paper_tables as pt
from chronoeval.report.compare import paired_test
from chronoeval.report.runs import load_run
from chronoeval.suites.mined.tables import DIMENSIONS, TABLES
from suites.mined.mined_helpers import PEERS

pytestmark = pytest.mark.skipif(not PEERS.is_dir(), reason=f"released MINED files not at {PEERS}")
N = 3
MODELS = ("constant:Yes", "constant:unknown", "constant:Tim Cook")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("mined_tables")
    data = root / "data"
    data.mkdir()
    for f in PEERS.glob("Dimension*.json"):
        (data / f.name).write_text(json.dumps(json.loads(f.read_text())[:N]))
    tasks = [t for _, _, t in DIMENSIONS]
    out = []
    for m in MODELS:
        d = root / api.slug(m)
        api.run(tasks, m, data=data, params={"allow_missing_images": True}, run_dir=d,
                progress=False, plots=False)  # fmt: skip
        out.append(d)
    return out


def test_table3_cells_avg_and_unit(runs: list[Path]) -> None:
    loaded = [load_run(d) for d in runs]
    table = pt.build_table(TABLES[0], loaded)
    assert [r.model for r in table.rows] == list(MODELS)
    for run, row in zip(loaded, table.rows, strict=True):
        values = []
        for _, label, task in DIMENSIONS:
            cell = row.cells[label]
            released = run.task_entry(task)["metrics"]["overall"]["cem"]["value"]
            assert cell.value == pytest.approx(100 * released)  # the released file score
            assert cell.n == N  # samples, not N x 4 prompt versions
            values.append(cell.value)
        avg = row.cells["avg"]
        assert avg.value == pytest.approx(sum(values) / 11)  # the paper's Avg. column
        assert avg.ci95 is not None and avg.ci95[0] <= avg.value + 1e-9 <= avg.ci95[1] + 1e-9
    yes = table.rows[0].cells
    assert yes["A.T.E"].value == pytest.approx(100.0)  # every robustness gold is "Yes"
    assert yes["A.T.E"].best
    for col in TABLES[0].columns:  # a column where every model ties marks nobody as best
        vals = {round(r.cells[col.key].value, 9) for r in table.rows}
        if len(vals) == 1:
            assert not any(r.cells[col.key].best for r in table.rows)


def test_robustness_chance_is_the_gold_majority(runs: list[Path]) -> None:
    run = load_run(runs[1])
    metrics = run.task_entry("mined_robustness")["metrics"]
    assert metrics["gold_majority"]["value"] == 1.0 and metrics["gold_majority"]["gold"] == "yes"
    assert get_task("mined_robustness").chance(metrics) == 1.0
    assert get_task("mined_ranking").chance(run.task_entry("mined_ranking")["metrics"]) == 0.5


def test_paired_test_resamples_samples_not_versions(runs: list[Path]) -> None:
    a, b = load_run(runs[0]), load_run(runs[1])
    test = paired_test(a, b, "mined_robustness")
    assert test.n == N and "per sample" in test.score_key
    assert test.mean_a == pytest.approx(1.0) and test.mean_b == pytest.approx(0.0)
    assert test.mcnemar == {"a_only": N, "b_only": 0, "p": 2 * 0.5**N}


def test_context_label_by_hand() -> None:
    from chronoeval.suites.mined.metrics import context_label

    names = ["Michael Scott", "Mike Markkula", "John Sculley", "Tim Cook"]
    args = ("Mike Markkula", "Michael Scott", names)
    assert context_label("It was Mike Markkula.", *args) == "correct"
    assert context_label("Michael Scott was the CEO.", *args) == "context"
    assert context_label("John Sculley", *args) == "other"
    assert context_label("I do not know.", *args) == "irrelevant"
    assert context_label("", *args) == "irrelevant"


def test_table5_misaligned_context(runs: list[Path]) -> None:
    """constant:Yes names no attribute value: every output is irrelevant; the shares of each
    sample's outputs sum to 1 with the correct share."""
    from chronoeval.suites.mined.tables import TABLE5

    loaded = [load_run(d) for d in runs]
    cells = {r.model: r.cells for r in pt.build_table(TABLE5, loaded).rows}
    yes = cells["constant:Yes"]
    assert yes["mined_awareness_past_irrelevant"].value == pytest.approx(100.0)
    assert yes["mined_awareness_past_context"].value == 0.0
    assert yes["mined_awareness_past_irrelevant"].n == N
    for run in loaded:
        m = run.task_entry("mined_awareness_future")["metrics"]["misaligned_context"]
        total = sum(m[k]["value"] for k in ("correct", "context", "other", "irrelevant"))
        assert total == pytest.approx(1.0)
        row = cells[run.model]
        assert row["mined_awareness_future_context"].value == pytest.approx(
            100 * m["context"]["value"]
        )


def test_by_config_matches_the_released_per_configuration_score(runs: list[Path]) -> None:
    from chronoeval.suites.mined.itembuild import CONFIG_NAMES

    spec = next(s for s in TABLES if s.name == "mined_by_config")
    loaded = [load_run(d) for d in runs]
    table = pt.build_table(spec, loaded)
    assert [c.key for c in spec.shown] == list(CONFIG_NAMES)
    md = pt.to_markdown(table)
    assert "Question + Generalization Image" in md and ":T.A" not in md  # inputs hidden
    for run, row in zip(loaded, table.rows, strict=True):
        for config in CONFIG_NAMES:
            per_dim = [
                run.task_entry(task)["metrics"]["by_config"][config]["cem"]["value"]
                for _, _, task in DIMENSIONS
            ]
            if any(v is None for v in per_dim):
                assert row.cells[config].value is None
            else:
                assert row.cells[config].value == pytest.approx(100 * sum(per_dim) / 11)


def test_judge_tables_rows_are_the_judged_models(runs: list[Path], tmp_path: Path) -> None:
    """Table 12 from two judge runs: each row is named after the run it judged."""
    judges = []
    for judged, judge in ((runs[0], "constant:1"), (runs[1], "constant:0")):
        d = tmp_path / f"judge-{judged.name}"
        api.run(["mined_judge"], judge, data=judged, run_dir=d, progress=False, plots=False)
        judges.append(load_run(d))
    by_name = {s.name: s for s in TABLES}
    t12 = pt.build_table(by_name["mined_table12"], judges)
    names = [r.model for r in t12.rows]
    assert names == ["constant:Yes (judge constant:1)", "constant:unknown (judge constant:0)"]
    assert t12.rows[0].cells["T.S.A"].value == pytest.approx(100.0)
    assert t12.rows[0].cells["T.S.A"].n == N  # samples of that subtask
    assert t12.rows[1].cells["avg"].value == 0.0 and t12.rows[0].cells["avg"].best
    by_config = pt.build_table(by_name["mined_judge_by_config"], judges)
    assert all(c.value == pytest.approx(100.0) for c in by_config.rows[0].cells.values())
    assert all(c.n == 11 * N for c in by_config.rows[0].cells.values())
