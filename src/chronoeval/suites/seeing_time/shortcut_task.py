"""Shortcut task (paper Sec. IV-B): which of two images is earlier, in three conditions per pair —
both in colour (B), the older one in grayscale (1), the newer one in grayscale (2) — giving ACC_B,
ACC_1, ACC_2 and Δ = ACC_1 − ACC_2 per domain; and the CoT debiasing prompt as a second task."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from chronoeval.core.answers import NoAnswer
from chronoeval.core.dataset import BuiltItem
from chronoeval.core.errors import DataError
from chronoeval.core.items import Item, Message, TextPart
from chronoeval.core.registry import register_task
from chronoeval.core.task import Agent, RunsByModel, SampleRecord
from chronoeval.report.summary import fmt_metric
from chronoeval.suites.seeing_time import prompts
from chronoeval.suites.seeing_time.collection import Entry, Event, synthetic_collection
from chronoeval.suites.seeing_time.common import SeeingTask, load_params_for, part_for, rng_for
from chronoeval.suites.seeing_time.grayscale import gray_png
from chronoeval.suites.seeing_time.metrics import shortcut_summary
from chronoeval.suites.seeing_time.parsing import (
    parse_earlier,
    parse_earlier_cot,
    parse_earlier_lenient,
)
from chronoeval.suites.seeing_time.release import ImageFinder, load_shortcut
from chronoeval.suites.seeing_time.scenes import PHOTO

Img = tuple[bytes, str]


class _Shortcut(SeeingTask):
    version = "1"
    system_prompt: ClassVar[str] = prompts.SHORTCUT_SYSTEM
    user_prompt: ClassVar[str] = prompts.SHORTCUT_USER
    default_params: ClassVar[dict[str, Any]] = {"n_pairs": 40, "min_gap": 1, "pool": 200, "n": 0}
    load_params: ClassVar[dict[str, Any]] = load_params_for({"n_pairs": 1200, "min_gap": 1})
    group_by = ("domain", "condition")
    request_options: ClassVar[dict[str, Any]] = {"response_format": {"type": "json_object"}}
    """The release's shortcut scripts send JSON mode (prompts.json ``shortcut.response_format``)."""
    headline_score = "correct_b"
    synthetic_note = (
        "Synthetic scenes encode the year as an arbitrary palette a real VLM cannot read; only "
        "the grayscale Δ = ACC_1 − ACC_2 (a grey image called older) is meaningful here, ACC_B is "
        "a harness check. Use the released shortcut files for the paper's measure."
    )

    def with_n(self, params: dict[str, Any]) -> dict[str, Any]:
        """``n`` > 0 items: ceil(n/3) pairs (a pair's three conditions are never split, so Δ is
        computed on whole pairs; 3·ceil(n/3) items)."""
        n = int(params.get("n") or 0)
        return {**params, "n_pairs": -(-n // 3)} if n > 0 else params

    def item_limit(self, n: int) -> int:
        return 3 * -(-n // 3) if n > 0 else 0

    def synthetic(self, params: dict[str, Any], seed: int) -> tuple[list[Entry], list[Event]]:
        return synthetic_collection(PHOTO, int(params["pool"]), seed), []

    def triplet(
        self,
        pair_id: str,
        domain: str,
        first: Img,
        second: Img,
        answer: int,
        years: list[int],
        extra: dict[str, Any],
    ) -> Iterator[BuiltItem]:
        """The three items of one pair; ``answer`` is the position (1/2) of the earlier image."""
        older_pos = answer
        for cond in ("B", "1", "2"):
            imgs = [first, second]
            if cond != "B":
                gray_pos = older_pos if cond == "1" else 3 - older_pos
                data, _ext = imgs[gray_pos - 1]
                imgs[gray_pos - 1] = (gray_png(data), ".png")
            parts: list[Any] = [TextPart(self.user_prompt)]
            blobs: dict[str, bytes] = {}
            for data, ext in imgs:
                part, b = part_for(data, ext)
                parts.append(part)
                blobs.update(b)
            msgs = (
                Message("system", (TextPart(self.system_prompt),)),
                Message("user", tuple(parts)),
            )
            meta = {"domain": domain, "pair": pair_id, "condition": cond, "years": years, **extra}
            yield BuiltItem(
                Item(f"{pair_id}-{cond}", self.suite, self.name, msgs, answer, ("1", "2"), meta),
                blobs,
            )

    def compose(self, entries, events, params, seed) -> Iterator[BuiltItem]:
        """Pairs inside one category whose years differ by at least ``min_gap``; the earlier image
        goes to a seeded random position (recorded as the gold)."""
        rng = rng_for(seed, "shortcut")
        by_cat: dict[str, list[Entry]] = {}
        for e in entries:
            by_cat.setdefault(e.category, []).append(e)
        cats = sorted(c for c, es in by_cat.items() if len({e.year for e in es}) >= 2)
        gap = int(params.get("min_gap", 1))
        made = attempts = 0
        while cats and made < int(params["n_pairs"]) and attempts < 100 * int(params["n_pairs"]):
            attempts += 1
            cat = cats[made % len(cats)]
            a, b = rng.sample(by_cat[cat], 2)
            if abs(a.year - b.year) < gap:
                continue
            early, late = (a, b) if a.year < b.year else (b, a)
            answer = rng.choice((1, 2))
            first, second = (early, late) if answer == 1 else (late, early)
            years = [first.year, second.year]
            yield from self.triplet(
                f"sc-{made:04d}",
                cat,
                (first.image, first.ext),
                (second.image, second.ext),
                answer,
                years,
                {},
            )
            made += 1

    def load_release(self, path: Path, finder: ImageFinder, seed: Any) -> Iterator[BuiltItem]:
        for t in load_shortcut(path, finder):
            a, b = t.images
            extra = {"originals": [a.original, b.original]}
            yield from self.triplet(
                f"{t.domain}-{t.test}",
                t.domain,
                (a.image.data, a.image.ext),
                (b.image.data, b.image.ext),
                t.answer,
                [a.year, b.year],
                extra,
            )

    def decode_target(self, item: Item) -> int:
        if item.target not in (1, 2):
            raise DataError("gold must be 1 or 2", item_id=item.id, field="target")
        return int(item.target)

    def verify(self, item: Item) -> None:
        """The gold re-derived from the stored years: the position of the smaller year."""
        y = item.metadata["years"]
        if y[0] == y[1] or (1 if y[0] < y[1] else 2) != self.decode_target(item):
            raise DataError(
                f"gold {item.target} disagrees with years {y}", item_id=item.id, field="target"
            )

    def parse(self, text: str, item: Item) -> int | NoAnswer:
        return parse_earlier(text)

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        c = float(not isinstance(answer, NoAnswer) and answer == item.target)
        return {"correct": c, "correct_b": c if item.metadata.get("condition") == "B" else None}

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        for r in records:  # ours, lenient (never the headline): parse_earlier_lenient
            if "correct_lenient" not in r.scores and r.status in ("answered", "no_answer"):
                lenient = parse_earlier_lenient(r.response or "")
                r.scores["correct_lenient"] = float(
                    not isinstance(lenient, NoAnswer) and lenient == r.target
                )

        def rows(rs: list[SampleRecord], key: str = "correct") -> list[tuple[str, str, float]]:
            return [
                (
                    str(r.metadata["pair"]),
                    str(r.metadata["condition"]),
                    float(r.scores.get(key) or 0.0),
                )
                for r in rs
            ]

        domains = sorted({str(r.metadata.get("domain")) for r in records})
        overall = shortcut_summary(rows(records), seed=seed)
        overall["no_answer"] = sum(r.status == "no_answer" for r in records)
        overall["lenient"] = shortcut_summary(rows(records, "correct_lenient"), seed=seed)
        return {
            "overall": overall,
            "by_domain": {
                d: shortcut_summary(
                    rows([r for r in records if r.metadata.get("domain") == d]), seed=seed
                )
                for d in domains
            },
        }

    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("ACC_B", metrics["overall"]["acc_b"]) if metrics else None

    def chance(self, metrics: dict[str, Any]) -> float | None:
        return 0.5

    def random_answer(self, rng: random.Random) -> str:
        return json.dumps({"thinking": "random", "answer": str(rng.choice((1, 2)))})

    def gold_text(self, item: Item) -> str:
        return json.dumps({"answer": str(item.target)})

    def reference_agent(self) -> Agent:
        from chronoeval.suites.seeing_time.agents import shortcut_agent

        return shortcut_agent

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        o = results["metrics"]["overall"]
        return [
            ("ACC_B %", fmt_metric(o["acc_b"], pct=True)),
            ("ACC_1 %", fmt_metric(o["acc_1"], pct=True)),
            ("ACC_2 %", fmt_metric(o["acc_2"], pct=True)),
            ("Delta %", fmt_metric(o["delta"], pct=True)),
            ("ACC_B lenient parse (ours) %", fmt_metric(o["lenient"]["acc_b"], pct=True)),
        ]

    def plots(self, runs: RunsByModel, out_dir: Path) -> list[Path]:
        from chronoeval.suites.seeing_time.plots import shortcut_plots

        return shortcut_plots(runs, out_dir, self.name)


@register_task
class ColourShortcut(_Shortcut):
    name = "seeing_shortcut"
    description = (
        "Seeing Time: which image is earlier, colour vs grayscale triplets; ACC_B, ACC_1, ACC_2, Δ"
    )


@register_task
class ColourShortcutCoT(_Shortcut):
    name = "seeing_shortcut_cot"
    description = (
        "Seeing Time: the shortcut triplets with the released CoT debiasing prompt (Δ reduction)"
    )
    system_prompt = prompts.SHORTCUT_COT_SYSTEM
    user_prompt = prompts.SHORTCUT_COT_USER

    def parse(self, text: str, item: Item) -> int | NoAnswer:
        """The released ``shortcut_with_CoT.py`` rule (first 1/2 of the answer; no regex
        fallback), which differs from the plain script's."""
        return parse_earlier_cot(text)
