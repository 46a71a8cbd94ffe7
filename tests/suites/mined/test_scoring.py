"""The released CEM / F1 rules, checked against values computed by hand from the released code
(eval_code/cem_f1.py + VQAEval), and the released-layout prediction scorer end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chronoeval.suites.mined.predictions import PRED_FIELDS, score_file, score_predictions
from chronoeval.suites.mined.scoring import (
    cem_squad,
    cem_vqa,
    f1,
    item_score,
    process_punctuation,
    vqa_normalize,
    yes_no_leak,
)

# (prediction, gold, CEM (VQAEval), CEM (SQuAD substring), F1) — worked out by hand:
CASES = [
    # exact
    ("Tim Cook", "Tim Cook", 1, 1, 1.0),
    # extra words: VQA "current ceo is tim cook" ⊇ "tim cook"; SQuAD tokens
    # [current, ceo, is, tim, cook] vs [tim, cook]: P=2/5, R=1, F1=4/7
    ("The current CEO is Tim Cook.", "Tim Cook", 1, 1, 4 / 7),
    # case
    ("TIM COOK", "Tim Cook", 1, 1, 1.0),
    # hyphen with no space beside it becomes a space on both sides: "lip bu tan"
    ("Lip-Bu Tan", "Lip-Bu Tan", 1, 1, 1.0),
    # VQA: "lip bu tan" both; SQuAD deletes the hyphen in the gold: "lipbu tan" is not in
    # "lip bu tan", tokens [lip, bu, tan] vs [lipbu, tan]: P=1/3, R=1/2, F1=0.4
    ("Lip Bu Tan", "Lip-Bu Tan", 1, 0, 0.4),
    # VQAEval quirk: " -" occurs, so every "-" is deleted: "lipbu tan ceo" lacks "lip bu tan"
    ("Lip-Bu Tan - CEO", "Lip-Bu Tan", 0, 1, 2 * (2 / 3) * 1 / (2 / 3 + 1)),
    # "1,000": a digit,digit group makes VQAEval delete the comma: "1000" both ways
    ("1,000", "1,000", 1, 1, 1.0),
    ("1000", "1,000", 1, 1, 1.0),
    ("about 1,000 people", "1,000", 1, 1, 0.5),
    # "Unknown." -> period stripped
    ("Unknown.", "unknown", 1, 1, 1.0),
    ("I don't know", "unknown", 0, 0, 0.0),
    # "No, yes": ", " present -> comma deleted, "no yes" contains "yes"; F1 P=1/2 R=1 -> 2/3
    ("No, yes", "Yes", 1, 1, 2 / 3),
    # word boundaries: "Cooking" does not contain the word "cook"; SQuAD substring does
    ("Cooking", "Cook", 0, 1, 0.0),
    # number words become digits (VQA only)
    ("two", "2", 1, 0, 0.0),
]


@pytest.mark.parametrize(("pred", "gold", "cem", "cem_sq", "f1_value"), CASES)
def test_hand_computed_cases(pred: str, gold: str, cem: int, cem_sq: int, f1_value: float) -> None:
    assert cem_vqa(pred, gold) == cem
    assert cem_squad(pred, gold) == cem_sq
    assert f1(pred, gold) == pytest.approx(f1_value, abs=1e-12)


def test_vqaeval_normalisation_details() -> None:
    assert vqa_normalize("The   Football\tAssociation!") == "football association"
    assert process_punctuation("a-b") == "a b"
    assert process_punctuation("a - b") == "a  b"
    # release bug kept: re.UNICODE (32) is passed as count, so only 32 periods are removed
    assert process_punctuation("." * 40) == "." * 8
    assert vqa_normalize("dont") == "don't"


def test_empty_and_item_mean() -> None:
    assert cem_vqa("", "x") == 0.0 and cem_squad("", "x") == 0.0
    assert (
        f1("", "") == 1.0 and f1("b", "") == 0.0 and f1("a", "") == 1.0
    )  # "a" is an article: no tokens
    assert item_score([1.0, 1.0, None, 0.0]) == pytest.approx(200 / 3)
    assert item_score([None, None, None, None]) == 0.0
    assert yes_no_leak("No, yes") and not yes_no_leak("Yes.") and not yes_no_leak("Nobody yes")


def _line(i: int, type_: str, gold: str, preds: list[str | None]) -> dict:
    row = {"id": i, "type": type_, "eval_type": "timestamp", "current_answer": gold}
    for name, p in zip(PRED_FIELDS, preds, strict=True):
        if p is not None:
            row[name] = p
    return row


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


ROWS = [
    # exact, extra words, empty string, wrong  -> CEM (1+1+0)/3, F1 (1+4/7+0)/3
    _line(1, "company", "Tim Cook", ["Tim Cook", "The current CEO is Tim Cook.", "", "Steve Jobs"]),
    # all four empty or missing -> 0, 0
    _line(2, "company", "Tim Cook", ["", "   ", None, None]),
    # "Unknown.", "I don't know", "unknown", missing -> CEM 2/3, F1 2/3
    _line(3, "country", "unknown", ["Unknown.", "I don't know", "unknown", None]),
]


def test_released_layout_file_score(tmp_path: Path) -> None:
    path = _write(tmp_path / "output_from_m.jsonl", ROWS)
    s = score_file(path)
    item1_cem, item1_f1 = 200 / 3, (1 + 4 / 7) / 3 * 100
    item3 = 200 / 3
    assert [i["cem"] for i in s.items] == pytest.approx([item1_cem, 0.0, item3])
    assert [i["f1"] for i in s.items] == pytest.approx([item1_f1, 0.0, item3])
    assert s.items[0]["cem_list"] == [1.0, 1.0, None, 0.0]
    assert s.items[1]["cem_list"] == [None] * 4
    assert s.cem == pytest.approx((item1_cem + item3) / 3)
    assert s.f1 == pytest.approx((item1_f1 + item3) / 3)
    text = score_predictions(path, {})
    lines = text.splitlines()
    assert lines[0] == "Total: 3"
    assert lines[1] == f"Overall average: CEM={(item1_cem + item3) / 3:.4f}, F1={s.f1:.4f}"
    assert lines[1] == "Overall average: CEM=44.4444, F1=39.6825"
    assert lines[3:] == [
        "Total number of types: 2",
        "Type stats (count desc):",
        "company 2 33.3333 26.1905",
        "country 1 66.6667 66.6667",
    ]


def test_squad_option_and_bad_input(tmp_path: Path) -> None:
    path = _write(tmp_path / "p.jsonl", [_line(1, "sport", "Cook", ["Cooking", "", "", ""])])
    assert "CEM=0.0000" in score_predictions(path, {"cem": "vqa"})
    assert "CEM=100.0000" in score_predictions(path, {"cem": "squad"})
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "current_answer": "x"}\nnot json\n')
    with pytest.raises(Exception, match=r"bad.jsonl:2"):
        score_file(bad)
    nogold = _write(tmp_path / "nogold.jsonl", [{"id": 7, "type": "x"}])
    with pytest.raises(Exception, match="current_answer"):
        score_file(nogold)


def test_cli_score_predictions(tmp_path: Path) -> None:
    path = _write(tmp_path / "output_from_m.jsonl", ROWS)
    out = subprocess.run(
        [sys.executable, "-m", "chronoeval", "score", "mined", "--predictions", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Overall average: CEM=44.4444, F1=39.6825" in out
    assert "company 2 33.3333 26.1905" in out
