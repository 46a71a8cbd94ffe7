"""Bool parameters written as words: read strictly, once, for generation and load options."""

from __future__ import annotations

import pytest

from chronoeval import api
from chronoeval.core.errors import ChronoevalError
from chronoeval.core.params import as_bool, coerce_params


@pytest.mark.parametrize(("raw", "want"), [("no", False), ("Yes", True), (0, False), ("on", True)])
def test_words_and_numbers(raw: object, want: bool) -> None:
    assert as_bool(raw, "x") is want


def test_anything_else_names_the_parameter() -> None:
    with pytest.raises(ChronoevalError, match="--param rotate must be true or false"):
        as_bool("maybe", "rotate")


def test_bool_and_number_defaults_are_coerced_strictly() -> None:
    got = coerce_params({"rotate": "no", "n": "5", "style": "no"}, {"rotate": True, "n": 1})
    assert got == {"rotate": False, "n": 5, "style": "no"}
    assert coerce_params({"size": "2.5"}, {"size": 1}) == {"size": 2.5}
    for bad in ({"n": "abc"}, {"n": 0}, {"n": -3}, {"n": 2.5}, {"size": "big"}, {"n": True}):
        with pytest.raises(ChronoevalError):
            coerce_params(bad, {"n": 1, "size": 1})


def test_generate_reads_no_as_false() -> None:
    # `bool("no")` would be True: the dataset would be built rotated and cached as such.
    ds_no = api.generate("clockqa", n=2, params={"rotate": "no"})
    ds_false = api.generate("clockqa", n=2, params={"rotate": False})
    assert ds_no.manifest.params["rotate"] is False
    assert ds_no.root == ds_false.root  # the same dataset, built once
