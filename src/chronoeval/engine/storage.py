"""Storage failures as one clear message: a full disk, a read-only run directory, a corrupt
``store.sqlite`` each name the path and say what was kept, never a raw sqlite traceback.

- :func:`open_store` opens a run's store for writing after an integrity check
  (``PRAGMA quick_check``); :class:`CheckedStore` turns a failed write into :class:`StorageError`.
- :func:`read_store` opens it read-only (``score`` and ``report`` never write to it).
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from chronoeval.core.errors import StorageError
from chronoeval.engine.store import RunStore, StoredResponse

KEPT = "answers stored before this point are kept in store.sqlite; re-run to resume"

_OS_STORAGE = {
    errno.ENOSPC,
    errno.EFBIG,
    errno.EROFS,
    errno.EACCES,
    errno.EPERM,
    errno.EDQUOT,
    errno.EIO,
}


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


@contextmanager
def storage_errors(path: Path, doing: str, kept: str = KEPT) -> Iterator[None]:
    """Turn sqlite and disk errors inside the block into one :class:`StorageError` line."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StorageError(f"{path}: {doing} failed ({_why(exc)}); {kept}") from None
    except OSError as exc:
        if exc.errno not in _OS_STORAGE:
            raise
        where = exc.filename or path
        raise StorageError(f"{where}: {doing} failed ({_why(exc)}); {kept}") from None


def integrity_problem(conn: sqlite3.Connection) -> str | None:
    """None if the database passes ``PRAGMA quick_check``; else what the check said."""
    rows = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
    # sqlite's report spans lines ("*** in database main ***\nPage 6: …"): one line here
    return None if rows == ["ok"] else "; ".join(" ".join(str(r).split()) for r in rows[:3])


class CheckedStore(RunStore):
    """A :class:`RunStore` whose failed writes are :class:`StorageError` (disk full, read-only)."""

    # ``put`` is ``put_many`` of one outcome (RunStore.put): its errors are checked there. Errors
    # are redacted by RunStore.put_many itself (URL credentials and secret values)
    def put_many(self, outcomes: list[tuple[str, dict[str, Any]]]) -> list[StoredResponse]:
        with storage_errors(self.path, "storing an answer"):
            return super().put_many(outcomes)


def open_store(run_dir: Path) -> RunStore:
    """The run's store, opened for writing, checked for corruption first."""
    path = Path(run_dir) / RunStore.FILENAME
    corrupt = (
        f"{path} is corrupt; move it away to start this run's requests afresh "
        "(config.json, results.json and samples.jsonl were left as they were)"
    )
    if path.exists():
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                problem = integrity_problem(conn)
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"{corrupt} ({exc})") from None
        if problem:
            raise StorageError(f"{corrupt} (integrity check: {problem})")
    with storage_errors(path, "opening the run store", "nothing was written"):
        return CheckedStore(path)


def read_store(run_dir: Path, memo: Any = None) -> dict[str, StoredResponse]:
    """Every stored response of a run, read without writing (an absent store: none).
    ``memo``: a run's :class:`~chronoeval.engine.scoring_memo.ScoreMemo`; after the same
    integrity check, the responses come from it where it holds exactly the store's rows
    (``ScoreMemo.stored``), else they are read."""
    path = Path(run_dir) / RunStore.FILENAME
    if not path.exists():
        return {}
    try:
        store = RunStore.read_only(path)
        try:
            problem = integrity_problem(store.conn)
            if problem:
                raise StorageError(f"{path} is corrupt (integrity check: {problem})")
            if memo is not None:
                known = memo.stored(fingerprint(store.conn))
                if known is not None:
                    return known
            return store.all()
        finally:
            store.close()
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{path}: cannot read the run store ({exc})") from None


def fingerprint(conn: sqlite3.Connection) -> tuple[Any, ...]:
    """What changes when anything is written through the store's upsert: the number of rows,
    the total of their attempts (an update adds the new attempts, at least 1) and of their
    update times (scored from memory only while it is the one taken when asking ended)."""
    return tuple(
        conn.execute(
            "SELECT COUNT(*), TOTAL(attempts), TOTAL(updated), MAX(rowid) FROM responses"
        ).fetchone()
    )
