"""Collections: timestamped images grouped by location, from which every task samples.

Three sources, one shape (:class:`Collection`):

- :func:`synthetic_collection` — the time-lapse generator (:mod:`.scenes`), rendered lazily;
- :func:`load_manifest` — a plain CSV or JSONL manifest (``location, image, timestamp, category``
  and optionally ``cloud_cover``), image paths relative to the manifest;
- :func:`load_fmow` — the fMoW layout
  ``{split}/{category}/{category}_{loc}/{category}_{loc}_{view}_rgb.{jpg,json}``.

Loading never drops anything silently: bad timestamps, unreadable images, images over the cloud
limit and locations left with fewer images than a task needs are counted in a :class:`LoadReport`
(with the first few paths of each kind) that the tasks log and ``chronoeval timepercept inspect``
prints.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image

from chronoeval.core.errors import DataError
from chronoeval.core.imagecheck import confine
from chronoeval.render.png import encode_png
from chronoeval.suites.timepercept.scenes import (
    CATEGORIES,
    SIZE,
    Scene,
    cloud_cover,
    observation_times,
)

log = logging.getLogger("chronoeval.timepercept")

MANIFEST_FIELDS = ("location", "image", "timestamp", "category")


@dataclass(frozen=True)
class Observation:
    """One timestamped image of one location."""

    location: str
    category: str
    timestamp: datetime  # timezone-aware (UTC)
    key: str  # unique within the collection; used for image file names
    source: str  # a file path, or "synthetic:<seed>"
    cloud_cover: float | None = None

    @property
    def day(self) -> date:
        return self.timestamp.astimezone(UTC).date()


@dataclass
class LoadReport:
    """What loading kept and what it refused, by reason (with up to 5 examples each)."""

    source: str
    images_seen: int = 0
    images_kept: int = 0
    dropped: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def drop(self, reason: str, where: str) -> None:
        self.dropped[reason] += 1
        ex = self.examples.setdefault(reason, [])
        if len(ex) < 5:
            ex.append(where)

    def copy(self) -> LoadReport:
        return LoadReport(
            self.source,
            self.images_seen,
            self.images_kept,
            Counter(self.dropped),
            {k: list(v) for k, v in self.examples.items()},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "images_seen": self.images_seen,
            "images_kept": self.images_kept,
            "dropped": dict(self.dropped),
            "examples": self.examples,
        }

    def text(self) -> str:
        lines = [f"{self.source}: {self.images_kept} of {self.images_seen} images kept"]
        for reason, count in sorted(self.dropped.items()):
            lines.append(f"  dropped {count}: {reason} (e.g. {', '.join(self.examples[reason])})")
        return "\n".join(lines)


class Collection:
    """Observations by location (each list sorted by time) and a way to get 256×256 PNG bytes."""

    def __init__(
        self,
        locations: dict[str, list[Observation]],
        image_loader: Callable[[Observation], bytes],
        report: LoadReport,
    ) -> None:
        self.locations = {k: sorted(v, key=lambda o: o.timestamp) for k, v in locations.items()}
        self._loader = image_loader
        self._cache: dict[str, bytes] = {}
        self.report = report

    def png(self, obs: Observation) -> bytes:
        data = self._cache.get(obs.key)
        if data is None:
            data = self._cache[obs.key] = self._loader(obs)
        return data

    @property
    def categories(self) -> list[str]:
        """Category names present (an unlabelled location, e.g. fMoW ``test/``, has none)."""
        return sorted({o.category for obs in self.locations.values() for o in obs if o.category})

    def split(
        self,
        split: str,
        split_seed: int = 0,
        test_fraction: float | None = None,
        split_file: Path | None = None,
    ) -> Collection:
        """The locations on one side of the collection's one split (:mod:`.splits`): from
        ``split_file`` when given, else by the hash rule for ``split_seed``. ``all`` keeps every
        location. Call it before any task filter so every task sees the same assignment."""
        from chronoeval.suites.timepercept.splits import TEST_FRACTION, Split

        if split == "all":
            return self
        if split_file is not None:
            plan = Split.read(split_file)
            plan.check_covers(self.locations, str(split_file))
        else:
            plan = Split.compute(
                self.locations,
                split_seed,
                TEST_FRACTION if test_fraction is None else test_fraction,
            )
        chosen = plan.locations(split)
        if not chosen & set(self.locations):
            raise DataError(
                f"the {split} split of this collection has no location "
                f"({len(self.locations)} locations, split seed {plan.split_seed}, test fraction "
                f"{plan.test_fraction}); use a larger collection, another split seed or split=all",
                file=str(split_file or self.report.source),
                field="split",
            )
        sub = Collection(
            {loc: obs for loc, obs in self.locations.items() if loc in chosen},
            self._loader,
            self.report,
        )
        sub._cache = self._cache
        return sub

    def with_min_images(self, k: int) -> Collection:
        """Only locations with at least ``k`` images (the rest are counted in the report)."""
        keep = {loc: obs for loc, obs in self.locations.items() if len(obs) >= k}
        report = self.report.copy()
        for loc in sorted(set(self.locations) - set(keep)):
            report.drop(f"location with fewer than {k} usable images", loc)
            report.images_kept -= len(self.locations[loc])
        sub = Collection(keep, self._loader, report)
        sub._cache = self._cache
        return sub


# -- synthetic -------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def synthetic_collection(seed: int, n_locations: int, clouds: bool = True) -> Collection:
    """``n_locations`` generated locations (categories in turn), each observed 10–20 times over a
    5–7 year span starting between 2010 and 2016. Images are rendered on first use."""
    locations: dict[str, list[Observation]] = {}
    scenes: dict[str, Scene] = {}
    for i in range(n_locations):
        rng = random.Random(f"location:{seed}:{i}")
        category = CATEGORIES[i % len(CATEGORIES)]
        start = date(2010 + rng.randrange(7), rng.randrange(1, 13), 1)
        span = rng.randrange(5 * 365, 7 * 365)
        loc = f"{category}_{i:04d}"
        scene = Scene(f"{seed}:{i}", category, start, span)
        scenes[loc] = scene
        times = observation_times(rng, scene.start, span)
        locations[loc] = [
            Observation(loc, category, t, f"{loc}_{j:02d}", f"synthetic:{seed}")
            for j, t in enumerate(times)
        ]

    def load(obs: Observation) -> bytes:
        pixels, _cover = scenes[obs.location].render(obs.timestamp, clouds=clouds)
        return encode_png(Image.fromarray(pixels))

    # cloud cover is a property of the rendered pixels; compute it for every observation so the
    # cloud filter sees the same value the image shows
    out: dict[str, list[Observation]] = {}
    report = LoadReport(f"synthetic(seed={seed}, locations={n_locations}, clouds={clouds})")
    for loc, obs_list in locations.items():
        kept = []
        for o in obs_list:
            cover = cloud_cover(scenes[loc].clouds(o.timestamp)) if clouds else 0.0
            kept.append(Observation(o.location, o.category, o.timestamp, o.key, o.source, cover))
        out[loc] = kept
        report.images_seen += len(kept)
        report.images_kept += len(kept)
    return Collection(out, load, report)


def filter_clouds(collection: Collection, max_cloud_cover: float | None) -> Collection:
    """Drop images whose cloud cover (percent) exceeds ``max_cloud_cover`` (None: keep all)."""
    if max_cloud_cover is None:
        return collection
    keep: dict[str, list[Observation]] = {}
    report = collection.report.copy()
    for loc, obs in collection.locations.items():
        kept = []
        for o in obs:
            if o.cloud_cover is not None and o.cloud_cover > max_cloud_cover:
                report.drop(f"cloud cover above {max_cloud_cover}%", o.key)
                report.images_kept -= 1
            else:
                kept.append(o)
        keep[loc] = kept
    sub = Collection(keep, collection._loader, report)
    sub._cache = collection._cache
    return sub


# -- files -----------------------------------------------------------------------------------------
def parse_timestamp(value: Any) -> datetime:
    """ISO 8601 date or date-time (``Z`` allowed); naive times are read as UTC."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"not a timestamp: {value!r}")
    text = value.strip().replace("Z", "+00:00")
    try:
        ts = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"not an ISO 8601 timestamp: {value!r}") from None
    return ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts.astimezone(UTC)


