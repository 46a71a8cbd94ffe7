"""Fixtures shared by the core tests."""

from __future__ import annotations

import pytest

from helpers import record_image_checks


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record each full per-image check (its image's path); files count as settled at once
    (``verified.RACY_NS`` = 0), and the verify-once stamp is on."""
    return record_image_checks(monkeypatch)
