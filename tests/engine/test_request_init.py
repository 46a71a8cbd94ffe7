"""Request and Job build their frozen instances by hand (engine/request.py, engine/runner.py):
the same fields, defaults, equality, hash, frozenness, ``dataclasses.replace`` and pickling as
the generated dataclass ``__init__`` gave."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from chronoeval.core.items import TextPart, user_message
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import Job

MESSAGES = (user_message(TextPart("What time is it?")),)


def test_request_defaults_keywords_and_a_new_config_each() -> None:
    a, b = Request(MESSAGES), Request(MESSAGES)
    assert a.config == GenerationConfig() and a.image_root is None and a.inline_images is None
    assert a.config is not b.config  # default_factory: one configuration per request
    c = Request(messages=MESSAGES, config=GenerationConfig(seed=3), image_root=Path("/d"))
    assert (c.config.seed, c.image_root) == (3, Path("/d"))
    assert Request(MESSAGES, None).config is None  # what is given is kept, as before
    assert [f.name for f in dataclasses.fields(Request)] == [
        "messages",
        "config",
        "image_root",
        "inline_images",
    ]


def test_request_and_job_stay_frozen_comparable_and_picklable() -> None:
    req = Request(MESSAGES, GenerationConfig(), Path("/d"), {"inline/0": b"x"})
    job = Job(req.key("b"), "i1", "clockqa", req)
    for obj, name in ((req, "messages"), (job, "key")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, name, None)
    same = Job(req.key("b"), "i1", "clockqa", Request(MESSAGES, GenerationConfig(), Path("/d")))
    assert job != same  # inline_images differ
    plain = Request(MESSAGES)
    assert Job("k", "i", "t", plain) == Job("k", "i", "t", Request(MESSAGES))
    assert hash(Job("k", "i", "t", plain)) == hash(Job("k", "i", "t", Request(MESSAGES)))
    back = pickle.loads(pickle.dumps(job))
    assert back == job and back.request.key("b") == req.key("b")
    moved = dataclasses.replace(req, image_root=Path("/e"))
    assert moved.image_root == Path("/e") and moved.messages == req.messages
    assert moved.key("b") == req.key("b")  # the image root is not part of the key


@pytest.mark.parametrize("cls", [Request, Job])
def test_hand_written_init_takes_exactly_the_fields(cls: type) -> None:
    """A field added later without its line in ``__init__``, or a ``__post_init__`` (which a
    hand-written ``__init__`` never calls), fails here."""
    import inspect

    assert list(inspect.signature(cls).parameters) == [f.name for f in dataclasses.fields(cls)]
    assert not hasattr(cls, "__post_init__")


def test_request_doc_shows_no_per_process_default() -> None:
    """With no docstring, @dataclass writes the signature into ``__doc__``, the default sentinel's
    ``<object object at 0x…>`` with it."""
    assert Request.__doc__ and "object at" not in Request.__doc__
