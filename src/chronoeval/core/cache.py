"""Where chronoeval keeps what it can make again: ``$CHRONOEVAL_CACHE``, else
``$XDG_CACHE_HOME/chronoeval`` (``~/.cache/chronoeval``). Datasets, verify-once stamps and the
calendar glyph store live under it. Standard library only, so any layer may ask."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    env = os.environ.get("CHRONOEVAL_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "chronoeval"
