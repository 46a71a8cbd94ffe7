"""The openai backend over several replicas: real `chronoeval serve` processes, one killed mid-run,
one dead then started, a per-endpoint cap; and the pool's choice rule on its own."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import RetryPolicy
from chronoeval.engine.store import RunStore
from chronoeval.models.openai import OpenAIBackend, ReplicaPool, split_base_urls
from chronoeval.models.registry import BackendOptions
from helpers import make_clock_dataset

MODEL = "constant:10:10:00"
SERVE = ("--model", MODEL, "--task", "clockqa")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_replica_killed_halfway_loses_and_duplicates_nothing(serve, tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=40)
    a = serve(*SERVE, "--latency", "0.05")
    b = serve(*SERVE, "--latency", "0.05")
    killed_after: list[int] = []

    def killer() -> None:  # SIGKILL replica a once it has answered a quarter of the items
        deadline = time.time() + 60
        while time.time() < deadline:
            if len(a.requests()) >= 10:
                a.proc.kill()
                a.proc.wait()
                killed_after.append(len(a.requests()))
                return
            time.sleep(0.01)

    t = threading.Thread(target=killer)
    t.start()
    res = api.run(
        ["clockqa"],
        f"openai:{MODEL}",
        data=ds.root,
        run_dir=tmp_path / "run",
        backend_options=BackendOptions(base_url=f"{a.url},{b.url}", timeout_s=10),
        concurrency=6,
        retry=RetryPolicy(max_retries=3, base_delay_s=0.01, max_delay_s=0.05),
        progress=False,
        plots=False,
    )
    t.join()
    assert killed_after, "replica a was never killed"
    s = res.summaries["clockqa"]
    assert (s.answered, s.errors) == (40, 0)
    assert res.results["complete"]
    assert res.results["tasks"]["clockqa"]["counts"]["answered"] == 40
    rows = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert sorted(r["item_id"] for r in rows) == sorted(it.id for it in ds.items)  # none lost/twice
    with RunStore.in_dir(tmp_path / "run") as store:
        assert store.count() == (40, 0)
    b_keys = [e["key"] for e in b.requests()]
    a_keys = [e["key"] for e in a.requests()]
    assert len(set(b_keys)) == len(b_keys)  # b was never asked the same thing twice
    assert set(a_keys) | set(b_keys) == set(store_keys(tmp_path / "run"))
    assert len(b_keys) >= 40 - killed_after[0]  # b finished everything a never answered


def store_keys(run_dir: Path) -> list[str]:
    with RunStore.in_dir(run_dir) as store:
        return list(store.all())


def _requests(ds_root: Path, n: int) -> list[Request]:
    ds = make_clock_dataset(ds_root, n=n)
    return [Request(it.messages, GenerationConfig(max_tokens=16), ds.root) for it in ds.items]


def test_a_dead_replica_is_dropped_then_readmitted_when_it_comes_up(serve, tmp_path):
    port = free_port()
    dead_url = f"http://127.0.0.1:{port}/v1"
    b = serve(*SERVE)
    backend = OpenAIBackend([dead_url, b.url], MODEL, timeout_s=10, cooldown_s=0.2)
    reqs = _requests(tmp_path / "ds", 30)

    async def go() -> None:
        first = await asyncio.gather(*(backend.generate(r) for r in reqs[:10]))
        assert all(r.text == "10:10:00" for r in first)
        stats = {s["url"]: s for s in backend.pool.stats()}
        assert stats[dead_url]["down"] and stats[dead_url]["errors"] >= 1
        assert stats[b.url]["sent"] - stats[b.url]["errors"] == 10
        a = await asyncio.to_thread(serve, *SERVE, "--port", str(port))
        assert a.url == dead_url
        await asyncio.sleep(0.5)  # past the cooldown: the next request probes a
        for r in reqs[10:]:
            await backend.generate(r)
        after = {s["url"]: s for s in backend.pool.stats()}
        assert not after[dead_url]["down"]
        assert len(a.requests()) >= 5  # re-admitted and sharing the load again
        await backend.aclose()

    asyncio.run(go())


def test_per_endpoint_cap_and_least_outstanding_spread(serve, tmp_path: Path) -> None:
    a = serve(*SERVE, "--latency", "0.1")
    b = serve(*SERVE, "--latency", "0.1")
    backend = OpenAIBackend(f"{a.url},{b.url}", MODEL, timeout_s=10, max_per_endpoint=2)
    reqs = _requests(tmp_path / "ds", 16)

    async def go() -> None:
        out = await asyncio.gather(*(backend.generate(r) for r in reqs))
        assert len(out) == 16
        await backend.aclose()

    asyncio.run(go())
    stats = {s["url"]: s for s in backend.pool.stats()}
    assert stats[a.url]["peak"] == stats[b.url]["peak"] == 2
    assert len(a.requests()) == len(b.requests()) == 8


def test_all_replicas_failing_raises_the_last_error_for_the_runner_to_retry(tmp_path):
    urls = [f"http://127.0.0.1:{free_port()}/v1" for _ in range(2)]
    backend = OpenAIBackend(urls, MODEL, timeout_s=5)
    (req,) = _requests(tmp_path / "ds", 1)

    async def go() -> None:
        try:
            with pytest.raises(Exception, match="all 2 replicas failed; last: cannot connect") as e:
                await backend.generate(req)
            assert e.value.retryable  # type: ignore[attr-defined]
        finally:
            await backend.aclose()

    asyncio.run(go())


def test_pool_rule_least_outstanding_then_oldest_and_cooldown() -> None:
    async def go() -> None:
        pool = ReplicaPool(["a", "b", "c"], cooldown_s=0.05, max_cooldown_s=1)
        r1 = await pool.acquire(set())
        r2 = await pool.acquire(set())
        r3 = await pool.acquire(set())
        assert [r1.url, r2.url, r3.url] == ["a", "b", "c"]
        await pool.release(r2, ok=True)
        assert (await pool.acquire(set())).url == "b"  # b has 0 outstanding
        await pool.release(r1, ok=False)  # a fails: dropped for the cooldown
        await pool.release(r3, ok=True)
        picks = [(await pool.acquire(set())).url for _ in range(3)]
        assert "a" not in picks
        only_a = await pool.acquire({"b", "c"})  # only a left: tried although cooling down
        assert only_a.url == "a"
        await pool.release(only_a, ok=False)  # same outage: the cooldown does not double
        assert pool.replicas[0].failures == 1 and not pool.replicas[0].admitted(time.monotonic())
        await asyncio.sleep(0.06)
        assert pool.replicas[0].admitted(time.monotonic())  # past the cooldown: probe it
        probe = await pool.acquire({"b", "c"})
        assert not pool.replicas[0].admitted(time.monotonic())  # one probe at a time
        await pool.release(probe, ok=True)
        assert pool.replicas[0].failures == 0  # re-admitted
        assert await pool.acquire({"a", "b", "c"}) is None

    asyncio.run(go())


def test_base_urls_from_commas_and_lists() -> None:
    assert split_base_urls("http://x/v1/, http://y/v1") == ["http://x/v1", "http://y/v1"]
    assert split_base_urls(["http://x/v1", "http://y/v1,http://z/v1"])[2] == "http://z/v1"
    with pytest.raises(ValueError, match="twice"):
        split_base_urls("http://x/v1,http://x/v1/")
