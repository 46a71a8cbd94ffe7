"""Plug your own model and your own task into chronoeval (see docs/extending.md).

Run it:  python examples/extending.py [OUT_DIR]

It registers

- a backend ``weekday-rules``: a "model" that answers by reading the prompt text (stands in for
  your own inference code: a local engine, a company API, anything async or not), and
- a task ``weekday``: "What day of the week was YYYY-MM-DD?", generated from a seed, parsed,
  scored by exact match, aggregated with bootstrap intervals,

then runs the task on the new backend and on the built-in random baseline, and writes the usual
run directories (config.json, store, results.json, samples.jsonl/parquet, report.html).
A test (tests/test_extending_example.py) runs this file as it stands.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from chronoeval import api
from chronoeval.core.answers import NoAnswer
from chronoeval.core.dataset import BuiltItem
from chronoeval.core.items import Item, TextPart, user_message
from chronoeval.core.registry import register_task
from chronoeval.core.stats import mean_metric
from chronoeval.core.task import SampleRecord, Task
from chronoeval.engine.request import Request
from chronoeval.models.base import Backend, BackendError, Response
from chronoeval.models.registry import BackendOptions, register_backend

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


# -- your own task -----------------------------------------------------------------------------
@register_task
class WeekdayTask(Task):
    name = "weekday"
    suite = "my_suite"
    version = "1"
    description = "Name the day of the week of a Gregorian date; exact match"
    default_params = {"n": 20, "year_min": 1900, "year_max": 2100}
    headline_score = "correct"  # the per-sample score the headline averages (paired tests)

    def build(self, params: dict[str, Any], seed: int) -> Iterator[BuiltItem]:
        rng = random.Random(seed)
        lo = dt.date(int(params["year_min"]), 1, 1).toordinal()
        hi = dt.date(int(params["year_max"]), 12, 31).toordinal()
        for i in range(int(params["n"] or 20)):
            day = dt.date.fromordinal(rng.randint(lo, hi))
            question = f"What day of the week was {day.isoformat()}? Answer with the day's name."
            item = Item(
                id=f"weekday-{i:04d}",
                suite=self.suite,
                task=self.name,
                messages=(user_message(TextPart(question)),),
                target=DAYS[day.weekday()],
                metadata={"century": day.year // 100 + 1},
            )
            yield BuiltItem(item, {})  # no images; {relative path: bytes} otherwise

    def parse(self, text: str, item: Item) -> Any:
        found = re.findall(r"\b(" + "|".join(DAYS) + r")\b", text, flags=re.IGNORECASE)
        names = {f.capitalize() for f in found}
        if len(names) != 1:  # none, or several different days: no answer, never "wrong"
            return NoAnswer("no single weekday in the reply")
        return names.pop()

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        if isinstance(answer, NoAnswer):
            return {"correct": 0.0}
        return {"correct": float(answer == item.target)}

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        correct = [r.scores["correct"] for r in records if r.scores.get("correct") is not None]
        return {"overall": {"accuracy": mean_metric(correct, seed=seed)}}

    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return "accuracy", metrics["overall"]["accuracy"]

    def chance(self, metrics: dict[str, Any]) -> float | None:
        return 1 / 7

    def random_answer(self, rng: random.Random) -> str:
        return f"It was a {rng.choice(DAYS)}."

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        from chronoeval.report.summary import fmt_metric

        return [("accuracy %", fmt_metric(results["metrics"]["overall"]["accuracy"], pct=True))]


# -- your own backend --------------------------------------------------------------------------
class WeekdayRules(Backend):
    """Answers from the prompt text alone, as any model must (it never sees the target)."""

    def __init__(self, style: str) -> None:
        self.style = style
        self.identity = f"weekday-rules/{style}"  # goes into every request key: name the model

    async def generate(self, request: Request) -> Response:
        text = "\n".join(m.text for m in request.messages)
        match = re.search(r"(\d{4})-(\d{2})-(\d{2})", text)
        if match is None:
            # a failed call: stored as an error (retried on resume), never scored as wrong
            raise BackendError("no date in the prompt", retryable=False)
        day = dt.date(*map(int, match.groups()))
        name = DAYS[day.weekday()]
        reply = name if self.style == "terse" else f"Let me think. {day} was a {name}."
        return Response(text=reply, latency_s=0.0, usage={"completion_tokens": len(reply.split())})


@register_backend("weekday-rules")
def _weekday_rules(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    return WeekdayRules(arg or "chatty")


def main(out: Path) -> dict[str, float]:
    headline: dict[str, float] = {}
    runs = []
    for model in ("weekday-rules:chatty", "random"):
        res = api.run(["weekday"], model, n=14, run_dir=out / api.slug(model), progress=False)
        headline[model] = res.results["tasks"]["weekday"]["metrics"]["overall"]["accuracy"]["value"]
        runs.append(res.run_dir)
    report = api.report(runs, out=out / "report.html", markdown=out / "report.md")
    print(f"accuracy: {headline}; report: {report.html}")
    return headline


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="chronoeval-")))
