"""Reader for the released MINED files (github MINED-LMM/MINED ``mined_data/*.json``; Hugging Face
``kailinjiang/MINED``): one JSON list per subtask, 2,104 samples in 11 files.

``path`` is one of those files or a directory holding them (searched recursively; the file whose
name ends in ``_<subtask>.json`` is used). Images are not in the JSON: each sample names an
``image`` and a ``paraphrase_image`` relative to an images root (the extracted
``imgs/MINED_Image.zip``), given as ``images_root`` (default: the data directory).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from chronoeval.core.errors import DataError
from chronoeval.suites.mined.knowledge import Attribute, parse_answers

SUBTASK_FILES = {
    "time_agnostic": "Dimension1_time_agnostic.json",
    "temporal_interval": "Dimension1_temporal_interval.json",
    "timestamp": "Dimension1_timestamp.json",
    "awareness_future": "Dimension2_awareness_future.json",
    "awareness_past": "Dimension2_awareness_past.json",
    "future_unanswerable_date": "Dimension3_future_unanswerable_date.json",
    "previous_unanswerable_date": "Dimension3_previous_unanswerable_date.json",
    "understanding": "Dimension4_understanding.json",
    "ranking": "Dimension5_ranking.json",
    "calculation": "Dimension5_calculation.json",
    "robustness": "Dimension6_robustness.json",
}
SUBTASK_EVAL_TYPES = {
    "time_agnostic": ("openqa", "time_agnostic"),
    "robustness": ("robustness_openqa", "robustness_temporal_interval", "robustness_timestamp"),
}
REQUIRED = (
    "id", "type", "eval_type", "subject", "hypernym", "mm_questions", "mm_paraphrase_completion",
    "image", "paraphrase_image", "answers", "current_answer",
)  # fmt: skip


@dataclass(frozen=True)
class ReleasedSample:
    """One validated sample of a released file (position ``index`` in its file)."""

    file: Path
    index: int
    raw: dict[str, Any]
    attributes: tuple[Attribute, ...]

    @property
    def source_id(self) -> Any:
        return self.raw["id"]

    @property
    def where(self) -> dict[str, Any]:
        return {"file": self.file, "line": None, "item_id": f"id={self.raw.get('id')}"}


def eval_types_of(subtask: str) -> tuple[str, ...]:
    return SUBTASK_EVAL_TYPES.get(subtask, (subtask,))


def find_file(path: Path, subtask: str) -> Path:
    """The released file for ``subtask``: ``path`` itself, or the one in the directory."""
    path = Path(path)
    if path.is_file():
        return path
    if not path.is_dir():
        raise DataError("no such file or directory", file=path)
    suffix = f"_{subtask}.json"
    found = sorted(p for p in path.rglob("*.json") if p.name.endswith(suffix))
    if not found:
        raise DataError(
            f"no released MINED file for subtask {subtask!r} (a name ending in {suffix!r}, "
            f"e.g. {SUBTASK_FILES[subtask]})",
            file=path,
        )
    if len(found) > 1:
        raise DataError(
            f"several files for subtask {subtask!r}: {', '.join(str(p) for p in found)}", file=path
        )
    return found[0]


def read_released(path: Path, subtask: str) -> list[ReleasedSample]:
    """Every sample of the subtask's file, validated; errors name file, sample and field."""
    file = find_file(path, subtask)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON ({exc.msg})", file=file, line=exc.lineno) from None
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text ({exc})", file=file) from None
    if not isinstance(data, list):
        raise DataError("expected a JSON list of samples", file=file)
    allowed = eval_types_of(subtask)
    out = []
    for i, raw in enumerate(data):
        where = {
            "file": file,
            "item_id": f"#{i} (id={raw.get('id') if isinstance(raw, dict) else '?'})",
        }
        if not isinstance(raw, dict):
            raise DataError("sample is not a JSON object", **where)
        for key in REQUIRED:
            if key not in raw:
                raise DataError("missing", field=key, **where)
        for key in REQUIRED[1:]:
            if key != "answers" and (not isinstance(raw[key], str) or not raw[key].strip()):
                raise DataError("must be a non-empty string", field=key, **where)
        if raw["eval_type"] not in allowed:
            raise DataError(
                f"eval_type {raw['eval_type']!r} does not belong to subtask {subtask!r} "
                f"(expected {', '.join(allowed)})",
                field="eval_type",
                **where,
            )
        if raw["eval_type"].startswith("awareness") and not isinstance(raw.get("context"), str):
            raise DataError("awareness samples need a context string", field="context", **where)
        for key in ("image", "paraphrase_image"):
            p = PurePosixPath(raw[key].replace("\\", "/"))
            if p.is_absolute() or ".." in p.parts:
                raise DataError("image path must be relative, without '..'", field=key, **where)
        attrs = parse_answers(raw["answers"], where=where)
        out.append(ReleasedSample(file, i, raw, tuple(attrs)))
    return out
