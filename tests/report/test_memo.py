"""Figures and thumbnails drawn once per process: a report built right after scoring reuses the
figures scoring drew, and writes the same bytes and the same page as a report read from disk."""

from __future__ import annotations

import re
from pathlib import Path

from chronoeval import api
from chronoeval.report import memo
from chronoeval.report.runs import run_from_memory


def _page(path: Path) -> str:
    return re.sub(r"generated [^<·]+", "generated X", path.read_text(encoding="utf-8"))


def test_report_after_run_draws_nothing_again(tmp_path: Path) -> None:
    memo.clear()
    res = api.run(["clockqa"], "random", n=8, run_dir=tmp_path / "run", progress=False)
    drawn = memo.stats["figure_draws"]
    assert drawn >= 1 and memo.stats["figure_hits"] == 0
    plots = {p.name: p.read_bytes() for p in (tmp_path / "run" / "plots").iterdir()}
    assert plots

    loaded = run_from_memory(res.run_dir, res.results, res.records)
    api.report([res.run_dir], out=tmp_path / "mem.html", loaded=[loaded])
    assert memo.stats["figure_draws"] == drawn  # the report's task figures were reused
    assert memo.stats["figure_hits"] >= 1
    thumbs_drawn = memo.stats["thumb_draws"]
    assert thumbs_drawn >= 1

    # a report read back from disk, in a fresh memo, draws anew: the same page and figures
    memo.clear()
    api.report([res.run_dir], out=tmp_path / "disk.html")
    assert memo.stats["figure_draws"] >= 1 and memo.stats["thumb_draws"] == thumbs_drawn
    assert _page(tmp_path / "mem.html") == _page(tmp_path / "disk.html")

    # scoring again with a warm memo rewrites the same figure bytes
    api.score(res.run_dir)
    assert {p.name: p.read_bytes() for p in (tmp_path / "run" / "plots").iterdir()} == plots


def test_changed_records_are_drawn_anew(tmp_path: Path) -> None:
    memo.clear()
    res = api.run(["clockqa"], "random", n=8, run_dir=tmp_path / "run", progress=False)
    drawn = memo.stats["figure_draws"]
    res.records[0].scores = {
        k: 1 - v if isinstance(v, int | float) else v for k, v in res.records[0].scores.items()
    }
    api.report(
        [res.run_dir],
        out=tmp_path / "r.html",
        loaded=[run_from_memory(res.run_dir, res.results, res.records)],
    )
    assert memo.stats["figure_draws"] == drawn + 1
