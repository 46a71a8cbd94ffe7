"""A run store's WAL checkpoints on a thread of their own, not in the thread that commits.

SQLite's automatic checkpoint runs inside the commit that takes the write-ahead log past
``wal_autocheckpoint`` pages (1,000 by default): that commit copies the log into the database and
syncs both files. A run commits from its event loop's thread, so every ~1,000 pages (~300 group
commits, a few hundred answers) the loop stood still for 10-36 ms on this machine while replies
waited (docs/benchmarks.md, "Session 7: the slow cycles at 200 ms"). Here a second connection to
the same database, on one daemon thread per store, makes those checkpoints (``PASSIVE``: it never
blocks the writer, and the writer never waits for it); the store's own connection keeps an
automatic checkpoint as a backstop, at :data:`BACKSTOP_PAGES`, for when this thread falls behind
or fails (the log then stays bounded as before, only larger).

Durability is unchanged: a commit is in the log when ``put_many`` returns, as before; a checkpoint
only copies committed pages into the database, with the same syncs, whichever connection makes it.
A killed process leaves a log that the next open replays, as before (tests/engine/
test_wal_checkpoint.py kills a writer mid-run). The thread is stopped and its connection closed
before the store's own connection is closed, so that the store's close stays the last one (it
checkpoints and removes the log, as before).

The log's start can be moved here too (:meth:`BackgroundCheckpoints.begin_log`): a store's first
commit writes the log's header and syncs the log and its directory (7.6 ms on this machine, up to
24 ms under load), and in a run whose asking waits on the network that first commit falls in the
first wave's burst of replies. ``begin_log`` makes that first write on this thread while the
first requests are in flight: ``PRAGMA user_version`` set to its own value, which leaves every
row and setting as it was; the database header's change counter, which SQLite bumps on a commit
that writes page 1, ends one higher.

The log restarts from its beginning only when a checkpoint has copied every frame and the next
commit begins; frames committed while a checkpoint works keep it from restarting, so the thread
checkpoints again (at most :data:`PASSES` times) while the log has frames it has not copied.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

EVERY_PAGES = 500
"""Roughly how many log pages are written between two background checkpoints (an estimate from
the commits and rows, :meth:`BackgroundCheckpoints.wrote`)."""

BACKSTOP_PAGES = 4000
"""``wal_autocheckpoint`` of the store's own connection while the thread checkpoints."""

PASSES = 4


class BackgroundCheckpoints:
    """Checkpoints of the store at ``path`` on one daemon thread, started at the first request."""

    def __init__(self, path: Path, every_pages: int = EVERY_PAGES) -> None:
        # absolute: the thread connects later, perhaps after the process changed directory
        self.path = Path(path).absolute()
        self.every_pages = every_pages
        self.made = 0  # checkpoints made (tests, benchmarks)
        self.error: BaseException | None = None  # what stopped the thread, if anything did
        self._pages = 0
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._begin = False
        self.begun = threading.Event()  # set once begin_log's write is made or given up

    def wrote(self, commits: int, rows: int, nbytes: int = 0) -> None:
        """Called by the writer after a commit: asks for a checkpoint every ~``every_pages`` pages.
        The estimate: each commit writes about 3 pages (the table's leaf, the key index's, the
        rest of the tree), and about one more per 8 rows (a page holds 12-50 rows here), or per
        4 KiB of the rows' text where that is more (long answers, agents' turns: overflow pages)."""
        self._pages += 3 * commits + max(rows // 8, nbytes // 4096)
        if self._pages < self.every_pages or self._stopping or self.error is not None:
            return
        self._pages = 0
        if self._thread is None:
            self._start()
        self._wake.set()

    def begin_log(self) -> None:
        """Start the thread now; its first act starts the log when the log has no header yet
        (see the module's docstring), so that the writer's first commit does not."""
        if self._thread is None and not self._stopping:
            self._begin = True
            self._start()
        else:
            self.begun.set()

    def _start(self) -> None:
        self._thread = threading.Thread(
            target=self._run, name="chronoeval-store-checkpoint", daemon=True
        )
        try:
            self._thread.start()
        except RuntimeError as exc:  # no thread to be had: the writer's backstop checkpoints
            self._thread = None
            self.error = exc
            self.begun.set()

    def _begin_log(self, conn: sqlite3.Connection) -> None:
        try:
            wal = Path(f"{self.path}-wal")
            if wal.exists() and wal.stat().st_size > 0:
                return  # begun already (a store being resumed, or written to)
            conn.execute("BEGIN IMMEDIATE")  # refused while the writer commits: left to it
            try:
                (version,) = conn.execute("PRAGMA user_version").fetchone()
                conn.execute(f"PRAGMA user_version={int(version)}")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except (sqlite3.OperationalError, OSError):
            pass  # the writer's first commit starts the log, as before
        finally:
            self.begun.set()

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(
                f"{self.path.as_uri()}?mode=rw", uri=True, isolation_level=None, timeout=0
            )
        except sqlite3.Error as exc:
            self.error = exc
            self.begun.set()
            return
        try:
            if self._begin:
                self._begin_log(conn)
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stopping:
                    return
                for _ in range(PASSES):
                    try:
                        row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    except sqlite3.OperationalError as exc:
                        if "locked" in str(exc) or "busy" in str(exc):
                            break  # another checkpoint under way (the writer's backstop)
                        raise
                    busy, log, copied = row
                    self.made += 1
                    if busy or copied >= log or self._stopping:
                        break
        except sqlite3.Error as exc:  # the writer's backstop checkpoint takes over
            self.error = exc
        finally:
            conn.close()

    def stop(self) -> None:
        """Stop the thread and close its connection (waits for a checkpoint under way)."""
        self._stopping = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
