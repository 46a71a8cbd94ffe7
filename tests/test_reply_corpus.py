"""The reply corpus (tests/reply_corpus/<task>.jsonl): realistic replies, written the way current
chat and reasoning models write, each with its expected parse, run through the task's own ``parse``
(and ``score`` where a line gives ``scores``). One parametrised test across all tasks.

Line fields: ``reply``; ``expected`` (the parse as ``answer_to_json`` gives it, or ``"NoAnswer"``);
optional ``scores`` (a subset of the task's score dict), ``target``, ``note``. Item fields a parse
needs come from ``_items.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chronoeval.core.answers import NoAnswer
from chronoeval.core.items import Item
from chronoeval.core.registry import get_task

CORPUS = Path(__file__).parent / "reply_corpus"
ITEMS: dict[str, Any] = json.loads((CORPUS / "_items.json").read_text(encoding="utf-8"))


def _cases() -> list[Any]:
    cases = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                row = json.loads(line)
                cases.append(pytest.param(path.stem, row, id=f"{path.stem}:{number}"))
    return cases


def test_corpus_covers_every_task() -> None:
    """Every task registered when the corpus was written has replies (a task added later should
    add its own ``<task>.jsonl``; it is listed here so that its absence is visible, not fatal)."""
    from chronoeval.core.registry import all_tasks

    tasks = {p.stem for p in CORPUS.glob("*.jsonl")}
    assert set(ITEMS) - {"_doc"} == tasks
    assert len(tasks) >= 34
    assert tasks <= set(all_tasks()), tasks - set(all_tasks())
    uncovered = sorted(set(all_tasks()) - tasks)
    if uncovered:
        print(f"tasks without a reply corpus yet: {uncovered}")


@pytest.mark.parametrize(("task_name", "row"), _cases())
def test_reply_corpus(task_name: str, row: dict[str, Any]) -> None:
    task = get_task(task_name)
    spec = ITEMS[task_name]
    target = row.get("target", spec.get("target"))
    choices = spec.get("choices")
    item = Item(
        "corpus", task.suite, task_name, (), target, tuple(choices) if choices else None,
        dict(spec.get("metadata", {})),
    )  # fmt: skip
    answer = task.parse(row["reply"], item)
    if "expected" in row:
        got = "NoAnswer" if isinstance(answer, NoAnswer) else task.answer_to_json(answer)
        if isinstance(got, tuple):
            got = list(got)
        assert got == row["expected"], f"{row.get('note')}: {row['reply']!r} -> {answer!r}"
    for key, value in row.get("scores", {}).items():
        assert task.score(answer, item)[key] == value, f"{row.get('note')}: score {key}"
