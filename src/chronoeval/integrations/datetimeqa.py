"""Export to the published DateTimeQA layout (Hugging Face ``rohitsaxena/DateTimeQA``), which the
Lost in Time loader (:mod:`chronoeval.suites.lost_in_time.loader`) reads back.

One Parquet file per split, ``data/<split>-00000-of-00001.parquet``, with the columns the release
has: ``question``, ``answer``, ``image`` (``{"bytes", "path"}``, feature ``Image``) and ``type``
(the item's category: the value of the task's first ``group_by`` metadata key). Items must have
exactly one image and a text question.
"""

from __future__ import annotations

import json
from pathlib import Path

from chronoeval.core.dataset import Dataset
from chronoeval.core.errors import ChronoevalError, DataError
from chronoeval.core.registry import get_task
from chronoeval.report.export import image_bytes, prompt_text, register_layout

SPLITS = {"clockqa": "clock", "calendarqa": "calendar"}
"""Task name -> DateTimeQA split name (the tasks this layout exists for)."""


@register_layout("datetimeqa")
def export_datetimeqa(ds: Dataset, out: Path) -> list[Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = ds.manifest.task
    if name not in SPLITS:
        raise ChronoevalError(
            f"the DateTimeQA layout holds {', '.join(SPLITS)} items, not {name!r}; use --layout hf"
        )
    task = get_task(name)
    key = task.group_by[0] if task.group_by else None
    rows: dict[str, list] = {"question": [], "answer": [], "image": [], "type": []}
    for item in ds.items:
        if len(item.images) != 1:
            raise DataError(
                f"DateTimeQA rows have one image; this item has {len(item.images)}",
                item_id=item.id,
                field="messages",
            )
        part = item.images[0]
        rows["question"].append(prompt_text(item))
        rows["answer"].append(task.gold_text(item))
        rows["image"].append({"bytes": image_bytes(ds, item, part), "path": Path(part.path).name})
        rows["type"].append(str(item.metadata.get(key, "all")) if key else "all")
    img = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    features = {
        "question": {"dtype": "string", "_type": "Value"},
        "answer": {"dtype": "string", "_type": "Value"},
        "image": {"_type": "Image"},
        "type": {"dtype": "string", "_type": "Value"},
    }
    schema = pa.schema(
        [("question", pa.string()), ("answer", pa.string()), ("image", img), ("type", pa.string())],
        metadata={"huggingface": json.dumps({"info": {"features": features}})},
    )
    (out / "data").mkdir()
    path = out / "data" / f"{SPLITS[name]}-00000-of-00001.parquet"
    pq.write_table(pa.table(rows, schema=schema), path)
    return [path]
