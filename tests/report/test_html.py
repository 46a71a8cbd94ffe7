"""The HTML report: self-contained, every model output escaped, samples capped and said so."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chronoeval import api
from chronoeval.cli import app
from chronoeval.core.task import SampleRecord
from chronoeval.report.html import e, outcome, select_samples
from report.scripted import EVIL


class Tags(HTMLParser):
    """Every start tag with its attributes, as a browser's tokenizer sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


def test_malicious_output_appears_as_text_only(make_run, tmp_path: Path) -> None:
    rep = api.report([make_run("scripted:a")], out=tmp_path / "r.html")
    page = rep.html.read_text(encoding="utf-8")
    assert EVIL not in page and "<img src=x" not in page and "window.__pwned=1</script>" not in page
    assert e(EVIL) in page  # the raw answer, as text
    # the only <script> element is the report's own; no model text became a tag
    assert len(re.findall(r"<script\b", page, flags=re.I)) == 1
    tags = Tags()
    tags.feed(page)
    assert [t for t, _ in tags.found].count("script") == 1
    assert not any(k == "onerror" for _t, attrs in tags.found for k, _ in attrs)


def test_report_is_self_contained(make_run, tmp_path: Path) -> None:
    page = api.report([make_run("scripted:a")], out=tmp_path / "r.html").html.read_text()
    tags = Tags()
    tags.feed(page)
    refs = [v for _tag, attrs in tags.found for k, v in attrs if k in ("src", "href")]
    assert refs and all(r.startswith(("data:", "#")) for r in refs), refs
    assert {t for t, _ in tags.found} <= {"html", "head", "meta", "title", "style", "body", "h1",
        "h2", "h3", "h4", "p", "nav", "a", "section", "table", "tr", "th", "td", "br", "small",
        "b", "figure", "img", "figcaption", "div", "span", "pre", "code", "button", "select",
        "option", "details", "summary", "ul", "li", "script"}  # fmt: skip
    assert [t for t, _ in tags.found].count("img") == 3  # the profile and two clock figures
    assert re.search(r"url\((?!\"?data:)", page) is None  # CSS backgrounds are data URIs too
    assert "clockqa_by_style.png" in page and "data:image/png;base64," in page
    assert page.count("class='th ") == 12  # a thumbnail per sample (errors too: same items)
    assert page.count("class='sample ") == 12


def test_two_runs_show_the_paired_test_and_profile(make_run, tmp_path: Path) -> None:
    page = api.report(
        [make_run("scripted:a"), make_run("scripted:b")], out=tmp_path / "r.html"
    ).html.read_text()
    assert "<section id=paired>" in page and page.count("<tr class=paired>") == 1
    assert "<td>0 / 3</td><td>0.2500</td>" in page
    assert "alt='temporal profile'" in page


def test_different_items_refusal_is_in_the_report(make_run, tmp_path: Path) -> None:
    page = api.report(
        [make_run("scripted:a", "12"), make_run("scripted:b", "8")], out=tmp_path / "r.html"
    ).html.read_text()
    assert "Paired test refused" in page and "different datasets" in page


def test_sample_cap_keeps_failures_first_and_in_order() -> None:
    def rec(i: int, status: str, score: float | None) -> SampleRecord:
        return SampleRecord(
            f"i{i}", "t", {}, "g", status, scores={"s": score} if score is not None else {}
        )

    records = [rec(0, "answered", 1.0), rec(1, "answered", 0.0), rec(2, "error", None),
               rec(3, "answered", 1.0), rec(4, "no_answer", 0.0), rec(5, "missing", None)]  # fmt: skip
    assert [outcome(r, "s") for r in records] == [
        "correct", "wrong", "error", "correct", "no_answer", "error"]  # fmt: skip
    chosen, left = select_samples(records, "s", 4)
    assert left == 2 and [r.item_id for r, _ in chosen] == ["i1", "i2", "i4", "i5"]
    assert outcome(rec(6, "answered", 0.5), "s") == "graded"
    assert outcome(rec(7, "answered", 1.0), None) == "graded"


def test_cli_report_writes_html_markdown_csv_and_prints_paired_test(
    make_run, tmp_path: Path
) -> None:
    args = ["report", str(make_run("scripted:a")), str(make_run("scripted:b")),
            "--out", str(tmp_path / "r.html"), "--markdown", str(tmp_path / "r.md"),
            "--csv", str(tmp_path / "r.csv"), "--max-samples", "5"]  # fmt: skip
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "paired tests" in result.output and "0/3" in result.output
    assert (tmp_path / "r.md").read_text().count("| clockqa |") == 1
    assert (tmp_path / "r.csv").read_text().startswith("run,model,suite,task,metric,")
    page = (tmp_path / "r.html").read_text()
    assert page.count("class='sample ") == 10 and "5 of 12 samples shown" in page


def test_run_writes_report_html_beside_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["run", "--task", "clockqa", "--n", "6", "--model", "reference", "--model", "random",
            "--no-progress"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    (root,) = (tmp_path / "runs").glob("clockqa-*")  # one root per configuration
    for model in ("reference", "random"):
        assert (root / model / "results.json").is_file()
        assert "<h1>chronoeval report</h1>" in (root / model / "report.html").read_text()
    assert "<section id=paired>" in (root / "report.html").read_text()


def test_default_sample_cap_shrinks_with_many_tasks() -> None:
    from types import SimpleNamespace

    from chronoeval.report.html import default_max_samples

    def runs(pairs: int) -> list:
        return [SimpleNamespace(tasks=["t"] * pairs)]

    assert default_max_samples(runs(2)) == 200
    assert default_max_samples(runs(40)) == 100
    assert default_max_samples(runs(1000)) == 20
