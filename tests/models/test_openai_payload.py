"""The OpenAI backend's request body as sent: byte for byte ``json.dumps(body(request))``, with
each image's base64 spliced in rather than run through the JSON encoder."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import tiny_clock_png

from chronoeval.core.items import ImagePart, Message, TextPart
from chronoeval.engine.request import GenerationConfig, Request, request_key
from chronoeval.models.openai import OpenAIBackend


def test_payload_is_the_json_of_the_body_byte_for_byte(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    for i in range(3):
        (tmp_path / "images" / f"{i}.png").write_bytes(tiny_clock_png(i))
    parts = [ImagePart(f"images/{i}.png", "0" * 64, "image/png") for i in range(3)]
    odd_mime = ImagePart("images/2.png", "0" * 64, 'image/x-"ü"')  # escaped in the prefix
    messages = (
        Message("system", (TextPart('Réponds en « français » "vite" \x00 \\u0000'),)),
        Message("user", (parts[0], TextPart("What time? \n ⌚"), parts[1])),
        Message("assistant", (TextPart("10:10"),)),
        Message("user", (odd_mime, TextPart("and this one?"))),
    )
    backend = OpenAIBackend("http://127.0.0.1:9", "m")
    for cfg in (
        GenerationConfig(),
        GenerationConfig(stop=("\n",), top_p=0.9, extra_body={"chat_template_kwargs": {"x": 1}}),
        GenerationConfig(extra_body={"messages": [{"role": "user", "content": "replaced"}]}),
    ):
        req = Request(messages, cfg, image_root=tmp_path)
        assert backend.payload(req) == json.dumps(backend.body(req)).encode("utf-8")
    text_only = Request((Message("user", (TextPart("hi"),)),), GenerationConfig())
    assert backend.payload(text_only) == json.dumps(backend.body(text_only)).encode("utf-8")


def test_request_key_is_kept_per_identity() -> None:
    req = Request((Message("user", (TextPart("q"),)),), GenerationConfig(seed=3))
    assert req.key("a") == request_key("a", req.messages, req.config)
    assert req.key("b") == request_key("b", req.messages, req.config) != req.key("a")
    assert req.key("a") == request_key("a", req.messages, req.config)  # from the cache
    assert req == Request((Message("user", (TextPart("q"),)),), GenerationConfig(seed=3))


def test_a_body_prepared_ahead_is_the_one_sent_and_its_failure_is_generates(
    tmp_path: Path,
) -> None:
    """``prepare`` encodes the body generate sends (taken once, for that very request), seen by a
    small scripted OpenAI-compatible server on 127.0.0.1; a body that cannot be made is raised by
    generate, as without preparing."""
    import asyncio

    import pytest
    from aiohttp import web

    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "0.png").write_bytes(tiny_clock_png(0))
    part = ImagePart("images/0.png", "0" * 64, "image/png")
    req = Request((Message("user", (part, TextPart("What time?"))),), GenerationConfig(), tmp_path)
    received: list[bytes] = []

    async def chat(request: web.Request) -> web.Response:
        received.append(await request.read())
        return web.json_response(
            {"choices": [{"message": {"content": "10:10:00"}, "finish_reason": "stop"}]}
        )

    async def scenario() -> list[bytes]:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", chat)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        backend = OpenAIBackend(f"http://127.0.0.1:{port}/v1", "m")
        try:
            backend.prepare(req)
            prepared = backend.payload(req)
            (tmp_path / "images" / "0.png").write_bytes(tiny_clock_png(1))  # after the prepare
            assert (await backend.generate(req)).text == "10:10:00"
            assert (await backend.generate(req)).text == "10:10:00"  # taken once: made anew
            missing = Request(
                (Message("user", (ImagePart("images/none.png", "0" * 64, "image/png"),)),),
                GenerationConfig(),
                tmp_path,
            )
            backend.prepare(missing)
            with pytest.raises(FileNotFoundError):
                await backend.generate(missing)
            assert not backend._ready
            return [prepared, backend.payload(req)]
        finally:
            await backend.aclose()
            await runner.cleanup()

    prepared, anew = asyncio.run(scenario())
    assert prepared != anew
    assert received == [prepared, anew]  # the prepared body was sent, then one made anew
