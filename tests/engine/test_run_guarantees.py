"""What a run guarantees (issue 16), through the real command line: run identity, one writer,
exit statuses a script can trust, refused counts and impossible set-ups."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from chronoeval.core.dataset import write_dataset
from chronoeval.core.errors import EXIT_BAD_INPUT, EXIT_BUSY, EXIT_INCOMPLETE
from chronoeval.engine.lock import RunLock
from helpers import chronoeval, make_clock_dataset


def run_args(data: Path, *extra: str) -> list[str]:
    return ["run", "--task", "clockqa", "--data", str(data), "--no-progress", *extra]


def test_default_directories_separate_configurations(tmp_path: Path) -> None:
    data = make_clock_dataset(tmp_path / "ds", n=6).root
    a = chronoeval(*run_args(data, "--model", "constant:3:00:00", "--n", "5"), cwd=tmp_path)
    assert a.returncode == 0, a.stdout + a.stderr
    (first,) = tmp_path.glob("runs/clockqa-*/constant_3_00_00/results.json")
    before = first.read_text()
    b = chronoeval(*run_args(data, "--model", "constant:3:00:00", "--n", "3"), cwd=tmp_path)
    assert b.returncode == 0, b.stdout + b.stderr
    both = sorted(tmp_path.glob("runs/clockqa-*/constant_3_00_00/results.json"))
    assert len(both) == 2  # a second configuration never replaces the first one's results
    assert first.read_text() == before
    counts = sorted(
        sum(json.loads(p.read_text())["tasks"]["clockqa"]["counts"].values()) for p in both
    )
    assert counts == [3, 5]
    config = json.loads((first.parent / "config.json").read_text())
    assert config["identity"]["tasks"]["clockqa"]["n_items"] == 5 and config["identity_hash"]


def test_explicit_out_of_another_configuration_is_refused_naming_fields(tmp_path: Path) -> None:
    data = make_clock_dataset(tmp_path / "ds", n=6).root
    out = tmp_path / "run"
    base = run_args(data, "--model", "constant:3:00:00", "--out", str(out))
    assert chronoeval(*base, "--n", "5", cwd=tmp_path).returncode == 0
    results = (out / "results.json").read_text()
    other = chronoeval(*base, "--n", "4", cwd=tmp_path)
    assert other.returncode == EXIT_BAD_INPUT, other.stdout
    assert "another configuration" in other.stdout and "n_items: 5 → 4" in other.stdout
    assert "Traceback" not in other.stdout + other.stderr
    assert (out / "results.json").read_text() == results  # nothing replaced
    gen = chronoeval(*base, "--n", "5", "--temperature", "0.7", cwd=tmp_path)
    assert gen.returncode == EXIT_BAD_INPUT and "generation.temperature" in gen.stdout
    again = chronoeval(*base, "--n", "5", cwd=tmp_path)  # the same configuration resumes
    assert again.returncode == 0 and "0 asked" in again.stdout
    reused = chronoeval(*base, "--n", "4", "--reuse", cwd=tmp_path)
    assert reused.returncode == 0, reused.stdout
    res = json.loads((out / "results.json").read_text())
    assert res["tasks"]["clockqa"]["counts"]["answered"] == 4


def test_invalid_counts_are_refused_and_replace_nothing(tmp_path: Path) -> None:
    data = make_clock_dataset(tmp_path / "ds", n=4).root
    out = tmp_path / "run"
    base = run_args(data, "--model", "constant:3:00:00", "--out", str(out))
    assert chronoeval(*base, cwd=tmp_path).returncode == 0
    results = (out / "results.json").read_text()
    for bad in (["--n", "-3"], ["--n", "0"], ["--concurrency", "0"], ["--max-tokens", "0"]):
        proc = chronoeval(*base, *bad, cwd=tmp_path)
        assert proc.returncode == EXIT_BAD_INPUT, (bad, proc.stdout)
        assert "must be at least" in proc.stdout, proc.stdout
    assert (out / "results.json").read_text() == results


def test_zero_items_is_not_complete(tmp_path: Path) -> None:
    empty = write_dataset(
        tmp_path / "empty",
        [],
        suite="lost_in_time",
        task="clockqa",
        generator_version="test",
        params={},
        seed=None,
        source="test",
    )
    out = tmp_path / "run"
    proc = chronoeval(
        *run_args(empty.root, "--model", "constant:x", "--out", str(out)), cwd=tmp_path
    )
    assert proc.returncode == EXIT_INCOMPLETE, proc.stdout + proc.stderr
    assert "no items" in proc.stdout
    assert json.loads((out / "results.json").read_text())["complete"] is False


def test_failed_requests_exit_incomplete_and_resume_completes(tmp_path: Path, serve) -> None:
    data = make_clock_dataset(tmp_path / "ds", n=3).root
    out = tmp_path / "run"
    dead = chronoeval(
        *run_args(data, "--model", "openai:constant:3:00:00", "--out", str(out)),
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--max-retries",
        "0",
        cwd=tmp_path,
    )
    assert dead.returncode == EXIT_INCOMPLETE, dead.stdout + dead.stderr
    assert "3 errors" in dead.stdout
    assert json.loads((out / "results.json").read_text())["complete"] is False
    server = serve("--model", "constant:3:00:00", "--task", "clockqa")
    alive = chronoeval(
        *run_args(data, "--model", "openai:constant:3:00:00", "--out", str(out)),
        "--base-url",
        server.url,
        cwd=tmp_path,
    )
    assert alive.returncode == 0, alive.stdout + alive.stderr
    assert json.loads((out / "results.json").read_text())["complete"] is True
    score = chronoeval("score", str(out), cwd=tmp_path)
    assert score.returncode == 0, score.stdout


def test_impossible_setup_is_refused_before_any_request(tmp_path: Path) -> None:
    proc = chronoeval(
        "run", "--task", "mined_ranking", "--model", "random", "--no-progress", cwd=tmp_path
    )
    assert proc.returncode == EXIT_BAD_INPUT, proc.stdout + proc.stderr
    assert "no random baseline" in proc.stdout
    assert not (tmp_path / "runs").exists()  # nothing written, nothing asked


def test_a_task_the_model_cannot_answer_is_skipped_in_a_multi_task_run(tmp_path: Path) -> None:
    """Alone it is refused (above); beside a task it can answer it is skipped and recorded, the
    other task runs and the run is complete; when no task applies, nothing is asked."""
    proc = chronoeval(
        "run", "--task", "calendarqa", "--task", "mined_ranking", "--model", "random",
        "--n", "3", "--no-progress", "--out", "both", cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    res = json.loads((tmp_path / "both" / "results.json").read_text())
    assert list(res["tasks"]) == ["calendarqa"] and res["complete"] is True
    assert "no random baseline" in res["skipped"]["mined_ranking"]
    none = chronoeval(
        "run", "--task", "mined_ranking", "--task", "mined_judge", "--model", "random",
        "--no-progress", "--out", "none", cwd=tmp_path,
    )  # fmt: skip
    assert none.returncode == EXIT_BAD_INPUT, none.stdout + none.stderr
    assert "cannot answer any of the tasks" in none.stdout and not (tmp_path / "none").exists()
    # the same when every backend refuses its task only when it is built (grayprior: shortcut only)
    built = chronoeval(
        "run", "--task", "clockqa", "--task", "calendarqa", "--model", "grayprior", "--n", "2",
        "--no-progress", "--out", "built", cwd=tmp_path,
    )  # fmt: skip
    assert built.returncode == EXIT_BAD_INPUT, built.stdout + built.stderr
    assert "cannot answer any of the tasks" in built.stdout and "Traceback" not in built.stderr
    assert not (tmp_path / "built" / "results.json").exists()  # no empty "complete" result


def test_a_second_writer_is_refused_naming_the_holder(tmp_path: Path) -> None:
    data = make_clock_dataset(tmp_path / "ds", n=3).root
    out = tmp_path / "run"
    out.mkdir()
    with RunLock(out):
        proc = chronoeval(*run_args(data, "--model", "constant:x", "--out", str(out)), cwd=tmp_path)
        assert proc.returncode == EXIT_BUSY, proc.stdout + proc.stderr
        assert f"pid {os.getpid()}" in proc.stdout and "being written" in proc.stdout
        assert not (out / "store.sqlite").exists()
    free = chronoeval(*run_args(data, "--model", "constant:x", "--out", str(out)), cwd=tmp_path)
    assert free.returncode == 0, free.stdout  # the lock went with its holder


def test_lock_is_reentrant_within_a_process_and_exclusive_across(tmp_path: Path) -> None:
    with RunLock(tmp_path), RunLock(tmp_path):
        code = (
            "import sys; from chronoeval.engine.lock import RunLock\n"
            "try:\n    RunLock(sys.argv[1]).acquire()\nexcept Exception as e:\n"
            "    print(type(e).__name__)\n"
        )
        other = subprocess.run(
            [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True
        )
        assert other.stdout.strip() == "RunBusyError", other.stderr
