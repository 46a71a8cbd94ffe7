"""TemporalVQA (Imam, Lyu, Aji; arXiv 2501.10674), the paper's cross-domain test, from a local copy.

Layout (Hugging Face ``fazliimam/temporal-vqa``): parquet files under ``temporal_order/`` (columns
``image_1``, ``image_2``, ``label`` First|Second) and ``timelapse_estimation/`` (``image_1``,
``image_2``, ``label``: one of six options A–F, as the letter or the option text). Image cells are
``{"bytes": ..., "path": ...}`` structs (the ``datasets`` Image feature) or raw bytes.
Prompts are the published ones (/work/shared/peers/temporalvqa/prompts.json, copied verbatim).

Temporal order is asked in **both presentation orders** (each row gives two items, the second with
the images swapped and the gold flipped); the headline is the published *consistent accuracy*: a
row counts only when both of its items are right.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from PIL import Image

from chronoeval.core.answers import NoAnswer
from chronoeval.core.dataset import BuiltItem, image_part
from chronoeval.core.errors import DataError
from chronoeval.core.items import Item, TextPart, user_message
from chronoeval.core.registry import register_task
from chronoeval.core.stats import bootstrap_ci, mean_metric, metric
from chronoeval.core.task import SampleRecord, Task
from chronoeval.render.png import encode_png
from chronoeval.report.summary import fmt_metric
from chronoeval.suites.timepercept.parsing import parse_letter

ORDER_PROMPT = (
    "Between these two images, which one depicts the event that happened first? Provide your "
    "answer in dictionary format: {'Answer':'First image or Second image', 'Reasoning':'Brief "
    "explanation of your choice'}"
)
ORDER_PROMPT_CONCATENATED = (
    "In the given image, which side depicts the event that happened first? The first image "
    "corresponds to the left side and the second image corresponds to the right side. Provide "
    "your answer in dictionary format: {'Answer':'First image or Second image', "
    "'Reasoning':'Brief explanation of your choice'}"
)
TIMELAPSE_PROMPT = (
    "In the given image, estimate the time that has passed between the first image (left) and "
    "the second image (right). Choose one of the following options: A. Less than 15 seconds B. "
    "Between 2 minutes to 15 minutes C. Between 1 hour to 12 hours D. Between 2 days to 30 days "
    "E. Between 4 months to 12 months F. More than 3 years. Provide your answer in dictionary "
    "format: {'Answer':'Selected option', 'Reasoning':'Brief explanation of your choice'}"
)
TIMELAPSE_OPTIONS = (
    "Less than 15 seconds",
    "Between 2 minutes to 15 minutes",
    "Between 1 hour to 12 hours",
    "Between 2 days to 30 days",
    "Between 4 months to 12 months",
    "More than 3 years",
)


def _rows(root: Path, config: str) -> Iterator[tuple[str, int, dict[str, Any]]]:
    import pyarrow.parquet as pq

    folder = root / config if (root / config).is_dir() else root
    files = sorted(folder.rglob("*.parquet"))
    if not files:
        raise DataError(f"no parquet files for TemporalVQA config {config!r}", file=folder)
    for f in files:
        for i, row in enumerate(pq.read_table(f).to_pylist()):
            yield str(f), i, row


def _image(cell: Any, file: str, row: int, field: str, item_id: str) -> Image.Image:
    """A row's image cell decoded; a DataError names the file, row, item (id prefix) and field."""
    where = {"file": file, "line": row, "item_id": item_id, "field": field}
    data = cell.get("bytes") if isinstance(cell, dict) else cell
    if not isinstance(data, bytes | bytearray):
        raise DataError("no image bytes", **where)
    try:
        with Image.open(io.BytesIO(data)) as im:
            return im.convert("RGB")
    except Exception as exc:
        raise DataError(f"unreadable image ({type(exc).__name__})", **where) from None


def _side_by_side(a: Image.Image, b: Image.Image) -> Image.Image:
    h = max(a.height, b.height)
    out = Image.new("RGB", (a.width + b.width, h), (255, 255, 255))
    out.paste(a, (0, 0))
    out.paste(b, (a.width, 0))
    return out


