"""Daily use as with lmms-eval or Inspect: --limit for every task and data source, --n across a
suite, comma list params, --version, literal printing, plain progress in logs, run --help."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.cli_options import MODEL_KINDS
from chronoeval.core.params import coerce_params
from chronoeval.core.registry import all_tasks
from helpers import chronoeval

MINED_RELEASE = Path("/work/shared/peers/mined")


def _mined_copy(root: Path) -> Path:
    """The first two items of every released MINED file, in the released layout."""
    root.mkdir(parents=True)
    for f in sorted(MINED_RELEASE.glob("Dimension*.json")):
        (root / f.name).write_text(json.dumps(json.loads(f.read_text())[:2]))
    return root


def test_limit_works_for_every_registered_task(tmp_path: Path) -> None:
    from suites.timepercept.test_temporalvqa import make_copy

    if not MINED_RELEASE.is_dir():
        pytest.skip("the released MINED files are not on this machine")
    mined = _mined_copy(tmp_path / "mined")
    tvqa = make_copy(tmp_path / "tvqa")
    seen = []
    mined_run: Path | None = None
    for name, task in all_tasks().items():
        kwargs: dict = {}
        model = "random"
        if task.suite == "mined":
            kwargs = {"data": mined, "params": {"image_source": "name_card"}}
            model = "constant:Tim Cook"
        elif task.suite == "temporalvqa":
            kwargs = {"data": tvqa}
        elif task.suite == "mined_judge":
            continue  # judged below, over a MINED run
        elif "n" in task.default_params:
            kwargs = {"n": 3}  # a small generator; --limit then cuts it further
        run_dir = tmp_path / "runs" / name
        res = api.run([name], model, limit=2, run_dir=run_dir, progress=False, plots=False,
                      **kwargs)  # fmt: skip
        entry = res.results["tasks"][name]
        assert entry["dataset"]["n_items"] <= 2, name
        assert sum(entry["counts"].values()) == entry["dataset"]["n_items"] > 0, name
        assert json.loads((run_dir / "config.json").read_text())["limit"] == 2
        if task.suite == "mined" and mined_run is None:
            mined_run = run_dir
        seen.append(name)
    judge = [n for n, t in all_tasks().items() if t.suite == "mined_judge"]
    for name in judge:
        assert mined_run is not None
        res = api.run([name], "constant:0.5", data=mined_run, limit=1,
                      run_dir=tmp_path / "judge", progress=False, plots=False)  # fmt: skip
        assert res.results["tasks"][name]["dataset"]["n_items"] == 1
        seen.append(name)
    assert sorted(seen) == sorted(all_tasks())


def test_suite_n_and_limit_from_the_command_line(tmp_path: Path) -> None:
    """`--n` reaches every generator of a suite (as a limit where a task has no n), and --limit
    applies to a released layout (DateTimeQA, exported here from generated items)."""
    proc = chronoeval("run", "--suite", "seeing_time", "--n", "3", "--model", "random",
                      "--out", str(tmp_path / "st"), cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    res = json.loads((tmp_path / "st" / "results.json").read_text())
    assert "seeing_sort" in res["tasks"] and "seeing_shortcut" in res["tasks"]
    assert all(t["dataset"]["n_items"] == 3 for t in res["tasks"].values())
    exp = chronoeval("export", "--task", "clockqa", "--n", "6", "--layout", "datetimeqa",
                     "--out", str(tmp_path / "dtqa"), cwd=tmp_path)  # fmt: skip
    assert exp.returncode == 0, exp.stdout + exp.stderr
    proc = chronoeval("run", "--task", "clockqa", "--data", str(tmp_path / "dtqa"),
                      "--limit", "4", "--model", "reference", "--out", str(tmp_path / "r"),
                      cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    config = json.loads((tmp_path / "r" / "config.json").read_text())
    assert config["limit"] == 4 and config["tasks"]["clockqa"]["n_items"] == 4
    assert config["tasks"]["clockqa"]["source"].startswith("loaded:")
    bad = chronoeval("run", "--task", "clockqa", "--limit", "0", cwd=tmp_path)
    assert bad.returncode == 2 and "--limit must be a positive whole number" in bad.stdout


def test_comma_separated_list_params() -> None:
    defaults = all_tasks()["clockqa"].default_params
    got = coerce_params({"styles": "roman,basic", "rotate": "no"}, defaults)
    assert got == {"styles": ["roman", "basic"], "rotate": False}
    assert coerce_params({"styles": "roman"}, defaults) == {"styles": ["roman"]}
    assert coerce_params({"styles": ["easy"]}, defaults) == {"styles": ["easy"]}
    ds = api.generate("clockqa", n=4, params={"styles": "roman,basic"})
    assert {it.metadata["style"] for it in ds.items} <= {"roman", "basic"}


def test_version_and_help_list_every_model_kind(tmp_path: Path) -> None:
    from chronoeval import __version__

    proc = chronoeval("--version", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == f"chronoeval {__version__}"
    # every backend a fresh process knows (this test session may have registered test doubles)
    probe = subprocess.run(
        [sys.executable, "-c", "from chronoeval.core.registry import load_suites; load_suites(); "
         "from chronoeval.models.registry import known_backends; print(*known_backends())"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    known = probe.stdout.split()
    assert set(MODEL_KINDS) == set(known)
    helptext = chronoeval("run", "--help", cwd=tmp_path, env={"COLUMNS": "2000"}).stdout
    for kind in known:
        assert f"{kind}:" in helptext, kind


def test_user_text_is_printed_literally(tmp_path: Path) -> None:
    weird = "constant:[ray] :m: openai:llama:"
    proc = chronoeval("run", "--task", "clockqa", "--n", "2", "--model", weird,
                      "--out", str(tmp_path / "w"), cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"clockqa · {weird}: 2 items" in proc.stdout
    assert "Ⓜ" not in proc.stdout and "🦙" not in proc.stdout
    proc = chronoeval("run", "--task", "clockqa", "--model", "hf:[ray]/m:llama:", "--n", "1",
                      "--data", str(tmp_path / "nope [ray]"), cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and "nope [ray]" in proc.stdout, proc.stdout


def test_plain_progress_lines_and_unwrapped_summary_in_a_log(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", "run", "--task", "clockqa", "--n", "5",
         "--model", "random", "--model", "reference", "--out", str(tmp_path / "p"),
         "--progress-every", "0"],
        cwd=tmp_path, timeout=600, capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [x for x in proc.stderr.splitlines() if x.startswith("progress clockqa · random")]
    assert lines[0].startswith("progress clockqa · random: 0/5 (0%) · ?/s · ETA ?")
    assert any(" 3/5 (60%) · " in x and "ETA" in x for x in lines), lines
    assert "5/5 (100%)" in lines[-1] and "done in" in lines[-1] and "0 errors" in lines[-1]
    # the summary table is not wrapped at 80 columns when stdout is a file
    header = [x for x in proc.stdout.splitlines() if "┃ task" in x]
    assert header and "no answer" in header[0] and "metrics" in header[0], proc.stdout
    rows = [x for x in proc.stdout.splitlines() if "│ clockqa" in x and "reference" in x]
    assert rows and "EM %: 100.0" in rows[0], proc.stdout
