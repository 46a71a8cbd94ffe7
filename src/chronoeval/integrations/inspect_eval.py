"""Run chronoeval tasks with Inspect (``inspect_ai``, optional extra ``inspect``).

As a file task (no installation step)::

    inspect eval src/chronoeval/integrations/inspect_eval.py@chronoeval \\
        -T task=clockqa -T n=60 --model openai/gpt-4o

With the package entry point ``[project.entry-points.inspect_ai] chronoeval =
"chronoeval.integrations.inspect_eval"``, every registered task is also ``chronoeval/<task>``::

    inspect eval chronoeval/clockqa -T n=60 --model openai/gpt-4o

Items are the ones ``chronoeval run`` evaluates (generated for ``n``/``seed``/task parameters, or
a dataset directory / published-layout data with ``data=``); each image part becomes an inline
data URI. The scorer is the task's own: ``Task.parse`` then ``Task.score``; the sample's value is
the task's per-sample headline score (``Task.headline_score``), its mean the task's headline
(chronoeval's ``results.json`` additionally has the paper's breakdowns and bootstrap intervals).
A response the parser cannot read keeps the value the task scores it with (0 on exact-match
scores) and is marked ``no_answer`` in the score metadata; a headline score of None (e.g. an
error magnitude of a NoAnswer) becomes Inspect's NOANSWER.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from inspect_ai import Task as InspectTask
from inspect_ai import task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    Content,
    ContentImage,
    ContentText,
    GenerateConfig,
)
from inspect_ai.scorer import NOANSWER, Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState, generate

from chronoeval.core.answers import NoAnswer
from chronoeval.core.errors import ChronoevalError
from chronoeval.core.imagecheck import confine
from chronoeval.core.items import Item, TextPart
from chronoeval.core.registry import all_tasks, get_task

ROLE_MESSAGES = {
    "system": ChatMessageSystem,
    "user": ChatMessageUser,
    "assistant": ChatMessageAssistant,
}


def item_messages(item: Item, root: Path) -> list[ChatMessage]:
    """The item's chat messages with every image inlined as a data URI."""
    out: list[ChatMessage] = []
    for m in item.messages:
        content: list[Content] = []
        for p in m.content:
            if isinstance(p, TextPart):
                content.append(ContentText(text=p.text))
            else:
                data = base64.b64encode(confine(root, p.path).read_bytes()).decode("ascii")
                content.append(ContentImage(image=f"data:{p.mime};base64,{data}"))
        out.append(ROLE_MESSAGES[m.role](content=content))
    return out


@scorer(metrics=[mean(), stderr()])
def chronoeval_scorer(task_name: str, items: dict[str, Item]) -> Scorer:
    """The chronoeval task's parser and scorer; value = ``Task.headline_score``."""
    t = get_task(task_name)
    key = t.headline_score

    async def score(state: TaskState, target: Target) -> Score:
        item = items[str(state.sample_id)]
        reply = state.output.completion or ""
        answer = t.parse(reply, item)
        scores = t.score_reply(answer, reply, item)
        value = scores.get(key) if key else None
        no_answer = isinstance(answer, NoAnswer)
        return Score(
            value=NOANSWER if value is None else float(value),
            answer=str(answer) if no_answer else str(t.answer_to_json(answer)),
            explanation=f"gold {t.gold_text(item)}",
            metadata={"scores": scores, "no_answer": no_answer},
        )

    return score


def build_task(
    task_name: str,
    *,
    n: int | None = None,
    seed: int | None = None,
    data: str | None = None,
    **params: Any,
) -> InspectTask:
    from chronoeval.api import prepare_dataset

    t = get_task(task_name)
    if t.headline_score is None:
        raise ChronoevalError(
            f"task {task_name!r} declares no per-sample headline score to report in Inspect"
        )
    ds = prepare_dataset(
        t, data=Path(data) if data else None, n=n, seed=seed, params=params or None
    )
    items = {it.id: it for it in ds.items}
    samples = [
        Sample(
            input=item_messages(it, ds.root),
            target=t.gold_text(it),
            id=it.id,
            choices=list(it.choices) if it.choices else None,
            metadata={"chronoeval_task": task_name, **it.metadata},
        )
        for it in ds.items
    ]
    return InspectTask(
        dataset=MemoryDataset(samples, name=f"chronoeval/{task_name}"),
        solver=generate(),
        scorer=chronoeval_scorer(task_name, items),
        config=GenerateConfig(temperature=0.0, max_tokens=512),
        name=task_name,
    )


@task
def chronoeval(
    task: str = "clockqa",
    n: int | None = None,
    seed: int | None = None,
    data: str | None = None,
    **params: Any,
) -> InspectTask:
    """Any chronoeval task by name (``-T task=clockqa``); other ``-T`` options are the task's
    generation parameters (or its load options with ``data``)."""
    return build_task(task, n=n, seed=seed, data=data, **params)


def _register_each_task() -> None:
    """``chronoeval/<task>`` for every registered task (found through the entry point)."""
    for name in all_tasks():

        def make(name: str = name) -> Any:
            def one(
                n: int | None = None,
                seed: int | None = None,
                data: str | None = None,
                **params: Any,
            ) -> InspectTask:
                return build_task(name, n=n, seed=seed, data=data, **params)

            one.__name__ = name
            one.__doc__ = f"chronoeval task {name}: {get_task(name).description}"
            return task(name=name)(one)

        globals()[name] = make()


_register_each_task()
