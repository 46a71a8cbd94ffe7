"""The run store: one SQLite database (WAL) per run directory.

Every response is committed as it arrives, keyed by its request key, so a crash or ``kill -9``
loses nothing that finished: on restart the runner asks only for keys with no stored answer, and
keys whose last attempt failed are asked again. Scoring re-reads stored responses and never calls
the model.

A new store is written from an empty store's bytes (:func:`_create`), and ``api.run`` closes its
store on another thread while it scores (:meth:`RunStore.close_in_background`): both take waiting
for the disk off a run's path (docs/benchmarks.md, "Session 6: the in-process wall"). While
a run commits, the log's checkpoints are made on a thread of their own
(engine/wal_checkpoint.py), not inside a commit on the event loop's thread.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronoeval.core.redact import redact, secret_values
from chronoeval.engine.wal_checkpoint import BACKSTOP_PAGES, BackgroundCheckpoints

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    item_id TEXT NOT NULL,
    task TEXT NOT NULL,
    backend TEXT NOT NULL,
    text TEXT,
    error TEXT,
    latency_s REAL,
    usage TEXT,
    finish_reason TEXT,
    attempts INTEGER NOT NULL,
    updated REAL NOT NULL,
    turns TEXT
);
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
"""

# Stores written before session 5 also have ``CREATE INDEX responses_item ON responses(task,
# item_id)``: no query reads it (every query here scans the table or looks up the primary key;
# tests/engine/test_store_index.py checks each one's plan), and keeping it up to date was a fifth
# of each insert's cost. New stores are made without it; old ones keep theirs, read and resumed
# as before.

_UPSERT = """
INSERT INTO responses (key, item_id, task, backend, text, error, latency_s, usage,
    finish_reason, attempts, updated, turns) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
ON CONFLICT(key) DO UPDATE SET
    text=excluded.text, error=excluded.error, latency_s=excluded.latency_s,
    usage=excluded.usage, finish_reason=excluded.finish_reason, turns=excluded.turns,
    attempts=responses.attempts + excluded.attempts, updated=excluded.updated
WHERE responses.error IS NOT NULL OR excluded.error IS NULL
"""


@dataclass
class StoredResponse:
    key: str
    item_id: str
    task: str
    backend: str
    text: str | None
    error: str | None
    latency_s: float | None
    usage: dict[str, int]
    finish_reason: str | None
    attempts: int
    turns: list[dict[str, Any]] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.text is not None


_EMPTY: bytes | None = None


def _empty_store() -> bytes:
    """The bytes of an empty store: :data:`SCHEMA` made in memory (``serialize``), marked as a
    WAL database (header bytes 18 and 19, the file format's read and write versions, are 2 in WAL
    mode: sqlite.org/fileformat2.html#the_database_header), which is what ``PRAGMA
    journal_mode=WAL`` followed by :data:`SCHEMA` leaves in a new file, without its journal.
    Made once per process. tests/engine/test_store_create.py compares the two."""
    global _EMPTY
    if _EMPTY is None:
        mem = sqlite3.connect(":memory:")
        try:
            mem.executescript(SCHEMA)
            data = bytearray(mem.serialize())
        finally:
            mem.close()
        if data[18:20] != b"\x01\x01":  # not the header this code knows: let sqlite make it
            raise OSError("unexpected sqlite header")
        data[18:20] = b"\x02\x02"
        _EMPTY = bytes(data)
    return _EMPTY


def _create(path: Path) -> None:
    """Make an empty store at ``path`` at once, or leave what is there (never replaced).

    SQLite making a new database in WAL mode writes and syncs a rollback journal (twice), the
    directory and the database, unlinks the journal, then syncs the new WAL's header and the
    directory again: 6 syncs and an unlink, 20-30 ms of waiting for the disk on this machine.
    Here the empty store's bytes are written to a temporary file and synced, then linked under
    the store's name (``os.link`` refuses an existing name, so a store made meanwhile is kept): a
    crash or power cut leaves either no store (the run makes it again; it held no answer) or a
    complete empty one, never a half-written file or a hot journal. The directory is not synced
    here: sqlite syncs it when the first commit creates the WAL (and the WAL's header), before any
    answer can be durable, so the name is durable before anything depends on it (a power cut
    before that loses an empty store, which the next run makes again). One sync here and the
    WAL's two at the first commit, instead of 6 syncs and an unlink (the temporary name's unlink
    frees no blocks: the store keeps them). A crash between the write and that unlink leaves the
    temporary file beside the store (``.store.sqlite.<pid>.<thread>.new``). Where this cannot be
    done (no ``serialize``, no hard links, a full disk) or a journal is left beside the name (a
    store moved away after a crash), sqlite makes the file as before."""
    if any(os.path.lexists(f"{path}{end}") for end in ("-wal", "-journal")):
        # a journal left by a store moved away or deleted: sqlite opening a 0-page file
        # discards it, but a complete database would take it for its own and replay it
        return
    try:
        data = _empty_store()
    except (AttributeError, sqlite3.Error, OSError):  # no serialize: sqlite makes the file
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.new")
    try:
        # sqlite's own mode for a new database (0o644 less the umask); never an existing file
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            getattr(os, "fdatasync", os.fsync)(fh.fileno())
        os.link(tmp, path)  # FileExistsError: made meanwhile, that one is opened
    except OSError:  # made meanwhile, a full disk, no hard links: sqlite makes or fails as before
        return
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


