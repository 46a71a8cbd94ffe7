"""Storage failures (issue 16): a read-only run directory, a full disk and a corrupt store each
give one line naming the path and what was kept; `score` and `report` read the store read-only;
runs are self-contained (`score`/`report` work after the dataset is deleted)."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chronoeval.core.errors import EXIT_STORAGE
from helpers import make_clock_dataset

ENV = {**os.environ, "COLUMNS": "400"}


def chronoeval(*args: str, cwd: Path, prefix: tuple[str, ...] = (), **kw):
    return subprocess.run(
        [*prefix, sys.executable, "-m", "chronoeval", *args],
        cwd=cwd,
        timeout=300,
        capture_output=True,
        text=True,
        env=ENV,
        **kw,
    )


def run_clockqa(
    tmp_path: Path, n: int, *extra: str, model: str = "constant:3:00:00", **kw: Any
) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """``chronoeval run`` of ``n`` ClockQA items into ``tmp_path/run``: the data, the run
    directory and the finished process."""
    data = make_clock_dataset(tmp_path / "ds", n=n).root
    out = tmp_path / "run"
    args = ["--task", "clockqa", "--data", str(data), "--model", model, "--out", str(out)]
    proc = chronoeval("run", *args, "--no-progress", *extra, cwd=tmp_path, **kw)
    return data, out, proc


def make_run(tmp_path: Path, n: int = 6) -> tuple[Path, Path]:
    data, out, proc = run_clockqa(tmp_path, n)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return data, out


def read_only(path: Path) -> tuple[str, ...]:
    """Run the command with ``path`` mounted read-only (bubblewrap)."""
    return ("bwrap", "--dev-bind", "/", "/", "--ro-bind", str(path), str(path))


needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap (Debian package) is not installed"
)


def one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    lines = [ln for ln in (proc.stdout + proc.stderr).splitlines() if ln.startswith("error:")]
    assert len(lines) == 1, proc.stdout + proc.stderr
    return lines[0]


@needs_bwrap
def test_read_only_run_directory(tmp_path: Path) -> None:
    data, out = make_run(tmp_path)
    store = (out / "store.sqlite").read_bytes()
    score = chronoeval("score", str(out), cwd=tmp_path, prefix=read_only(out))
    assert score.returncode == EXIT_STORAGE, score.stdout + score.stderr
    line = one_error_line(score)
    assert str(out) in line and "Read-only file system" in line
    again = chronoeval(
        "run",
        "--task",
        "clockqa",
        "--data",
        str(data),
        "--model",
        "constant:3:00:00",
        "--out",
        str(out),
        "--no-progress",
        cwd=tmp_path,
        prefix=read_only(out),
    )
    assert again.returncode == EXIT_STORAGE, again.stdout + again.stderr
    assert str(out) in one_error_line(again)
    assert (out / "store.sqlite").read_bytes() == store


@needs_bwrap
def test_score_and_report_open_the_store_read_only(tmp_path: Path) -> None:
    _data, out = make_run(tmp_path)
    report_dir = tmp_path / "rep"
    report_dir.mkdir()
    for name in ("results.json", "samples.jsonl", "samples.parquet"):
        shutil.copy(out / name, report_dir / name)
    # only the store is read-only: scoring reads it and writes its results beside it
    prefix = ("bwrap", "--dev-bind", "/", "/", "--ro-bind", str(out / "store.sqlite"))
    prefix += (str(out / "store.sqlite"),)
    score = chronoeval("score", str(out), cwd=tmp_path, prefix=prefix)
    assert score.returncode == 0, score.stdout + score.stderr
    report = chronoeval("report", str(out), cwd=tmp_path, prefix=prefix)
    assert report.returncode == 0, report.stdout + report.stderr


def test_corrupt_store_is_detected_and_named(tmp_path: Path) -> None:
    data, out = make_run(tmp_path)
    (out / "store.sqlite").write_bytes(b"this is not a database" * 100)
    for name in ("store.sqlite-wal", "store.sqlite-shm"):
        (out / name).unlink(missing_ok=True)
    score = chronoeval("score", str(out), cwd=tmp_path)
    assert score.returncode == EXIT_STORAGE
    assert "store.sqlite" in one_error_line(score)
    run = chronoeval(
        "run",
        "--task",
        "clockqa",
        "--data",
        str(data),
        "--model",
        "constant:3:00:00",
        "--out",
        str(out),
        "--no-progress",
        cwd=tmp_path,
    )
    assert run.returncode == EXIT_STORAGE
    line = one_error_line(run)
    assert "store.sqlite is corrupt" in line and "move it away" in line


def _limit_file_size() -> None:  # runs in the child: a "disk" that fills at 64 KiB per file
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))


def test_full_disk_is_one_line_and_keeps_what_was_stored(tmp_path: Path, serve: Any) -> None:
    """The disk fills while a served model's answers are committed (one per turn of the loop
    at concurrency 1): one line naming the run, and the answers committed before are kept."""
    server = serve("--model", "constant:3:00:00", "--task", "clockqa")
    _, out, proc = run_clockqa(
        tmp_path,
        100,
        "--base-url",
        server.url,
        "--concurrency",
        "1",
        model="openai:constant:3:00:00",
        preexec_fn=_limit_file_size,
    )
    assert proc.returncode == EXIT_STORAGE, proc.stdout + proc.stderr
    line = one_error_line(proc)
    assert str(out) in line and "kept" in line
    import sqlite3

    kept = sqlite3.connect(out / "store.sqlite").execute("SELECT COUNT(*) FROM responses")
    assert kept.fetchone()[0] > 0  # what was stored before the disk filled is still there


def test_a_report_the_disk_cannot_hold_is_one_line_naming_it(tmp_path: Path) -> None:
    """An instant in-process model's 100 answers fit in one commit; the report does not fit:
    one line naming the report's file (a failed write names no file of its own), the scored
    results kept, no partial file left."""
    _, out, proc = run_clockqa(tmp_path, 100, preexec_fn=_limit_file_size)
    assert proc.returncode == EXIT_STORAGE, proc.stdout + proc.stderr
    line = one_error_line(proc)
    assert str(out / "report.html") in line and "File too large" in line and "kept" in line
    assert json.loads((out / "results.json").read_text())["tasks"]["clockqa"]
    assert not (out / "report.html.tmp").exists()


def test_score_and_report_work_after_the_dataset_is_deleted(tmp_path: Path) -> None:
    data, out = make_run(tmp_path)
    before = json.loads((out / "results.json").read_text())
    shutil.rmtree(data)
    score = chronoeval("score", str(out), cwd=tmp_path)
    assert score.returncode == 0, score.stdout + score.stderr
    after = json.loads((out / "results.json").read_text())
    assert after["tasks"] == before["tasks"]
    assert (out / "datasets" / "clockqa" / "items.jsonl").is_file()
    report = chronoeval("report", str(out), cwd=tmp_path)
    assert report.returncode == 0, report.stdout + report.stderr
    copy = out / "datasets" / "clockqa" / "items.jsonl"
    copy.write_text(
        copy.read_text().replace("What time", "Which time")
    )  # a copy that no longer matches its hash
    bad = chronoeval("score", str(out), cwd=tmp_path)
    assert bad.returncode == 2 and "content hash" in one_error_line(bad)


def test_a_store_corrupt_inside_is_caught_by_the_integrity_check(tmp_path: Path) -> None:
    """A store whose header is fine but one b-tree page is damaged opens without complaint; the
    integrity check (PRAGMA quick_check) finds it, and its report is still one line."""
    import sqlite3

    data, out = make_run(tmp_path, n=30)
    path = out / "store.sqlite"
    (out / "store.sqlite-wal").unlink(missing_ok=True)
    (out / "store.sqlite-shm").unlink(missing_ok=True)
    blob = bytearray(path.read_bytes())
    page = 4096
    assert blob[16:18] == b"\x10\x00" and len(blob) >= 3 * page  # 4096-byte pages, several
    leaf = next(i for i in range(page, len(blob), page) if blob[i] == 0x0D)  # a table leaf
    blob[leaf : leaf + 206] = b"\x0d\x00\x00\x00\xff\xff" + b"\xab" * 200
    path.write_bytes(bytes(blob))
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert conn.execute("PRAGMA quick_check").fetchone()[0] != "ok"  # the damage is real
    conn.close()
    score = chronoeval("score", str(out), cwd=tmp_path)
    assert score.returncode == EXIT_STORAGE, score.stdout + score.stderr
    line = one_error_line(score)
    assert "store.sqlite is corrupt (integrity check:" in line
    assert len([ln for ln in score.stdout.splitlines() if ln.strip()]) == 1, score.stdout


def test_results_the_disk_cannot_hold_leave_none_of_their_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills while samples.parquet is written, after results.json and samples.jsonl:
    one error naming the file, and none of the three moved in (before session 12 results.json
    and samples.jsonl were already in place: a directory with results but no samples.parquet),
    nothing left beside them."""
    import errno

    import pyarrow.parquet as pq

    from chronoeval import api
    from chronoeval.core.errors import StorageError

    data = make_clock_dataset(tmp_path / "ds", n=8).root
    out = tmp_path / "run"

    def full(table: Any, where: Any, **kw: Any) -> None:
        Path(where).write_bytes(b"PAR1")  # a first part, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device", str(where))

    monkeypatch.setattr(pq, "write_table", full)
    with pytest.raises(StorageError, match=r"samples\.parquet(\.tmp)?: writing the scored results"):
        api.run(["clockqa"], "random", data=data, run_dir=out, progress=False, plots=False)
    names = sorted(p.name for p in out.iterdir())
    assert not [n for n in names if n.startswith(("results", "samples"))], names
    monkeypatch.undo()  # the disk has room again: scoring the stored answers writes all three
    api.score(out, plots=False)
    assert {"results.json", "samples.jsonl", "samples.parquet"} <= {p.name for p in out.iterdir()}
