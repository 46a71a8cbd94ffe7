"""Import what scoring and writing will need while the engine waits on models.

Writing samples.parquet imports pyarrow (a few hundred ms, more on a busy machine); doing that on
a background thread while requests are in flight takes it off the critical path whenever the
engine is waiting on the network or a model (the usual case). The import is the same import the
writer would do: nothing else changes, and a failure here is ignored (the writer then imports and
reports as before). Python's import lock makes a concurrent import by the writer wait for this
one to finish rather than run twice.
"""

from __future__ import annotations

import importlib
import sys
import threading

MODULES = ("pyarrow", "pyarrow.parquet")


def _load(names: tuple[str, ...]) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - best effort; the real import reports problems
            return


def prefetch(names: tuple[str, ...] = MODULES) -> threading.Thread | None:
    """Start importing ``names`` on a daemon thread (None when all are imported already)."""
    missing = tuple(n for n in names if n not in sys.modules)
    if not missing:
        return None
    thread = threading.Thread(target=_load, args=(missing,), name="chronoeval-warm", daemon=True)
    thread.start()
    return thread
