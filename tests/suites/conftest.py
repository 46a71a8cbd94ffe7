"""Fixtures shared by the suite tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from chronoeval.core import dataset as dataset_mod
from chronoeval.core import verified


@pytest.fixture
def image_checks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Each full per-image check of a chronoeval dataset (its image's path, in order); files
    settled at once (``verified.RACY_NS`` = 0), the verify-once stamp on, and a cache of the test's
    own (``tmp_path/cache``: the imported datasets of released layouts land there)."""
    monkeypatch.setenv("CHRONOEVAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(verified, "RACY_NS", 0)
    monkeypatch.delenv("CHRONOEVAL_VERIFY_ALWAYS", raising=False)
    seen: list[str] = []
    real = dataset_mod._check_image

    def counting(root, part, *args):  # type: ignore[no-untyped-def]
        seen.append(part.path)
        return real(root, part, *args)

    monkeypatch.setattr(dataset_mod, "_check_image", counting)
    return seen
