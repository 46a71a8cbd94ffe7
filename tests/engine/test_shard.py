"""Sharded runs: shards partition the items, merge reproduces the unsharded run exactly, and
merging refuses shards that disagree (another dataset, another generation config, gaps, twins)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chronoeval import api
from chronoeval.cli import app
from chronoeval.core.errors import ChronoevalError, RunBusyError
from chronoeval.engine.request import GenerationConfig
from chronoeval.engine.shard import Shard

TASKS = ["clockqa", "calendarqa"]
HOLD_LOCK = (
    "import sys, time; from chronoeval.engine.lock import RunLock\n"
    "with RunLock(sys.argv[1]):\n    print('held', flush=True); time.sleep(120)\n"
)
N = 14


def _cli(*args: str) -> str:
    res = CliRunner().invoke(app, [*args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return " ".join(res.output.split())


def _run_args(out: Path, *extra: str) -> list[str]:
    args = ["run", "--model", "random", "--n", str(N), "--out", str(out), "--no-progress"]
    for t in TASKS:
        args += ["--task", t]
    return args + list(extra)


def _comparable(run_dir: Path) -> tuple[dict, list[dict]]:
    results = json.loads((run_dir / "results.json").read_text())
    rows = [json.loads(line) for line in (run_dir / "samples.jsonl").read_text().splitlines()]
    for r in rows:
        r.pop("latency_s")
    return {t: (v["counts"], v["metrics"]) for t, v in results["tasks"].items()}, rows


def test_shards_partition_the_items_in_order() -> None:
    items = list(range(11))
    parts = [Shard(i, 4).select(items) for i in range(4)]
    assert sorted(x for p in parts for x in p) == items
    assert [len(p) for p in parts] == [3, 3, 3, 2]
    assert parts[1] == [1, 5, 9]
    assert Shard.parse(" 2/5 ") == Shard(2, 5)
    for bad in ("5/5", "-1/3", "1/0", "a/b", "3"):
        with pytest.raises(ChronoevalError, match="shard"):
            Shard.parse(bad)


def test_shard_and_merge_reproduce_the_unsharded_run_exactly(tmp_path: Path) -> None:
    _cli(*_run_args(tmp_path / "whole"))
    for i in range(3):
        out = _cli(*_run_args(tmp_path / "sharded", "--shard", f"{i}/3"))
        expect = len(Shard(i, 3).select(range(N)))
        assert f"{expect} items, 0 already stored, {expect} asked" in out
    shard_dirs = sorted((tmp_path / "sharded").glob("shard-*-of-3"))
    assert [d.name for d in shard_dirs] == [f"shard-{i}-of-3" for i in range(3)]
    one = json.loads((shard_dirs[0] / "results.json").read_text())
    assert one["tasks"]["clockqa"]["counts"]["answered"] + one["tasks"]["clockqa"]["counts"][
        "no_answer"
    ] == len(Shard(0, 3).select(range(N)))

    merged_out = _cli("merge", *map(str, shard_dirs), "--out", str(tmp_path / "merged"))
    assert "merged 3 run(s)" in merged_out
    whole, merged = _comparable(tmp_path / "whole"), _comparable(tmp_path / "merged")
    assert merged == whole
    # non-trivial metrics: the random baseline gets some calendar questions right, not all
    acc = whole[0]["calendarqa"][1]["overall"]["accuracy"]["value"]
    assert 0 < acc < 1
    config = json.loads((tmp_path / "merged" / "config.json").read_text())
    assert "shard" not in config and len(config["merged_from"]) == 3
    # merging again into the same directory is idempotent
    api.merge(shard_dirs, tmp_path / "merged", plots=False)
    assert _comparable(tmp_path / "merged") == whole
    # the merged run is self-contained: it scores from its own dataset copies (issue 16)
    assert (tmp_path / "merged" / "datasets" / "clockqa" / "items.jsonl").is_file()
    # merge takes the run lock of its output: a second process writing there refuses it
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(tmp_path / "merged")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(RunBusyError, match=f"pid {holder.pid}"):
            api.merge(shard_dirs, tmp_path / "merged", plots=False)
    finally:
        holder.kill()
        holder.wait()


def _shard_run(out: Path, index: int, count: int, **kw) -> Path:  # type: ignore[no-untyped-def]
    res = api.run(
        ["calendarqa"],
        "random",
        n=6,
        run_dir=out,
        progress=False,
        plots=False,
        shard=Shard(index, count),
        **kw,
    )
    return res.run_dir


def test_merge_refuses_a_shard_from_another_dataset(tmp_path: Path) -> None:
    a = _shard_run(tmp_path / "a", 0, 2, seed=0)
    b = _shard_run(tmp_path / "b", 1, 2, seed=1)
    with pytest.raises(ChronoevalError, match=r"different dataset hash .*different datasets"):
        api.merge([a, b], tmp_path / "m")
    assert not (tmp_path / "m" / "results.json").exists()


def test_merge_refuses_another_generation_config(tmp_path: Path) -> None:
    a = _shard_run(tmp_path / "a", 0, 2)
    b = _shard_run(tmp_path / "b", 1, 2, generation=GenerationConfig(max_tokens=7))
    with pytest.raises(ChronoevalError, match="generation config"):
        api.merge([a, b], tmp_path / "m")


def test_merge_refuses_gaps_and_twins_unless_allowed(tmp_path: Path) -> None:
    a = _shard_run(tmp_path / "a", 0, 3)
    b = _shard_run(tmp_path / "b", 1, 3)
    twin = _shard_run(tmp_path / "c", 1, 3)
    with pytest.raises(ChronoevalError, match="given twice"):
        api.merge([a, b, twin], tmp_path / "m")
    with pytest.raises(ChronoevalError, match=r"shard\(s\) 2/3 not given"):
        api.merge([a, b], tmp_path / "m")
    res = api.merge([a, b], tmp_path / "m", allow_missing=True, plots=False)
    counts = res.results["tasks"]["calendarqa"]["counts"]
    assert counts["missing"] == 2 and counts["answered"] + counts["no_answer"] == 4
    assert res.results["complete"] is False
    other = _shard_run(tmp_path / "d", 0, 2)
    with pytest.raises(ChronoevalError, match="split the items differently"):
        api.merge([a, other], tmp_path / "m2")
