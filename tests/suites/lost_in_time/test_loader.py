"""DateTimeQA layout: a Parquet file built here (as `datasets` writes it) loads, runs and scores."""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image

from chronoeval import api
from chronoeval.core.errors import DataError


def png(color: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (420, 420), color).save(buf, format="PNG")
    return buf.getvalue()


CLOCK_ROWS = [
    {"type": "easy", "answer": "3:00:00"},
    {"type": "black_dial", "answer": "12:55:36"},
    {"type": "no_second_hand", "answer": "7:21:09"},
]


def write_clock_parquet(path: Path, rows=CLOCK_ROWS, drop: str | None = None, bad_image: int = -1):
    cols: dict[str, list] = {"type": [], "question": [], "answer": [], "image": []}
    for i, r in enumerate(rows):
        cols["type"].append(r["type"])
        cols["question"].append("What time is shown on the clock in the given image?")
        cols["answer"].append(r["answer"])
        data = b"not an image" if i == bad_image else png((i * 40, 10, 10))
        cols["image"].append({"bytes": data, "path": f"clock_{i}.png"})
    if drop:
        del cols[drop]
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table(cols), path)
    return path


def test_datetimeqa_clock_parquet_runs_and_scores(tmp_path: Path) -> None:
    f = write_clock_parquet(tmp_path / "DateTimeQA" / "data" / "clock-00000-of-00001.parquet")
    res = api.run(
        ["clockqa"],
        "constant:12:55:00",
        data=tmp_path / "DateTimeQA",
        run_dir=tmp_path / "run",
        progress=False,
    )
    t = res.results["tasks"]["clockqa"]
    assert t["counts"] == {"answered": 3, "no_answer": 0, "error": 0, "missing": 0}
    o = t["metrics"]["overall"]
    assert o["em"]["value"] == 0  # 12:55:00 vs 12:55:36 is not exact
    assert o["hm_em"]["value"] == pytest.approx(1 / 3)
    assert t["metrics"]["by_style"]["black_dial"]["mae_s"]["value"] == 36
    assert t["dataset"]["source"].startswith("loaded:")
    assert f.exists()


def test_datetimeqa_calendar_parquet(tmp_path: Path) -> None:
    cols = {
        "question": ["What day of the week is Christmas?", "Which weekday is the 100th day?"],
        "answer": ["Wednesday", "friday"],
        "image": [{"bytes": png((1, 2, 3)), "path": None}, {"bytes": png((3, 2, 1)), "path": None}],
    }
    pq.write_table(pa.table(cols), tmp_path / "calendar.parquet")
    res = api.run(
        ["calendarqa"],
        "constant:It is a Wednesday.",
        data=tmp_path / "calendar.parquet",
        run_dir=tmp_path / "run",
        progress=False,
        plots=False,
    )
    assert res.results["tasks"]["calendarqa"]["metrics"]["overall"]["accuracy"]["value"] == 0.5


def test_missing_column_is_named(tmp_path: Path) -> None:
    f = write_clock_parquet(tmp_path / "clock.parquet", drop="answer")
    with pytest.raises(DataError) as exc:
        api.run(["clockqa"], "random", data=f, run_dir=tmp_path / "run", progress=False)
    assert "clock.parquet" in str(exc.value) and "'answer'" in str(exc.value)


def test_undecodable_image_names_the_row(tmp_path: Path) -> None:
    f = write_clock_parquet(tmp_path / "clock.parquet", bad_image=1)
    with pytest.raises(DataError) as exc:
        api.import_data("clockqa", f)
    msg = str(exc.value)
    assert "clock.parquet:2" in msg and "datetimeqa-clock-0001" in msg and "'image'" in msg


def test_bad_gold_names_the_item(tmp_path: Path) -> None:
    rows = [*CLOCK_ROWS, {"type": "roman", "answer": "13:75:00"}]
    f = write_clock_parquet(tmp_path / "clock.parquet", rows=rows)
    with pytest.raises(DataError) as exc:
        api.run(["clockqa"], "random", data=f, run_dir=tmp_path / "run", progress=False)
    assert "datetimeqa-clock-0003" in str(exc.value) and "'target'" in str(exc.value)


def test_generation_options_with_data_are_refused(tmp_path: Path) -> None:
    from chronoeval.core.errors import ChronoevalError

    f = write_clock_parquet(tmp_path / "clock.parquet")
    with pytest.raises(ChronoevalError, match="cannot apply to --data"):
        api.run(["clockqa"], "random", data=f, seed=3, run_dir=tmp_path / "run", progress=False)


def test_unknown_load_option_is_refused(tmp_path: Path) -> None:
    from chronoeval.core.errors import ChronoevalError

    f = write_clock_parquet(tmp_path / "clock.parquet")
    with pytest.raises(ChronoevalError, match="no load option.*images_root"):
        api.run(
            ["clockqa"],
            "random",
            data=f,
            params={"images_root": "/x"},
            run_dir=tmp_path / "run",
            progress=False,
        )
