"""Exports of a chronoeval dataset directory into layouts other tools read.

- ``hf``: a Hugging Face ``datasets`` Parquet dataset (``data/test-00000-of-00001.parquet`` plus a
  dataset card), images embedded as ``{"bytes", "path"}`` structs with the ``datasets`` feature
  metadata, so ``datasets.load_dataset("parquet", data_files=...)`` (or the directory itself)
  decodes them as images. Written with pyarrow alone: ``datasets`` is not needed to export.
- published layouts registered by name (``datetimeqa`` for the Lost in Time tasks, in
  :mod:`chronoeval.integrations.datetimeqa`).

Columns of the ``hf`` layout: ``id``, ``suite``, ``task``, ``question`` (the text of the prompt),
``image`` (the first image, or null), ``images`` (all images, in prompt order), ``messages``
(the chat messages as JSON, each image part replaced by ``{"type": "image", "index": k}`` into
``images``), ``answer`` (the gold as a model would write it), ``target`` (the gold as JSON),
``choices`` (list or null), ``metadata`` (JSON).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chronoeval.core.dataset import Dataset
from chronoeval.core.errors import ChronoevalError, DataError, UnknownNameError
from chronoeval.core.items import ImagePart, Item, TextPart
from chronoeval.core.registry import get_task

Exporter = Callable[[Dataset, Path], list[Path]]
_LAYOUTS: dict[str, Exporter] = {}

IMAGE = {"_type": "Image"}
STRING = {"dtype": "string", "_type": "Value"}
HF_FEATURES: dict[str, Any] = {
    "id": STRING,
    "suite": STRING,
    "task": STRING,
    "question": STRING,
    "image": IMAGE,
    "images": [IMAGE],
    "messages": STRING,
    "answer": STRING,
    "target": STRING,
    "choices": [STRING],
    "metadata": STRING,
}
"""``datasets`` feature metadata (the list shorthand ``[feature]`` is read by datasets 3 to 5)."""


def register_layout(name: str) -> Callable[[Exporter], Exporter]:
    def deco(fn: Exporter) -> Exporter:
        _LAYOUTS[name] = fn
        return fn

    return deco


def layouts() -> list[str]:
    import chronoeval.integrations.datetimeqa  # noqa: F401 - registers its layout

    return sorted(_LAYOUTS)


def export_dataset(ds: Dataset, out: Path, *, layout: str = "hf") -> list[Path]:
    """Write ``ds`` in ``layout`` under ``out`` (refusing a non-empty ``out``); returns the files."""
    known = layouts()
    if layout not in known:
        raise UnknownNameError("export layout", layout, known)
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        raise ChronoevalError(f"{out} exists and is not empty; choose a new directory")
    out.mkdir(parents=True, exist_ok=True)
    return _LAYOUTS[layout](ds, out)


def image_bytes(ds: Dataset, item: Item, part: ImagePart) -> bytes:
    path = ds.image_path(part)
    try:
        return path.read_bytes()
    except OSError:
        raise DataError(
            "image file is missing", file=path, item_id=item.id, field=part.path
        ) from None


def _messages_json(item: Item) -> str:
    index = 0
    out = []
    for m in item.messages:
        parts = []
        for p in m.content:
            if isinstance(p, TextPart):
                parts.append({"type": "text", "text": p.text})
            else:
                parts.append({"type": "image", "index": index})
                index += 1
        out.append({"role": m.role, "content": parts})
    return json.dumps(out, ensure_ascii=False)


def prompt_text(item: Item) -> str:
    return "\n\n".join(m.text for m in item.messages if m.text)


@register_layout("hf")
def export_hf(ds: Dataset, out: Path) -> list[Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    task = get_task(ds.manifest.task)
    rows: dict[str, list[Any]] = {k: [] for k in HF_FEATURES}
    for item in ds.items:
        images = [
            {"bytes": image_bytes(ds, item, p), "path": Path(p.path).name} for p in item.images
        ]
        rows["id"].append(item.id)
        rows["suite"].append(item.suite)
        rows["task"].append(item.task)
        rows["question"].append(prompt_text(item))
        rows["image"].append(images[0] if images else None)
        rows["images"].append(images)
        rows["messages"].append(_messages_json(item))
        rows["answer"].append(task.gold_text(item))
        rows["target"].append(json.dumps(item.target, ensure_ascii=False))
        rows["choices"].append(list(item.choices) if item.choices is not None else None)
        rows["metadata"].append(json.dumps(item.metadata, ensure_ascii=False, sort_keys=True))
    img = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    schema = pa.schema(
        [
            ("id", pa.string()),
            ("suite", pa.string()),
            ("task", pa.string()),
            ("question", pa.string()),
            ("image", img),
            ("images", pa.list_(img)),
            ("messages", pa.string()),
            ("answer", pa.string()),
            ("target", pa.string()),
            ("choices", pa.list_(pa.string())),
            ("metadata", pa.string()),
        ],
        metadata={"huggingface": json.dumps({"info": {"features": HF_FEATURES}})},
    )
    table = pa.table(rows, schema=schema)
    data = out / "data"
    data.mkdir()
    parquet = data / "test-00000-of-00001.parquet"
    pq.write_table(table, parquet)
    shutil.copyfile(ds.root / "manifest.json", out / "chronoeval_manifest.json")
    card = out / "README.md"
    m = ds.manifest
    card.write_text(
        "---\nconfigs:\n- config_name: default\n  data_files:\n  - split: test\n"
        "    path: data/test-*.parquet\n---\n\n"
        f"# {m.task} ({m.suite}), exported by chronoeval\n\n"
        f"{len(ds.items)} items; generator version {m.generator_version}, seed {m.seed}, "
        f"params `{json.dumps(m.params, sort_keys=True)}`, content hash `{m.content_hash}` "
        "(see chronoeval_manifest.json).\n\n"
        "```python\nimport datasets\n"
        'ds = datasets.load_dataset("parquet", data_files="data/test-*.parquet", split="train")\n'
        "```\n\nColumns: id, suite, task, question, image, images, messages (JSON; image parts "
        "index into `images`), answer, target (JSON), choices, metadata (JSON).\n",
        encoding="utf-8",
    )
    return [parquet, out / "chronoeval_manifest.json", card]