def parse_first_second(text: str) -> str | NoAnswer:
    """ "First" or "Second" from the published answer dict ({'Answer': 'First image', ...}) or
    prose; the answer value is read before the reasoning."""
    from chronoeval.core.parsing import candidate_segments

    for seg in candidate_segments(text):
        low = seg.text.lower()
        hits = [(low.rfind(w), w) for w in ("first", "second", "left", "right")]
        found = [h for h in hits if h[0] >= 0]
        if seg.explicit or seg.source == "json":
            if found:
                word = min(found)[1]  # the answer value starts with its choice
                return "First" if word in ("first", "left") else "Second"
        elif found and len(low) <= 40:
            word = max(found)[1]
            return "First" if word in ("first", "left") else "Second"
        elif found:  # prose: the images it names ("the first image depicts the earlier event")
            named = {
                "First" if m[1] in ("first", "left") else "Second"
                for m in _NAMED_IMAGE.finditer(low)
            }
            if len(named) == 1:
                return named.pop()
    return NoAnswer("no First/Second answer")


_NAMED_IMAGE = re.compile(r"\b(first|second|left|right)\s+(?:image|picture|photo|one|side)\b")


class _TVQA(Task):
    suite = "temporalvqa"
    version = "1"
    default_params: ClassVar[dict[str, Any]] = {}
    load_params: ClassVar[dict[str, Any]] = {}
    headline_score: ClassVar[str | None] = "correct"

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        return {"correct": float(not isinstance(answer, NoAnswer) and answer == item.target)}

    def chance(self, metrics: dict[str, Any]) -> float | None:
        return metrics.get("chance")


@register_task
class TemporalVQAOrder(_TVQA):
    name = "tvqa_order"
    description = "TemporalVQA temporal order (local copy): which image is first; both orders"
    load_params: ClassVar[dict[str, Any]] = {"concatenated": False}
    headline_score = None  # the headline (consistent accuracy) pairs two items per row
    paired_unit = "row"
    paired_unit_score = "correct"
    paired_unit_all = True
    """Paired tests (report/compare.py) compare consistent accuracy: one 0/1 value per row, right
    only when every scored order of the row is right."""

    def load(self, path: Path, params: dict[str, Any]) -> Iterator[BuiltItem]:
        concat = str(params.get("concatenated", False)).lower() in ("1", "true", "yes")
        for file, i, row in _rows(Path(path), "temporal_order"):
            label = str(row.get("label", "")).strip().capitalize()
            if label not in ("First", "Second"):
                raise DataError("label must be First or Second", file=file, line=i, field="label")
            stem = f"tvqa-order-{Path(file).stem}-{i:05d}"  # the row's two items: -ab, -ba
            a = _image(row.get("image_1"), file, i, "image_1", stem)
            b = _image(row.get("image_2"), file, i, "image_2", stem)
            for swap in (False, True):
                first, second = (b, a) if swap else (a, b)
                gold = label if not swap else ("Second" if label == "First" else "First")
                iid = f"{stem}-{'ba' if swap else 'ab'}"
                if concat:
                    part, rel, data = image_part(
                        f"{iid}.png", encode_png(_side_by_side(first, second))
                    )
                    images = {rel: data}
                    parts = [part, TextPart(ORDER_PROMPT_CONCATENATED)]
                else:
                    p1, r1, d1 = image_part(f"{iid}-1.png", encode_png(first))
                    p2, r2, d2 = image_part(f"{iid}-2.png", encode_png(second))
                    images = {r1: d1, r2: d2}
                    parts = [p1, p2, TextPart(ORDER_PROMPT)]
                yield BuiltItem(
                    Item(
                        iid,
                        self.suite,
                        self.name,
                        (user_message(*parts),),
                        gold,
                        metadata={"row": f"{Path(file).name}:{i}", "swapped": swap},
                    ),
                    images,
                )

    def parse(self, text: str, item: Item) -> str | NoAnswer:
        return parse_first_second(text)

    def random_answer(self, rng: random.Random) -> str:
        return rng.choice(["{'Answer': 'First image'}", "{'Answer': 'Second image'}"])

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        """Consistent accuracy (TemporalVQA's metric): a row is right only when both of its
        presentation orders are answered correctly; a row with a missing order counts wrong."""
        rows: dict[str, list[float]] = {}
        for r in records:
            rows.setdefault(str(r.metadata.get("row")), []).append(
                float(r.scores.get("correct") or 0.0)
            )
        both = np.array([float(len(v) == 2 and all(v)) for v in rows.values()])
        consistent = metric(
            float(both.mean()) if len(both) else None, bootstrap_ci(both, seed=seed), len(both)
        )
        return {
            "overall": {
                "consistent_accuracy": consistent,
                "accuracy": mean_metric(
                    [float(r.scores.get("correct") or 0) for r in records], seed=seed
                ),
            },
            "chance": 0.25,
        }

    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("consistent accuracy", metrics["overall"]["consistent_accuracy"])

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        o = results["metrics"]["overall"]
        return [
            ("consistent acc %", fmt_metric(o["consistent_accuracy"], pct=True)),
            ("accuracy %", fmt_metric(o["accuracy"], pct=True)),
            ("chance", "25.0% consistent, 50.0% per item"),
        ]


