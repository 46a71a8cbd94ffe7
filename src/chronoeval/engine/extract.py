"""Optional model-based answer extraction (``run --extract-with <model spec>``; off by default).

For replies the task's rules could not read (``NoAnswer``), a second model is asked to copy the
final answer out of the reply, in the format the question asks for (as VLMEvalKit does with a
judge model). Its replies go through the engine like any response (request keys, a run store at
``<run_dir>/extract.sqlite``, retries, resume), then through the task's own ``parse`` and
``score``. The result is its own metric, ``results.json`` ``tasks.<task>.with_extraction``,
beside the rule-based headline, which never changes. The extractor sees the question's text and the
reply, never the gold, the images or the item's metadata.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from chronoeval.core.answers import NoAnswer
from chronoeval.core.items import Item, Message, TextPart
from chronoeval.core.registry import get_task
from chronoeval.core.task import SampleRecord
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import Job, RetryPolicy, ask_all
from chronoeval.engine.store import RunStore

STORE_NAME = "extract.sqlite"
EXTRACT_SYSTEM = (
    "You extract answers. You are given a question and a reply another model wrote to it. Copy "
    "the final answer the reply gives, written in the format the question asks for, and nothing "
    "else. Do not solve the question yourself and do not correct the reply. If the reply gives no "
    "answer, write NONE."
)
EXTRACT_USER = "Question:\n{question}\n\nReply:\n{reply}\n\nThe reply's final answer:"
EXTRACT_CONFIG = GenerationConfig(temperature=0.0, max_tokens=64, seed=0)


def question_text(item: Item) -> str:
    """The text a model saw (system and user text parts; images are left out)."""
    return "\n".join(
        part.text for m in item.messages for part in m.content if isinstance(part, TextPart)
    ).strip()


def extraction_request(item: Item, reply: str) -> Request:
    user = EXTRACT_USER.format(question=question_text(item), reply=reply)
    messages = (
        Message("system", (TextPart(EXTRACT_SYSTEM),)),
        Message("user", (TextPart(user),)),
    )
    return Request(messages, EXTRACT_CONFIG)


def extract_and_score(
    run_dir: Path,
    results: dict[str, Any],
    records: list[SampleRecord],
    items: dict[tuple[str, str], Item],
    spec: str,
    options: Any = None,
    *,
    concurrency: int = 8,
    retry: RetryPolicy | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Ask ``spec`` to extract the answer of every NoAnswer record, re-parse, and add
    ``with_extraction`` per task to ``results`` (the caller writes results.json).

    ``items``: ``(task, item_id) -> Item``. Returns ``results``.
    """
    from chronoeval.models.registry import make_backend

    run_dir = Path(run_dir)
    by_task: dict[str, list[SampleRecord]] = {}
    for r in records:
        by_task.setdefault(r.task, []).append(r)
    with RunStore(run_dir / STORE_NAME) as store:
        for name, task_records in by_task.items():
            entry = results["tasks"].get(name)
            if entry is None:
                continue
            task = get_task(name)
            unread = [r for r in task_records if r.status == "no_answer"]
            task_items = [items[(name, r.item_id)] for r in unread]
            backend = make_backend(spec, task, task_items, options)
            jobs = []
            for r, item in zip(unread, task_items, strict=True):
                request = extraction_request(item, r.response or "")
                jobs.append(Job(request.key(backend.identity), r.item_id, name, request))
            ask_all(
                jobs,
                backend,
                store,
                concurrency=concurrency,
                retry=retry,
                progress=progress,
                description=f"extract {name} · {spec}",
            )
            stored = store.all()
            recovered = errors = 0
            merged: list[SampleRecord] = []
            by_id = {
                r.item_id: (job, item)
                for r, job, item in zip(unread, jobs, task_items, strict=True)
            }
            for r in task_records:
                if r.status != "no_answer":
                    if r.status == "answered":
                        merged.append(_copy(r))
                    continue
                job, item = by_id[r.item_id]
                resp = stored.get(job.key)
                if resp is None or not resp.ok:
                    errors += 1
                    merged.append(_copy(r))
                    continue
                answer = task.parse(resp.text or "", item)
                if isinstance(answer, NoAnswer):
                    merged.append(_copy(r))
                    continue
                recovered += 1
                merged.append(
                    dataclasses.replace(
                        r,
                        status="answered",
                        answer=task.answer_to_json(answer),
                        scores=task.score_reply(answer, r.response or "", item),
                    )
                )
            metrics = task.aggregate(merged) if merged else {}
            headline = task.headline(metrics) if metrics else None
            entry["with_extraction"] = {
                "extract_with": spec,
                "asked": len(unread),
                "recovered": recovered,
                "errors": errors,
                "headline": {"name": headline[0], "metric": headline[1]} if headline else None,
                "note": "rules first; a model extracted answers only for the replies the rules "
                "could not read. The rule-based headline above is unchanged.",
            }
    return results


def _copy(r: SampleRecord) -> SampleRecord:
    """A record whose scores dict an ``aggregate`` may add keys to without touching the run's."""
    return dataclasses.replace(r, scores=dict(r.scores))
