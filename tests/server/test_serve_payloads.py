"""`chronoeval serve`: images decoded and hashed once per distinct data URL, and --latency counted
from a request's arrival."""

from __future__ import annotations

import base64
import hashlib
import json
import time
import urllib.request

import pytest

from chronoeval.engine.request import GenerationConfig, decode_data_url, request_from_openai
from chronoeval.server.payloads import DecodedImages
from helpers import tiny_clock_png


def _url(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def _messages(url: str) -> list[dict[str, object]]:
    return [
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": url}},
                {"type": "text", "text": "What time is it?"},
            ],
        }
    ]


def test_decoded_once_per_distinct_url_with_the_same_result() -> None:
    memo = DecodedImages()
    urls = [_url(tiny_clock_png(i)) for i in range(3)]
    for url in urls * 2:
        mime, data = decode_data_url(url)
        assert memo(url) == (mime, data, hashlib.sha256(data).hexdigest())
    assert memo.hits == 3
    config = GenerationConfig()
    for url in urls:
        plain = request_from_openai(_messages(url), config)
        kept = request_from_openai(_messages(url), config, memo)
        assert kept.messages == plain.messages and kept.inline_images == plain.inline_images


def test_bad_urls_are_refused_each_time_and_the_memo_is_bounded() -> None:
    memo = DecodedImages(max_bytes=3000)
    for _ in range(2):
        with pytest.raises(ValueError, match="not valid base64"):
            memo("data:image/png;base64,@@@")
    assert memo.size == 0
    urls = [_url(bytes([i]) * 600) for i in range(5)]  # 800 + 600 bytes each
    for url in urls:
        memo(url)
    assert memo.size <= 3000 and len(memo._kept) == 2
    assert memo(urls[-1])[1] == bytes([4]) * 600 and memo.hits == 1
    assert memo(urls[0])[1] == bytes([0]) * 600 and memo.hits == 1  # evicted: decoded again


def _post(url: str, body: dict[str, object]) -> tuple[str, float]:
    req = urllib.request.Request(
        url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    start = time.perf_counter()
    with urllib.request.urlopen(req, timeout=30) as resp:
        text = json.loads(resp.read())["choices"][0]["message"]["content"]
    return text, time.perf_counter() - start


def test_a_real_server_answers_each_image_the_same_when_it_comes_again(serve) -> None:  # type: ignore[no-untyped-def]
    """The random backend's answer depends on the image's sha256: a repeated image gets the
    answer it got the first time, and different images are told apart."""
    server = serve("--model", "random", "--task", "clockqa", "--latency", "0.3")
    urls = [_url(tiny_clock_png(i)) for i in range(4)]
    first = [_post(server.url, {"model": "random", "messages": _messages(u)}) for u in urls]
    again = [_post(server.url, {"model": "random", "messages": _messages(u)}) for u in urls]
    assert [a for a, _ in again] == [a for a, _ in first]
    assert len({a for a, _ in first}) > 1
    # the latency runs from the request's arrival: never less than it, as seen by the client
    assert min(t for _, t in first + again) >= 0.3
    bad = {"model": "random", "messages": _messages("data:image/png;base64,@@@")}
    with pytest.raises(urllib.error.HTTPError) as err:
        _post(server.url, bad)
    assert err.value.code == 400