def file_png(path: Path) -> bytes:
    """Decode an image file, convert to RGB, resize to 256×256 (bilinear) and encode as PNG."""
    with Image.open(path) as im:
        rgb = im.convert("RGB")
    if rgb.size != (SIZE, SIZE):
        rgb = rgb.resize((SIZE, SIZE), Image.Resampling.BILINEAR)
    return encode_png(rgb)


def _readable(path: Path) -> str | None:
    """None if the image decodes, else why not."""
    try:
        with Image.open(path) as im:
            im.load()
    except FileNotFoundError:
        return "image file missing"
    except Exception as exc:  # PIL raises many types for corrupt files
        return f"unreadable image ({type(exc).__name__})"
    return None


def _assemble(obs: Iterable[Observation], report: LoadReport) -> Collection:
    locations: dict[str, list[Observation]] = {}
    seen: set[str] = set()
    for o in obs:
        if o.key in seen:
            report.drop("duplicate image", o.key)
            continue
        seen.add(o.key)
        locations.setdefault(o.location, []).append(o)
    report.images_kept = sum(len(v) for v in locations.values())

    def load(o: Observation) -> bytes:
        try:
            return file_png(Path(o.source))
        except Exception as exc:  # checked at load; a file changed since is a data error
            raise DataError(f"image became unreadable ({exc})", file=o.source) from None

    if not locations:
        raise DataError(f"no usable images\n{report.text()}", file=report.source)
    return Collection(locations, load, report)


