"""Group commit (answers of one event-loop turn in one transaction) and scoring while asking
(engine/scoring_memo.py): nothing answered is lost when a run is interrupted, a resume asks only
what is missing, and the records scored while asking are the ones scoring the store gives."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest
from tests.helpers import make_clock_dataset

from chronoeval import api
from chronoeval.core.items import TextPart, user_message
from chronoeval.core.registry import get_task
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import Job, run_jobs
from chronoeval.engine.scoring_memo import ScoreMemo
from chronoeval.engine.storage import open_store
from chronoeval.engine.store import RunStore, StoredResponse
from chronoeval.models.base import Backend, Response
from helpers import store_row


class Interrupted(Backend):
    """Answers instantly (no await that yields), then raises KeyboardInterrupt at call ``stop``."""

    identity = "interrupted"

    def __init__(self, stop: int | None = None) -> None:
        self.stop = stop
        self.answered: list[str] = []
        self.asked: list[str] = []

    async def generate(self, request: Request) -> Response:
        key = request.key(self.identity)
        self.asked.append(key)
        if self.stop is not None and len(self.asked) > self.stop:
            raise KeyboardInterrupt
        self.answered.append(key)
        return Response(text=f"answer {request.messages[0].text}")


def jobs(n: int) -> list[Job]:
    out = []
    for i in range(n):
        req = Request((user_message(TextPart(f"q{i}")),), GenerationConfig())
        out.append(Job(req.key("interrupted"), f"i{i}", "toy", req))
    return out


row = store_row


def test_put_many_keeps_answers_and_is_all_or_nothing(tmp_path: Path) -> None:
    with RunStore(tmp_path / "s.sqlite") as store:
        written = store.put_many(
            [row("a"), row("a", text=None, error="later failure"), row("b", text=None, error="x")]
        )
        assert [w.key for w in written] == ["a", "a", "b"]
        got = store.all()
        assert got["a"].text == "yes" and got["a"].error is None  # never overwritten by an error
        assert got["b"].error == "x"
        with pytest.raises(sqlite3.IntegrityError):
            store.put_many([row("c"), row("d", item_id=None)])  # NOT NULL fails on the 2nd row
        assert set(store.all()) == {"a", "b"}  # neither row of the failed batch was kept
        store.put_many([row("b")])  # an error is replaced by a later answer, as with put
        assert store.all()["b"].text == "yes" and store.all()["b"].attempts == 2


@pytest.mark.parametrize("concurrency", [1, 8, 64])
def test_an_interrupted_run_keeps_every_answer_and_resume_asks_only_the_rest(
    tmp_path: Path, concurrency: int
) -> None:
    todo = jobs(300)
    first = Interrupted(stop=137)
    with open_store(tmp_path) as store:
        with pytest.raises(KeyboardInterrupt):
            asyncio.run(run_jobs(todo, first, store, concurrency=concurrency, progress=False))
        # every answer the backend gave before the interrupt was committed, nothing else
        assert store.answered_keys() == set(first.answered)
        assert len(first.answered) == 137

        again = Interrupted()
        seen: list[str] = []
        summary = asyncio.run(
            run_jobs(
                todo,
                again,
                store,
                concurrency=concurrency,
                progress=False,
                on_stored=lambda job, resp: seen.append(job.key),
            )
        )
        assert sorted(again.asked) == sorted(set(j.key for j in todo) - set(first.answered))
        assert summary.cached == 137 and summary.answered == 300 - 137
        assert sorted(seen) == sorted(again.asked)  # each committed outcome reported once
        assert store.answered_keys() == {j.key for j in todo}


def test_on_stored_sees_what_was_stored_redacted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")

    class Leaky(Backend):
        identity = "leaky"

        async def generate(self, request: Request) -> Response:
            return Response(text="the key is sk-test-0123456789abcdef")

    seen: list[StoredResponse] = []
    with open_store(tmp_path) as store:
        asyncio.run(
            run_jobs(jobs(3), Leaky(), store, progress=False, on_stored=lambda j, r: seen.append(r))
        )
        stored = store.all()
    assert len(seen) == 3
    for resp in seen:
        assert "sk-test" not in (resp.text or "") and "[REDACTED]" in (resp.text or "")
        assert stored[resp.key].text == resp.text


def test_scoring_while_asking_gives_what_scoring_the_store_gives(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=40)
    run_dir = tmp_path / "run"
    res = api.run(["clockqa"], "random", data=ds.root, run_dir=run_dir, progress=False, plots=False)
    samples = (run_dir / "samples.jsonl").read_text()
    ids = [json.loads(line)["item_id"] for line in samples.splitlines()]
    assert ids == [it.id for it in ds.items]  # complete and in the dataset's order
    again = api.score(run_dir, plots=False)  # from the store alone
    assert again["tasks"] == res.results["tasks"]
    assert (run_dir / "samples.jsonl").read_text() == samples


def test_a_record_is_reused_only_for_the_same_stored_response(tmp_path: Path) -> None:
    from chronoeval.api import _record

    task = get_task("clockqa")
    item = make_clock_dataset(tmp_path / "ds", n=1).items[0]
    offered = StoredResponse("k", item.id, "clockqa", "b", "3:00:00", None, 0.1, {}, "stop", 1)
    later = StoredResponse("k", item.id, "clockqa", "b", "4:15:00", None, 0.1, {}, "stop", 1)
    memo = ScoreMemo()
    memo.offer(task, item, offered, _record)
    rec = memo.record(task, item, later, _record)  # the store holds another reply: made afresh
    assert rec.response == "4:15:00" and memo.reused == 0
    memo.offer(task, item, offered, _record)
    same = StoredResponse("k", item.id, "clockqa", "b", "3:00:00", None, 0.1, {}, "stop", 3)
    rec = memo.record(task, item, same, _record)  # same reply (attempts do not matter)
    assert rec.response == "3:00:00" and memo.reused == 1
    assert memo.record(task, item, same, _record).response == "3:00:00"  # used once, then made
    assert memo.reused == 1


def test_reading_an_image_stays_inside_its_root(tmp_path: Path) -> None:
    from chronoeval.core.errors import DataError

    root = tmp_path / "ds"
    (root / "images" / "sub").mkdir(parents=True)
    (root / "images" / "sub" / "a.png").write_bytes(b"inside")
    (tmp_path / "secret.png").write_bytes(b"secret")
    (root / "images" / "out.png").symlink_to(tmp_path / "secret.png")
    (root / "images" / "link").symlink_to(tmp_path)  # a directory symlink pointing out
    (root / "images" / "in.png").symlink_to(root / "images" / "sub" / "a.png")
    (tmp_path / "alias").symlink_to(root)  # the root itself reached through a symlink
    for base in (root, tmp_path / "alias"):
        req = Request((), image_root=base)
        assert req.read_image("images/sub/a.png") == b"inside"
        assert req.read_image("images/in.png") == b"inside"  # a symlink that stays inside
        for bad in ("images/out.png", "images/link/secret.png", "../secret.png", "/etc/hostname"):
            with pytest.raises(DataError):
                req.read_image(bad)
        with pytest.raises(FileNotFoundError):
            req.read_image("images/missing.png")


def test_put_many_with_no_secret_set_still_redacts_url_credentials(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no secret in the environment, put_many stores a plain text as it is and still takes
    a URL's credentials out of texts, errors and turns (the checked store's error too)."""
    import os

    from chronoeval.core import redact

    for name in list(os.environ):
        if redact._SECRET_NAME.search(name):
            monkeypatch.delenv(name)
    assert redact.secret_values() == []
    url, kept = "see https://ann:s3cret@h.example/v1 now", "see https://***@h.example/v1 now"
    rows = [
        store_row("plain", text="10:10:00"),
        store_row("url", text=url),
        store_row("turns", text="ok", turns=[{"role": "tool", "output": url}]),
        store_row("error", text=None, error=f"HTTP 401 from {url}"),
    ]
    with open_store(tmp_path) as store:
        offered = {r.key: r for r in store.put_many(rows)}
        kept_rows = store.all()
    for got in (offered, kept_rows):
        assert got["plain"].text == "10:10:00"
        assert got["url"].text == kept
        assert got["turns"].turns == [{"role": "tool", "output": kept}]
        assert got["error"].error == f"HTTP 401 from {kept}" and got["error"].text is None


