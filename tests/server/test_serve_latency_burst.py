"""`chronoeval serve --latency`: under a burst every request is answered no sooner than the
latency after its arrival, the requests wait side by side (not one after another), and the request
log carries the arrival and answer stamps and the event loop's lag."""

from __future__ import annotations

import asyncio
import base64
import importlib.util

import aiohttp
import pytest

from helpers import tiny_clock_png

LATENCY = 0.5
BURST = 16


def _body(i: int) -> dict[str, object]:
    url = "data:image/png;base64," + base64.b64encode(tiny_clock_png(i % 4)).decode("ascii")
    return {
        "model": "constant:10:10:00",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": url}},
                    {"type": "text", "text": "What time is it?"},
                ],
            }
        ],
    }


async def _burst(url: str) -> list[str]:
    async with aiohttp.ClientSession() as session:

        async def one(i: int) -> str:
            async with session.post(f"{url}/chat/completions", json=_body(i)) as resp:
                assert resp.status == 200
                return (await resp.json())["choices"][0]["message"]["content"]

        return await asyncio.gather(*(one(i) for i in range(BURST)))


LOOPS = ["asyncio"] + (["uvloop"] if importlib.util.find_spec("uvloop") else [])


@pytest.mark.parametrize("loop", LOOPS)
def test_a_burst_waits_side_by_side_each_from_its_arrival(serve, monkeypatch, loop) -> None:  # type: ignore[no-untyped-def]
    # on either event loop serve's (engine/event_loop.py): uvloop's timers may fire early, and
    # serve sleeps again what is left (server/app.py ``until``)
    monkeypatch.setenv("CHRONOEVAL_EVENT_LOOP", loop)
    server = serve("--model", "constant:10:10:00", "--task", "clockqa", "--latency", str(LATENCY))
    assert asyncio.run(_burst(server.url)) == ["10:10:00"] * BURST
    log = [e for e in server.requests() if "answered" in e]
    assert len(log) == BURST
    for e in log:  # never answered sooner than the latency after the request arrived
        assert e["answered"] - e["arrived"] >= LATENCY
        assert e["loop_lag_ms"] >= 0.0
    # side by side: every request of the burst had arrived before the first was answered (one
    # after another, the last would arrive BURST - 1 latencies after the first answer)
    assert max(e["arrived"] for e in log) < min(e["answered"] for e in log)
