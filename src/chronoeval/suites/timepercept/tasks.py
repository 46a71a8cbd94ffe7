"""The nine TimePerceptBench tasks and the recognition control, as registered Tasks.

Every task samples from a collection: the synthetic time-lapse collection by default (``build``),
or a manifest / fMoW folder (``load``, with ``--data PATH --param k=v``). Locations are split into
disjoint train and test sets; ``split=test`` (default, n = 200) or ``split=train`` (n = 800, the
LoRA recipe's training data).
"""

from __future__ import annotations

import hashlib
import logging
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from chronoeval.core.answers import NoAnswer
from chronoeval.core.dataset import BuiltItem, image_part
from chronoeval.core.errors import DataError
from chronoeval.core.items import Item, Part, TextPart, user_message
from chronoeval.core.registry import register_task
from chronoeval.core.stats import mean_metric
from chronoeval.core.task import Agent, RunsByModel, SampleRecord, Task
from chronoeval.report.summary import fmt_metric
from chronoeval.suites.timepercept import prompts
from chronoeval.suites.timepercept.collection import (
    Collection,
    filter_clouds,
    load_collection,
    synthetic_collection,
)
from chronoeval.suites.timepercept.metrics import (
    accuracy_aggregate,
    accuracy_scores,
    order_aggregate,
    order_scores,
)
from chronoeval.suites.timepercept.parsing import (
    parse_bool,
    parse_index,
    parse_letter,
    parse_permutation,
    valid_permutation,
)
from chronoeval.suites.timepercept.samplers import (
    ICE_CATEGORIES,
    ICE_LABELS,
    MIN_IMAGES,
    SAMPLERS,
    Spec,
    gold_from_facts,
)

log = logging.getLogger("chronoeval.timepercept")

SYNTHETIC_PARAMS: dict[str, Any] = {
    "n": 200,
    "split": "test",
    "n_locations": 120,
    "clouds": True,
    "max_cloud_cover": 20.0,
    "split_seed": 0,
    "split_file": "",
}
LOAD_PARAMS: dict[str, Any] = {
    "n": 200,
    "split": "test",
    "seed": 0,
    "max_cloud_cover": 20.0,
    "fmow_splits": "",
    "split_seed": 0,
    "split_file": "",
}
"""``--param`` options for ``--data``: items, our split, sampling seed, cloud limit in percent
(negative: no limit), which fMoW split folders to read (comma-separated; default all), and the
location split: ``split_seed`` for the hash rule, or a ``split_file`` written by
``chronoeval timepercept split`` (see :mod:`.splits`)."""