class Yielding(Backend):
    """Answers after one turn of the event loop (as a network client does), noting each call."""

    identity = "interrupted"

    def __init__(self, events: list[str]) -> None:
        self.events = events

    async def generate(self, request: Request) -> Response:
        self.events.append(f"ask {request.messages[0].text}")
        await asyncio.sleep(0)
        return Response(text="ok")


def test_a_worker_sends_its_next_request_before_its_answer_is_committed(tmp_path: Path) -> None:
    """The commit (and the scoring on it) is off a slot's path from one reply to its next request:
    with one worker, request i+1 goes out before answer i is committed, and every answer is
    still committed exactly once, in order."""
    events: list[str] = []
    with open_store(tmp_path) as store:
        asyncio.run(
            run_jobs(
                jobs(6),
                Yielding(events),
                store,
                concurrency=1,
                progress=False,
                on_stored=lambda job, resp: events.append(f"stored {job.item_id[1:]}"),
            )
        )
        assert len(store.answered_keys()) == 6
    for i in range(5):
        assert events.index(f"ask q{i + 1}") < events.index(f"stored {i}"), events
    assert [e for e in events if e.startswith("stored")] == [f"stored {i}" for i in range(6)]


@pytest.mark.parametrize("fail_at", [3, 40])
def test_a_commit_that_fails_after_the_worker_moved_on_stops_the_run(
    tmp_path: Path, fail_at: int
) -> None:
    """The turn's commit runs as a loop callback; its failure (here scoring on it, at answer 3 or
    at the very last answer) is raised by the run, not only logged by the loop, and the workers
    stop asking."""
    events: list[str] = []
    seen: list[str] = []

    def on_stored(job: Job, resp: StoredResponse) -> None:
        seen.append(job.key)
        if len(seen) == fail_at:
            raise ValueError(f"scoring failed at {job.item_id}")

    loop_errors: list[dict] = []

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _l, ctx: loop_errors.append(ctx))
        await run_jobs(
            jobs(40), Yielding(events), store, concurrency=4, progress=False, on_stored=on_stored
        )

    with open_store(tmp_path) as store, pytest.raises(ValueError, match="scoring failed"):
        asyncio.run(main())
    assert not loop_errors
    asked = [e for e in events if e.startswith("ask")]
    assert len(asked) <= (fail_at + 8 if fail_at < 40 else 40)
