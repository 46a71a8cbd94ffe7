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
        self.path = Path(path)
        self.every_pages = every_pages
        self.made = 0  # checkpoints made (tests, benchmarks)
        self.error: BaseException | None = None  # what stopped the thread, if anything did
        self._pages = 0
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None

    def wrote(self, commits: int, rows: int) -> None:
        """Called by the writer after a commit: asks for a checkpoint every ~``every_pages`` pages.
        The estimate: each commit writes about 3 pages (the table's leaf, the key index's, the
        rest of the tree), and about one more per 8 rows (a page holds 12-50 rows here)."""
        self._pages += 3 * commits + rows // 8
        if self._pages < self.every_pages or self._stopping or self.error is not None:
            return
        self._pages = 0
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, name="chronoeval-store-checkpoint", daemon=True
            )
            self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        try:
            conn = sqlite3.connect(
                f"file:{self.path}?mode=rw", uri=True, isolation_level=None, timeout=0
            )
        except sqlite3.Error as exc:
            self.error = exc
            return
        try:
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
