"""The paper's RAG pipeline shape (Seeing Time Sec. VII-D, Algorithm 2), year and dynasty.

Stages, as Algorithm 2 orders them:

1. **describe** (line 1): a model (``describer``, any backend spec) is asked to describe the
   image's visual anchors (:data:`DESCRIBE_PROMPT`, with the item's images, nothing else);
2. **query** (lines 2–3): the description with year and dynasty terms removed
   (:func:`~chronoeval.suites.seeing_time.rag.strip_time_terms`, the leakage rule);
3. **retrieve** (lines 4–13): top-k passages of a local corpus by embedding similarity
   (:class:`~chronoeval.suites.seeing_time.rag.RagIndex`; no web search, no four-term re-ranking:
   docs/suites/seeing_time.md G3);
4. **vote** (lines 14–15): ``V(c) = Σ similarity`` over retrieved passages that name ``c`` — a year
   (:func:`~chronoeval.suites.seeing_time.rag.vote_year`) for News-Year, a dynasty
   (:func:`vote_dynasty`) for Artifacts localization; recorded per item and scored as the
   retrieval-only prediction;
5. **answer** (line 16): the answering model gets the original item (image + prompt) with the
   retrieved passages appended, through an ordinary run of the task (its parser and metrics).

Stage 1 runs through the engine (``describe/`` run store: retries, resume, failures recorded). An
item whose description failed keeps its place: its query falls back to the item's question text
(``metadata.rag.describe_error``), counted in the summary — nothing leaves the denominator.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chronoeval.core.dataset import BuiltItem, write_dataset
from chronoeval.core.errors import ChronoevalError
from chronoeval.core.items import ImagePart, Item, Message, TextPart
from chronoeval.core.registry import get_task
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import Job, ask_all
from chronoeval.engine.store import RunStore
from chronoeval.models.registry import BackendOptions, make_backend
from chronoeval.suites.seeing_time.eras import DYNASTIES
from chronoeval.suites.seeing_time.rag import (
    Passage,
    context_block,
    index_for,
    question_text,
    strip_time_terms,
    vote_year,
)

DESCRIBE_PROMPT = (
    "Describe the visual anchors in this image that could help date it: objects, materials, "
    "decorative patterns, clothing, architecture, technology, vehicles, inscriptions. Do not "
    "guess a year, decade, century or dynasty."
)
"""Stage 1's prompt (the paper prints none; ours asks for anchors, not a date)."""

TARGET_KIND = {
    "seeing_localization": "dynasty",
    "seeing_year": "year",
    "seeing_year_conf": "year",
}
"""Which vote a task's pipeline uses (Table VIII: Dynasty_RAG, Year_RAG)."""


def vote_dynasty(hits: Sequence[tuple[Passage, float]]) -> str | None:
    """Algorithm 2, lines 14–15, for dynasties: V(d) = Σ similarity over retrieved passages naming
    dynasty d (English name as a whole word, or its Chinese character followed by 朝/代 or in the
    release's "唐(Tang Dynasty)" form); argmax, ties to the earlier dynasty. Passages with
    non-positive similarity do not vote."""
    votes: dict[str, float] = {}
    for p, s in hits:
        if s <= 0:
            continue
        for d in DYNASTIES:
            if re.search(rf"(?<!\w){d.key}(?!\w)", p.text, flags=re.I) or re.search(
                rf"{d.chinese}[朝代(（]", p.text
            ):
                votes[d.key] = votes.get(d.key, 0.0) + s
    if not votes:
        return None
    order = [d.key for d in DYNASTIES]
    return min(votes, key=lambda k: (-votes[k], order.index(k)))


def describe_item(item: Item) -> tuple[Message, ...]:
    """Stage 1's request: the describe prompt and the item's images (no other text)."""
    images = [p for m in item.messages for p in m.content if isinstance(p, ImagePart)]
    if not images:
        raise ChronoevalError(f"{item.id}: the RAG pipeline needs an image to describe")
    return (Message("user", (TextPart(DESCRIBE_PROMPT), *images)),)


def describe(
    items: Sequence[Item],
    root: Path,
    describer: str,
    task_name: str,
    out: Path,
    options: BackendOptions,
    concurrency: int = 4,
) -> dict[str, tuple[str | None, str | None]]:
    """Item id -> (description, error), through the engine (store in ``out``)."""
    task = get_task(task_name)
    backend = make_backend(describer, task, list(items), options)
    config = GenerationConfig()
    jobs = []
    keys = {}
    for it in items:
        req = Request(describe_item(it), config, image_root=root)
        key = req.key(backend.identity)
        keys[it.id] = key
        jobs.append(Job(key, it.id, "rag-describe", req))
    out.mkdir(parents=True, exist_ok=True)
    with RunStore.in_dir(out) as store:
        ask_all(
            jobs,
            backend,
            store,
            concurrency=concurrency,
            progress=False,
            description="describe",
        )
        stored = store.all()
    result: dict[str, tuple[str | None, str | None]] = {}
    for it in items:
        got = stored.get(keys[it.id])
        if got is None:
            result[it.id] = (None, "never answered")
        elif got.ok and got.text:
            result[it.id] = (got.text, None)
        else:
            result[it.id] = (None, got.error or "empty description")
    return result


