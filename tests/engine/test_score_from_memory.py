"""Scoring from memory (engine/scoring_memo.py ``ScoreMemo.stored``): a run scores the outcomes it
offered to the store without reading every row back, only when the store holds exactly those
rows; anything else (a resumed run's earlier rows, a key offered twice, a write after asking
ended) reads the store, and either way the written files are the ones scoring the store gives."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tests.helpers import make_clock_dataset

from chronoeval import api
from chronoeval.core.task import SampleRecord
from chronoeval.engine.scoring_memo import ScoreMemo
from chronoeval.engine.storage import fingerprint, read_store
from chronoeval.engine.store import RunStore
from helpers import store_row


def row(key: str, **over: object) -> tuple[str, dict]:
    return store_row(key, **{"item_id": key, **over})


class _Task:
    name = "t"


class _Item:
    def __init__(self, id: str) -> None:
        self.id = id


def _make(task, item, resp) -> SampleRecord:  # type: ignore[no-untyped-def]
    return SampleRecord(item.id, task.name, {}, None, status="answered", response=resp.text)


def _asked(tmp_path: Path, outcomes: list[tuple[str, dict]]) -> ScoreMemo:
    """A memo offered ``outcomes`` as the store returned them, fingerprinted when done."""
    memo = ScoreMemo()
    with RunStore(tmp_path / RunStore.FILENAME) as store:
        for resp in store.put_many(outcomes):
            memo.offer(_Task(), _Item(resp.item_id), resp, _make)  # type: ignore[arg-type]
        memo.fingerprint = fingerprint(store.conn)
    return memo


def test_the_memo_stands_in_only_for_exactly_the_stores_rows(tmp_path: Path) -> None:
    memo = _asked(tmp_path, [row("a"), row("b", text=None, error="boom")])
    got = read_store(tmp_path, memo)
    assert memo.from_memory and got == read_store(tmp_path)  # equal to the rows read back
    with RunStore(tmp_path / RunStore.FILENAME) as store:  # written after asking ended
        store.put_many([row("b", text="later")])
    got = read_store(tmp_path, memo)
    assert not memo.from_memory and got["b"].text == "later" and got["b"].error is None


def test_a_row_the_run_did_not_offer_or_a_key_offered_twice_reads_the_store(
    tmp_path: Path,
) -> None:
    with RunStore(tmp_path / RunStore.FILENAME) as store:
        store.put_many([row("earlier", text="from an earlier run")])
    memo = _asked(tmp_path, [row("a")])
    got = read_store(tmp_path, memo)
    assert not memo.from_memory and got["earlier"].text == "from an earlier run"

    twice = tmp_path / "twice"
    twice.mkdir()
    memo = _asked(twice, [row("k", text="first"), row("k", text="second")])
    got = read_store(twice, memo)
    assert not memo.from_memory and got["k"].text == "second"


def test_an_update_keeping_the_row_count_is_seen(tmp_path: Path) -> None:
    memo = _asked(tmp_path, [row("a", text=None, error="x"), row("b")])
    conn = sqlite3.connect(tmp_path / RunStore.FILENAME)
    conn.execute("UPDATE responses SET text='edited', error=NULL, updated=updated+1 WHERE key='a'")
    conn.commit()
    conn.close()
    got = read_store(tmp_path, memo)
    assert not memo.from_memory and got["a"].text == "edited"


def _files(run_dir: Path) -> dict[str, bytes]:
    names = ("results.json", "samples.jsonl", "samples.parquet")
    return {n: (run_dir / n).read_bytes() for n in names}


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the store's rows were read back (RunStore.all)."""
    calls: list[int] = []
    real = RunStore.all

    def counted(self: RunStore):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(self)

    monkeypatch.setattr(RunStore, "all", counted)
    return calls


def test_a_fresh_run_scores_from_memory_the_files_scoring_the_store_writes(
    tmp_path: Path, reads: list[int]
) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=30)
    run_dir = tmp_path / "run"
    api.run(["clockqa"], "random", data=ds.root, run_dir=run_dir, progress=False, plots=False)
    assert reads == []  # scored from memory
    written = _files(run_dir)
    api.score(run_dir, plots=False)  # from the store alone
    assert reads == [1]
    assert _files(run_dir) == written


def test_a_run_resumed_after_a_crash_reads_the_store_and_scores_every_item(
    tmp_path: Path, reads: list[int]
) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=30)
    run_dir = tmp_path / "run"
    api.run(["clockqa"], "random", data=ds.root, run_dir=run_dir, progress=False, plots=False)
    # a crash before the last answers were committed: their rows are not there
    conn = sqlite3.connect(run_dir / RunStore.FILENAME)
    conn.execute("DELETE FROM responses WHERE rowid IN (SELECT rowid FROM responses LIMIT 11)")
    conn.commit()
    conn.close()
    reads.clear()
    res = api.run(["clockqa"], "random", data=ds.root, run_dir=run_dir, progress=False, plots=False)
    assert res.summaries["clockqa"].called == 11 and res.summaries["clockqa"].cached == 19
    assert reads == [1]  # the 19 earlier rows are not in the memo: read back
    assert res.results["tasks"]["clockqa"]["counts"]["answered"] == 30
    written = _files(run_dir)
    api.score(run_dir, plots=False)
    assert _files(run_dir) == written
