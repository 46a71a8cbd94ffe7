"""Fixtures shared by the core tests."""

from __future__ import annotations

import pytest

from chronoeval.core import dataset as dataset_mod
from chronoeval.core import verified


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record each full per-image check (its image's path); files count as settled at once
    (``verified.RACY_NS`` = 0), and the verify-once stamp is on."""
    monkeypatch.setattr(verified, "RACY_NS", 0)
    monkeypatch.delenv("CHRONOEVAL_VERIFY_ALWAYS", raising=False)
    seen: list[str] = []
    real = dataset_mod._check_image

    def counting(root, part, *args):  # type: ignore[no-untyped-def]
        seen.append(part.path)
        return real(root, part, *args)

    monkeypatch.setattr(dataset_mod, "_check_image", counting)
    return seen
