"""Self-contained runs: a run directory keeps what scoring needs.

``run`` copies each task's ``manifest.json`` and ``items.jsonl`` (prompts, targets, metadata and
every image's sha256, so request keys can be recomputed) into ``<run_dir>/datasets/<task>/``;
``score`` and ``report`` read that copy, checked against the content hash recorded in config.json,
so they keep working after the dataset cache is deleted. Image bytes are not copied (scoring never
reads pixels; the report shows thumbnails only while the dataset is still there).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from chronoeval.core.dataset import ITEMS, MANIFEST, Dataset, load_dataset
from chronoeval.core.errors import ChronoevalError, DataError, StorageError

SNAPSHOTS = "datasets"


def snapshot_dir(run_dir: Path, task: str) -> Path:
    return Path(run_dir) / SNAPSHOTS / task


def snapshot_dataset(ds: Dataset, run_dir: Path, task: str) -> Path:
    """Copy a dataset's manifest and items into the run directory (once per content hash)."""
    dest = snapshot_dir(run_dir, task)
    try:
        old = json.loads((dest / MANIFEST).read_text(encoding="utf-8"))
        if old.get("content_hash") == ds.content_hash and (dest / ITEMS).is_file():
            return dest
    except (OSError, ValueError):
        pass
    tmp = dest.with_name(f".{task}.tmp")
    try:
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        shutil.copyfile(ds.root / ITEMS, tmp / ITEMS)
        shutil.copyfile(ds.root / MANIFEST, tmp / MANIFEST)
        if dest.exists():
            shutil.rmtree(dest)
        os.replace(tmp, dest)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise StorageError(
            f"{dest}: cannot keep the dataset copy scoring needs ({exc.strerror or exc}); "
            "nothing was asked yet"
        ) from None
    return dest


def dataset_for_scoring(run_dir: Path, task: str, tconf: dict[str, Any]) -> Dataset:
    """The dataset a run was asked on: the run's own copy, else (runs written before copies) the
    original directory; either must match the recorded content hash."""
    candidates = [snapshot_dir(run_dir, task), Path(tconf.get("dataset", ""))]
    problems = []
    for path in candidates:
        if not (path / MANIFEST).is_file():
            problems.append(f"{path}: absent")
            continue
        try:
            ds = load_dataset(path, verify_images=False)
        except DataError as exc:
            problems.append(str(exc))
            continue
        if ds.content_hash != tconf.get("content_hash"):
            problems.append(f"{path}: content hash differs from the run's (changed since the run)")
            continue
        return ds
    raise ChronoevalError(
        f"{run_dir}: the items of task {task!r} are not readable ({'; '.join(problems)}); re-run it"
    )


def copy_snapshots(sources: list[Path], out: Path) -> None:
    """Give a merged run the dataset copies its shards kept (each shard keeps the whole dataset)."""
    for src in sources:
        base = Path(src) / SNAPSHOTS
        if not base.is_dir():
            continue
        for task_dir in sorted(p for p in base.iterdir() if p.is_dir()):
            dest = snapshot_dir(out, task_dir.name)
            if (dest / ITEMS).is_file():
                continue
            try:
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copytree(task_dir, dest)
            except OSError as exc:
                raise StorageError(
                    f"{dest}: cannot keep the dataset copy scoring needs ({exc.strerror or exc})"
                ) from None
