"""The 11 MINED subtasks as chronoeval tasks (``mined_<subtask>``), one item per sample x prompt
configuration. ``--data`` loads the released files; ``build`` regenerates contamination-free
questions from knowledge (see :mod:`chronoeval.suites.mined.generator`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

from chronoeval.core import sources as import_sources
from chronoeval.core.answers import NoAnswer
from chronoeval.core.dataset import BuiltItem
from chronoeval.core.errors import ChronoevalError, DataError
from chronoeval.core.imagecheck import confine, read_image_file
from chronoeval.core.items import Item
from chronoeval.core.params import as_bool
from chronoeval.core.registry import register_task
from chronoeval.core.task import RunsByModel, SampleRecord, Task
from chronoeval.report.summary import fmt_metric
from chronoeval.suites.mined.itembuild import (
    DIMENSION,
    PAPER_ABBREV,
    SUBTASKS,
    SUITE,
    LoadedImage,
    SampleSpec,
    sample_items,
    sniff_mime,
)
from chronoeval.suites.mined.metrics import aggregate_mined, record_scores
from chronoeval.suites.mined.prompts import DEFAULT_CURRENT_DATE, INSERT_DATE

IMAGE_SOURCES = ("files", "name_card")


def image_entity(path: str) -> str:
    """The entity an image shows, from the release's ``<Entity_Name>/<Entity_Name>_k.jpg``."""
    p = PurePosixPath(path.replace("\\", "/"))
    return (p.parent.name if str(p.parent) not in ("", ".") else p.stem).replace("_", " ")