def augmented_items(
    items: Sequence[Item],
    root: Path,
    descriptions: dict[str, tuple[str | None, str | None]],
    corpus: str | Path,
    k: int,
    kind: str,
    model: str | None = None,
) -> list[BuiltItem]:
    """Stages 2–4 per item; the item with the top-k passages appended (stage 5's input)."""
    index = index_for(corpus, model)
    out = []
    for it in items:
        text, error = descriptions[it.id]
        source = text if text is not None else question_text(it)
        query = strip_time_terms(source)
        hits = index.search(query or source, k)
        vote: Any = vote_dynasty(hits) if kind == "dynasty" else vote_year(hits)
        msgs = list(it.messages)
        last = max(i for i, m in enumerate(msgs) if m.role == "user")
        msgs[last] = Message("user", (*msgs[last].content, TextPart(context_block(hits))))
        rag = {
            "description": text,
            "describe_error": error,
            "query": query,
            "passages": [{"id": p.id, "score": round(s, 4)} for p, s in hits],
            "vote": vote,
        }
        images = {
            p.path: (root / p.path).read_bytes()
            for m in it.messages
            for p in m.content
            if isinstance(p, ImagePart)
        }
        new = dataclasses.replace(it, messages=tuple(msgs), metadata={**it.metadata, "rag": rag})
        out.append(BuiltItem(new, images))
    return out


def vote_summary(built: Sequence[BuiltItem], kind: str) -> dict[str, Any]:
    """The retrieval-only prediction (stage 4) scored against the gold: dynasty accuracy, or the
    released news-year rules (accuracy over all, MAE over valid)."""
    from chronoeval.suites.seeing_time.metrics import year_scores, year_summary

    if kind == "year":
        scores = [year_scores(b.item.metadata["rag"]["vote"], int(b.item.target)) for b in built]
        return year_summary(scores)
    right = [float(b.item.metadata["rag"]["vote"] == b.item.target) for b in built]
    return {
        "accuracy": sum(right) / len(right) if right else None,
        "n": len(right),
        "no_vote": sum(b.item.metadata["rag"]["vote"] is None for b in built),
    }


def run_pipeline(
    task_name: str,
    describer: str,
    model: str,
    corpus: str | Path,
    out: Path,
    *,
    data: Path | None = None,
    n: int | None = None,
    params: dict[str, Any] | None = None,
    k: int = 3,
    options: BackendOptions | None = None,
    rag_model: str | None = None,
    zero_shot: bool = True,
) -> dict[str, Any]:
    """All five stages; with ``zero_shot`` also the plain run of the same items (Table VIII's ZS
    column), so the summary has both numbers side by side."""
    from chronoeval import api

    if task_name not in TARGET_KIND:
        raise ChronoevalError(
            f"the RAG pipeline runs {', '.join(sorted(TARGET_KIND))}; got {task_name!r}"
        )
    kind = TARGET_KIND[task_name]
    task = get_task(task_name)
    options = options or BackendOptions()
    out = Path(out)
    ds = api.prepare_dataset(task, data=data, n=n, params=params)
    items = list(ds.items[:n] if n else ds.items)
    descriptions = describe(items, ds.root, describer, task_name, out / "describe", options)
    built = augmented_items(items, ds.root, descriptions, corpus, k, kind, rag_model)
    rag_ds = write_dataset(
        out / "dataset",
        built,
        suite=task.suite,
        task=task.name,
        generator_version=task.version,
        params={"describer": describer, "corpus": str(corpus), "k": k},
        seed=ds.manifest.seed,
        source=f"rag-pipeline:{ds.manifest.source}",
    )
    rag_run = api.run(
        [task_name], model, data=rag_ds.root, run_dir=out / "rag", backend_options=options,
        progress=False, plots=False,
    )  # fmt: skip
    summary: dict[str, Any] = {
        "task": task_name,
        "kind": kind,
        "n": len(items),
        "describer": describer,
        "model": model,
        "k": k,
        "describe_errors": sum(err is not None for _, err in descriptions.values()),
        "vote_only": vote_summary(built, kind),
        "rag": rag_run.results["tasks"][task_name]["metrics"].get("overall", {}),
        "rag_run": str(rag_run.run_dir),
    }
    if zero_shot:
        zs = api.run(
            [task_name], model, data=ds.root, run_dir=out / "zero-shot", backend_options=options,
            progress=False, plots=False,
        )  # fmt: skip
        summary["zero_shot"] = zs.results["tasks"][task_name]["metrics"].get("overall", {})
    return summary
