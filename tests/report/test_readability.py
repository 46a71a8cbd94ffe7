"""The report reads well: percent for proportions, readable backend identities, plain captions,
a clear message (not empty charts) when nothing was answered, Markdown without HTML entities."""

from __future__ import annotations

import re
from pathlib import Path

from chronoeval import api
from chronoeval.engine.runner import RetryPolicy
from chronoeval.models.base import Backend, BackendError
from chronoeval.models.registry import register_backend
from chronoeval.report.units import is_percent


class AlwaysFails(Backend):
    identity = "alwaysfails"

    async def generate(self, request):  # type: ignore[no-untyped-def]
        raise BackendError("HTTP 503: overloaded", retryable=False)


@register_backend("alwaysfails")
def _always_fails(arg, task, items, opts) -> Backend:  # type: ignore[no-untyped-def]
    return AlwaysFails()


def test_percent_identities_and_captions(make_run, tmp_path: Path) -> None:
    runs = [make_run("scripted:a"), make_run("reference")]
    rep = api.report(runs, out=tmp_path / "r.html", markdown=tmp_path / "r.md")
    page = rep.html.read_text(encoding="utf-8")
    # scripted:a answers 3 of the 9 scored items right: 33.3 %, not 0.333
    assert re.search(r"<td>33\.3 \[11\.1, 66\.7\]", page), "headline not in percent"
    assert "0.333 [" not in page
    assert "<td>hm_em %</td>" in page or "<b>hm_em %</b>" in page
    assert "mae_s" in page and "Task.headline" not in page and "Task.chance" not in page
    # the backend column names the identity readably, not as a JSON object
    assert "<td><code>reference/clockqa</code></td>" in page
    assert "{&quot;identity&quot;" not in page
    assert "By style" in page  # a plain caption for clockqa_by_style.png
    md = rep.markdown.read_text(encoding="utf-8")
    assert "&lt;" not in md and "&amp;" not in md
    # ClockQA's headline is EM (issue 18): chance 1/43,200 = 0.002 %
    assert "| scripted:a | 33.3 [11.1, 66.7] |" in md and "| chance | 0.002 |" in md
    assert "| clockqa | scripted:a | reference | em | 9 | -33.3 | [-66.7, -11.1] |" in md


def test_all_errors_run_says_so_instead_of_empty_charts(datasets, tmp_path: Path) -> None:
    run = api.run(["clockqa"], "alwaysfails", data=datasets["8"].root, run_dir=tmp_path / "f",
                  progress=False, retry=RetryPolicy(max_retries=0))  # fmt: skip
    assert run.results["tasks"]["clockqa"]["counts"]["error"] == 8
    assert not list((tmp_path / "f" / "plots").glob("*.png"))  # no empty charts on disk
    page = api.report([tmp_path / "f"], out=tmp_path / "f.html").html.read_text()
    assert "Nothing to chart: no task has a scored answer" in page
    assert "No figures: no item of this task was answered" in page
    assert "<img class=fig" not in page  # no empty chart drawn
    assert "nothing scored" in page and "no headline" not in page


def test_percent_rule() -> None:
    assert is_percent("overall.accuracy", {"value": 0.5, "ci95": [0.4, 0.6]})
    assert is_percent("by_style.roman.em", {"value": 1.0, "ci95": None})
    assert not is_percent("overall.mae_s", {"value": 0.5, "ci95": [0.1, 0.9]})
    assert not is_percent("overall.tau", {"value": 0.5, "ci95": [0.1, 0.9]})
    assert not is_percent("overall.score50", {"value": 50.0, "ci95": None})
    assert not is_percent("overall.accuracy", {"value": 73.4, "ci95": None})  # already percent
