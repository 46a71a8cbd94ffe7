"""Datasets on disk: ``manifest.json`` + ``items.jsonl`` + ``images/``.

Generation is deterministic for a seed; the manifest records suite, task, generator version,
parameters and seed (everything needed to regenerate the set bit for bit) and a content hash over
``items.jsonl``, whose lines carry every image's sha256, so the hash covers the pixels too.
A dataset directory is written atomically (temporary directory, then rename): a crash never leaves a
half-written dataset that looks complete.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronoeval.core import deferred_images, parsed_items, verified
from chronoeval.core.errors import DataError
from chronoeval.core.image_checks import ImageChecks
from chronoeval.core.imagecheck import confine, decode_check, plain_path_under, read_image_file
from chronoeval.core.items import ImagePart, Item

MANIFEST = "manifest.json"
ITEMS = "items.jsonl"
IMAGES = "images"


class DatasetRaceError(DataError):
    """Two runs wrote the same dataset directory at once; the other's is in place."""


@dataclass
class BuiltItem:
    """An item as a task builds it, with the bytes of the images its messages reference."""

    item: Item
    images: dict[str, bytes] = field(default_factory=dict)


def image_part(name: str, data: bytes, mime: str = "image/png") -> tuple[ImagePart, str, bytes]:
    """An image part stored as ``images/<name>``; returns (part, relative path, bytes)."""
    rel = f"{IMAGES}/{name}"
    return ImagePart(rel, hashlib.sha256(data).hexdigest(), mime), rel, data


@dataclass(frozen=True)
class Manifest:
    suite: str
    task: str
    generator_version: str
    params: dict[str, Any]
    seed: int | None
    source: str
    n_items: int
    content_hash: str

    def to_json(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "task": self.task,
            "generator_version": self.generator_version,
            "params": self.params,
            "seed": self.seed,
            "source": self.source,
            "n_items": self.n_items,
            "content_hash": self.content_hash,
        }


@dataclass
class Dataset:
    root: Path
    manifest: Manifest
    items: list[Item]

    def image_path(self, part: ImagePart) -> Path:
        return self.root / part.path

    @property
    def content_hash(self) -> str:
        return self.manifest.content_hash


