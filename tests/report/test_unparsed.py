"""NoAnswer made visible: results.json counts by reason, the terminal summary and the HTML report
show each task's NoAnswer rate and its most common unparsed replies (escaped)."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from chronoeval import api
from chronoeval.core.task import SampleRecord
from chronoeval.report.html import e
from chronoeval.report.summary import print_summary
from chronoeval.report.unparsed import no_answer_summary, reason_of
from report.scripted import EVIL


def test_results_json_counts_no_answer_by_reason(make_run) -> None:
    results = json.loads((make_run("scripted:a") / "results.json").read_text())
    na = results["tasks"]["clockqa"]["no_answer"]
    # pattern "cwne" over 12 items: 3 correct, 3 wrong, 3 unreadable, 3 errors (not replies)
    assert (na["n"], na["no_answer"]) == (6 + 3, 3)
    assert abs(na["rate"] - 3 / 9) < 1e-9
    assert na["by_reason"] == {"refusal": 3}
    assert na["examples"] == [{"reply": EVIL, "count": 3, "reason": "refusal"}]


def test_terminal_summary_shows_rate_and_replies_literally(make_run) -> None:
    results = json.loads((make_run("scripted:a") / "results.json").read_text())
    console = Console(record=True, width=200)
    print_summary({"scripted/a": results}, console)
    text = console.export_text()
    assert "clockqa / scripted/a: NoAnswer 33.3% (3/9) — refusal 3" in text
    assert "<script>window.__pwned=1</script>" in text  # shown literally, not as markup


def test_html_report_shows_rate_and_escaped_replies(make_run, tmp_path: Path) -> None:
    page = api.report([make_run("scripted:a")], out=tmp_path / "r.html").html.read_text()
    assert "NoAnswer rate" in page and "33.3% (3/9)" in page
    assert f"<code>{e(EVIL)}</code>" in page
    assert "<img src=x" not in page


def test_reason_classes_and_most_common_first() -> None:
    assert reason_of("NoAnswer(out of range: '13:75:00')") == "out of range"
    assert reason_of("NoAnswer(refusal (json))") == "refusal"
    assert (
        reason_of("NoAnswer(not a permutation of 4 indices: [1])")
        == "not a permutation of N indices"
    )

    def rec(status: str, response: str, answer: str) -> SampleRecord:
        return SampleRecord("i", "t", {}, None, status, response, answer)

    records = [rec("no_answer", "I  cannot\ntell", "NoAnswer(refusal)")] * 2 + [
        rec("no_answer", "13:75", "NoAnswer(out of range: '13:75')"),
        rec("answered", "10:10", "10:10:00"),
        rec("error", None, None),
    ]
    s = no_answer_summary(records)
    assert (s["n"], s["no_answer"], s["rate"]) == (4, 3, 0.75)
    assert list(s["by_reason"]) == ["refusal", "out of range"]
    assert s["examples"][0] == {"reply": "I cannot tell", "count": 2, "reason": "refusal"}
    assert no_answer_summary([])["rate"] is None