class MinedTask(Task):
    suite = SUITE
    version = "1"
    subtask: ClassVar[str]
    group_by = ("type", "config")
    headline_score = "cem"
    paired_unit = "sample"
    """Paired tests average a sample's four prompt versions into one unit (report/compare.py):
    the versions of one sample are not independent."""
    load_params: ClassVar[dict[str, Any]] = {
        "images_root": None,
        "allow_missing_images": False,
        "image_source": "files",
        "current_date": DEFAULT_CURRENT_DATE,
        "insert_date": "time_agnostic",
    }
    default_params: ClassVar[dict[str, Any]] = {
        "knowledge": None,
        "cutoff": DEFAULT_CURRENT_DATE,
        "n": None,
        "image_source": "name_card",
        "images_root": None,
        "insert_date": "time_agnostic",
    }

    # -- items -------------------------------------------------------------------------------
    def load(self, path: Path, params: dict[str, Any]) -> Iterator[BuiltItem]:
        from chronoeval.suites.mined.namecard import name_card_png
        from chronoeval.suites.mined.released import read_released

        opts = {**self.load_params, **params}
        source = opts["image_source"]
        if source not in IMAGE_SOURCES:
            raise ChronoevalError(f"image_source must be one of {', '.join(IMAGE_SOURCES)}")
        if opts["insert_date"] not in INSERT_DATE:
            raise ChronoevalError(f"insert_date must be one of {', '.join(INSERT_DATE)}")
        allow_missing = as_bool(opts["allow_missing_images"], "allow_missing_images")
        samples = read_released(Path(path), self.subtask)
        base = Path(path) if Path(path).is_dir() else Path(path).parent
        root = Path(opts["images_root"]) if opts["images_root"] else base

        images: dict[str, LoadedImage] = {}
        missing: list[str] = []
        for s in samples:
            for role in ("image", "paraphrase_image"):
                rel = s.raw[role].replace("\\", "/")
                if rel in images:
                    continue
                if source == "name_card":
                    data = name_card_png(image_entity(rel), variant=int(role != "image"))
                    images[rel] = LoadedImage(data, "image/png", "name_card")
                    continue
                f = confine(root, rel, file=s.file, field=role)
                import_sources.note(root / rel)  # as looked up: a change imports again
                if f.exists():
                    data = read_image_file(f, file=s.file, field=role)
                    images[rel] = LoadedImage(data, sniff_mime(data, rel), "photo")
                else:
                    missing.append(rel)
                    images[rel] = LoadedImage(None, kind="none")
        if missing and not allow_missing:
            raise DataError(
                f"{len(missing)} of {len(images)} images referenced by {samples[0].file.name} are "
                f"missing under {root} (first: {missing[0]}); point --param images_root=DIR at the "
                "extracted MINED_Image.zip, or run text-only with "
                "--param allow_missing_images=true, or use --param image_source=name_card",
                file=samples[0].file,
                field="image",
            )
        for s in samples:
            raw = s.raw
            names = {
                role: (
                    raw[role].replace("\\", "/")
                    if source == "files"
                    else f"namecards/{raw[role].replace(chr(92), '/')}.png"
                )
                for role in ("image", "paraphrase_image")
            }
            spec = SampleSpec(
                subtask=self.subtask,
                key=f"{self.subtask}-{s.index:04d}",
                eval_type=raw["eval_type"],
                questions={k: raw[k] for k in ("mm_questions", "mm_paraphrase_completion")},
                image_names=names,
                gold=raw["current_answer"],
                context=raw.get("context"),
                metadata={
                    "type": raw["type"],
                    "source": "released",
                    "source_file": s.file.name,
                    "source_index": s.index,
                    "source_id": raw["id"],
                    "subject": raw["subject"],
                    "names": [a.name for a in s.attributes],
                    **(
                        {"context_value": str(raw["context_subject"])}
                        if raw.get("context_subject")
                        else {}
                    ),
                },
            )
            yield from sample_items(
                spec,
                lambda role, raw=raw: images[raw[role].replace("\\", "/")],
                current_date=str(opts["current_date"]) if opts["current_date"] else None,
                insert_date=opts["insert_date"],
            )

    def build(self, params: dict[str, Any], seed: int) -> Iterator[BuiltItem]:
        from chronoeval.suites.mined.generator import build_subtask

        return build_subtask(self.subtask, params, seed)

    def verify(self, item: Item) -> None:
        from chronoeval.suites.mined.generator import verify_item

        verify_item(item)

    def decode_target(self, item: Item) -> str:
        if not isinstance(item.target, str) or not item.target.strip():
            raise DataError("gold must be a non-empty string", item_id=item.id, field="target")
        return item.target

    # -- answers -----------------------------------------------------------------------------
    def parse(self, text: str, item: Item) -> str | NoAnswer:
        """The released scorer reads the raw output; only an empty one is set apart."""
        return text if text.strip() else NoAnswer("empty")

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        return record_scores(None if isinstance(answer, NoAnswer) else str(answer), item.target)

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        return aggregate_mined(records, seed=seed)

    def gold_text(self, item: Item) -> str:
        return str(item.target)

    # -- reports -----------------------------------------------------------------------------
    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("CEM", metrics["overall"]["cem"]) if metrics else None

    def chance(self, metrics: dict[str, Any]) -> float | None:
        """Free-text name answers have no meaningful chance level (None); two-name ranking
        questions: 1/2. Yes/No robustness questions: the majority baseline from the gold
        distribution (``gold_majority``, the share of samples whose gold is the most common one;
        every released robustness gold is "Yes", so answering "Yes" always scores 1.0, not 0.5);
        None for results scored before ``gold_majority`` existed (re-run ``chronoeval score``)."""
        if self.subtask == "robustness":
            got = metrics.get("gold_majority")
            return None if not got else max(0.5, float(got["value"]))
        return 0.5 if self.subtask == "ranking" else None

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        m = results["metrics"]
        o = m["overall"]
        rows = [
            ("CEM %", fmt_metric(o["cem"], pct=True)),
            ("F1 %", fmt_metric(o["f1"], pct=True)),
            ("CEM (SQuAD substring) %", fmt_metric(o["cem_squad"], pct=True)),
            ("4-config agreement %", fmt_metric(m["agreement"]["agree"], pct=True)),
            ("yes+no leak %", fmt_metric(m["yes_no_leak"], pct=True)),
        ]
        if "loi" in m:
            rows += [(f"{k} %", fmt_metric(v, pct=True)) for k, v in m["loi"].items()]
        c = m["counts"]
        if c["text_only"]:
            rows.append(("TEXT-ONLY items (images missing)", str(c["text_only"])))
        if c["name_card"]:
            rows.append(("name-card items (recognition removed)", str(c["name_card"])))
        return rows

    def plots(self, runs: RunsByModel, out_dir: Path) -> list[Path]:
        from chronoeval.suites.mined.plots import task_plots

        return task_plots(self.name, self.subtask, runs, out_dir)


def _make(subtask: str) -> type[MinedTask]:
    cls = type(
        f"Mined_{subtask}",
        (MinedTask,),
        {
            "name": f"mined_{subtask}",
            "subtask": subtask,
            "description": f"MINED {PAPER_ABBREV[subtask]} ({DIMENSION[subtask]}): "
            f"{subtask.replace('_', ' ')}; CEM/F1 as released, 4 prompt configurations",
        },
    )
    return register_task(cls)


TASKS = {s: _make(s) for s in SUBTASKS}
