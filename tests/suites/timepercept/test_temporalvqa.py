"""TemporalVQA from a locally built parquet copy (the Hugging Face layout): published prompts,
both presentation orders, consistent accuracy computed by hand."""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image

from chronoeval import api
from chronoeval.core.errors import DataError
from chronoeval.core.task import SampleRecord
from chronoeval.suites.timepercept.temporalvqa import parse_first_second

PROMPTS = Path("/work/shared/peers/temporalvqa/prompts.json")


def _png(shade: int) -> dict:
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (shade, shade, 0)).save(buf, format="PNG")
    return {"bytes": buf.getvalue(), "path": None}


def make_copy(root: Path, order_labels=("First", "Second", "First"), lapse=("A", "F", "D")) -> Path:  # noqa: ANN001
    (root / "temporal_order").mkdir(parents=True)
    (root / "timelapse_estimation").mkdir(parents=True)
    pq.write_table(
        pa.Table.from_pylist(
            [
                {"image_1": _png(10 * i), "image_2": _png(10 * i + 5), "label": lab}
                for i, lab in enumerate(order_labels)
            ]
        ),
        root / "temporal_order" / "test-0.parquet",
    )
    pq.write_table(
        pa.Table.from_pylist(
            [
                {"image_1": _png(i), "image_2": _png(i + 1), "label": lab}
                for i, lab in enumerate(lapse)
            ]
        ),
        root / "timelapse_estimation" / "test-0.parquet",
    )
    return root


def test_order_items_both_orders_and_published_prompt(tmp_path: Path) -> None:
    ds = api.import_data("tvqa_order", make_copy(tmp_path / "tvqa"))
    assert len(ds.items) == 6
    golds = {i.id: i.target for i in ds.items}
    assert golds["tvqa-order-test-0-00000-ab"] == "First"
    assert golds["tvqa-order-test-0-00000-ba"] == "Second"
    if PROMPTS.is_file():
        import json

        published = json.loads(PROMPTS.read_text())
        assert ds.items[0].messages[0].text == published["temporal_order_two_images"]
        lapse = api.import_data("tvqa_timelapse", tmp_path / "tvqa")
        assert lapse.items[0].messages[0].text == published["timelapse_estimation"]
        assert [i.target for i in lapse.items] == ["A", "F", "D"]
        assert len(lapse.items[0].images) == 1  # side by side, as the prompt says


def test_consistent_accuracy_by_hand() -> None:
    task = api.get_task("tvqa_order")

    def rec(row: str, ok: float) -> SampleRecord:
        return SampleRecord(
            f"{row}-{ok}", "tvqa_order", {"row": row}, "First", "answered", scores={"correct": ok}
        )

    # row a: both right; row b: one right; row c: both wrong → consistent 1/3, accuracy 3/6
    records = [rec("a", 1), rec("a", 1), rec("b", 1), rec("b", 0), rec("c", 0), rec("c", 0)]
    m = task.aggregate(records)["overall"]
    assert m["consistent_accuracy"]["value"] == pytest.approx(1 / 3)
    assert m["accuracy"]["value"] == 0.5


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("{'Answer':'First image', 'Reasoning':'The second image shows more snow.'}", "First"),
        ("{'Answer': 'Second image', 'Reasoning': 'The first image is earlier.'}", "Second"),
        ("Second image", "Second"),
    ],
)
def test_first_second_parser(text: str, want: str) -> None:
    assert parse_first_second(text) == want


def test_bad_label_is_a_data_error(tmp_path: Path) -> None:
    make_copy(tmp_path / "t", order_labels=("Third",))
    with pytest.raises(DataError, match="label"):
        api.import_data("tvqa_order", tmp_path / "t")


def test_paired_test_over_rows_with_consistent_accuracy(tmp_path: Path) -> None:
    """tvqa_order's paired test (refused before) pairs rows, each 1 only when both presentation
    orders are right: a constant answer is right in exactly one order of every row, so 0."""
    from chronoeval.report.compare import paired_test
    from chronoeval.report.runs import load_run

    data = make_copy(tmp_path / "tvqa", order_labels=("First", "Second", "First", "Second"))
    dirs = {}
    for m in ("constant:First", "random"):
        dirs[m] = tmp_path / m.replace(":", "_")
        api.run(["tvqa_order"], m, data=data, run_dir=dirs[m], progress=False, plots=False)
    a, b = load_run(dirs["constant:First"]), load_run(dirs["random"])
    test = paired_test(a, b, "tvqa_order")
    assert test.n == 4 and test.score_key == "correct (all per row)"  # rows, not 8 items
    assert test.mean_a == 0.0
    consistent = b.task_entry("tvqa_order")["metrics"]["overall"]["consistent_accuracy"]["value"]
    assert test.mean_b == pytest.approx(consistent)
    assert test.mcnemar is not None and test.mcnemar["a_only"] == 0
