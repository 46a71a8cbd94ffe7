"""One MINED sample -> four items, one per prompt configuration (the release's ``process_item``):
{image, paraphrase_image} x {mm_questions, mm_paraphrase_completion}. Aggregation regroups the four
by ``metadata["sample"]`` (see :mod:`chronoeval.suites.mined.metrics`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from chronoeval.core.dataset import BuiltItem, image_part
from chronoeval.core.items import Item, Part, TextPart, user_message
from chronoeval.suites.mined.prompts import instruction_prompt

SUITE = "mined"
CONFIGS = (
    ("image", "mm_questions"),
    ("paraphrase_image", "mm_questions"),
    ("image", "mm_paraphrase_completion"),
    ("paraphrase_image", "mm_paraphrase_completion"),
)
"""In the order of the release's ``PRED_FIELDS``; the config name is ``<image>_<question>``."""
CONFIG_NAMES = tuple(f"{img}_{q}" for img, q in CONFIGS)
CONFIG_LABELS = {
    "image_mm_questions": "Question + Image",
    "paraphrase_image_mm_questions": "Question + Generalization Image",
    "image_mm_paraphrase_completion": "Generalization Question + Image",
    "paraphrase_image_mm_paraphrase_completion": "Generalization Question + Generalization Image",
}
"""The paper's names for the four configurations (App. K, Table 13)."""

SUBTASKS = (
    "time_agnostic", "temporal_interval", "timestamp", "awareness_future", "awareness_past",
    "future_unanswerable_date", "previous_unanswerable_date", "understanding", "ranking",
    "calculation", "robustness",
)  # fmt: skip
DIMENSION = {
    "time_agnostic": "cognition",
    "temporal_interval": "cognition",
    "timestamp": "cognition",
    "awareness_future": "awareness",
    "awareness_past": "awareness",
    "future_unanswerable_date": "trustworthiness",
    "previous_unanswerable_date": "trustworthiness",
    "understanding": "understanding",
    "ranking": "reasoning",
    "calculation": "reasoning",
    "robustness": "robustness",
}
DIMENSIONS = (
    "cognition",
    "awareness",
    "trustworthiness",
    "understanding",
    "reasoning",
    "robustness",
)
PAPER_ABBREV = {
    "time_agnostic": "T.A", "temporal_interval": "T.I.A", "timestamp": "T.S.A",
    "awareness_future": "F.M.C", "awareness_past": "P.M.C", "previous_unanswerable_date": "P.U.D",
    "future_unanswerable_date": "F.U.D", "understanding": "I.T.C", "ranking": "R.K",
    "calculation": "C.A", "robustness": "A.T.E",
}  # fmt: skip


@dataclass(frozen=True)
class LoadedImage:
    """An image as it goes into an item: bytes and mime, or None (missing: text-only item)."""

    data: bytes | None
    mime: str = "image/png"
    kind: str = "photo"
    """photo | name_card | none"""


def sniff_mime(data: bytes, name: str = "") -> str:
    if data.startswith(b"\x89PNG"):
        return "image/png"
    if data.startswith(b"\xff\xd8"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    low = name.lower()
    return "image/jpeg" if low.endswith((".jpg", ".jpeg")) else "image/png"


@dataclass(frozen=True)
class SampleSpec:
    """What the four items of one sample are made of (released or regenerated)."""

    subtask: str
    key: str
    """Unique sample key within the task, e.g. ``timestamp-0007``."""
    eval_type: str
    questions: dict[str, str]
    """``mm_questions`` and ``mm_paraphrase_completion``."""
    image_names: dict[str, str]
    """``image`` and ``paraphrase_image``: the file name each image is stored under."""
    gold: str
    context: str | None
    metadata: dict[str, Any]


def sample_items(
    spec: SampleSpec,
    images: Callable[[str], LoadedImage],
    *,
    current_date: str | None,
    insert_date: str,
) -> Iterator[BuiltItem]:
    """The four configuration items of a sample; ``images(role)`` gives each image."""
    loaded = {role: images(role) for role in ("image", "paraphrase_image")}
    for (img_role, q_role), config in zip(CONFIGS, CONFIG_NAMES, strict=True):
        text = instruction_prompt(
            spec.eval_type,
            spec.questions[q_role],
            spec.context,
            current_date=current_date,
            insert_date=insert_date,
        )
        img = loaded[img_role]
        parts: list[Part] = []
        stored: dict[str, bytes] = {}
        if img.data is not None:
            part, rel, data = image_part(spec.image_names[img_role], img.data, img.mime)
            parts.append(part)
            stored[rel] = data
        parts.append(TextPart(text))
        meta = {
            **spec.metadata,
            "subtask": spec.subtask,
            "dimension": DIMENSION[spec.subtask],
            "eval_type": spec.eval_type,
            "sample": spec.key,
            "config": config,
            "image_kind": img.kind,
            "text_only": img.data is None,
        }
        yield BuiltItem(
            Item(
                f"{spec.key}-{config}",
                SUITE,
                f"mined_{spec.subtask}",
                (user_message(*parts),),
                spec.gold,
                metadata=meta,
            ),
            stored,
        )