def load_manifest(path: Path) -> Collection:
    """A CSV (header row) or JSONL manifest with ``location, image, timestamp, category`` and an
    optional ``cloud_cover`` (percent); image paths are relative to the manifest's folder."""
    path = Path(path)
    report = LoadReport(str(path))
    rows: list[tuple[int, dict[str, Any]]] = []
    try:
        if path.suffix.lower() == ".csv":
            with open(path, newline="", encoding="utf-8") as fh:
                reader = csv.DictReader(fh)
                missing = [f for f in MANIFEST_FIELDS if f not in (reader.fieldnames or [])]
                if missing:
                    raise DataError(f"CSV header lacks {', '.join(missing)}", file=path, line=1)
                rows = [(i, dict(r)) for i, r in enumerate(reader, start=2)]
        else:
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DataError(f"not valid JSON ({exc.msg})", file=path, line=i) from None
                if not isinstance(obj, dict):
                    raise DataError("expected a JSON object", file=path, line=i)
                rows.append((i, obj))
    except FileNotFoundError:
        raise DataError("manifest file not found", file=path) from None

    def observations() -> Iterable[Observation]:
        for line, row in rows:
            report.images_seen += 1
            where = f"{path.name}:{line}"
            for f in MANIFEST_FIELDS:
                if not str(row.get(f) or "").strip():
                    raise DataError("missing value", file=path, line=line, field=f)
            try:
                ts = parse_timestamp(str(row["timestamp"]))
            except ValueError:
                report.drop("bad timestamp", where)
                continue
            img = confine(path.parent, str(row["image"]), file=path, line=line, field="image")
            why = _readable(img)
            if why:
                report.drop(why, where)
                continue
            cover = row.get("cloud_cover")
            try:
                cloud = float(cover) if cover not in (None, "") else None
            except ValueError:
                raise DataError("not a number", file=path, line=line, field="cloud_cover") from None
            yield Observation(
                str(row["location"]),
                str(row["category"]),
                ts,
                f"{row['location']}@{line}",
                str(img),
                cloud,
            )

    return _assemble(list(observations()), report)


def _fmow_category(obj: dict[str, Any]) -> str:
    """The first bounding box's ``category`` (``bounding_boxes`` is a list of
    ``{"box": [x, y, w, h], "category": ..., "ID": ...}``, or one such object in some files)."""
    boxes = obj.get("bounding_boxes")
    if isinstance(boxes, dict):
        boxes = [boxes]
    if isinstance(boxes, list) and boxes and isinstance(boxes[0], dict):
        cat = boxes[0].get("category")
        if isinstance(cat, str):
            return cat
    return ""


