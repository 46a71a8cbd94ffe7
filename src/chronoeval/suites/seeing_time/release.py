"""Loaders for the released ChronoVision annotation files (repository LuoRenqiang/ChronoVision).

Images are not in the release's annotation files (they are the Hugging Face dataset
``Q1anK/ChronoVison_Dataset``); every loader takes an ``images_root`` and looks each image up there.
The release's pitfalls are fixed here:

- **Windows paths** (``E:\\CHA\\Qing\\carving\\1.jpg``): split as Windows paths, the drive dropped,
  and the longest path suffix that exists under ``images_root`` used (``CHA/Qing/carving/1.jpg``,
  then ``Qing/carving/1.jpg``, ``carving/1.jpg``, ``1.jpg``).
- **Missing images are counted**, never skipped silently: one :class:`DataError` names the file, how
  many images are missing and the first few; with ``allow_missing_images`` the affected items are
  left out and the count is printed as a warning.
- **An image that does not decode** (corrupt, truncated, not an image) is one :class:`DataError`
  naming the annotation file and line, the item, the field and the image's path under
  ``images_root``: never copied into the imported dataset to be asked.
- Option shuffles are seeded by the task (the release's were unseeded) and recorded per item.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PureWindowsPath
from typing import Any

from chronoeval.core import sources
from chronoeval.core.errors import DataError
from chronoeval.core.imagecheck import check_image_bytes, confine
from chronoeval.suites.seeing_time.collection import missing_images_error, read_rows

SHORTCUT_DOMAINS = ("sports", "politics", "electronics", "emergency", "diversity")


@dataclass(frozen=True)
class Image:
    data: bytes
    ext: str
    source: str


def path_suffixes(raw: str) -> list[str]:
    """Candidate relative paths for a released path, longest first (Windows separators fixed)."""
    parts = [p for p in PureWindowsPath(raw.replace("/", "\\")).parts if p]
    if parts and (parts[0].endswith(":\\") or parts[0].endswith(":") or parts[0] == "\\"):
        parts = parts[1:]
    return ["/".join(parts[i:]) for i in range(len(parts))]


class ImageFinder:
    """Looks images up under a root and counts the ones it cannot find."""

    def __init__(self, root: str | Path | None, allow_missing: bool) -> None:
        if not root:
            raise DataError(
                "the released annotation files carry no images: pass --param images_root=DIR "
                "(the Hugging Face dataset Q1anK/ChronoVison_Dataset, downloaded)",
                field="images_root",
            )
        self.root = Path(root)
        if not self.root.is_dir():
            raise DataError("images_root is not a directory", file=self.root, field="images_root")
        self.allow_missing = allow_missing
        self.missing: list[str] = []
        self.total = 0

    def find(self, candidates: Iterable[str], **where: Any) -> Image | None:
        """The first candidate that exists under the root (None, counted, if none does); its bytes
        decoded in full, else a DataError at ``where`` (file, line, item_id, field)."""
        self.total += 1
        tried = []
        for rel in candidates:
            p = confine(self.root, rel, field="image")
            tried.append(rel)
            # noted as looked up (a symlink under the root re-pointed is a change), then read
            if sources.note(self.root / rel) is not None:
                data = p.read_bytes()
                try:
                    check_image_bytes(data)
                except DataError as exc:
                    msg = f"{rel} under images_root {self.root}: {exc.detail}"
                    raise DataError(msg, **where) from None
                return Image(data, p.suffix or ".jpg", rel)
        self.missing.append(tried[0] if tried else "?")
        return None

    def finish(self, file: Path) -> None:
        """Raise the one counted error, or warn with the count when missing images are allowed."""
        if not self.missing:
            return
        if not self.allow_missing:
            raise missing_images_error(self.missing, self.total, file=file, root=self.root)
        print(
            f"warning: {file}: {len(self.missing)} of {self.total} images missing under "
            f"{self.root}; the items that need them were left out",
            file=sys.stderr,
        )


def _files(path: Path, *globs: str) -> list[Path]:
    path = Path(path)
    if not path.exists():
        raise DataError("no such file or directory", file=path)
    if path.is_file():
        return [path]
    for g in globs:
        found = sorted(path.glob(g))
        if found:
            return found
    raise DataError(f"no released files here (looked for {', '.join(globs)})", file=path)


# -- artefacts: localization ---------------------------------------------------------------------
@dataclass(frozen=True)
class LocalizationRow:
    item_id: str
    image: Image
    dynasty: str
    category: str
    label: str
    name: str
    file: str
    line: int


LOCALIZATION_KEYS = ("id", "image", "dynasty", "category", "label", "name")


def load_localization(path: Path, finder: ImageFinder) -> Iterator[LocalizationRow]:
    files = _files(path, "artifacts/localization/*.jsonl", "localization/*.jsonl", "*.jsonl")
    rows = []
    for f in files:
        for line, row in read_rows(f):
            for key in LOCALIZATION_KEYS:
                if not isinstance(row.get(key), str | int) or row.get(key) == "":
                    raise DataError("missing or empty", file=f, line=line, field=key)
            where = {"file": f, "line": line, "item_id": f"{f.stem}-{row['id']}", "field": "image"}
            image = finder.find(path_suffixes(str(row["image"])), **where)
            if image is None:
                continue
            rows.append(
                LocalizationRow(
                    item_id=f"{f.stem}-{row['id']}",
                    image=image,
                    dynasty=str(row["dynasty"]),
                    category=str(row["category"]).lower(),
                    label=str(row["label"]),
                    name=str(row["name"]),
                    file=f.name,
                    line=line,
                )
            )
    finder.finish(Path(path))
    yield from rows


# -- artefacts: sort -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SortRow:
    item_id: str
    category: str
    images: tuple[Image, ...]
    ground_truth: tuple[int, ...]
    dynasty_sequence: tuple[str, ...]
    prompt: str
    line: int


def load_sort(path: Path, finder: ImageFinder) -> Iterator[SortRow]:
    files = _files(path, "artifacts/sort/*.jsonl", "sort/*.jsonl", "*.jsonl")
    out = []
    for f in files:
        for line, row in read_rows(f):
            images_raw = row.get("images")
            if not isinstance(images_raw, list) or len(images_raw) < 2:
                raise DataError(
                    "needs a list of at least two images", file=f, line=line, field="images"
                )
            gt = row.get("ground_truth")
            n = len(images_raw)
            if not isinstance(gt, list) or sorted(gt) != list(range(n)):
                raise DataError(
                    f"must be a permutation of 0..{n - 1}", file=f, line=line, field="ground_truth"
                )
            seq = row.get("dynasty_sequence")
            if not isinstance(seq, list) or len(seq) != n:
                raise DataError(f"needs {n} dynasties", file=f, line=line, field="dynasty_sequence")
            if not isinstance(row.get("prompt"), str):
                raise DataError("missing", file=f, line=line, field="prompt")
            where = {"file": f, "line": line, "item_id": f"sort-{row.get('id', line)}"}
            images = [
                finder.find(path_suffixes(str(p)), **where, field=f"images[{k}]")
                for k, p in enumerate(images_raw)
            ]
            if any(im is None for im in images):
                continue
            out.append(
                SortRow(
                    item_id=f"sort-{row.get('id', line)}",
                    category=str(row.get("category", "")),
                    images=tuple(im for im in images if im is not None),
                    ground_truth=tuple(int(i) for i in gt),
                    dynasty_sequence=tuple(str(d) for d in seq),
                    prompt=row["prompt"],
                    line=line,
                )
            )
    finder.finish(Path(path))
    yield from out


# -- shortcut ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ShortcutImage:
    year: int
    description: str
    original: str
    image: Image


@dataclass(frozen=True)
class ShortcutTest:
    domain: str
    test: str
    images: tuple[ShortcutImage, ShortcutImage]
    """In the order shown to the model: the earlier one at position ``answer``."""
    answer: int


_SHORTCUT_NAME = re.compile(r"^(test\d+)/(\d+)_(\d{4})_(.+)$")


def load_shortcut(path: Path, finder: ImageFinder) -> Iterator[ShortcutTest]:
    """``shortcut/<domain>/test.json`` (original name -> random name) + ``ans.json``.

    The original names ``testN/<N>_<YEAR>_<desc>`` give each image's year; ``ans.json`` gives the
    1-based position of the earlier image, which fixes the order the two images are shown in.
    """
    files = _files(path, "shortcut/*/test.json", "*/test.json", "test.json")
    out = []
    for f in files:
        domain = f.parent.name
        ans_path = f.parent / "ans.json"
        if not ans_path.is_file():
            raise DataError("ans.json missing beside test.json", file=ans_path)
        try:
            mapping = json.loads(f.read_text(encoding="utf-8"))
            answers = json.loads(ans_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DataError(f"not valid JSON ({exc.msg})", file=f, line=exc.lineno) from None
        tests: dict[str, list[tuple[int, str, str, str]]] = {}
        for original, random_name in mapping.items():
            m = _SHORTCUT_NAME.match(original)
            if not m:
                raise DataError(
                    "name is not testN/<n>_<YEAR>_<description>", file=f, field=original
                )
            tests.setdefault(m[1], []).append((int(m[3]), m[4], original, str(random_name)))
        if set(tests) != set(answers):
            raise DataError(
                f"tests without answers: {sorted(set(tests) - set(answers))[:5]}, answers "
                f"without tests: {sorted(set(answers) - set(tests))[:5]}",
                file=ans_path,
            )
        for test in sorted(tests, key=lambda t: int(t[4:])):
            pair = tests[test]
            ans = answers[test]
            if len(pair) != 2:
                raise DataError(f"{len(pair)} images, expected 2", file=f, field=test)
            if str(ans) not in ("1", "2"):
                raise DataError(f"answer must be 1 or 2, got {ans!r}", file=ans_path, field=test)
            early, late = sorted(pair)
            if early[0] == late[0]:
                raise DataError("both images have the same year", file=f, field=test)
            ordered = (early, late) if int(ans) == 1 else (late, early)
            images = []
            for year, desc, original, random_name in ordered:
                cands = [
                    f"{domain}/{test}/{random_name}",
                    f"{domain}/{random_name}",
                    f"{test}/{random_name}",
                    random_name,
                    f"{domain}/{original}",
                    original,
                ]
                im = finder.find(cands, file=f, item_id=f"{domain}-{test}", field=original)
                if im is not None:
                    images.append(ShortcutImage(year, desc, original, im))
            if len(images) == 2:
                out.append(ShortcutTest(domain, test, (images[0], images[1]), int(ans)))
    finder.finish(Path(path))
    yield from out


# -- news alignment ------------------------------------------------------------------------------
@dataclass(frozen=True)
class NewsImage:
    index: int
    year: int
    original: str
    image: Image


@dataclass(frozen=True)
class NewsTest:
    domain: str
    test_id: str
    correct: int
    year: int
    date: str
    description: str
    source: str
    images: tuple[NewsImage, ...]


def load_news(path: Path, finder: ImageFinder) -> Iterator[NewsTest]:
    """``news/<domain>/<domain>-MMT-test-information.json``; images ``<domain>/<test_id>/<new_name>``."""
    files = _files(
        path, "news/*/*-MMT-test-information.json", "*/*-MMT-test-information.json", "*.json"
    )
    out = []
    for f in files:
        domain = f.parent.name
        for line, row in read_rows(f):
            tid = str(row.get("test_id", f"row{line}"))
            news = row.get("news")
            imgs = row.get("images")
            if not isinstance(news, dict) or not isinstance(news.get("description"), str):
                raise DataError(
                    "missing news.description", file=f, line=line, item_id=tid, field="news"
                )
            if not isinstance(imgs, list) or len(imgs) != 4:
                raise DataError("needs 4 images", file=f, line=line, item_id=tid, field="images")
            correct = row.get("correct_answer")
            targets = [im.get("index") for im in imgs if im.get("is_target")]
            if targets != [correct] or correct not in (1, 2, 3, 4):
                raise DataError(
                    f"correct_answer {correct!r} disagrees with is_target {targets}",
                    file=f,
                    line=line,
                    item_id=tid,
                    field="correct_answer",
                )
            found = []
            for k, im in enumerate(imgs, start=1):
                if im.get("index") != k:
                    raise DataError(
                        f"images out of order at {k}",
                        file=f,
                        line=line,
                        item_id=tid,
                        field="images",
                    )
                new = str(im.get("new_name", f"{k}.jpg"))
                cands = [
                    f"{domain}/{tid}/{new}",
                    f"{tid}/{new}",
                    f"{domain}/{im.get('original_name')}",
                ]
                where = {"file": f, "line": line, "item_id": f"{domain}-{tid}"}
                got = finder.find(cands, **where, field=f"images[{k - 1}]")
                if got is not None:
                    found.append(NewsImage(k, int(im["year"]), str(im.get("original_name")), got))
            if len(found) != 4:
                continue
            out.append(
                NewsTest(
                    domain=domain,
                    test_id=tid,
                    correct=int(correct),
                    year=int(news.get("year", row.get("matched_year"))),
                    date=str(news.get("date", "")),
                    description=news["description"],
                    source=str(news.get("source", "")),
                    images=tuple(found),
                )
            )
    finder.finish(Path(path))
    yield from out


# -- News-Year from the release -----------------------------------------------------------------
@dataclass(frozen=True)
class DatedImage:
    domain: str
    original: str
    year: int
    image: Image


def load_news_year(path: Path, finder: ImageFinder) -> Iterator[DatedImage]:
    """The dated images the news files name, once each (the release ships no per-image year file
    for News-Year). Each ``news/<domain>/<domain>-MMT-test-information.json`` image carries
    ``original_name`` and ``year``; the same image recurs across tests and is stored under each
    test's folder (``<domain>/<test_id>/<new_name>``): the first copy found is used.

    Counts (release commit becc2b4): 1,005 distinct (domain, original_name) images in the news
    files. The shortcut files name 830, 816 of them also in the news files; the 14 others are left
    out because the released shortcut copies may be the grayscale versions. The paper's SPEED set
    has 1,028 (docs/suites/seeing_time.md)."""
    files = _files(
        path, "news/*/*-MMT-test-information.json", "*/*-MMT-test-information.json", "*.json"
    )
    seen: dict[tuple[str, str], tuple[int, list[str], tuple[Path, int]]] = {}
    for f in files:
        domain = f.parent.name
        for line, row in read_rows(f):
            tid = str(row.get("test_id", f"row{line}"))
            imgs = row.get("images")
            if not isinstance(imgs, list):
                raise DataError(
                    "needs a list of images", file=f, line=line, item_id=tid, field="images"
                )
            for k, im in enumerate(imgs, start=1):
                if not isinstance(im, dict):
                    raise DataError(
                        f"image {k} is not an object",
                        file=f,
                        line=line,
                        item_id=tid,
                        field="images",
                    )
                original = str(im.get("original_name") or "")
                year = im.get("year")
                if not original or not isinstance(year, int) or isinstance(year, bool):
                    raise DataError(
                        f"image {k} lacks original_name or an integer year",
                        file=f,
                        line=line,
                        item_id=tid,
                        field="images",
                    )
                m = re.match(r"^(\d{4})_", original)
                if m and int(m[1]) != year:
                    raise DataError(
                        f"image {k}: year {year} but the name says {m[1]}",
                        file=f,
                        line=line,
                        item_id=tid,
                        field="images.year",
                    )
                new = str(im.get("new_name", f"{k}.jpg"))
                key = (domain, original)
                cands = [f"{domain}/{tid}/{new}", f"{tid}/{new}", f"{domain}/{original}"]
                if key in seen:
                    seen[key][1].extend(cands)
                else:
                    seen[key] = (year, cands, (f, line))
    out = []
    for (domain, original), (year, cands, (f, line)) in sorted(seen.items()):
        im = finder.find(list(dict.fromkeys(cands)), file=f, line=line, field=original)
        if im is not None:
            out.append(DatedImage(domain, original, year, im))
    finder.finish(Path(path))
    yield from out
