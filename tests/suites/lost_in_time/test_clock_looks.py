"""ClockQA's ``look`` parameter: realistic faces by default, classic faces on request."""

from __future__ import annotations

import pytest

from chronoeval.core.errors import DataError
from chronoeval.suites.lost_in_time.clock_task import ClockQA


def _items(**params: object) -> list:
    task = ClockQA()
    return list(task.build({**task.default_params, "n": 6, **params}, 3))


def test_default_look_is_realistic_and_named_in_metadata() -> None:
    items = _items()
    assert ClockQA.default_params["look"] == "realistic"
    for built in items:
        meta = built.item.metadata
        assert meta["look"] == "realistic"
        assert meta["design"] and meta["distortion"]


def test_classic_look_keeps_version_one_items() -> None:
    items = _items(look="classic")
    assert all(b.item.metadata == {"style": b.item.metadata["style"]} for b in items)


def test_unknown_look_is_one_clear_error() -> None:
    with pytest.raises(DataError, match="unknown clock look 'baroque'"):
        _items(look="baroque")
