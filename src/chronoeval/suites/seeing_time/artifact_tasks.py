"""Artifacts task (paper Sec. IV-A): era localisation as multiple choice, and chronological sorting
(intra-category n = 4, cross-category n = 5) scored with Kendall τ and 50·(1 + τ)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from chronoeval.core.answers import NoAnswer
from chronoeval.core.dataset import BuiltItem
from chronoeval.core.errors import DataError
from chronoeval.core.items import ImagePart, Item, Message, TextPart
from chronoeval.core.ranking import kendall_tau
from chronoeval.core.registry import register_task
from chronoeval.core.stats import mean_metric
from chronoeval.core.task import Agent, RunsByModel, SampleRecord
from chronoeval.report.summary import fmt_metric
from chronoeval.suites.seeing_time import prompts
from chronoeval.suites.seeing_time.collection import Entry, Event, synthetic_collection
from chronoeval.suites.seeing_time.common import (
    SeeingTask,
    by_group,
    load_params_for,
    mean_of,
    part_for,
    rng_for,
)
from chronoeval.suites.seeing_time.eras import (
    DYNASTY_BY_KEY,
    DYNASTY_ORDER,
    dynasty_option,
    order_eras,
)
from chronoeval.suites.seeing_time.metrics import score50
from chronoeval.suites.seeing_time.parsing import parse_choice, parse_order
from chronoeval.suites.seeing_time.release import ImageFinder, load_localization, load_sort
from chronoeval.suites.seeing_time.scenes import ARTIFACT

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _era_labels(entries: list[Entry]) -> list[str]:
    years: dict[str, list[int]] = {}
    for e in entries:
        if e.era is None:
            raise DataError(
                "era localisation and sorting need an era label on every row",
                item_id=e.id,
                field="era",
            )
        years.setdefault(e.era, []).append(e.year)
    return order_eras(years)


def localization_item(
    task: SeeingTask,
    item_id: str,
    data: bytes,
    ext: str,
    gold: str,
    labels: list[str],
    seed: Any,
    metadata: dict[str, Any],
) -> BuiltItem:
    options = list(labels)
    rng_for(seed, "options", item_id).shuffle(options)
    texts = [dynasty_option(o) for o in options]
    lines = "\n".join(f"{LETTERS[i]}. {t}" for i, t in enumerate(texts))
    if all(o in DYNASTY_BY_KEY for o in options):
        text = prompts.LOCALIZATION.format(options=lines)
    else:
        text = prompts.LOCALIZATION_GENERIC.format(options=lines, example=texts[0])
    part, images = part_for(data, ext)
    meta = {**metadata, "era": gold, "options": options, "n_options": len(options)}
    msg = Message("user", (TextPart(text), part))
    return BuiltItem(Item(item_id, task.suite, task.name, (msg,), gold, tuple(texts), meta), images)


@register_task
class EraLocalization(SeeingTask):
    name = "seeing_localization"
    version = "1"
    description = "Seeing Time: date an artefact to its era (multiple choice; CHA dynasties or any era labels)"
    default_params: ClassVar[dict[str, Any]] = {"n": 60}
    load_params: ClassVar[dict[str, Any]] = load_params_for({})
    group_by = ("era", "category")
    headline_score = "correct"

    def synthetic(self, params: dict[str, Any], seed: int) -> tuple[list[Entry], list[Event]]:
        return synthetic_collection(ARTIFACT, int(params["n"]), seed), []

    def compose(self, entries, events, params, seed) -> Iterator[BuiltItem]:
        labels = _era_labels(entries)
        for e in entries:
            assert e.era is not None
            meta = {"category": e.category, "year": e.year, "source": e.source}
            yield localization_item(self, f"loc-{e.id}", e.image, e.ext, e.era, labels, seed, meta)

    def load_release(self, path: Path, finder: ImageFinder, seed: Any) -> Iterator[BuiltItem]:
        labels = list(DYNASTY_BY_KEY)
        for row in load_localization(path, finder):
            if row.dynasty not in DYNASTY_BY_KEY:
                raise DataError(
                    f"unknown dynasty {row.dynasty!r}",
                    file=row.file,
                    line=row.line,
                    field="dynasty",
                )
            meta = {
                "category": row.category,
                "label": row.label,
                "name": row.name,
                "source": f"{row.file}:{row.line}",
                "image": row.image.source,
            }
            yield localization_item(
                self, row.item_id, row.image.data, row.image.ext, row.dynasty, labels, seed, meta
            )

    def decode_target(self, item: Item) -> str:
        if not isinstance(item.target, str) or item.target not in item.metadata.get("options", []):
            raise DataError(
                "gold must be one of the item's options", item_id=item.id, field="target"
            )
        return item.target

    def parse(self, text: str, item: Item) -> str | NoAnswer:
        idx = parse_choice(text, list(item.choices or ()))
        return idx if isinstance(idx, NoAnswer) else item.metadata["options"][idx]

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        return {"correct": float(not isinstance(answer, NoAnswer) and answer == item.target)}

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        def summ(rs: list[SampleRecord], s: int) -> dict[str, Any]:
            return {"accuracy": mean_of(rs, "correct", s)}

        overall = summ(records, seed)
        overall["chance"] = sum(1 / r.metadata.get("n_options", 5) for r in records) / len(records)
        overall["no_answer"] = sum(r.status == "no_answer" for r in records)
        return {
            "overall": overall,
            "by_era": by_group(records, "era", summ, seed=seed),
            "by_category": by_group(records, "category", summ, seed=seed),
        }

    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("ACC_A", metrics["overall"]["accuracy"]) if metrics else None

    def chance(self, metrics: dict[str, Any]) -> float | None:
        return metrics["overall"]["chance"] if metrics else None

    def random_answer(self, rng: random.Random) -> str:
        return f"{rng.choice(LETTERS[:5])}."

    def gold_text(self, item: Item) -> str:
        i = item.metadata["options"].index(item.target)
        return f"{LETTERS[i]}. {(item.choices or ())[i]}"

    def reference_agent(self) -> Agent:
        from chronoeval.suites.seeing_time.agents import localization_agent

        return localization_agent

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        o = results["metrics"]["overall"]
        return [
            ("ACC_A %", fmt_metric(o["accuracy"], pct=True)),
            ("chance %", f"{100 * o['chance']:.1f}"),
        ]

    def plots(self, runs: RunsByModel, out_dir: Path) -> list[Path]:
        from chronoeval.suites.seeing_time.plots import localization_plots

        return localization_plots(runs, out_dir)


# -- sort -----------------------------------------------------------------------------------------
def sort_item(
    task: SeeingTask,
    item_id: str,
    images: list[tuple[bytes, str]],
    order: list[int],
    eras: list[str],
    prompt_text: str,
    metadata: dict[str, Any],
) -> BuiltItem:
    n = len(images)
    example = ", ".join(map(str, example_order(n)))
    text = prompts.SORT_REQUIREMENT.format(prompt=prompt_text, example=example)
    parts: list[Any] = [TextPart(text)]
    blobs: dict[str, bytes] = {}
    for data, ext in images:
        part, b = part_for(data, ext)
        parts.append(part)
        blobs.update(b)
    msgs = (Message("system", (TextPart(prompts.SORT_SYSTEM),)), Message("user", tuple(parts)))
    meta = {**metadata, "n": n, "eras": eras}
    return BuiltItem(Item(item_id, task.suite, task.name, msgs, list(order), None, meta), blobs)


def example_order(n: int) -> list[int]:
    """A fixed non-trivial 0-based order for the prompt's example (the release's for n = 5)."""
    return {4: [2, 0, 3, 1], 5: [2, 4, 1, 3, 0]}.get(n, list(reversed(range(n))))


def _gold_order(keys: list[Any]) -> list[int]:
    return sorted(range(len(keys)), key=lambda i: keys[i])


@register_task
class ChronoSort(SeeingTask):
    name = "seeing_sort"
    version = "1"
    description = "Seeing Time: sort 4 (same category) or 5 (mixed) artefacts oldest→newest; Kendall τ, 50·(1+τ)"
    default_params: ClassVar[dict[str, Any]] = {"n_intra": 20, "n_cross": 20, "pool": 150, "n": 0}
    load_params: ClassVar[dict[str, Any]] = load_params_for({"n_intra": 20, "n_cross": 20})
    group_by = ("level", "category")
    request_options: ClassVar[dict[str, Any]] = {"response_format": {"type": "json_object"}}
    """The release's artifacts-sort.py sends JSON mode (prompts.json ``artifacts_sort``)."""
    headline_score = "tau"

    def with_n(self, params: dict[str, Any]) -> dict[str, Any]:
        """``n`` > 0: ceil(n/2) same-category sets of 4 and floor(n/2) mixed sets of 5."""
        n = int(params.get("n") or 0)
        if n <= 0:
            return params
        return {**params, "n_intra": n - n // 2, "n_cross": n // 2}

    def synthetic(self, params: dict[str, Any], seed: int) -> tuple[list[Entry], list[Event]]:
        return synthetic_collection(ARTIFACT, int(params["pool"]), seed), []

    def compose(self, entries, events, params, seed) -> Iterator[BuiltItem]:
        labels = _era_labels(entries)
        rank = {lab: i for i, lab in enumerate(labels)}
        by_cat: dict[str, dict[str, list[Entry]]] = {}
        for e in entries:
            by_cat.setdefault(e.category, {}).setdefault(str(e.era), []).append(e)
        rng = rng_for(seed, "sort")
        cats = sorted(c for c, eras in by_cat.items() if len(eras) >= 4)
        plans: list[tuple[str, list[Entry]]] = []
        for i in range(int(params["n_intra"]) if cats else 0):
            cat = cats[i % len(cats)]
            eras = rng.sample(sorted(by_cat[cat]), 4)
            plans.append(("intra", [rng.choice(by_cat[cat][er]) for er in eras]))
        all_eras: dict[str, list[Entry]] = {}
        for e in entries:
            all_eras.setdefault(str(e.era), []).append(e)
        k = min(5, len(all_eras))
        for _ in range(int(params["n_cross"]) if k >= 2 else 0):
            eras = rng.sample(sorted(all_eras), k)
            plans.append(("cross", [rng.choice(all_eras[er]) for er in eras]))
        for i, (level, chosen) in enumerate(plans):
            n = len(chosen)
            ex = ",".join(map(str, example_order(n)))
            if level == "intra":
                text = prompts.SORT_INTRA.format(last=n - 1, example=ex)
            else:
                text = prompts.SORT_CROSS.format(
                    count="five" if n == 5 else n, last=n - 1, example=ex
                )
            eras = [str(e.era) for e in chosen]
            order = _gold_order([(rank[er], e.year) for er, e in zip(eras, chosen, strict=True)])
            cat = chosen[0].category if level == "intra" else "mixed"
            meta = {
                "level": level,
                "category": cat,
                "years": [e.year for e in chosen],
                "era_order": labels,
            }
            yield sort_item(
                self,
                f"sort-{level}-{i:04d}",
                [(e.image, e.ext) for e in chosen],
                order,
                eras,
                text,
                meta,
            )

    def load_release(self, path: Path, finder: ImageFinder, seed: Any) -> Iterator[BuiltItem]:
        for row in load_sort(path, finder):
            for d in row.dynasty_sequence:
                if d not in DYNASTY_ORDER:
                    raise DataError(
                        f"unknown dynasty {d!r}",
                        line=row.line,
                        item_id=row.item_id,
                        field="dynasty_sequence",
                    )
            meta = {
                "level": "intra" if len(row.images) == 4 else "cross",
                "category": row.category.lower() if len(row.images) == 4 else "mixed",
                "era_order": list(DYNASTY_ORDER),
                "source": f"sort_test_with_ans.jsonl:{row.line}",
            }
            yield sort_item(
                self,
                row.item_id,
                [(im.data, im.ext) for im in row.images],
                list(row.ground_truth),
                list(row.dynasty_sequence),
                row.prompt,
                meta,
            )

    def decode_target(self, item: Item) -> list[int]:
        t = item.target
        n = item.metadata.get("n")
        if not isinstance(t, list) or sorted(t) != list(range(n or 0)):
            raise DataError(
                f"gold must be a permutation of 0..{(n or 0) - 1}", item_id=item.id, field="target"
            )
        return t

    def verify(self, item: Item) -> None:
        """The gold order re-derived from the stored era of each image (and year, when stored)."""
        order = item.metadata["era_order"]
        eras = item.metadata["eras"]
        years = item.metadata.get("years") or [0] * len(eras)
        keys = [(order.index(e), y) for e, y in zip(eras, years, strict=True)]
        gold = self.decode_target(item)
        if [keys[i] for i in gold] != sorted(keys) or len(set(e for e in eras)) != len(eras):
            raise DataError(
                f"gold order {gold} does not sort the eras {eras}", item_id=item.id, field="target"
            )

    def parse(self, text: str, item: Item) -> tuple[int, ...] | NoAnswer:
        return parse_order(text, int(item.metadata["n"]))

    def answer_to_json(self, answer: Any) -> Any:
        return list(answer)

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        """τ (paper Eq. 4) with a NoAnswer scored τ = 0, a random order's expectation (docs: S1);
        ``tau_answered`` leaves NoAnswers out; ``exact``: the whole order right."""
        if isinstance(answer, NoAnswer):
            return {"tau": 0.0, "score50": 50.0, "tau_answered": None, "exact": 0.0}
        tau = kendall_tau(list(answer), self.decode_target(item))
        return {
            "tau": tau,
            "score50": score50(tau),
            "tau_answered": tau,
            "exact": float(tau == 1.0),
        }

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        def summ(rs: list[SampleRecord], s: int) -> dict[str, Any]:
            return {
                "tau": mean_of(rs, "tau", s),
                "score50": mean_of(rs, "score50", s),
                "tau_answered": mean_of(rs, "tau_answered", s),
                "exact": mean_of(rs, "exact", s),
                "no_answer": sum(r.status == "no_answer" for r in rs),
            }

        return {
            "overall": summ(records, seed),
            "by_level": by_group(records, "level", summ, seed=seed),
            "by_category": by_group(records, "category", summ, seed=seed),
        }

    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("Kendall tau", metrics["overall"]["tau"]) if metrics else None

    def chance(self, metrics: dict[str, Any]) -> float | None:
        return 0.0

    def random_answer(self, rng: random.Random, n_images: int = 4) -> str:
        order = list(range(n_images))
        rng.shuffle(order)
        return '{"ans": "' + ", ".join(map(str, order)) + '"}'

    def random_answer_for(self, rng: random.Random, messages: Any) -> str:
        """A uniform permutation of as many indices as the request shows images (4 or 5): the
        random backend counts the images it is sent, it never reads the item's metadata."""
        n = sum(isinstance(p, ImagePart) for m in messages for p in m.content)
        return self.random_answer(rng, n or 4)

    def gold_text(self, item: Item) -> str:
        return '{"ans": "' + ", ".join(map(str, item.target)) + '"}'

    def reference_agent(self) -> Agent:
        from chronoeval.suites.seeing_time.agents import sort_agent

        return sort_agent

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        o = results["metrics"]["overall"]
        return [
            ("tau", fmt_metric(o["tau"], digits=3)),
            ("50(1+tau)", fmt_metric(o["score50"], digits=1)),
        ]

    def plots(self, runs: RunsByModel, out_dir: Path) -> list[Path]:
        from chronoeval.suites.seeing_time.plots import sort_plots

        return sort_plots(runs, out_dir)


__all__ = ["ChronoSort", "EraLocalization", "mean_metric"]
