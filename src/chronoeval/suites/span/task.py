"""The SPAN task: cross-calendar temporal reasoning across six calendars (one task, ``span``;
directions, types, formats and evaluation dates are item metadata that reports break down by)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

from chronoeval.core.answers import NoAnswer
from chronoeval.core.dataset import BuiltItem
from chronoeval.core.errors import DataError
from chronoeval.core.items import Item, TextPart, user_message
from chronoeval.core.registry import register_task
from chronoeval.core.task import Agent, RunsByModel, SampleRecord, Task
from chronoeval.report.summary import fmt_metric
from chronoeval.suites.span.calendars import CalDate, CalendarError, get_calendar
from chronoeval.suites.span.parsing import ParsedDate, parse_date_answer, parse_yes_no


def _split(value: Any, allowed: tuple[str, ...], field: str) -> tuple[str, ...]:
    items = tuple(
        v.strip() for v in (value if isinstance(value, list | tuple) else str(value).split(","))
    )
    bad = [v for v in items if v not in allowed]
    if bad or not items:
        raise DataError(f"must be a comma list of {', '.join(allowed)}, got {value!r}", field=field)
    return items


@register_task
class Span(Task):
    name = "span"
    suite = "span"
    verify_at_run = True
    """``run`` re-derives every gold from its stored program before asking (0.1 ms an item), so an
    item dated 2025-02-30 is refused at load, not only by ``verify``."""
    version = "1"
    description = "Cross-calendar date reasoning over six calendars (SPAN); accuracy, FDD, CAB"
    default_params: ClassVar[dict[str, Any]] = {
        "n": None,
        "eval_dates": "2025-07-01",
        "islamic_variant": "auto",
        "include_disputed": False,
        "types": "date,festival",
        "formats": "content,polar",
        "cutoff": "2025-07-01",
    }
    group_by = ("calendar", "direction", "group", "type", "format", "eval_date")
    headline_score = "correct"

    # -- items -------------------------------------------------------------------------------
    def build(self, params: dict[str, Any], seed: int) -> Iterator[BuiltItem]:
        from chronoeval.suites.span.questions import parse_eval_dates, questions_for_date

        dates = parse_eval_dates(params["eval_dates"])
        types = _split(params["types"], ("date", "festival"), "types")
        formats = _split(params["formats"], ("content", "polar"), "formats")
        cutoff = str(params.get("cutoff") or "2025-07-01")

        def all_items() -> Iterator[BuiltItem]:
            for d in dates:
                for q in questions_for_date(
                    d,
                    seed=seed,
                    islamic_variant=str(params["islamic_variant"]),
                    include_disputed=bool(params["include_disputed"]),
                    types=types,
                    formats=formats,
                ):
                    meta = {
                        **q.metadata,
                        "past": q.metadata["eval_date"] < cutoff,
                        "cutoff": cutoff,
                    }
                    item = Item(
                        q.id,
                        self.suite,
                        self.name,
                        (user_message(TextPart(q.text)),),
                        q.target,
                        metadata=meta,
                    )
                    yield BuiltItem(item)

        if params.get("n") is None:
            yield from all_items()
            return
        items = list(all_items())
        random.Random(f"span-sample:{seed}").shuffle(items)
        yield from items[: int(params["n"])]

    def verify(self, item: Item) -> None:
        from chronoeval.suites.span.program import run_program

        prog = item.metadata.get("program")
        if not isinstance(prog, dict):
            raise DataError("no stored program", item_id=item.id, field="metadata.program")
        try:
            value = run_program(prog)
        except (CalendarError, KeyError, TypeError) as exc:
            raise DataError(
                f"program fails: {exc}", item_id=item.id, field="metadata.program"
            ) from None
        gold = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        if gold != item.target:
            raise DataError(
                f"program gives {gold!r}, the item says {item.target!r}",
                item_id=item.id,
                field="target",
            )

    def decode_target(self, item: Item) -> CalDate | bool:
        t = item.target
        if t in ("yes", "no"):
            return t == "yes"
        if not isinstance(t, str) or ":" not in t:
            raise DataError(
                f"gold must be 'yes', 'no' or 'calendar:YYYY-MM-DD', got {t!r}", field="target"
            )
        from chronoeval.suites.span.program import parse_tagged

        try:
            return parse_tagged(t)
        except CalendarError as exc:
            raise DataError(str(exc), field="target") from None

    # -- answers -----------------------------------------------------------------------------
    def parse(self, text: str, item: Item) -> ParsedDate | bool | NoAnswer:
        gold = self.decode_target(item)
        if isinstance(gold, bool):
            return parse_yes_no(text)
        return parse_date_answer(text, get_calendar(gold.calendar).family)

    def answer_to_json(self, answer: Any) -> Any:
        return answer if isinstance(answer, bool) else str(answer)

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        """``correct``: exact yes/no, or the exact target date (year, month, leap flag, day);
        ``md_correct`` (content only): month and day right whatever the year (a diagnostic)."""
        gold = self.decode_target(item)
        if isinstance(answer, NoAnswer):
            return {"correct": 0.0, "md_correct": None if isinstance(gold, bool) else 0.0}
        if isinstance(gold, bool):
            return {"correct": float(answer is gold), "md_correct": None}
        assert isinstance(answer, ParsedDate)
        md = answer.month == gold.month and answer.day == gold.day and answer.leap == gold.leap
        return {"correct": float(md and answer.year == gold.year), "md_correct": float(md)}

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        from chronoeval.suites.span.metrics import span_aggregate

        cutoffs = {str(r.metadata.get("cutoff")) for r in records if r.metadata.get("cutoff")}
        cutoff = sorted(cutoffs)[0] if cutoffs else "2025-07-01"
        return span_aggregate(records, cutoff=cutoff, seed=seed)

    # -- baselines and agents ------------------------------------------------------------------
    def random_answer(self, rng: random.Random) -> str:
        """Chance baseline: a fair yes/no (content questions have no meaningful chance level)."""
        return f"Answer: {rng.choice(('yes', 'no'))}"

    def gold_text(self, item: Item) -> str:
        gold = self.decode_target(item)
        return f"Answer: {('yes' if gold else 'no') if isinstance(gold, bool) else gold.iso()}"

    def reference_agent(self) -> Agent:
        from chronoeval.suites.span.agent import span_agent

        return span_agent

    # -- reports -----------------------------------------------------------------------------
    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("accuracy", metrics["overall"]["accuracy"])

    def chance(self, metrics: dict[str, Any]) -> float | None:
        """0.5 on polar items, 0 on content items (an exact date by chance is negligible)."""
        total = metrics["overall"]["accuracy"]["n"]
        polar = metrics.get("by_format", {}).get("polar", {}).get("accuracy", {}).get("n", 0)
        return 0.5 * polar / total if total else None

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        m = results["metrics"]
        fm = m["failure_modes"]
        rows = [("Acc %", fmt_metric(m["overall"]["accuracy"], pct=True))]
        rows.append(("FDD pts", fmt_metric(fm["future_date_degradation"], pct=True)))
        rows.append(("CAB pts", fmt_metric(fm["calendar_asymmetry_bias"], pct=True)))
        return rows

    def plots(self, runs: RunsByModel, out_dir: Path) -> list[Path]:
        from chronoeval.suites.span.plots import span_plots

        return span_plots(runs, out_dir)
