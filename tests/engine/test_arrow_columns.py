"""samples.parquet written through engine.arrow_columns holds the bytes pa.table's table gives,
and writing it does not import pandas."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from chronoeval.engine.arrow_columns import column, table

COLUMNS: dict[str, list[Any]] = {
    "s": ["a", "\u00e9\u65e5", "", "x" * 300],
    "s_null": [None, "b", None, "c"],
    "all_null": [None, None, None, None],
    "f": [0.25, 1e-9, float("nan"), -0.0],
    "f_null": [0.5, None, 2.0, None],
    "f_first_null": [None, 1.5, None, 2.5],
    "ints": [1, 2, 3, 4],  # falls back to pa.array
    "mixed_num": [1, 2.5, 3, None],
    "bools": [True, False, None, True],
}


def _bytes(t: Any, path: Path) -> bytes:
    pq.write_table(t, path)
    return path.read_bytes()


def test_each_column_equals_pa_array() -> None:
    for name, values in COLUMNS.items():
        got, want = column(values), pa.array(values)
        assert got.type == want.type, name
        assert got.to_pylist()[:1] == want.to_pylist()[:1] or name == "f", name
        assert got.equals(want) or name == "f", name  # NaN != NaN in equals
    assert column([]).type == pa.array([]).type


LONG = {  # more than 8 rows: the validity bitmap spans bytes
    "f_null": [0.5, None, 2.0, None, 1.0, 2.0, 3.0, 4.0, None, 5.0, None],
    "s_null": ["a", None, *"bcdefgh", None, "i"],
}


def test_parquet_bytes_equal_pa_table(tmp_path: Path) -> None:
    for i, cols in enumerate((COLUMNS, LONG)):
        assert _bytes(table(cols), tmp_path / f"a{i}.parquet") == _bytes(
            pa.table(cols), tmp_path / f"b{i}.parquet"
        )
    assert column(LONG["f_null"]).equals(pa.array(LONG["f_null"]))


CHILD = r"""
import sys
from pathlib import Path
from chronoeval.api import write_samples
from chronoeval.core.task import SampleRecord
recs = [SampleRecord("a", "clockqa", {}, "3:00:00", "answered", "3:00", "3:00:00", None,
                     {"em": 1.0}, 0.5),
        SampleRecord("b", "clockqa", {}, "4:00:00", "error", None, None, "HTTP 500", {}, None)]
write_samples(Path(sys.argv[1]), recs)
print("pandas" in sys.modules)
"""


def test_write_samples_does_not_import_pandas(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path)],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["False"]
    assert pq.read_table(tmp_path / "samples.parquet").column("error").to_pylist() == [
        None,
        "HTTP 500",
    ]
