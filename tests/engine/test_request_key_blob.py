"""The request key's messages JSON, built from pieces, is byte for byte the canonical JSON of the
key form; so every key equals the one the plain encoder gives (stored runs keep their keys)."""

from __future__ import annotations

import hashlib
import random

from chronoeval.core.items import ImagePart, Message, TextPart
from chronoeval.engine.request import (
    GenerationConfig,
    _canonical,
    _key_form,
    _messages_blob,
    request_key,
)


def _old_key(identity: str, messages: tuple[Message, ...], config: GenerationConfig) -> str:
    key_form = {"backend": identity, "config": config.to_json(), "messages": _key_form(messages)}
    blob = _canonical(key_form)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


TEXTS = [
    "What time is shown on the clock in the given image? Answer with the time in H:MM:SS format.",
    "",
    'quotes " and \\ backslash',
    "non-ASCII: Zeitangabe \u00fc \u65e5\u672c \U0001f570 \u2028 line sep",
    "control \x00 \x1f \t \n \r chars",
    "</script> & <b>",
]


def _messages(rng: random.Random) -> tuple[Message, ...]:
    out = []
    for _ in range(rng.randint(1, 3)):
        parts: list[TextPart | ImagePart] = []
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.5:
                parts.append(TextPart(rng.choice(TEXTS) + str(rng.randint(0, 3))))
            else:
                digest = rng.choice(
                    [
                        "".join(rng.choice("0123456789abcdef") for _ in range(64)),
                        "".join(rng.choice("0123456789ABCDEF") for _ in range(64)),
                        'not-a-digest-\u00e9"',
                    ]
                )
                parts.append(ImagePart(f"images/{rng.randint(0, 9)}.png", digest))
        out.append(Message(rng.choice(["system", "user", "assistant"]), tuple(parts)))
    return tuple(out)


def test_messages_blob_equals_the_canonical_encoder() -> None:
    rng = random.Random(0)
    for _ in range(2000):
        messages = _messages(rng)
        assert _messages_blob(messages) == _canonical(_key_form(messages))


def test_keys_equal_the_plain_encoders_key() -> None:
    rng = random.Random(1)
    configs = [
        GenerationConfig(),
        GenerationConfig(temperature=0.7, system_prompt="Be brief. \u00e9"),
        GenerationConfig(extra_body={"response_format": {"type": "json_object"}}),
    ]
    for i in range(500):
        messages = _messages(rng)
        config = configs[i % len(configs)]
        for identity in ("constant:10:10:00", 'openai:m@http://x "q"'):
            assert request_key(identity, messages, config) == _old_key(identity, messages, config)


def test_one_configuration_object_changed_in_place_gets_its_new_key() -> None:
    messages = _messages(random.Random(2))
    config = GenerationConfig(extra_body={"reasoning_effort": "low"})
    other = GenerationConfig(temperature=0.3)
    for _ in range(3):  # the same object again and again: the run's case
        assert request_key("m", messages, config) == _old_key("m", messages, config)
    config.extra_body["reasoning_effort"] = "high"  # a frozen dataclass's dict, changed
    assert request_key("m", messages, config) == _old_key("m", messages, config)
    config.extra_body["nested"] = {"a": [1, 2]}
    assert request_key("m", messages, config) == _old_key("m", messages, config)
    config.extra_body["nested"]["a"].append(3)  # changed deep inside
    assert request_key("m", messages, config) == _old_key("m", messages, config)
    assert request_key("m", messages, other) == _old_key("m", messages, other)
    assert request_key("m", messages, config) == _old_key("m", messages, config)
