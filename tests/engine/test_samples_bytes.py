"""samples.jsonl and samples.parquet hold exactly the bytes json.dumps gives with the options they
were always written with (write_samples keeps one encoder per set of options)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from chronoeval.api import write_samples
from chronoeval.core.task import SampleRecord


def _records() -> list[SampleRecord]:
    return [
        SampleRecord(
            "a\u00e9", "clockqa", {"style": "roman", "when": dt.date(2024, 2, 29)}, "3:00:00",
            "answered", "10:10:00", "10:10:00", None, {"em": 0.0, "abs_err_s": 17400.0}, 0.25,
            {"prompt_tokens": 3}, None, "thought \u65e5 \"q\"",
            [{"role": "user", "content": [{"type": "text", "text": "Zeit? \u00fc"}]}],
        ),
        SampleRecord(
            "b", "calendarqa", {}, ["Monday", 3], "error", None, None, "HTTP 500 \u2013 x",
            {}, None, {}, [{"tool": "python"}], None, None,
        ),
        SampleRecord("c", "x", {"nan": float("nan")}, {"k": (1, 2)}, "no_answer",
                     "", "NoAnswer(refusal)", None, {"em": None}),
    ]  # fmt: skip


def test_samples_bytes_equal_json_dumps(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    records = _records()
    write_samples(tmp_path, records)
    rows = [r.to_json() for r in records]
    expected = "".join(json.dumps(row, ensure_ascii=False, default=str) + "\n" for row in rows)
    assert (tmp_path / "samples.jsonl").read_text(encoding="utf-8") == expected
    table = pq.read_table(tmp_path / "samples.parquet").to_pydict()
    assert table["target"] == [json.dumps(r["target"], default=str) for r in rows]
    assert table["answer"] == [json.dumps(r["answer"], default=str) for r in rows]
    assert table["scores"] == [json.dumps(r["scores"]) for r in rows]
    assert table["metadata"] == [json.dumps(r["metadata"], default=str) for r in rows]
    assert table["prompt"] == [json.dumps(r.get("prompt"), ensure_ascii=False) for r in rows]
    assert table["usage"] == [json.dumps(r.get("usage") or {}) for r in rows]
    assert table["reasoning"] == [r.get("reasoning") for r in rows]
