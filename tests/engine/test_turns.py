"""Multi-turn agents: every turn is stored with the response (or with the final error)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from chronoeval.core.items import TextPart, user_message
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import Job, RetryPolicy, run_jobs
from chronoeval.engine.store import SCHEMA, RunStore
from chronoeval.models.base import Backend, BackendError, Response


class TwoTurnBackend(Backend):
    identity = "two-turn"

    async def generate(self, request: Request) -> Response:
        q = request.messages[0].text
        turns = [
            {"role": "assistant", "content": f"code for {q}"},
            {"role": "tool", "content": "4"},
        ]
        if q == "bad":
            raise BackendError("sandbox timed out", retryable=False, turns=turns)
        return Response(text="4", turns=[*turns, {"role": "assistant", "content": "4"}])


def test_turns_are_stored_for_answers_and_errors(tmp_path: Path) -> None:
    reqs = [Request((user_message(TextPart(q)),), GenerationConfig()) for q in ("good", "bad")]
    jobs = [Job(r.key("two-turn"), q, "toy", r) for r, q in zip(reqs, ("good", "bad"), strict=True)]
    with RunStore(tmp_path / "s.sqlite") as store:
        asyncio.run(run_jobs(jobs, TwoTurnBackend(), store, retry=RetryPolicy(0), progress=False))
        rows = {r.item_id: r for r in store.all().values()}
    assert [t["role"] for t in rows["good"].turns] == ["assistant", "tool", "assistant"]
    assert rows["bad"].error and rows["bad"].turns[0]["content"] == "code for bad"


def test_store_written_before_turns_existed_gains_the_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA.replace(",\n    turns TEXT", ""))
    conn.execute("INSERT INTO responses VALUES ('k','a','t','b','yes',NULL,0.1,'{}',NULL,1,0)")
    conn.commit()
    conn.close()
    with RunStore(path) as store:
        assert store.all()["k"].text == "yes" and store.all()["k"].turns is None
        store.put(
            "k2",
            item_id="b",
            task="t",
            backend="b",
            text="x",
            error=None,
            latency_s=None,
            usage=None,
            finish_reason=None,
            attempts=1,
            turns=[{"role": "tool", "content": "1"}],
        )
        assert store.all()["k2"].turns == [{"role": "tool", "content": "1"}]


def test_read_only_store_reads_an_old_store_without_changing_it(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA.replace(",\n    turns TEXT", ""))
    conn.execute("INSERT INTO responses VALUES ('k','a','t','b','yes',NULL,0.1,'{}',NULL,1,0)")
    conn.commit()
    conn.close()
    with RunStore.read_only(path) as store:
        row = store.all()["k"]
    assert row.text == "yes" and row.turns is None
    conn = sqlite3.connect(path)
    cols = {r[1] for r in conn.execute("PRAGMA table_info(responses)")}
    conn.close()
    assert "turns" not in cols  # nothing was written to the shard's store
