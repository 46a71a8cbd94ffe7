"""Loader for the published DateTimeQA layout (Hugging Face ``rohitsaxena/DateTimeQA``), from disk.

Splits ``clock`` and ``calendar`` as Parquet files with columns ``question``, ``answer``, ``image``
and (for clocks, required) ``type``; the image is Parquet-embedded bytes (``{"bytes", "path"}`` as
``datasets`` writes it), raw bytes, or a path relative to the Parquet file. ``path`` may be one
Parquet file or a directory (a dataset snapshot): there, files whose name contains the split name
are used, or every Parquet file if none does. Nothing is fetched from the network.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from chronoeval.core.errors import DataError
from chronoeval.core.imagecheck import confine, read_image_file

REQUIRED = {
    "clock": ("type", "question", "answer", "image"),
    "calendar": ("question", "answer", "image"),
}
CATEGORY_COLUMNS = ("type", "category", "question_type")


@dataclass(frozen=True)
class DateTimeQARow:
    row: int
    item_id: str
    question: str
    answer: str
    category: str
    image: bytes
    image_name: str


def parquet_files(path: Path, split: str) -> list[Path]:
    path = Path(path)
    if path.is_file():
        return [path]
    files = sorted(path.rglob("*.parquet"))
    named = [f for f in files if split in f.name.lower() or split in str(f.parent).lower()]
    chosen = named or files
    if not chosen:
        raise DataError(f"no Parquet files for split {split!r}", file=path)
    return chosen


def load_datetimeqa(path: Path, split: str) -> Iterator[DateTimeQARow]:
    import pyarrow.parquet as pq

    row_no = 0
    for file in parquet_files(path, split):
        try:
            table = pq.read_table(file)
        except Exception as exc:  # pyarrow raises several types for unreadable files
            raise DataError(f"not a readable Parquet file ({exc})", file=file) from None
        missing = [c for c in REQUIRED[split] if c not in table.column_names]
        if missing:
            raise DataError(
                f"missing column(s) {', '.join(missing)}; found {', '.join(table.column_names)}",
                file=file,
                field=missing[0],
            )
        category_col = next((c for c in CATEGORY_COLUMNS if c in table.column_names), None)
        for i, rec in enumerate(table.to_pylist()):
            item_id = f"datetimeqa-{split}-{row_no:04d}"
            where = {"file": file, "line": i + 1, "item_id": item_id}
            for col in ("question", "answer"):
                if not isinstance(rec[col], str) or not rec[col].strip():
                    raise DataError("must be a non-empty string", field=col, **where)
            data = _image_bytes(rec["image"], file.parent, where)
            try:
                with Image.open(io.BytesIO(data)) as im:
                    im.load()
                    ext = (im.format or "png").lower()
            except (UnidentifiedImageError, OSError, ValueError) as exc:
                raise DataError(
                    f"image cannot be decoded ({exc})", field="image", **where
                ) from None
            yield DateTimeQARow(
                row=i,
                item_id=item_id,
                question=rec["question"].strip(),
                answer=rec["answer"].strip(),
                category=str(rec[category_col]) if category_col else "all",
                image=data,
                image_name=f"{item_id}.{'jpg' if ext == 'jpeg' else ext}",
            )
            row_no += 1


def _image_bytes(value: Any, base: Path, where: dict[str, Any]) -> bytes:
    if isinstance(value, dict):
        if value.get("bytes"):
            return bytes(value["bytes"])
        value = value.get("path")
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str) and value:
        return read_image_file(confine(base, value, field="image", **where), field="image", **where)
    raise DataError("no image bytes or path", field="image", **where)
