"""Seeing Time from the release end to end: News-Year on the released news files, every task
takes ``n``, the composite is per model (never mixing two models) in Table III's layout with
ranks, the random sort baseline answers permutations of the right length, and a control agent
over the whole suite skips the tasks it does not apply to with a recorded reason."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from chronoeval import api
from chronoeval.core.errors import ChronoevalError
from chronoeval.core.registry import get_task, suite_tasks
from chronoeval.suites.seeing_time.composite import (
    composites_by_model,
    table_iii,
    table_iii_text,
    task_metrics,
)

PEERS = Path("/work/shared/peers/chronovision")

_PNG = io.BytesIO()
Image.new("RGB", (4, 4), (10, 200, 40)).save(_PNG, format="PNG")
PLACEHOLDER = _PNG.getvalue()


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "chronoeval", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "200"},
    )


@pytest.mark.skipif(not PEERS.is_dir(), reason="released ChronoVision files not here")
def test_news_year_on_the_release(tmp_path: Path) -> None:
    """One placeholder per distinct image, at the first test folder that names it."""
    placed: set[tuple[str, str]] = set()
    years: dict[tuple[str, str], int] = {}
    for f in sorted((PEERS / "news").glob("*/*-MMT-test-information.json")):
        domain = f.parent.name
        for row in json.loads(f.read_text(encoding="utf-8")):
            for im in row["images"]:
                key = (domain, im["original_name"])
                years[key] = im["year"]
                if key not in placed:
                    p = tmp_path / domain / row["test_id"] / im["new_name"]
                    p.parent.mkdir(parents=True, exist_ok=True)
                    p.write_bytes(PLACEHOLDER)
                    placed.add(key)
    task = get_task("seeing_year")
    built = list(task.load(PEERS, {**task.load_params, "images_root": str(tmp_path)}))
    items = [b.item for b in built]
    assert len(items) == 1005  # the paper's SPEED set has 1,028 (docs/suites/seeing_time.md)
    assert len({i.id for i in items}) == 1005
    assert Counter(i.metadata["category"] for i in items).keys() == {
        "diversity", "electronics", "emergency", "politics", "sports",
    }  # fmt: skip
    for it in items[:50]:
        domain, original = it.metadata["source"].split("/", 1)
        assert it.target == years[(domain, original)]
    few = list(task.load(PEERS, {**task.load_params, "images_root": str(tmp_path), "n": 7}))
    assert len(few) == 7


def test_every_task_takes_n() -> None:
    for name in suite_tasks("seeing_time"):
        ds = api.generate(name, n=4, seed=0)
        want = 6 if name.startswith("seeing_shortcut") else 4  # whole pairs: ceil(4/3) · 3
        assert len(ds.items) == want, name


def test_random_sort_answers_a_permutation_of_the_right_length(tmp_path: Path) -> None:
    res = api.run(
        ["seeing_sort"], "random", n=10, run_dir=tmp_path / "r", progress=False, plots=False
    )
    counts = res.results["tasks"]["seeing_sort"]["counts"]
    assert counts["no_answer"] == 0 and counts["answered"] == 10
    lengths = Counter(len(r.metadata["eras"]) for r in res.records)
    assert lengths == {4: 5, 5: 5}


FIVE = ["seeing_localization", "seeing_sort", "seeing_shortcut", "seeing_year", "seeing_alignment"]


def test_composite_per_model_refuses_to_mix_and_ranks(tmp_path: Path) -> None:
    runs = {}
    for model in ("reference", "random"):
        runs[model] = api.run(
            FIVE, model, n=6, run_dir=tmp_path / model, progress=False, plots=False
        ).run_dir
    with pytest.raises(ChronoevalError, match="different models"):
        task_metrics([runs["reference"], runs["random"]])
    per = composites_by_model([runs["random"], runs["reference"]])
    assert set(per) == {"reference", "random"}
    alone = composites_by_model([runs["random"]])["random"]
    assert per["random"]["S"] == alone["S"]  # nothing of the reference run leaks in
    rows = table_iii(per)
    assert [r["Model"] for r in rows] == ["reference", "random", "Average"]
    assert [r["Rank"] for r in rows] == [1, 2, "-"]
    assert rows[0]["Score"] == pytest.approx(100 * per["reference"]["S"])
    text = table_iii_text(rows)
    assert "ACC_A" in text and "Rank" in text
    out = _cli("seeing_time", "composite", str(runs["reference"]), str(runs["random"]),
               cwd=tmp_path)  # fmt: skip
    assert out.returncode == 0, out.stderr[-1500:]
    assert "== reference" in out.stdout and "== random" in out.stdout
    # a model lacking a task is named
    partial = api.run(
        ["seeing_sort"], "constant:x", n=2, run_dir=tmp_path / "c", progress=False, plots=False
    ).run_dir
    with pytest.raises(ChronoevalError, match="model constant:x: the composite needs"):
        composites_by_model([runs["random"], partial])


def test_control_agent_over_the_suite_skips_with_a_reason(tmp_path: Path) -> None:
    out = _cli("run", "--suite", "seeing_time", "--model", "grayprior", "--n", "3",
               "--no-progress", "--out", str(tmp_path / "g"), cwd=tmp_path)  # fmt: skip
    assert out.returncode == 0, out.stderr[-1500:]
    results = json.loads((tmp_path / "g" / "results.json").read_text())
    assert sorted(results["tasks"]) == ["seeing_shortcut", "seeing_shortcut_cot"]
    assert set(results["skipped"]) == set(suite_tasks("seeing_time")) - set(results["tasks"])
    assert all("shortcut tasks only" in why for why in results["skipped"].values())
    assert "seeing_sort skipped" in out.stdout
