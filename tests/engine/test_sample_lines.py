"""engine/sample_lines.py: samples.jsonl's lines and the Parquet JSON-text columns, each value
encoded once, must be the strings json.dumps gives with the options they were always written with;
anything it cannot do goes the general way, which fails as before."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path

import pytest

from chronoeval.api import stage_samples, write_samples
from chronoeval.core.task import SampleRecord
from chronoeval.engine import sample_lines

ODD = [
    "",
    "a",
    "é",
    "日本",
    "\x7f",
    "\x01",
    "\n\t",
    '"q"',
    "\\u00e9",
    "\\",
    "\u2028",
    "😀",
    "a\x7fb",
]


class Tag(str):
    pass


class Half(float):
    pass


def _value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(12 if depth < 2 else 8)
    if kind == 0:
        return rng.choice(ODD)
    if kind == 1:
        return None
    if kind == 2:
        return rng.choice([0.0, -0.0, 1.5, 17400.0, 1e-7, float("nan"), float("inf"), -1e300])
    if kind == 3:
        return rng.choice([0, -3, 2**70, True, False])
    if kind == 4:
        return Tag(rng.choice(ODD))
    if kind == 5:
        return Half(0.5)
    if kind == 6:
        return dt.date(2024, 2, 29)  # default=str where the options have it
    if kind == 7:
        return (1, "x")
    if kind in (8, 9):
        return {rng.choice(ODD) + str(i): _value(rng, depth + 1) for i in range(rng.randrange(3))}
    return [_value(rng, depth + 1) for _ in range(rng.randrange(3))]


def _records(seed: int, n: int = 300) -> list[SampleRecord]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        prompt = [{"role": "user", "content": [{"type": "text", "text": rng.choice(ODD)}]}]
        out.append(
            SampleRecord(
                f"id{i}{rng.choice(ODD)}",
                "clockqa",
                {"style": rng.choice(ODD), "x": _value(rng)},
                _value(rng),
                rng.choice(["answered", "no_answer", "error"]),
                rng.choice([None, "10:10:00", rng.choice(ODD)]),
                _value(rng),
                rng.choice([None, "HTTP 500 – x"]),
                {"em": rng.choice([0.0, 1.0, None]), "abs_err_s": rng.choice([None, 3.0])},
                rng.choice([None, 0.25, 1.3e-6, float("nan")]),
                rng.choice([{}, {"prompt_tokens": 3}, {"é": 1}]),
                rng.choice([None, [{"tool": "python", "out": rng.choice(ODD)}]]),
                rng.choice([None, "", 'thought 日 "q"']),
                rng.choice([None, prompt]),
            )
        )
    return out


def _general(rows: list[dict]) -> tuple[list[str], dict[str, list[str]]]:
    return (
        [json.dumps(r, ensure_ascii=False, default=str) for r in rows],
        {
            "target": [json.dumps(r["target"], default=str) for r in rows],
            "answer": [json.dumps(r["answer"], default=str) for r in rows],
            "scores": [json.dumps(r["scores"]) for r in rows],
            "metadata": [json.dumps(r["metadata"], default=str) for r in rows],
            "prompt": [json.dumps(r.get("prompt"), ensure_ascii=False) for r in rows],
            "usage": [json.dumps(r.get("usage") or {}) for r in rows],
        },
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lines_and_columns_equal_json_dumps(seed: int) -> None:
    rows = [r.to_json() for r in _records(seed)]
    got = sample_lines.encode(rows)
    assert got is not None
    assert got == _general(rows)


def test_encoder_equals_json_encoder() -> None:
    rng = random.Random(5)
    for ensure_ascii in (True, False):
        for default in (None, str):
            fast = sample_lines.encoder(ensure_ascii=ensure_ascii, default=default)
            slow = json.JSONEncoder(ensure_ascii=ensure_ascii, default=default).encode
            for _ in range(300):
                v = _value(rng)
                try:
                    want = slow(v)
                except TypeError:
                    with pytest.raises(TypeError):
                        fast(v)
                    continue
                assert fast(v) == want


def test_unencodable_score_goes_the_general_way(tmp_path: Path) -> None:
    rec = SampleRecord("a", "t", {}, "1", "answered", "1", "1", None, {"em": dt.date(2024, 1, 1)})
    assert sample_lines.encode([rec.to_json()]) is None
    staged: list[tuple[Path, Path]] = []
    with pytest.raises(TypeError):  # as before: scores were never written with default=str
        stage_samples(tmp_path, [rec], None, staged)  # the line is written, then the Parquet fails
    line = staged[0][0].read_text(encoding="utf-8")
    assert line == json.dumps(rec.to_json(), ensure_ascii=False, default=str) + "\n"
    staged[0][0].unlink()
    with pytest.raises(TypeError):  # and write_samples moves neither file in (session 12)
        write_samples(tmp_path, [rec])
    assert not list(tmp_path.iterdir())  # nor leaves what it had written beside them


def test_a_cycle_goes_the_general_way(tmp_path: Path) -> None:
    loop: list = []
    loop.append(loop)
    rec = SampleRecord("a", "t", {}, "1", "answered", "1", "1", None, {}, turns=[{"x": loop}])
    assert sample_lines.encode([rec.to_json()]) is None
    with pytest.raises(ValueError, match="Circular reference"):
        write_samples(tmp_path, [rec])