@register_task
class TemporalVQATimelapse(_TVQA):
    name = "tvqa_timelapse"
    description = "TemporalVQA time-lapse estimation (local copy): six options A-F"

    def load(self, path: Path, params: dict[str, Any]) -> Iterator[BuiltItem]:
        for file, i, row in _rows(Path(path), "timelapse_estimation"):
            raw = str(row.get("label", "")).strip()
            gold = parse_letter(raw, "ABCDEF", TIMELAPSE_OPTIONS)
            if isinstance(gold, NoAnswer):
                raise DataError(
                    f"label {raw!r} is not one of A-F or an option text",
                    file=file,
                    line=i,
                    field="label",
                )
            iid = f"tvqa-timelapse-{Path(file).stem}-{i:05d}"
            a = _image(row.get("image_1"), file, i, "image_1", iid)
            b = _image(row.get("image_2"), file, i, "image_2", iid)
            part, rel, data = image_part(f"{iid}.png", encode_png(_side_by_side(a, b)))
            yield BuiltItem(
                Item(
                    iid,
                    self.suite,
                    self.name,
                    (user_message(part, TextPart(TIMELAPSE_PROMPT)),),
                    gold,
                    choices=TIMELAPSE_OPTIONS,
                    metadata={"row": f"{Path(file).name}:{i}"},
                ),
                {rel: data},
            )

    def parse(self, text: str, item: Item) -> str | NoAnswer:
        return parse_letter(text, "ABCDEF", TIMELAPSE_OPTIONS)

    def random_answer(self, rng: random.Random) -> str:
        return f"{{'Answer': '{rng.choice('ABCDEF')}'}}"

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        return {
            "overall": {
                "accuracy": mean_metric(
                    [float(r.scores.get("correct") or 0) for r in records], seed=seed
                )
            },
            "chance": 1 / 6,
        }

    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("accuracy", metrics["overall"]["accuracy"])

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        return [
            ("accuracy %", fmt_metric(results["metrics"]["overall"]["accuracy"], pct=True)),
            ("chance", "16.7%"),
        ]


def pooled_overall(order: dict[str, Any], timelapse: dict[str, Any]) -> dict[str, Any]:
    """TimePerceptBench Table 4's "Overall Accuracy" on TemporalVQA: per-item accuracy pooled over
    both tasks, ``(n_TOU·acc_TOU + n_TIU·acc_TIU) / (n_TOU + n_TIU)`` — it reproduces every row of
    the table from its TOU (720 items: 360 rows in both orders) and TIU (125) columns, e.g.
    InternVL (720·0.5 + 125·0.256) / 845 = 46.39 %. ``order``/``timelapse``: the two tasks'
    ``metrics["overall"]["accuracy"]`` entries. No interval: the pooled mean of two bootstraps is
    not one; the counts are given instead."""
    parts = [(order["n"], order["value"]), (timelapse["n"], timelapse["value"])]
    if any(v is None for _, v in parts):
        return metric(None, None, sum(n for n, _ in parts))
    total = sum(n for n, _ in parts)
    value = sum(n * v for n, v in parts) / total if total else None
    return {
        **metric(value, None, total),
        "n_order": order["n"],
        "n_timelapse": timelapse["n"],
    }
