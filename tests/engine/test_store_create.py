"""A new store is made from the bytes of an empty one (engine/store.py ``_create``): the same
database sqlite itself makes, made at once under its name, never over an existing store."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from chronoeval.engine import store as store_mod
from chronoeval.engine.store import SCHEMA, RunStore

# the header's change counter (24-27), version-valid-for (92-95) and the writing library's
# version number (96-99): sqlite's own file says which commits and which library wrote it; the
# serialized empty store was never committed to a file (zeros)
WRITER_FIELDS = set(range(24, 28)) | set(range(92, 100))


def _old_way(path: Path) -> None:
    """What RunStore made before: sqlite switches a new file to WAL, then the schema."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(SCHEMA)
    conn.close()


def _put(store: RunStore, key: str, text: str | None = "10:10:00") -> None:
    store.put(
        key,
        item_id=key,
        task="clockqa",
        backend="b",
        text=text,
        error=None if text else "boom",
        latency_s=0.1,
        usage={"prompt_tokens": 3},
        finish_reason="stop",
        attempts=1,
    )


def test_a_new_store_is_the_database_sqlite_makes(tmp_path: Path) -> None:
    _old_way(tmp_path / "old.sqlite")
    RunStore(tmp_path / "new.sqlite").close()
    assert sorted(os.listdir(tmp_path)) == ["new.sqlite", "old.sqlite"]  # no temporary file left
    old, new = (tmp_path / "old.sqlite").read_bytes(), (tmp_path / "new.sqlite").read_bytes()
    assert len(old) == len(new)
    assert [i for i in range(len(old)) if old[i] != new[i] and i not in WRITER_FIELDS] == []
    assert new[18:20] == b"\x02\x02"  # a WAL database
    for path in (tmp_path / "old.sqlite", tmp_path / "new.sqlite"):
        conn = sqlite3.connect(path)
        got = [
            conn.execute(f"PRAGMA {p}").fetchall()
            for p in ("journal_mode", "page_size", "encoding", "auto_vacuum", "user_version")
        ]
        assert got == [[("wal",)], [(4096,)], [("UTF-8",)], [(0,)], [(0,)]]
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        conn.close()
    schema = [
        sqlite3.connect(tmp_path / n).execute("SELECT * FROM sqlite_master").fetchall()
        for n in ("old.sqlite", "new.sqlite")
    ]
    assert schema[0] == schema[1]


def test_a_new_store_keeps_answers_and_reopens(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with RunStore(path) as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        _put(store, "a")
        _put(store, "b", text=None)
    with RunStore(path) as store:  # reopened: nothing made anew over it
        assert sorted(store.all()) == ["a", "b"]
        assert store.answered_keys() == {"a"}
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()


def test_an_existing_store_is_never_replaced(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with RunStore(path) as store:
        _put(store, "a")
    before = path.read_bytes()
    store_mod._create(path)  # as if another process had made it between the check and the link
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["s.sqlite"]


def test_an_empty_file_is_made_a_store_by_sqlite_as_before(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    path.touch()  # a zero-length file is an empty database to sqlite
    with RunStore(path) as store:
        _put(store, "a")
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with RunStore(path) as store:
        assert store.answered_keys() == {"a"}


@pytest.mark.parametrize("fail", ["link", "fdatasync"])
def test_where_the_bytes_cannot_be_placed_sqlite_makes_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail: str
) -> None:
    def refuse(*args: object) -> None:
        raise OSError(95, "Operation not supported")

    monkeypatch.setattr(os, fail, refuse)
    path = tmp_path / "s.sqlite"
    with RunStore(path) as store:
        _put(store, "a")
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == ["s.sqlite"]  # no temporary file left
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT key FROM responses").fetchall() == [("a",)]
    conn.close()


def test_making_a_store_syncs_its_bytes_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real = os.fdatasync

    def counted(fd: int) -> None:
        synced.append(os.fstat(fd).st_size)
        real(fd)

    monkeypatch.setattr(os, "fdatasync", counted)
    RunStore(tmp_path / "s.sqlite").close()
    assert synced == [len(store_mod._empty_store())]  # the whole store, before it has a name


def test_a_wal_left_by_a_store_moved_away_is_not_taken_in(tmp_path: Path) -> None:
    """A run killed with answers in its WAL, its store then moved away to start afresh (what the
    corrupt-store message advises): the new store holds none of the old answers, as before."""
    import subprocess
    import sys

    path = tmp_path / "store.sqlite"
    child = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from chronoeval.engine.store import RunStore\n"
        f"s = RunStore(Path({str(path)!r}))\n"
        "for i in range(20):\n"
        "    s.put(f'k{i}', item_id=str(i), task='clockqa', backend='b', text='old '*50,\n"
        "          error=None, latency_s=0.1, usage=None, finish_reason='stop', attempts=1)\n"
        "os._exit(0)\n"  # killed: no close, no checkpoint; the answers are in the WAL
    )
    subprocess.run([sys.executable, "-c", child], check=True, env=os.environ.copy())
    assert os.path.getsize(f"{path}-wal") > 0
    path.rename(tmp_path / "moved.sqlite")
    with RunStore(path) as store:
        assert store.answered_keys() == set()
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_new_store_has_the_mode_sqlite_gives(tmp_path: Path) -> None:
    old_mask = os.umask(0o002)
    try:
        RunStore(tmp_path / "new.sqlite").close()
        _old_way(tmp_path / "old.sqlite")
    finally:
        os.umask(old_mask)
    mode = (tmp_path / "new.sqlite").stat().st_mode & 0o777
    assert mode == (tmp_path / "old.sqlite").stat().st_mode & 0o777 == 0o644
