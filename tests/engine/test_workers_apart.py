"""How the runner starts its workers (engine/runner.py). A network-bound backend's workers start
one loop turn apart, so the first request is on its way (its connection opened, its body sent)
before the last of the first wave is even made; before session 12 all of them were made first
(~25 ms at 64 workers over HTTP, every later wave as late). A backend that batches what is
queued keeps its workers starting together, so its first batch holds a whole wave."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from chronoeval.core.items import TextPart, user_message
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import Job, run_jobs
from chronoeval.engine.storage import open_store
from chronoeval.models.base import Backend, BatchingBackend, Pending, Response


def jobs(n: int, identity: str) -> list[Job]:
    out = []
    for i in range(n):
        req = Request((user_message(TextPart(f"q{i}")),), GenerationConfig())
        out.append(Job(req.key(identity), f"i{i}", "toy", req))
    return out


class Sockets(Backend):
    """A client of a server: each request is made, then sent (a turn of the loop later, as a
    connection's callbacks come), then answered."""

    identity = "sockets"
    network_bound = True

    def __init__(self) -> None:
        self.events: list[str] = []

    async def generate(self, request: Request) -> Response:
        name = request.messages[0].text
        self.events.append(f"made {name}")
        await asyncio.sleep(0)  # the connection's turn
        self.events.append(f"sent {name}")
        await asyncio.sleep(0.01)  # the server's latency
        return Response(text="1:00:00")


class Batches(BatchingBackend):
    identity = "batches"

    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []

    async def _run_batch(self, batch: Pending) -> None:
        self.sizes.append(len(batch))
        await asyncio.sleep(0.005)  # the device
        for _, fut in batch:
            fut.set_result(Response(text="1:00:00"))


@pytest.mark.parametrize("concurrency", [8, 64])
def test_a_network_bound_backend_sends_its_first_request_before_the_wave_is_made(
    tmp_path: Path, concurrency: int
) -> None:
    backend = Sockets()
    with open_store(tmp_path) as store:
        todo = jobs(3 * concurrency, backend.identity)
        summary = asyncio.run(
            run_jobs(todo, backend, store, concurrency=concurrency, progress=False)
        )
        assert summary.answered == 3 * concurrency and len(store.all()) == 3 * concurrency
    last_of_wave = backend.events.index(f"made q{concurrency - 1}")
    assert backend.events.index("sent q0") < last_of_wave, backend.events[: concurrency + 2]
    # every job asked once, in order of taking
    made = [e.split()[1] for e in backend.events if e.startswith("made")]
    assert made == [f"q{i}" for i in range(3 * concurrency)]


def test_a_batching_backend_gets_its_whole_first_wave_in_one_batch(tmp_path: Path) -> None:
    backend = Batches()
    with open_store(tmp_path) as store:
        asyncio.run(
            run_jobs(jobs(32, backend.identity), backend, store, concurrency=16, progress=False)
        )
        assert len(store.all()) == 32
    assert backend.sizes[0] == 16 and sum(backend.sizes) == 32, backend.sizes
