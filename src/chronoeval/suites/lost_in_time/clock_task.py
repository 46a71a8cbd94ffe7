"""ClockQA: read the time off an analogue clock (Lost in Time, Saxena et al. 2025).

Items are generated (six styles, any count, deterministic for a seed) or loaded from the published
DateTimeQA layout. Gold is ``H:MM:SS``, 12-hour, no leading zero on the hour.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from chronoeval.core.answers import NoAnswer
from chronoeval.core.dataset import BuiltItem, image_part
from chronoeval.core.errors import DataError
from chronoeval.core.items import Item, Message, TextPart, user_message
from chronoeval.core.registry import register_task
from chronoeval.core.task import Agent, RunsByModel, SampleRecord, Task
from chronoeval.report.summary import fmt_metric
from chronoeval.suites.lost_in_time.answers import CLOCK_STYLES, SECONDS_ON_DIAL, ClockTime
from chronoeval.suites.lost_in_time.metrics import (
    ClockScoreColumns,
    clock_aggregate_columns,
    clock_scores,
    default_time_bias,
)
from chronoeval.suites.lost_in_time.parsing import parse_clock_answer

QUESTION = "What time is shown on the clock in the given image?"
"""The paper's ClockQA question, verbatim (also every DateTimeQA clock row's ``question``)."""
FORMAT_HINT = " Answer with the time in H:MM:SS format."

HEADLINE = {"no_second_hand": "hm_em"}
"""Per-style headline metric: EM, except HM-EM where the dial has no second hand."""

_NO_STYLE = object()
"""A record whose metadata has no style: listed as style "?" with no samples (as before)."""


def clock_prompt(question: str, png: tuple[Any, str, bytes]) -> tuple[Message, dict[str, bytes]]:
    part, rel, data = png
    return user_message(part, TextPart(question)), {rel: data}


@register_task
class ClockQA(Task):
    name = "clockqa"
    suite = "lost_in_time"
    version = "2"  # 2: realistic faces by default (issue 19); look=classic gives version 1's faces
    description = (
        "Read analogue clocks (six styles); gold H:MM:SS; paper's EM, MAE, hour/min errors"
    )
    default_params: ClassVar[dict[str, Any]] = {
        "n": 120,
        "styles": list(CLOCK_STYLES),
        "size": 420,
        "rotate": False,
        "look": "realistic",
        "format_hint": True,
    }
    group_by = ("style",)
    headline_score = "em"
    aggregate_reads_only = True  # aggregate reads metadata, scores, answer, target, status

    def build(self, params: dict[str, Any], seed: int) -> Iterator[BuiltItem]:
        from chronoeval.render.clock import (
            LOOKS,
            render_clock,
            sample_face,
            sample_realistic_face,
            sample_time,
        )
        from chronoeval.render.png import encode_png

        styles = list(params["styles"])
        for s in styles:
            if s not in CLOCK_STYLES:
                raise DataError(
                    f"unknown clock style {s!r}; known: {', '.join(CLOCK_STYLES)}", field="styles"
                )
        look = str(params["look"])
        if look not in LOOKS:
            raise DataError(f"unknown clock look {look!r}; known: {', '.join(LOOKS)}", field="look")
        question = QUESTION + (FORMAT_HINT if params["format_hint"] else "")
        for i in range(int(params["n"])):
            style = styles[i % len(styles)]
            rng = random.Random(f"clockqa:{seed}:{i}")
            if look == "classic":
                face = sample_face(
                    style, rng, size=int(params["size"]), rotate=bool(params["rotate"])
                )
            else:
                face = sample_realistic_face(style, rng, size=int(params["size"]))
            time = sample_time(style, rng)
            item_id = f"clock-{i:05d}"
            metadata: dict[str, Any] = {"style": style}
            if look != "classic":
                metadata.update(look=look, design=face.design, distortion=face.distortion)
            png = encode_png(render_clock(time, face))
            message, images = clock_prompt(question, image_part(f"{item_id}.png", png))
            yield BuiltItem(
                Item(item_id, self.suite, self.name, (message,), str(time), metadata=metadata),
                images,
            )

    def load(self, path: Path, params: dict[str, Any]) -> Iterator[BuiltItem]:
        from chronoeval.suites.lost_in_time.loader import load_datetimeqa

        for row in load_datetimeqa(path, "clock"):
            message, images = clock_prompt(row.question, image_part(row.image_name, row.image))
            yield BuiltItem(
                Item(
                    row.item_id,
                    self.suite,
                    self.name,
                    (message,),
                    row.answer,
                    metadata={"style": row.category, "source_row": row.row},
                ),
                images,
            )

    def decode_target(self, item: Item) -> ClockTime:
        if not isinstance(item.target, str):
            raise DataError(
                f"gold must be an H:MM:SS string, got {type(item.target).__name__}",
                item_id=item.id,
                field="target",
            )
        try:
            return ClockTime.from_gold(item.target)
        except ValueError as exc:
            raise DataError(str(exc), item_id=item.id, field="target") from None

    def parse(self, text: str, item: Item) -> ClockTime | NoAnswer:
        return parse_clock_answer(text)

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        return clock_scores(answer, self.decode_target(item))

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        columns = ClockScoreColumns([r.scores for r in records])  # each score read once
        raw = [r.metadata.get("style", _NO_STYLE) for r in records]
        styles = sorted({"?" if s is _NO_STYLE else str(s) for s in raw})
        rows: dict[str, list[int]] = {}  # one pass, records' order kept
        for i, style in enumerate(raw):
            if isinstance(style, str):  # only a string equals a style name below
                rows.setdefault(style, []).append(i)
        by_style = {}
        for style in styles:
            at = np.array(rows.get(style, []), dtype=np.intp)
            entry = clock_aggregate_columns(columns, at, seed=seed)
            entry["headline"] = HEADLINE.get(style, "em")
            by_style[style] = entry
        return {
            "overall": clock_aggregate_columns(columns, seed=seed),
            "by_style": by_style,
            "default_time": default_time_bias(
                [str(r.answer) if r.status == "answered" else None for r in records],
                [str(r.target) for r in records],
                seed=seed,
            ),
        }

    def random_answer(self, rng: random.Random) -> str:
        return str(ClockTime.from_dial_seconds(rng.randrange(SECONDS_ON_DIAL)))

    def reference_agent(self) -> Agent:
        from chronoeval.suites.lost_in_time.agents import clock_agent

        return clock_agent

    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        # The paper's headline: EM on H:MM:SS (HM-EM stays beside it in every table).
        return ("EM", metrics["overall"]["em"]) if metrics else None

    def chance(self, metrics: dict[str, Any]) -> float | None:
        return 1 / 43200  # a uniform guess over the 12 h x 60 min x 60 s dial positions

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        o = results["metrics"]["overall"]
        return [
            ("EM %", fmt_metric(o["em"], pct=True)),
            ("HM-EM %", fmt_metric(o["hm_em"], pct=True)),
            ("MAE s", fmt_metric(o["mae_s"], digits=0)),
            ("hour err", fmt_metric(o["hour_err"], digits=2)),
            ("minute err", fmt_metric(o["minute_err"], digits=2)),
        ]

    def plots(self, runs: RunsByModel, out_dir: Path) -> list[Path]:
        from chronoeval.suites.lost_in_time.plots import clock_plots

        return clock_plots(runs, out_dir)
