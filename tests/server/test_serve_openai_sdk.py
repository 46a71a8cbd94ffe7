"""`chronoeval serve` answered through the official OpenAI Python SDK: request bodies as a client
nobody here wrote builds them (its own JSON, headers and extra fields; content parts with
``detail``; a JPEG data URL as photo pipelines send), read by the server's payload decoding."""

from __future__ import annotations

import importlib.util
import io

import pytest
from PIL import Image

from helpers import clock_parts, data_url, plain_chat_answer, tiny_clock_png

openai = pytest.importorskip("openai")

LOOPS = ["asyncio"] + (["uvloop"] if importlib.util.find_spec("uvloop") else [])


@pytest.mark.parametrize("loop", LOOPS)
def test_the_sdk_gets_the_answers_a_plain_client_gets(serve, monkeypatch, loop) -> None:  # type: ignore[no-untyped-def]
    # on either of serve's event loops (engine/event_loop.py; uvloop with the `fast` extra)
    monkeypatch.setenv("CHRONOEVAL_EVENT_LOOP", loop)
    server = serve("--model", "random", "--task", "clockqa")
    client = openai.OpenAI(base_url=server.url, api_key="unused", max_retries=0, timeout=30)
    jpeg = io.BytesIO()
    Image.open(io.BytesIO(tiny_clock_png(7))).convert("RGB").save(jpeg, "JPEG", quality=90)
    urls = [data_url(tiny_clock_png(i)) for i in range(3)] + [
        data_url(jpeg.getvalue(), "image/jpeg")
    ]
    got = []
    for url in urls + urls:  # each image twice: the second time from the server's memo
        resp = client.chat.completions.create(
            model="random",
            messages=[{"role": "user", "content": clock_parts(url, detail="high")}],  # type: ignore[list-item]
            temperature=0,
            max_tokens=64,
        )
        assert resp.choices[0].finish_reason in {"stop", "length"}
        got.append(resp.choices[0].message.content)
    assert got[:4] == got[4:]  # the same image, the same answer
    assert len(set(got[:4])) > 1  # different images told apart (the answer follows the sha256)
    # ``detail`` and the SDK's own body and headers change nothing: a bare urllib body with the
    # same generation settings gets the same answers
    assert [plain_chat_answer(server.url, u) for u in urls] == got[:4]