class TimePerceptTask(Task):
    suite = "timepercept"
    version = "2"  # 2: one hash split per collection, before task filters (.splits)
    default_params: ClassVar[dict[str, Any]] = SYNTHETIC_PARAMS
    load_params: ClassVar[dict[str, Any]] = LOAD_PARAMS
    group_by = ("span_bucket",)
    family: ClassVar[str] = "TOU"
    kind: ClassVar[str] = "accuracy"  # accuracy | order
    n_choices: ClassVar[int] = 2
    chance_level: ClassVar[float] = 0.5
    headline_score: ClassVar[str | None] = "correct"
    key: ClassVar[str]
    """The paper's task code (lower case): selects sampler, prompt and gold rule."""
    synthetic_note: ClassVar[str | None] = (
        "Synthetic time-lapse scenes (buildings appear, vegetation follows the seasons, clouds): "
        "checks the harness, parsers and metrics, and whether a model reads rendered change cues. "
        "It is not the paper's SITSCC/fMoW imagery; scores are not comparable to the paper's."
    )

    # -- items -------------------------------------------------------------------------------
    def build(self, params: dict[str, Any], seed: int) -> Iterator[BuiltItem]:
        coll = synthetic_collection(int(seed), int(params["n_locations"]), bool(params["clouds"]))
        yield from self._items(coll, params, int(seed), source="synthetic")

    def load(self, path: Path, params: dict[str, Any]) -> Iterator[BuiltItem]:
        coll = load_collection(path, str(params.get("fmow_splits") or ""))
        yield from self._items(coll, params, int(params["seed"]), source=str(path))

    def _items(
        self, coll: Collection, params: dict[str, Any], seed: int, source: str
    ) -> Iterator[BuiltItem]:
        # one split per collection, by location, before any task filter (see .splits)
        split = str(params["split"])
        split_file = str(params.get("split_file") or "")
        coll = coll.split(
            split,
            int(params.get("split_seed") or 0),
            split_file=Path(split_file) if split_file else None,
        )
        limit = float(params["max_cloud_cover"])
        coll = filter_clouds(coll, None if limit < 0 else limit)
        coll = coll.with_min_images(MIN_IMAGES.get(self.key, 2))
        if coll.report.dropped:
            log.warning("%s: %s", self.name, coll.report.text())
        sampler = SAMPLERS[self.key]
        for i in range(int(params["n"])):
            rng = random.Random(f"{self.name}:{seed}:{split}:{i}")
            spec = sampler(coll, i, rng)
            yield self._item(coll, spec, f"{self.name}-{split}-{i:05d}", source)

    def _item(self, coll: Collection, spec: Spec, item_id: str, source: str) -> BuiltItem:
        images: dict[str, bytes] = {}
        parts: list[Part] = []
        intro = prompts.INTRO[self.key].format(k=len(spec.images))
        if intro:
            parts.append(TextPart(intro))
        labels = prompts.image_labels(len(spec.images), spec.groups)
        for label, obs in zip(labels, spec.images, strict=True):
            png = coll.png(obs)
            # named by content, never by location key or view index: names must not leak order
            part, rel, data = image_part(f"{hashlib.sha256(png).hexdigest()[:20]}.png", png)
            images[rel] = data
            if len(spec.images) > 1:
                parts.append(TextPart(label))
            parts.append(part)
        question = prompts.QUESTION[self.key].format(options=prompts.options_text(spec.options))
        parts.append(TextPart(question))
        metadata = {**spec.metadata, "facts": spec.facts, "family": self.family, "source": source}
        return BuiltItem(
            Item(
                item_id,
                self.suite,
                self.name,
                (user_message(*parts),),
                spec.target,
                choices=tuple(spec.options) if spec.options else None,
                metadata=metadata,
            ),
            images,
        )

    def verify(self, item: Item) -> None:
        try:
            gold = gold_from_facts(self.key, item.metadata["facts"])
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise DataError(
                f"cannot re-derive the gold ({exc})", item_id=item.id, field="metadata.facts"
            ) from None
        if gold != item.target:
            raise DataError(
                f"stored gold {item.target!r} but the images' timestamps give {gold!r}",
                item_id=item.id,
                field="target",
            )

    # -- answers -----------------------------------------------------------------------------
    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        return accuracy_scores(not isinstance(answer, NoAnswer) and answer == item.target)

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        agg = order_aggregate if self.kind == "order" else accuracy_aggregate
        out: dict[str, Any] = {"overall": agg([r.scores for r in records], seed=seed)}
        out["overall"]["no_answer_rate"] = mean_metric(
            [float(r.status == "no_answer") for r in records], seed=seed
        )
        for key in self.breakdowns():
            groups: dict[str, list[SampleRecord]] = {}
            for r in records:
                groups.setdefault(str(r.metadata.get(key, "?")), []).append(r)
            out[f"by_{key}"] = {
                g: agg([r.scores for r in rs], seed=seed) for g, rs in sorted(groups.items())
            }
        out["chance"] = self.chance_level
        out["family"] = self.family
        return out

    def breakdowns(self) -> tuple[str, ...]:
        return self.group_by

    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        key = "pnr" if self.kind == "order" else "accuracy"
        entry = metrics.get("overall", {}).get(key)
        return (key.upper() if key == "pnr" else "accuracy", entry) if entry else None

    def chance(self, metrics: dict[str, Any]) -> float | None:
        return self.chance_level

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        m = results["metrics"]
        o = m["overall"]
        if self.kind == "order":
            pnr = (
                "∞ (no discordant pair)"
                if o["pnr"].get("infinite")
                else fmt_metric(o["pnr"], digits=2)
            )
            return [
                ("PNR", pnr),
                ("Kendall τ", fmt_metric(o["tau"], digits=2)),
                ("exact order %", fmt_metric(o["exact"], pct=True)),
                ("invalid %", fmt_metric(o["invalid_rate"], pct=True)),
                ("chance", f"PNR {self.chance_level:.2f}, τ 0.00"),
            ]
        return [
            ("accuracy %", fmt_metric(o["accuracy"], pct=True)),
            ("chance", f"{100 * self.chance_level:.1f}%"),
        ]

    # -- baselines and agents ------------------------------------------------------------------
    def reference_agent(self) -> Agent:
        from chronoeval.suites.timepercept.agents import make_agent

        return make_agent(self.key)

    def plots(self, runs: RunsByModel, out_dir: Path) -> list[Path]:
        from chronoeval.suites.timepercept.plots import span_plot

        return [span_plot(self, runs, out_dir)]


