"""The store's WAL checkpoints on a thread of their own (engine/wal_checkpoint.py): the writer's
commits never checkpoint while the thread keeps up, nothing committed is lost (a killed writer's
log is replayed on the next open, as before), the thread and its connection are gone once the
store is closed, and the store's close is still the last one (the log removed)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

from chronoeval.engine import wal_checkpoint
from chronoeval.engine.store import RunStore


def outcome(k: int) -> tuple[str, dict[str, Any]]:
    return (
        f"key-{k:06d}",
        {
            "item_id": f"item-{k:06d}",
            "task": "clockqa",
            "backend": "openai:m",
            "text": "The time shown is 10:10:00.",
            "error": None,
            "latency_s": 0.2,
            "usage": {"prompt_tokens": 500, "completion_tokens": 9},
            "finish_reason": "stop",
            "attempts": 1,
            "turns": None,
        },
    )


def checkpoint_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "chronoeval-store-checkpoint"]


def test_checkpoints_are_made_off_the_writers_thread_and_stop_with_the_store(
    tmp_path: Path,
) -> None:
    store = RunStore(tmp_path / "store.sqlite")
    assert store.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == (
        wal_checkpoint.BACKSTOP_PAGES
    )
    assert store.checkpoints is not None
    store.checkpoints.every_pages = 20
    k = 0
    for _ in range(200):
        store.put_many([outcome(k + i) for i in range(2)])
        k += 2
        time.sleep(0.001)
    deadline = time.monotonic() + 10
    while store.checkpoints.made == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert store.checkpoints.made > 0 and store.checkpoints.error is None
    assert len(checkpoint_threads()) == 1
    # the database file itself holds the rows the thread copied: read without the log
    store.close()
    assert checkpoint_threads() == []
    assert not (tmp_path / "store.sqlite-wal").exists()  # the store's close was the last one
    with sqlite3.connect(tmp_path / "store.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 400
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_close_in_background_stops_the_thread_first(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "store.sqlite")
    assert store.checkpoints is not None
    store.checkpoints.every_pages = 5
    for k in range(0, 300, 3):
        store.put_many([outcome(k), outcome(k + 1), outcome(k + 2)])
    closing = store.close_in_background()
    closing.join()
    assert checkpoint_threads() == []
    wal = tmp_path / "store.sqlite-wal"  # left empty by the read-only open after the close
    assert not wal.exists() or wal.stat().st_size == 0
    reopened = RunStore(tmp_path / "store.sqlite")
    assert len(reopened.answered_keys()) == 300
    reopened.close()


def test_a_store_with_no_checkpoint_requested_starts_no_thread(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "store.sqlite")
    store.put_many([outcome(0), outcome(1)])
    assert checkpoint_threads() == []
    store.close()
    ro = RunStore.read_only(tmp_path / "store.sqlite")
    assert ro.checkpoints is None
    ro.conn.close()


def test_a_failing_thread_leaves_the_writer_to_its_backstop(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "store.sqlite")
    assert store.checkpoints is not None
    store.checkpoints.every_pages = 1
    store.checkpoints.path = tmp_path / "missing" / "store.sqlite"  # cannot be opened
    store.put_many([outcome(0), outcome(1)])
    deadline = time.monotonic() + 10
    while store.checkpoints.error is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert isinstance(store.checkpoints.error, sqlite3.Error)
    store.put_many([outcome(2), outcome(3)])  # writes go on; the writer's backstop checkpoints
    store.close()
    with sqlite3.connect(tmp_path / "store.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 4


WRITER = textwrap.dedent(
    """
    import sys, time
    from chronoeval.engine.store import RunStore
    sys.path.insert(0, sys.argv[2])
    from test_wal_checkpoint import outcome
    store = RunStore(sys.argv[1])
    store.checkpoints.every_pages = 5
    k = 0
    while True:
        store.put_many([outcome(k), outcome(k + 1)])
        print(k + 1, flush=True)  # both committed
        k += 2
        time.sleep(0.0005)
    """
)


def test_a_killed_writer_loses_no_commit(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(Path(__file__).parent)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    assert proc.stdout is not None
    last = -1
    for line in proc.stdout:
        last = int(line)
        if last >= 1500:  # several background checkpoints made meanwhile
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert (tmp_path / "store.sqlite-wal").exists()  # killed: the log is left behind
    store = RunStore(path)  # the next open replays it, as before
    keys = store.answered_keys()
    assert {f"key-{k:06d}" for k in range(last + 1)} <= keys
    assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store.close()


def test_begin_log_starts_the_log_off_the_writers_thread_and_changes_no_row(
    tmp_path: Path,
) -> None:
    plain = RunStore(tmp_path / "a" / "store.sqlite")
    begun = RunStore(tmp_path / "b" / "store.sqlite")
    assert begun.checkpoints is not None
    begun.checkpoints.begin_log()
    assert begun.checkpoints.begun.wait(10)
    assert (tmp_path / "b" / "store.sqlite-wal").stat().st_size > 0  # header and one frame
    assert (tmp_path / "a" / "store.sqlite-wal").stat().st_size == 0
    assert len(checkpoint_threads()) == 1
    for store in (plain, begun):
        store.put_many([outcome(0), outcome(1)])
        store.set_meta("m", {"x": 1})
    rows = []
    for store in (plain, begun):
        rows.append(
            [
                store.conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                for t in ("responses", "meta")
            ]
            + [store.conn.execute("PRAGMA user_version").fetchone()]
        )
        store.close()
    assert checkpoint_threads() == []
    strip = [[r[:10] + r[11:] for r in rows[i][0]] for i in (0, 1)]  # "updated" is the clock's
    assert strip[0] == strip[1] and rows[0][1:] == rows[1][1:]


def test_begin_log_leaves_a_begun_log_alone(tmp_path: Path) -> None:
    store = RunStore(tmp_path / "store.sqlite")
    store.put_many([outcome(0), outcome(1)])  # the writer began the log
    size = (tmp_path / "store.sqlite-wal").stat().st_size
    assert store.checkpoints is not None
    store.checkpoints.begin_log()
    assert store.checkpoints.begun.wait(10)
    assert (tmp_path / "store.sqlite-wal").stat().st_size == size  # nothing written
    store.close()


def _write_until_checkpointed(store: RunStore, wait: float = 10) -> None:
    assert store.checkpoints is not None
    store.checkpoints.every_pages = 20
    for k in range(0, 400, 2):
        store.put_many([outcome(k), outcome(k + 1)])
    deadline = time.monotonic() + wait
    while store.checkpoints.made == 0 and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_run_directory_named_with_uri_characters_is_checkpointed(tmp_path: Path) -> None:
    """A path is given to SQLite as a URI, escaped: ``#`` or ``?`` in a run directory's name
    (``--out runs/exp#2``) cut the unescaped URI short: the thread opened (made) another file."""
    store = RunStore(tmp_path / "exp#2 ?a=%41" / "store.sqlite")
    _write_until_checkpointed(store)
    assert store.checkpoints is not None
    assert store.checkpoints.made > 0 and store.checkpoints.error is None
    store.close()
    assert not (tmp_path / "exp").exists()  # the URI cut at "#" opened (made) this file


def test_the_thread_opens_the_store_it_was_made_for_after_a_change_of_directory(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """A store opened by a relative path, then the process changes directory (possible through
    the Python API) before the first checkpoint: the thread opens the same store, not
    another file of that relative name."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    store = RunStore(Path("store.sqlite"))
    other = RunStore(tmp_path / "b" / "store.sqlite")  # the same relative name elsewhere
    other.close()
    before = (tmp_path / "b" / "store.sqlite").read_bytes()
    monkeypatch.chdir(tmp_path / "b")
    assert store.checkpoints is not None
    store.checkpoints.begin_log()  # the log's first write: into this store, not b's
    store.checkpoints.begun.wait(10)
    _write_until_checkpointed(store)
    assert store.checkpoints.made > 0 and store.checkpoints.error is None
    store.close()
    assert (tmp_path / "b" / "store.sqlite").read_bytes() == before


def test_long_rows_count_as_the_pages_they_fill(tmp_path: Path) -> None:
    """Rows of several KiB (long answers, agents' turns) fill overflow pages: 32 rows of 6 KB
    in one commit write ~50 pages, not 3 + 32 // 8."""
    checkpoints = wal_checkpoint.BackgroundCheckpoints(tmp_path / "store.sqlite", every_pages=100)
    checkpoints.wrote(1, 32)
    assert checkpoints._pages == 3 + 4
    checkpoints._pages = 0
    checkpoints.wrote(1, 32, 32 * 6000)
    assert checkpoints._pages == 3 + 32 * 6000 // 4096
    checkpoints.stop()


def test_a_thread_that_cannot_start_leaves_the_writer_to_its_backstop(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """No thread to be had (a pids limit): the commit already made is reported as made, the
    writes go on, and the writer's own automatic checkpoint keeps the log bounded."""
    store = RunStore(tmp_path / "store.sqlite")
    assert store.checkpoints is not None

    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    store.checkpoints.begin_log()
    assert store.checkpoints.begun.is_set()
    _write_until_checkpointed(store, wait=0)
    monkeypatch.undo()
    assert isinstance(store.checkpoints.error, RuntimeError)
    assert store.checkpoints.made == 0
    store.close()
    with sqlite3.connect(tmp_path / "store.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 400
