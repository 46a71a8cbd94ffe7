"""Score while asking: what ``run`` already holds, handed to scoring so it is not done twice.

During a run each answer is parsed and scored as soon as it is committed to the store
(``run_jobs(on_stored=...)``), while the engine waits on the model for the others; the dataset
loaded for asking and each item's request key are kept too. Scoring (``api.score_records``) then
still reads every stored response from ``store.sqlite`` — the store stays the one source of truth —
and takes a record from here only when the stored response it would score is the same (text,
error, latency, usage, turns) as the one the record was made from; anything else (an answer stored
by an earlier run, a row that kept an earlier answer, a record that failed to build) is scored
from the store as before. The records are therefore the ones scoring the store would give; only
the time they are made differs.

Scoring from memory (:meth:`ScoreMemo.stored`): when every row of the store is an outcome this
run offered exactly once, and the store's fingerprint (rows, total attempts, total update times:
any write through the store's upsert changes it) is the one taken when asking ended, the rows are
the outcomes as offered (the upsert stores an offer as given unless a row kept an earlier answer,
which a key offered once by a run that skipped answered keys cannot meet), so scoring takes them
from here instead of reading every row back. The store is still opened and integrity-checked
first (engine/storage.py ``read_store``); anything else (a resumed run's earlier rows, a key
offered twice, a write by anyone after asking ended) reads every row as before.

Each record's prompt and sample texts are made when the record is (:meth:`ScoreMemo.offer`),
during an HTTP run while the engine waits on the model, so that scoring, after the last reply,
only joins them: the record's ``prompt`` (``prompt_record`` of the messages the item was asked
with: ``api.item_messages``, which scoring would build again) and, for a task whose
``aggregate`` only reads its records (``Task.aggregate_reads_only``), its samples.jsonl line
and JSON-text Parquet columns (engine/sample_lines.py ``encode_row``: the strings
``write_samples`` would make from the finished record). Scoring takes them only with the record
itself (the same stored response), for the same item object and the same system prompt; a record
made anew, or one that failed to encode, is encoded when written, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chronoeval.core.dataset import Dataset
from chronoeval.core.items import Item, Message
from chronoeval.core.task import SampleRecord, Task
from chronoeval.engine.records import prompt_record
from chronoeval.engine.sample_lines import Encoded, encode_row
from chronoeval.engine.store import StoredResponse

MakeRecord = Callable[[Task, Item, "StoredResponse | None"], SampleRecord]


def _source(resp: StoredResponse) -> tuple[Any, ...]:
    """What a record is made from (``api._record`` reads these fields and nothing else)."""
    return (resp.text, resp.error, resp.latency_s, resp.usage, resp.turns, resp.finish_reason)


@dataclass
class ScoreMemo:
    datasets: dict[str, Dataset] = field(default_factory=dict)
    keys: dict[tuple[str, str], str] = field(default_factory=dict)
    records: dict[tuple[str, str], tuple[StoredResponse, SampleRecord, Item, Encoded | None]] = (
        field(default_factory=dict)
    )
    """(task, item id) -> (the stored response it was made from, the record with its prompt, the
    item it was made for, its sample texts or None)."""
    system_prompt: str | None = None
    """The run's system prompt, which the prompts attached while asking hold."""
    made: int = 0
    reused: int = 0
    encoded: int = 0
    """Records whose sample texts were made while asking."""
    offered: dict[str, StoredResponse] = field(default_factory=dict)
    """Each key's outcome as this run offered it to the store (redacted), if offered once."""
    offered_twice: set[str] = field(default_factory=set)
    fingerprint: tuple[Any, ...] | None = None
    """The store's :func:`chronoeval.engine.storage.fingerprint` when asking ended."""
    from_memory: bool = False
    """Whether the last scoring took the stored responses from :attr:`offered`."""

    def dataset(self, name: str, content_hash: str) -> Dataset | None:
        """The dataset asked on, when it is the one the run recorded (same content hash)."""
        ds = self.datasets.get(name)
        return ds if ds is not None and ds.content_hash == content_hash else None

    def offer(
        self,
        task: Task,
        item: Item,
        resp: StoredResponse,
        make: MakeRecord,
        messages: tuple[Message, ...] | None = None,
        encode: bool = True,
    ) -> None:
        """Make the record of ``item`` from ``resp`` now (a failure is left to scoring); with the
        ``messages`` it was asked with, also its prompt and, with ``encode`` (the backend leaves
        this process waiting: ``Backend.idle_while_asking``) where the task's aggregate only
        reads records, its sample texts."""
        if resp.key in self.offered:
            self.offered_twice.add(resp.key)
        self.offered[resp.key] = resp
        try:
            rec = make(task, item, resp)
        except Exception:  # noqa: BLE001 - scoring builds it again and reports as before
            self.records.pop((task.name, item.id), None)
            return
        text = None
        if messages is not None:
            rec.prompt = prompt_record(messages)
            if encode and task.aggregate_reads_only:
                try:
                    text = encode_row(rec.to_json())
                    self.encoded += 1
                except Exception:  # noqa: BLE001 - encoded again when written, failing as before
                    text = None
        self.records[(task.name, item.id)] = (resp, rec, item, text)
        self.made += 1

    def record(
        self, task: Task, item: Item, resp: StoredResponse | None, make: MakeRecord
    ) -> SampleRecord:
        """The record of ``item`` for the stored ``resp``: the one made while asking if it was
        made from the same response, else made now (:meth:`take` without the rest)."""
        return self.take(task, item, resp, make)[0]

    def take(
        self,
        task: Task,
        item: Item,
        resp: StoredResponse | None,
        make: MakeRecord,
        system_prompt: str | None = None,
    ) -> tuple[SampleRecord, bool, Encoded | None]:
        """The record of ``item`` for the stored ``resp``: the one made while asking if it was
        made from the same response, else made now; whether its prompt is the one scoring would
        attach (made while asking, for this item object, with ``system_prompt``); and then its
        sample texts (None: encode it when writing)."""
        got = self.records.pop((task.name, item.id), None)
        if (
            got is not None
            and resp is not None
            and (
                got[0] is resp or _source(got[0]) == _source(resp)  # scored from memory: the same
            )
        ):
            self.reused += 1
            rec = got[1]
            if got[2] is item and rec.prompt is not None and system_prompt == self.system_prompt:
                return rec, True, got[3]
            return rec, False, None
        return make(task, item, resp), False, None

    def stored(self, fingerprint: tuple[Any, ...]) -> dict[str, StoredResponse] | None:
        """The store's rows as this run offered them, when the store (whose
        :func:`~chronoeval.engine.storage.fingerprint` is ``fingerprint``) holds exactly those;
        None when it may hold anything else (then read it)."""
        self.from_memory = (
            self.fingerprint is not None
            and fingerprint == self.fingerprint
            and not self.offered_twice
            and fingerprint[0] == len(self.offered)
        )
        return dict(self.offered) if self.from_memory else None
