"""Fixtures shared by the suite tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import record_image_checks


@pytest.fixture
def image_checks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Each full per-image check of a chronoeval dataset (its image's path, in order); files
    settled at once (``verified.RACY_NS`` = 0), the verify-once stamp on, and a cache of the test's
    own (``tmp_path/cache``: the imported datasets of released layouts land there)."""
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path / "cache"))
    return record_image_checks(monkeypatch)
