"""Prediction files in the released output layout, scored exactly as ``eval_code/cem_f1.py`` does.

Layout (the release's ``inference.py`` output, ``output_from_<model>.jsonl``): one JSON object per
line, a sample's fields plus ``image_mm_questions_prediction``,
``paraphrase_image_mm_questions_prediction``, ``image_mm_paraphrase_completion_prediction`` and
``paraphrase_image_mm_paraphrase_completion_prediction``.

``chronoeval score mined --predictions PATH [--option cem=squad]`` prints the released summary
(``Total``, ``Overall average: CEM=…, F1=…`` to 4 decimals, per-type lines sorted by count).
:func:`export_run` writes a chronoeval run's outputs in this layout, so the two scorers can be
compared on the same predictions.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronoeval.core.errors import ChronoevalError, DataError
from chronoeval.core.registry import register_prediction_scorer
from chronoeval.suites.mined.itembuild import CONFIG_NAMES
from chronoeval.suites.mined.scoring import CEM_VARIANTS, f1, is_empty, item_score

PRED_FIELDS = tuple(f"{c}_prediction" for c in CONFIG_NAMES)


@dataclass
class FileScore:
    path: Path
    total: int
    cem: float
    f1: float
    by_type: list[tuple[str, int, float, float]] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)
    """Per line: ``cem``, ``f1`` (× 100) and ``cem_list``/``f1_list`` (None where empty)."""

    def report(self) -> str:
        """The released summary text (``<output>.txt``), line for line."""
        lines = [
            f"Total: {self.total}",
            f"Overall average: CEM={self.cem:.4f}, F1={self.f1:.4f}",
            "",
            f"Total number of types: {len(self.by_type)}",
            "Type stats (count desc):",
        ]
        lines += [f"{t} {n} {c:.4f} {f:.4f}" for t, n, c, f in self.by_type]
        return "\n".join(lines)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"not valid JSON ({exc.msg})", file=path, line=lineno) from None
            except RecursionError:
                raise DataError("JSON nested too deeply", file=path, line=lineno) from None
            if not isinstance(row, dict):
                raise DataError("expected a JSON object", file=path, line=lineno)
            gold = row.get("current_answer")
            if not isinstance(gold, str) or not gold.strip():
                raise DataError(
                    "missing or empty gold", file=path, line=lineno,
                    item_id=str(row.get("id")), field="current_answer",
                )  # fmt: skip
            row["__line"] = lineno
            rows.append(row)
    return rows


def score_file(path: Path, *, cem: str = "vqa") -> FileScore:
    """Released ``process_one_file``: per line the mean over non-empty predictions × 100 (0 if all
    empty); overall and per ``type`` means over lines."""
    try:
        compute_cem = CEM_VARIANTS[cem]
    except KeyError:
        raise ChronoevalError(f"cem must be one of {', '.join(CEM_VARIANTS)}") from None
    rows = read_jsonl(Path(path))
    items = []
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        gold = row["current_answer"]
        cem_list: list[float | None] = []
        f1_list: list[float | None] = []
        for name in PRED_FIELDS:
            pred = row.get(name, "")
            if is_empty(pred):
                cem_list.append(None)
                f1_list.append(None)
            else:
                cem_list.append(compute_cem(pred, gold))
                f1_list.append(f1(pred, gold))
        entry = {
            "id": row.get("id"),
            "line": row["__line"],
            "cem": item_score(cem_list),
            "f1": item_score(f1_list),
            "cem_list": cem_list,
            "f1_list": f1_list,
        }
        items.append(entry)
        by_type[str(row.get("type", "unknown"))].append(entry)
    n = len(items)
    types = sorted(by_type.items(), key=lambda kv: len(kv[1]), reverse=True)
    return FileScore(
        Path(path),
        n,
        sum(i["cem"] for i in items) / n if n else 0.0,
        sum(i["f1"] for i in items) / n if n else 0.0,
        [
            (t, len(g), sum(x["cem"] for x in g) / len(g), sum(x["f1"] for x in g) / len(g))
            for t, g in types
        ],
        items,
    )


def prediction_files(path: Path) -> list[Path]:
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise DataError("no such file or directory", file=path)
    files = sorted(p for p in path.rglob("*.jsonl") if not p.name.startswith("eval_"))
    if not files:
        raise DataError("no .jsonl prediction files here", file=path)
    return files


@register_prediction_scorer("mined")
def score_predictions(path: Path, options: dict[str, str]) -> str:
    """``chronoeval score mined --predictions PATH [--option cem=vqa|squad]``."""
    unknown = set(options) - {"cem"}
    if unknown:
        raise ChronoevalError(f"unknown option(s) {', '.join(sorted(unknown))}; known: cem")
    blocks = []
    files = prediction_files(path)
    for f in files:
        head = [f"== {f}"] if len(files) > 1 else []
        blocks.append("\n".join([*head, score_file(f, cem=options.get("cem", "vqa")).report()]))
    return "\n\n".join(blocks)


def export_run(run_dir: Path, out_dir: Path, model_name: str = "model") -> list[Path]:
    """Write a scored chronoeval MINED run as released-layout files
    ``<out_dir>/<subtask>/output_from_<model>.jsonl`` (one line per sample, in load order)."""
    from chronoeval.api import read_records

    records = [r for r in read_records(Path(run_dir)) if r.metadata.get("sample")]
    if not records:
        raise ChronoevalError(f"{run_dir}: no MINED records in samples.jsonl")
    samples: dict[tuple[str, str], dict[str, Any]] = {}
    for r in records:
        key = (str(r.metadata["subtask"]), str(r.metadata["sample"]))
        row = samples.setdefault(
            key,
            {
                "id": r.metadata.get("source_id"),
                "type": r.metadata.get("type"),
                "eval_type": r.metadata.get("eval_type"),
                "subject": r.metadata.get("subject"),
                "current_answer": r.target,
            },
        )
        if r.status in ("answered", "no_answer"):
            row[f"{r.metadata['config']}_prediction"] = r.response or ""
    written = []
    by_subtask: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (subtask, _), row in sorted(samples.items()):
        by_subtask[subtask].append(row)
    for subtask, rows in by_subtask.items():
        target = Path(out_dir) / subtask / f"output_from_{model_name}.jsonl"
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        written.append(target)
    return written