def write_dataset(
    root: Path,
    built: Iterable[BuiltItem],
    *,
    suite: str,
    task: str,
    generator_version: str,
    params: dict[str, Any],
    seed: int | None,
    source: str,
    extra_files: Callable[[], dict[str, str]] | None = None,
) -> Dataset:
    """Write a dataset directory atomically and return it loaded.

    ``extra_files``: called once the items are written, ``{name: text}`` written beside them before
    the rename (an import's ``sources.json``). Another run writing the same ``root`` at once: a
    :class:`DatasetRaceError` (one line), never a raw OSError."""
    root = Path(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{root.name}.", dir=root.parent))
    try:
        (tmp / IMAGES).mkdir()
        digest = hashlib.sha256()
        items: list[Item] = []
        seen: set[str] = set()
        with open(tmp / ITEMS, "w", encoding="utf-8") as fh:
            for b in built:
                if b.item.id in seen:
                    raise DataError("duplicate item id", item_id=b.item.id, field="id")
                seen.add(b.item.id)
                for rel, data in b.images.items():
                    target = confine(tmp, rel, item_id=b.item.id, field="images")
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
                line = b.item.to_line() + "\n"
                digest.update(line.encode("utf-8"))
                fh.write(line)
                items.append(b.item)
        manifest = Manifest(
            suite=suite,
            task=task,
            generator_version=generator_version,
            params=params,
            seed=seed,
            source=source,
            n_items=len(items),
            content_hash=digest.hexdigest(),
        )
        for name, text in (extra_files() if extra_files else {}).items():
            (tmp / name).write_text(text, encoding="utf-8")
        (tmp / MANIFEST).write_text(json.dumps(manifest.to_json(), indent=2, sort_keys=True) + "\n")
        old = tmp.with_name(tmp.name + ".old")  # unique as tmp is
        with contextlib.suppress(FileNotFoundError):  # none, or another run moved it first
            os.rename(root, old)  # the old dataset out of the way in one step
        try:
            os.replace(tmp, root)
        except OSError as exc:  # another run put its own in place first
            msg = f"another run wrote this dataset at the same time ({exc.strerror}); run again"
            raise DatasetRaceError(msg, file=root) from None
        finally:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Dataset(root, manifest, items)


def load_dataset(root: Path, *, verify_images: bool = True) -> Dataset:
    """Load and validate a dataset directory.

    Every problem is one :class:`DataError` naming the file, the line or item id and the field: a
    line that is not JSON, a malformed item, a missing image, an image whose bytes do not match its
    sha256 (corrupt or replaced), a content hash that does not match the manifest.
    """
    root = Path(root)
    manifest_path = root / MANIFEST
    if not manifest_path.is_file():
        raise DataError("no manifest.json here: not a chronoeval dataset directory", file=root)
    try:
        raw = json.loads(manifest_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(
            f"not valid JSON ({exc.msg})", file=manifest_path, line=exc.lineno
        ) from None
    except RecursionError:
        raise DataError("JSON nested too deeply", file=manifest_path) from None
    if not isinstance(raw, dict):
        raise DataError("expected a JSON object", file=manifest_path)
    try:
        manifest = Manifest(**{k: raw[k] for k in Manifest.__dataclass_fields__})
    except KeyError as exc:
        raise DataError("missing key", file=manifest_path, field=str(exc.args[0])) from None
    items_path = root / ITEMS
    if not items_path.is_file():
        raise DataError("missing items.jsonl", file=items_path)
    stamp = verified.lookup(root, verify_images)  # images checked by an earlier load: skipped
    with ImageChecks(lambda *a: _check_image(*a)) as checks:  # on threads, errors in item order
        try:
            return _load(root, manifest, manifest_path, items_path, stamp, checks, verify_images)
        except DataError:
            checks.drain()  # an earlier line's image error comes first, as it always did
            raise


def _load(
    root: Path,
    manifest: Manifest,
    manifest_path: Path,
    items_path: Path,
    stamp: verified.Stamp,
    checks: ImageChecks,
    verify_images: bool,
) -> Dataset:
    base = str(root.resolve())  # once per load (a root that is a symlink may be re-pointed)
    deferred = (  # a run's load with a complete stamp: each item's checks made as it is asked
        deferred_images.for_load(root, items_path, stamp, base, _check_image, manifest.content_hash)
        if verify_images
        else None
    )

    def check_images(item: Item, lineno: int) -> None:
        """Queue the checks of the item's images that no stamp covers."""
        if deferred is not None:
            deferred.defer(item, lineno)
        elif verify_images:
            for i, part in enumerate(item.images):
                if not stamp.covers(part.path, part.sha256):
                    checks.add(root, part, items_path, lineno, item.id, i, base)

    reused = parsed_items.lookup(items_path, manifest_path)  # this process parsed it unchanged
    if reused is not None and reused[0] == manifest.content_hash:
        if verify_images:
            for lineno, item in enumerate(reused[1], start=1):  # no blank lines: line = index
                check_images(item, lineno)
            checks.drain()
            if deferred is None:  # deferred: nothing looked at yet, the stamp stays as it is
                verified.record(stamp, manifest.content_hash)
        return Dataset(root, manifest, reused[1])
    started_ns, before = parsed_items.now_ns(), parsed_items.identities(items_path, manifest_path)
    digest = hashlib.sha256()
    items: list[Item] = []
    seen: dict[str, int] = {}
    with open(items_path, "rb") as fh:
        for lineno, line_bytes in enumerate(fh, start=1):
            digest.update(line_bytes)
            if not line_bytes.strip():
                raise DataError("empty line", file=items_path, line=lineno)
            try:
                obj = json.loads(line_bytes)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise DataError(
                    f"line is not valid JSON ({exc})", file=items_path, line=lineno
                ) from None
            except RecursionError:
                raise DataError("JSON nested too deeply", file=items_path, line=lineno) from None
            try:
                item = Item.from_json(obj)
            except DataError as exc:
                raise exc.at(file=items_path, line=lineno) from None
            if item.id in seen:
                raise DataError(
                    f"duplicate item id (first on line {seen[item.id]})",
                    file=items_path,
                    line=lineno,
                    item_id=item.id,
                    field="id",
                )
            seen[item.id] = lineno
            check_images(item, lineno)
            items.append(item)
    checks.drain()  # every image's error before the file's own
    if digest.hexdigest() != manifest.content_hash:
        raise DataError(
            "content hash does not match manifest.json (items.jsonl was edited after generation); "
            "regenerate the dataset or fix the manifest",
            file=items_path,
        )
    if len(items) != manifest.n_items:
        raise DataError(
            f"manifest says {manifest.n_items} items, found {len(items)}", file=items_path
        )
    if verify_images and deferred is None:
        verified.record(stamp, manifest.content_hash)
    parsed_items.remember(items_path, manifest_path, before, started_ns, digest.hexdigest(), items)
    return Dataset(root, manifest, items)


def _check_image(
    root: Path,
    part: ImagePart,
    file: Path,
    line: int,
    item_id: str,
    i: int,
    base: str | None = None,
) -> None:
    """Confined to the dataset directory, present, matching its sha256, decodable (imagecheck).
    ``base``: ``root`` resolved (once per load); a plain path under it needs no resolving."""
    where: dict[str, Any] = {
        "file": file,
        "line": line,
        "item_id": item_id,
        "field": f"image {i} ({part.path})",
    }
    # a plain path without symlinks under the resolved root needs no resolving
    plain = plain_path_under(base, part.path) if base is not None else None
    path = Path(plain) if plain is not None else confine(root, part.path, **where)
    data = read_image_file(path, **where)
    if hashlib.sha256(data).hexdigest() != part.sha256:
        raise DataError(
            "image bytes do not match their sha256 (corrupt or replaced)",
            file=file,
            line=line,
            item_id=item_id,
            field=where["field"],
        )
    decode_check(data, **where)  # ImageChecks made the bomb warning an error