def load_fmow(root: Path, splits: Iterable[str] | None = None) -> Collection:
    """The published fMoW-rgb layout, as the fMoW baseline (``code/data_ml_functions/
    dataFunctions.py``) walks it:

    - ``train/`` and ``val/``: ``<split>/<category>/<category>_<id>/<category>_<id>_<view>_rgb.jpg``
      with a ``.json`` beside each image;
    - ``test/`` (sequestered labels): ``test/<id>/<id>_<view>_rgb.{jpg,json}``.

    Each JSON carries ``timestamp`` (ISO 8601, ``Z``), ``cloud_cover`` (percent),
    ``bounding_boxes`` (``category``, ``box``, ``ID``), ``gsd``, ``utm``, ``img_width``, … .
    The category is the category folder; for ``test/`` the first box's ``category`` where present,
    else empty (such locations serve the temporal tasks, never the recognition control).
    ``_msrgb`` files (fMoW-full) are not read. ``splits``: the top-level split folders to read
    (default: every folder under ``root``). Some re-packagings nest the fields under ``metadata``.
    """
    root = Path(root)
    if not root.is_dir():
        raise DataError("fMoW root is not a folder", file=root)
    report = LoadReport(str(root))
    wanted = sorted(splits) if splits else sorted(p.name for p in root.iterdir() if p.is_dir())
    for s in wanted:
        if not (root / s).is_dir():
            raise DataError(f"fMoW split folder {s!r} not found", file=root / s)

    def observations() -> Iterable[Observation]:
        for s in wanted:
            metas = sorted(
                m
                for m in (root / s).rglob("*_rgb.json")
                if len(m.relative_to(root / s).parts) in (2, 3)
            )
            for meta in metas:
                report.images_seen += 1
                loc_dir = meta.parent.name
                where = str(meta.relative_to(root))
                try:
                    obj = json.loads(meta.read_text(encoding="utf-8"))
                except (json.JSONDecodeError, UnicodeDecodeError):
                    report.drop("metadata JSON unreadable", where)
                    continue
                if not isinstance(obj, dict):
                    report.drop("metadata JSON is not an object", where)
                    continue
                if isinstance(obj.get("metadata"), dict):
                    obj = {**obj["metadata"], **obj}
                nested = len(meta.relative_to(root / s).parts) == 3
                category = meta.parent.parent.name if nested else _fmow_category(obj)
                try:
                    ts = parse_timestamp(obj.get("timestamp"))
                except ValueError:
                    report.drop("bad timestamp", where)
                    continue
                img = meta.with_suffix(".jpg")
                why = _readable(img)
                if why:
                    report.drop(why, str(img.relative_to(root)))
                    continue
                cover = obj.get("cloud_cover")
                yield Observation(
                    f"{s}/{loc_dir}",
                    category,
                    ts,
                    f"{s}_{meta.stem}",
                    str(img),
                    float(cover) if isinstance(cover, int | float) else None,
                )

    return _assemble(list(observations()), report)


UCM_NO_DATE = datetime(1970, 1, 1, tzinfo=UTC)
"""UCM images carry no date; this placeholder is never a gold (every UCM location has one image,
which every temporal task refuses: they need at least two)."""


def load_ucm(root: Path) -> Collection:
    """The UC Merced Land Use release: ``[UCMerced_LandUse/]Images/<class>/<class>NN.tif``
    (21 classes × 100 images). Each image is its own location; only ``tp_recognition`` applies."""
    root = Path(root)
    images = root / "Images" if (root / "Images").is_dir() else root
    report = LoadReport(str(root))

    def observations() -> Iterable[Observation]:
        for cls in sorted(p for p in images.iterdir() if p.is_dir()):
            for img in sorted(f for f in cls.iterdir() if f.is_file()):
                report.images_seen += 1
                why = _readable(img)
                if why:
                    report.drop(why, str(img.relative_to(root)))
                    continue
                loc = f"{cls.name}/{img.stem}"
                yield Observation(loc, cls.name, UCM_NO_DATE, loc, str(img), None)

    return _assemble(list(observations()), report)


def _is_ucm(path: Path) -> bool:
    images = path / "Images" if (path / "Images").is_dir() else path
    return (path / "Images").is_dir() or (
        images.is_dir() and any(images.glob("*/*.tif")) and not any(images.glob("*/*/*_rgb.json"))
    )


def load_collection(path: Path, fmow_splits: str = "") -> Collection:
    """A manifest file (``.csv``/``.jsonl``), a UCM folder (``Images/<class>/*.tif``) or an
    fMoW folder."""
    path = Path(path)
    if path.is_file():
        return load_manifest(path)
    if path.is_dir() and _is_ucm(path):
        return load_ucm(path)
    splits = [s for s in fmow_splits.split(",") if s.strip()] if fmow_splits else None
    return load_fmow(path, splits)


def write_manifest(collection: Collection, out_dir: Path, fmt: str = "csv") -> Path:
    """Write every image as PNG under ``out_dir/images/`` and a manifest beside it."""
    out_dir = Path(out_dir)
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    rows = []
    for loc in sorted(collection.locations):
        for o in collection.locations[loc]:
            rel = f"images/{o.key}.png"
            (out_dir / rel).write_bytes(collection.png(o))
            rows.append(
                {
                    "location": o.location,
                    "image": rel,
                    "timestamp": o.timestamp.isoformat().replace("+00:00", "Z"),
                    "category": o.category,
                    "cloud_cover": o.cloud_cover if o.cloud_cover is not None else "",
                }
            )
    if fmt == "csv":
        path = out_dir / "manifest.csv"
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=[*MANIFEST_FIELDS, "cloud_cover"])
        writer.writeheader()
        writer.writerows(rows)
        path.write_text(buf.getvalue(), encoding="utf-8")
    else:
        path = out_dir / "manifest.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path