class _BoolTask(TimePerceptTask):
    def parse(self, text: str, item: Item) -> bool | NoAnswer:
        return parse_bool(text)

    def decode_target(self, item: Item) -> bool:
        if not isinstance(item.target, bool):
            raise DataError("gold must be true or false", item_id=item.id, field="target")
        return item.target

    def random_answer(self, rng: random.Random) -> str:
        return rng.choice(["True", "False"])

    def gold_text(self, item: Item) -> str:
        return str(item.target)


class _LetterTask(TimePerceptTask):
    def parse(self, text: str, item: Item) -> str | NoAnswer:
        return parse_letter(text, self.letters(), item.choices or ())

    def letters(self) -> str:
        return "".join(chr(65 + i) for i in range(self.n_choices))

    def decode_target(self, item: Item) -> str:
        if not isinstance(item.target, str) or item.target not in self.letters():
            raise DataError(
                f"gold must be one of {self.letters()}", item_id=item.id, field="target"
            )
        return item.target

    def random_answer(self, rng: random.Random) -> str:
        return rng.choice(self.letters())


class _OrderTask(TimePerceptTask):
    kind = "order"
    chance_level = 1.0
    headline_score = None  # PNR is a ratio of sums, not a mean of per-sample scores
    paired_ratio = ("pos", "neg")
    """Paired tests compare ΣP/ΣN between runs, resampling items jointly (report/compare.py)."""
    labels: ClassVar[tuple[str, ...]]

    def parse(self, text: str, item: Item) -> list[str] | NoAnswer:
        return parse_permutation(text, self.labels)

    def answer_to_json(self, answer: Any) -> Any:
        return list(answer) if isinstance(answer, list) else str(answer)

    def decode_target(self, item: Item) -> list[str]:
        t = item.target
        if not isinstance(t, list) or not valid_permutation(t, self.labels):
            raise DataError(
                f"gold must be a permutation of {list(self.labels)}",
                item_id=item.id,
                field="target",
            )
        return t

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        pred = (
            answer if isinstance(answer, list) and valid_permutation(answer, self.labels) else None
        )
        return order_scores(pred, self.decode_target(item))  # type: ignore[return-value]

    def random_answer(self, rng: random.Random) -> str:
        p = list(self.labels)
        rng.shuffle(p)
        return ", ".join(p)

    def gold_text(self, item: Item) -> str:
        return ", ".join(item.target)


# -- the nine tasks ----------------------------------------------------------------------------
@register_task
class TAL(TimePerceptTask):
    name = "tp_tal"
    key = "tal"
    description = "Temporal anomaly localisation: which of 5 images breaks the progression (1-5)"
    chance_level = 0.2
    group_by = ("span_bucket", "anomaly")
    synthetic_note = (TimePerceptTask.synthetic_note or "") + (
        " In TAL, 38% of the default synthetic items (76 of 200, seed 0) are solvable by scene "
        "category alone: the location anomaly is the one image of another category."
    )

    def parse(self, text: str, item: Item) -> int | NoAnswer:
        return parse_index(text, 5)

    def decode_target(self, item: Item) -> int:
        if not isinstance(item.target, int) or not 1 <= item.target <= 5:
            raise DataError("gold must be an image number 1-5", item_id=item.id, field="target")
        return item.target

    def random_answer(self, rng: random.Random) -> str:
        return str(rng.randint(1, 5))


