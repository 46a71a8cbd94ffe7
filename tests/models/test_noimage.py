"""``noimage:<spec>``: the same prompt without its images (the language-prior baseline), end to
end: a scripted OpenAI-compatible server on 127.0.0.1 records what arrives, and a run through
`chronoeval serve` completes with every item answered."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web

from chronoeval import api
from chronoeval.core.errors import ChronoevalError
from chronoeval.models.registry import BackendOptions


@pytest.fixture
def scripted() -> Iterator[tuple[str, list[dict]]]:
    """A chat-completions server that records each body and answers 'True'."""
    bodies: list[dict] = []
    ready = threading.Event()
    state: dict = {}

    async def chat(request: web.Request) -> web.Response:
        bodies.append(await request.json())
        return web.json_response(
            {
                "id": "x",
                "object": "chat.completion",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "True"},
                        "finish_reason": "stop",
                    }
                ],
            }
        )

    def serve() -> None:
        loop = asyncio.new_event_loop()
        app = web.Application()
        app.router.add_post("/v1/chat/completions", chat)
        runner = web.AppRunner(app)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        state["port"] = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        state["loop"], state["runner"] = loop, runner
        ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())

    th = threading.Thread(target=serve, daemon=True)
    th.start()
    ready.wait(10)
    yield f"http://127.0.0.1:{state['port']}/v1", bodies
    state["loop"].call_soon_threadsafe(state["loop"].stop)
    th.join(10)


def _parts(body: dict) -> list[dict]:
    out = []
    for m in body["messages"]:
        c = m["content"]
        out.extend([{"type": "text", "text": c}] if isinstance(c, str) else c)
    return out


def _texts(body: dict) -> str:
    """The text a model reads (a text-only message is sent as one newline-joined string)."""
    return "\n".join(p["text"] for p in _parts(body) if p.get("type") == "text" and p["text"])


def test_same_prompt_without_images(scripted, tmp_path: Path) -> None:
    url, bodies = scripted
    opts = BackendOptions(base_url=url)
    params = {"n_locations": 25}
    with_img = api.run(["tp_pov"], "openai:m", n=4, params=params, run_dir=tmp_path / "a",
                       backend_options=opts, progress=False, plots=False)  # fmt: skip
    seen = list(bodies)
    bodies.clear()
    no_img = api.run(["tp_pov"], "noimage:openai:m", n=4, params=params, run_dir=tmp_path / "b",
                     backend_options=opts, progress=False, plots=False)  # fmt: skip
    assert len(seen) == len(bodies) == 4
    assert all(sum(p.get("type") == "image_url" for p in _parts(b)) == 2 for b in seen)
    assert not any(p.get("type") == "image_url" for b in bodies for p in _parts(b))
    # the same text, in the same order (matched by content: the runner's order may differ)
    assert sorted(map(_texts, seen)) == sorted(map(_texts, bodies))
    for res in (with_img, no_img):
        assert res.results["tasks"]["tp_pov"]["counts"]["answered"] == 4
    assert no_img.results["backend"]["identity"].startswith("noimage(")


def test_through_chronoeval_serve(serve, tmp_path: Path) -> None:
    server = serve("--model", "random")
    for name in ("seeing_year", "tp_recognition"):
        res = api.run(
            [name],
            f"noimage:openai:random/{name}",
            n=5,
            run_dir=tmp_path / name,
            progress=False,
            plots=False,
            backend_options=BackendOptions(base_url=server.url),
        )
        c = res.results["tasks"][name]["counts"]
        assert c["error"] == 0 and c["missing"] == 0 and c["answered"] + c["no_answer"] == 5
    assert len(server.requests()) == 10


def test_needs_a_spec() -> None:
    from chronoeval.core.registry import get_task
    from chronoeval.models.registry import make_backend

    with pytest.raises(ChronoevalError, match="noimage:<spec>"):
        make_backend("noimage", get_task("tp_pov"))
