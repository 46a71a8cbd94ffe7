"""One writer per run directory: an advisory ``flock`` on ``<run_dir>/.chronoeval.lock``.

The lock file holds the holder's pid, host, start time and command line, so a second process is
refused with a message that names who is writing. The lock is the kernel's, not the file's: it is
released when the holder exits, however it exits (``kill -9`` included), so a stale lock file never
blocks anybody. Within one process the lock is re-entrant (``run`` scores while holding it).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import sys
import time
from pathlib import Path
from types import TracebackType

from chronoeval.core.errors import RunBusyError, StorageError
from chronoeval.core.redact import redact_text

LOCK_NAME = ".chronoeval.lock"

_held: dict[str, tuple[int, int]] = {}
"""Resolved lock path -> (file descriptor, depth) for locks this process holds."""


def holder(run_dir: Path) -> str:
    """Who holds (or last held) a run directory's lock, in words."""
    try:
        info = json.loads((Path(run_dir) / LOCK_NAME).read_text(encoding="utf-8"))
        return (
            f"pid {info.get('pid')} on {info.get('host')} since "
            f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(info.get('started', 0)))} "
            f"({info.get('command')})"
        )
    except (OSError, ValueError, AttributeError):
        return "another process (holder unknown)"


class RunLock:
    """``with RunLock(run_dir):`` — exclusive, non-blocking; a busy directory raises
    :class:`RunBusyError` naming the holder."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / LOCK_NAME
        self._key = str(self.path.resolve())

    def acquire(self) -> None:
        if self._key in _held:
            fd, depth = _held[self._key]
            _held[self._key] = (fd, depth + 1)
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StorageError(
                f"{self.run_dir}: cannot create the run lock {LOCK_NAME} ({exc.strerror}); "
                "nothing was written"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RunBusyError(
                f"{self.run_dir} is being written by {holder(self.run_dir)}; wait for it to "
                "finish, or give another --out"
            ) from None
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": time.time(),
            "command": redact_text(" ".join(sys.argv))[:300],
        }
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(info).encode(), 0)
        except OSError:
            pass  # the lock holds without its note (e.g. disk full); the holder shows as unknown
        _held[self._key] = (fd, 1)

    def release(self) -> None:
        fd, depth = _held.get(self._key, (-1, 0))
        if depth > 1:
            _held[self._key] = (fd, depth - 1)
            return
        if depth == 1:
            del _held[self._key]
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