@register_task
class ISR(_OrderTask):
    name = "tp_isr"
    key = "isr"
    description = "Image sequence reordering: chronological order of 5 shuffled images (PNR)"
    labels = ("1", "2", "3", "4", "5")


@register_task
class SOV(_BoolTask):
    name = "tp_sov"
    key = "sov"
    description = "Sequential order verification: are 5 images in chronological order? (T/F)"


@register_task
class POV(_BoolTask):
    name = "tp_pov"
    key = "pov"
    description = "Pairwise order verification: was image 1 taken before image 2? (T/F)"


@register_task
class TPL(TimePerceptTask):
    name = "tp_tpl"
    key = "tpl"
    description = "Temporal position localisation: does image 4 belong at position 2 or 4?"

    def parse(self, text: str, item: Item) -> int | NoAnswer:
        ans = parse_index(text, 5, nouns="position|pos\\.?|image")
        if isinstance(ans, int) and ans not in (2, 4):
            return NoAnswer(f"position {ans} is not an option (2 or 4)")
        return ans

    def decode_target(self, item: Item) -> int:
        if item.target not in (2, 4):
            raise DataError("gold must be 2 or 4", item_id=item.id, field="target")
        return item.target

    def random_answer(self, rng: random.Random) -> str:
        return rng.choice(["2", "4"])


@register_task
class ICE(_LetterTask):
    name = "tp_ice"
    key = "ice"
    family = "TIU"
    description = "Interval category estimation: |Δt| as days / 1-3 mo / 3-12 mo / 1-2 y / 2+ y"
    n_choices = 5
    chance_level = 0.2

    def parse(self, text: str, item: Item) -> str | NoAnswer:
        return parse_letter(text, "".join(ICE_CATEGORIES), ICE_LABELS)


@register_task
class PIC(_BoolTask):
    name = "tp_pic"
    key = "pic"
    family = "TIU"
    description = "Pairwise interval comparison: is pair 1's span longer than pair 2's? (T/F)"


@register_task
class IPR(_OrderTask):
    name = "tp_ipr"
    key = "ipr"
    family = "TIU"
    description = "Interval-based pair ranking: groups A-C from shortest to longest span (PNR)"
    labels = ("A", "B", "C")


@register_task
class EII(_LetterTask):
    name = "tp_eii"
    key = "eii"
    family = "TIU"
    description = "Extremum interval identification: which of groups A-D spans the longest?"
    n_choices = 4
    chance_level = 0.25


@register_task
class Recognition(_LetterTask):
    name = "tp_recognition"
    key = "recognition"
    family = "control"
    description = "Recognition control (the paper's UCM check): scene category, 5 options"
    n_choices = 5
    chance_level = 0.2  # with five options; fewer unrelated classes give fewer options
    group_by = ("category",)
    synthetic_note = (
        "Synthetic scenes in 5 categories: every item shows all five as options, so this checks "
        "the harness, not the paper's UCM recognition (21 classes)."
    )

    def random_answer_for(self, rng: random.Random, messages: Any) -> str:
        """A uniform letter among the options the prompt lists ("A. … B. …"), counted from the
        prompt text the model sees (an item may have fewer than five unrelated classes)."""
        text = "\n".join(m.text for m in messages)
        shown = set(re.findall(r"(?<![A-Za-z])([A-E])\. ", text))
        k = 0
        while k < self.n_choices and chr(65 + k) in shown:
            k += 1
        return rng.choice(self.letters()[: max(k, 2)])

    def letters_for(self, item: Item) -> str:
        return "".join(chr(65 + i) for i in range(len(item.choices or ()) or self.n_choices))

    def parse(self, text: str, item: Item) -> str | NoAnswer:
        return parse_letter(text, self.letters_for(item), item.choices or ())

    def decode_target(self, item: Item) -> str:
        if not isinstance(item.target, str) or item.target not in self.letters_for(item):
            raise DataError(
                f"gold must be one of {self.letters_for(item)}", item_id=item.id, field="target"
            )
        return item.target
