"""``api.run`` closes its store on another thread while it scores (engine/store.py
``RunStore.close_in_background``): scoring's read and check come before the close, nothing opens
the store while it closes, the run directory stays locked, the results are written beside their
places while it closes and moved in only after the close ended, and the directory holds what it
held before (the store checkpointed, the WAL empty)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
from tests.helpers import make_clock_dataset

from chronoeval import api
from chronoeval.engine import lock
from chronoeval.engine import store as store_mod
from chronoeval.engine.store import RunStore


def test_a_run_scores_while_its_store_closes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=12)
    run_dir = tmp_path / "run"
    events: list[str] = []
    closing_now = threading.Event()
    real_close = store_mod.Closing._close

    staged = [run_dir / n for n in ("results.json.tmp", "samples.jsonl.tmp", "samples.parquet.tmp")]

    def slow_close(self, conn, path):  # type: ignore[no-untyped-def]
        closing_now.set()
        # the disk being slow: scoring goes on meanwhile and writes the results beside their
        # places (before session 12 it waited for the close first: these never appeared)
        deadline = time.monotonic() + 5.0
        while not all(p.exists() for p in staged) and time.monotonic() < deadline:
            time.sleep(0.01)
        if all(p.exists() for p in staged):
            events.append("staged")
        assert not (run_dir / "results.json").exists()  # nothing moved in while closing
        assert str((run_dir / ".chronoeval.lock").resolve()) in lock._held  # still locked
        events.append("closed")
        real_close(self, conn, path)

    connect = sqlite3.connect

    def watched(*args, **kwargs):  # type: ignore[no-untyped-def]
        if closing_now.is_set() and "closed" not in events:
            events.append(f"opened while closing: {args[0]}")
        return connect(*args, **kwargs)

    publish = api._publish

    def recorded(moves: list[tuple[Path, Path]]) -> None:
        if any(place.name == "results.json" for _, place in moves):
            events.append("results: " + ", ".join(place.name for _, place in moves))
        publish(moves)

    monkeypatch.setattr(store_mod.Closing, "_close", slow_close)
    monkeypatch.setattr(sqlite3, "connect", watched)
    monkeypatch.setattr(api, "_publish", recorded)
    res = api.run(["clockqa"], "random", data=ds.root, run_dir=run_dir, progress=False, plots=False)
    monkeypatch.undo()
    assert events == ["staged", "closed", "results: results.json, samples.jsonl, samples.parquet"]
    assert not [p.name for p in run_dir.iterdir() if p.name.endswith(".tmp")]
    assert str((run_dir / ".chronoeval.lock").resolve()) not in lock._held  # released
    assert res.results["tasks"]["clockqa"]["counts"]["answered"] == 12
    # the files the run left before this change: the store, and the empty -wal and -shm a
    # read-only reader leaves (they let `score` read the store in a read-only directory)
    names = sorted(p.name for p in run_dir.iterdir() if p.name.startswith("store"))
    assert names == ["store.sqlite", "store.sqlite-shm", "store.sqlite-wal"]
    assert (run_dir / "store.sqlite-wal").stat().st_size == 0  # everything in the database
    conn = sqlite3.connect(f"file:{run_dir / 'store.sqlite'}?mode=ro", uri=True)
    assert conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 12
    conn.close()
    again = api.score(run_dir, plots=False)  # the same results from the store alone
    assert again["tasks"] == res.results["tasks"]


def test_a_failed_close_is_raised_by_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=4)

    class Refusing:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def close(self) -> None:
            self.conn.close()
            raise sqlite3.OperationalError("disk I/O error")

    real = store_mod.Closing.__init__

    def refusing(self, conn, path, **kw):  # type: ignore[no-untyped-def]
        real(self, Refusing(conn), path, **kw)

    monkeypatch.setattr(store_mod.Closing, "__init__", refusing)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        api.run(["clockqa"], "random", data=ds.root, run_dir=tmp_path / "run", progress=False)
    assert not (tmp_path / "run" / "results.json").exists()  # nothing moved in after it
    assert not (tmp_path / "run" / "samples.jsonl").exists()
    # what was written beside its place while the store closed is removed
    assert not [p.name for p in (tmp_path / "run").iterdir() if p.name.endswith(".tmp")]
    assert str((tmp_path / "run" / ".chronoeval.lock").resolve()) not in lock._held


def test_close_after_close_in_background_does_nothing(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "s.sqlite")
    closing = store.close_in_background()
    store.close()
    closing.join()
    closing.join()  # once raised, never again; here nothing to raise
    with pytest.raises(sqlite3.ProgrammingError):
        store.conn.execute("SELECT 1")