class Closing:
    """A store's connection being closed on another thread (:meth:`RunStore.close_in_background`)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, before: Any = None) -> None:
        self._error: BaseException | None = None
        self._before = before  # the store's background checkpoints stopped first (their thread)
        self._thread = threading.Thread(
            target=self._close, args=(conn, path), name="chronoeval-store-close"
        )
        self._thread.start()

    def _close(self, conn: sqlite3.Connection, path: Path) -> None:
        try:
            if self._before is not None:
                self._before()
            conn.close()
        except BaseException as exc:  # noqa: BLE001 - raised again by join()
            self._error = exc
            return
        # then opened read-only once, as scoring's read did after the close: that leaves the
        # empty -wal and -shm files beside the store, which let a reader open it later where
        # the directory is read-only (the run directory holds the same files as before)
        try:
            reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                reader.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            finally:
                reader.close()
        except sqlite3.Error:
            pass  # only those files are at stake; the store was read and checked before

    def join(self) -> None:
        """Wait until the connection is closed; raise what closing it raised (once)."""
        self._thread.join()
        error, self._error = self._error, None
        if error is not None:
            raise error


class RunStore:
    FILENAME = "store.sqlite"
    closing: Closing | None = None  # set by close_in_background
    checkpoints: BackgroundCheckpoints | None = None  # a writable store's (wal_checkpoint.py)

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            _create(self.path)
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")  # WAL: a process crash loses no commit
        # checkpoints on a thread of their own; this connection's automatic one as a backstop
        self.conn.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")
        self.checkpoints = BackgroundCheckpoints(self.path)
        self.conn.executescript(SCHEMA)
        cols = {r[1] for r in self.conn.execute("PRAGMA table_info(responses)")}
        if "turns" not in cols:  # a store written before multi-turn agents existed
            self.conn.execute("ALTER TABLE responses ADD COLUMN turns TEXT")

    @classmethod
    def in_dir(cls, run_dir: Path) -> RunStore:
        return cls(Path(run_dir) / cls.FILENAME)

    @classmethod
    def read_only(cls, path: Path) -> RunStore:
        """Open an existing store for reading only (e.g. a shard that may still be running):
        no schema change, no write; :meth:`all` reads stores of any version."""
        store = cls.__new__(cls)
        store.path = Path(path)
        store.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        return store

    def close(self) -> None:
        if self.closing is None:  # else closed by close_in_background
            if self.checkpoints is not None:
                self.checkpoints.stop()  # its connection closed first: this close is the last
            self.conn.close()

    def close_in_background(self) -> Closing:
        """Close the store on another thread and return at once; :meth:`Closing.join` waits for
        the close to end (and raises what it raised). :meth:`close` then does nothing.

        Closing the last connection checkpoints the WAL into the database (syncing the WAL, then
        the database) and removes the WAL: on this machine 10-35 ms of waiting for the disk, with
        the GIL released. A caller overlaps that with work that does not open the store (a
        connection opened meanwhile would keep the WAL on disk) and joins before it depends on
        the store being closed (``api.run``: before the results are written). After the close
        the thread opens the store read-only once (see :class:`Closing`)."""
        stop = self.checkpoints.stop if self.checkpoints is not None else None
        self.closing = Closing(self.conn, self.path, before=stop)
        return self.closing

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writes ----------------------------------------------------------------------------------
    def put(
        self,
        key: str,
        *,
        item_id: str,
        task: str,
        backend: str,
        text: str | None,
        error: str | None,
        latency_s: float | None,
        usage: dict[str, int] | None,
        finish_reason: str | None,
        attempts: int,
        turns: list[dict[str, Any]] | None = None,
    ) -> None:
        """Store one outcome (committed immediately). An answer is never overwritten by an error."""
        self.put_many(
            [
                (
                    key,
                    {
                        "item_id": item_id,
                        "task": task,
                        "backend": backend,
                        "text": text,
                        "error": error,
                        "latency_s": latency_s,
                        "usage": usage,
                        "finish_reason": finish_reason,
                        "attempts": attempts,
                        "turns": turns,
                    },
                )
            ]
        )

    def put_many(self, outcomes: list[tuple[str, dict[str, Any]]]) -> list[StoredResponse]:
        """Store several outcomes (``(key, the keyword arguments of put)``, in order) in one
        transaction: all of them are committed when this returns, or none (an error is raised).
        The same rules as :meth:`put`, applied in order. Returns each outcome as it was offered
        to the store, redacted (where the store kept an earlier answer instead, as :meth:`put`
        does, the row holds that answer: read the store for what is kept)."""
        if not outcomes:
            return []
        secrets = secret_values()  # one look at the environment for the whole batch
        now = time.time()
        rows = []
        for key, o in outcomes:
            text, error, turns = o["text"], o["error"], o.get("turns")
            # what redact leaves as it is, not walked: None, and with no secret set, a string
            # without "@" (a URL's credentials are redacted whatever the secrets)
            if text is not None and (secrets or type(text) is not str or "@" in text):
                text = redact(text, secrets)
            if error is not None:
                error = redact(error, secrets)
            if turns is not None:
                turns = redact(turns, secrets)
            rows.append(
                (
                    key,
                    o["item_id"],
                    o["task"],
                    o["backend"],
                    text,
                    error,
                    o["latency_s"],
                    json.dumps(o["usage"]) if o["usage"] else "{}",  # json.dumps({}) is "{}"
                    o["finish_reason"],
                    o["attempts"],
                    now,
                    json.dumps(turns, ensure_ascii=False) if turns else None,
                )
            )
        if len(rows) == 1:  # autocommit: one statement is its own transaction
            self.conn.execute(_UPSERT, rows[0])
        else:
            self.conn.execute("BEGIN")
            try:
                self.conn.executemany(_UPSERT, rows)
            except BaseException:
                if self.conn.in_transaction:  # sqlite may have rolled back already (disk full)
                    self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")
        if self.checkpoints is not None:
            # the answers' and turns' text: long rows fill overflow pages
            nbytes = sum(len(r[4] or "") + len(r[11] or "") for r in rows)
            self.checkpoints.wrote(1, len(rows), nbytes)
        return [
            StoredResponse(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                r[6],
                json.loads(r[7]) if r[7] != "{}" else {},  # a new empty dict, as loads gives
                r[8],
                r[9],
                json.loads(r[11]) if r[11] else None,
            )
            for r in rows
        ]

    def set_meta(self, key: str, value: Any) -> None:
        self.conn.execute(
            "INSERT INTO meta VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v=excluded.v",
            (key, json.dumps(value, sort_keys=True)),
        )

    # -- reads -----------------------------------------------------------------------------------
    def get_meta(self, key: str) -> Any:
        row = self.conn.execute("SELECT v FROM meta WHERE k=?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def answered_keys(self) -> set[str]:
        rows = self.conn.execute(
            "SELECT key FROM responses WHERE error IS NULL AND text IS NOT NULL"
        )
        return {r[0] for r in rows}

    def all(self) -> dict[str, StoredResponse]:
        out = {}
        cols = {r[1] for r in self.conn.execute("PRAGMA table_info(responses)")}
        turns = "turns" if "turns" in cols else "NULL"  # a read-only store from before turns
        for row in self.conn.execute(
            "SELECT key, item_id, task, backend, text, error, latency_s, usage, finish_reason,"
            f" attempts, {turns} FROM responses"
        ):
            out[row[0]] = StoredResponse(
                row[0],
                row[1],
                row[2],
                row[3],
                row[4],
                row[5],
                row[6],
                json.loads(row[7]) if row[7] and row[7] != "{}" else {},  # loads("{}"): {}
                row[8],
                row[9],
                json.loads(row[10]) if row[10] else None,
            )
        return out

    def count(self) -> tuple[int, int]:
        """(answered, errored) rows."""
        answered = self.conn.execute(
            "SELECT COUNT(*) FROM responses WHERE error IS NULL AND text IS NOT NULL"
        ).fetchone()[0]
        errors = self.conn.execute("SELECT COUNT(*) FROM responses WHERE error IS NOT NULL")
        return answered, errors.fetchone()[0]
