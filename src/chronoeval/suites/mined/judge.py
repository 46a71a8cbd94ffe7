"""LLM-as-judge for MINED (paper App. J, Table 12): a second pass over a scored run.

``chronoeval run --task mined_judge --data <a MINED run dir> --model <judge backend>`` builds one
item per configuration record of that run (every ``mined_*`` task in it): the paper's judge
system prompt and user prompt with the standard answer and the prediction. The judge's answers go
through the engine like any response (request keys, run store, resume, retries), so a judge pass is
cached and re-scorable. Aggregation mirrors the released CEM: per sample the mean over non-empty
configurations × 100 (0 if all empty), per subtask the mean over samples, overall the mean over the
subtasks present (the paper's table average). Suite ``mined_judge``, so ``--suite mined`` does not
include it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from chronoeval.core.answers import NoAnswer
from chronoeval.core.dataset import BuiltItem
from chronoeval.core.errors import DataError
from chronoeval.core.items import Item, Message, TextPart
from chronoeval.core.parsing import boxed_contents, normalize_unicode, strip_markup
from chronoeval.core.registry import register_task
from chronoeval.core.stats import mean_metric
from chronoeval.core.task import SampleRecord, Task
from chronoeval.report.summary import fmt_metric
from chronoeval.suites.mined.scoring import is_empty, item_score

JUDGE_SYSTEM = (
    "You are a professional evaluation assistant responsible for assessing the degree of match "
    "between predictions and standard answers. Please return only a floating-point number "
    "between 0-1."
)
JUDGE_USER = (
    "Please evaluate the degree of match between the following prediction and the standard "
    "answer, and provide a score between 0-1 (rounded to 2 decimal places).\n\n"
    "Scoring Criteria:\n"
    "- 1.0: Complete match or semantically equivalent\n"
    "- 0.8-0.9: Highly relevant, mostly correct but may have minor differences\n"
    "- 0.6-0.7: Partially relevant, somewhat correct but with noticeable differences\n"
    "- 0.4-0.5: Low relevance, only slight similarity\n"
    "- 0.0-0.3: Completely irrelevant or incorrect\n\n"
    "Please return only a floating-point number between 0-1, without any additional text or "
    "explanation. Example: 0.85\n\n"
    "Standard Answer: {standard_answer}\n\n"
    "Prediction: {prediction}\n\n"
    "Your Answer:"
)
"""Paper App. J, verbatim (also ``judge_prompt`` in the released prompts.json)."""

_NUMBER = re.compile(r"(?<!\d)(?<!\d\.)(\d+(?:\.\d+)?|\.\d+)(?!\d|\.\d)")
"""A number, not a piece of a longer one; a period or comma after it ends a sentence ("0.85.")."""
_SCORE_MARKER = re.compile(
    r"\b(?:final\s+)?(?:score|rating|answer)\b\s*(?:is|of|would\s+be|:|=)?\s*:?\s*", re.I
)


def judge_messages(standard_answer: str, prediction: str) -> tuple[Message, ...]:
    return (
        Message("system", (TextPart(JUDGE_SYSTEM),)),
        Message(
            "user",
            (TextPart(JUDGE_USER.format(standard_answer=standard_answer, prediction=prediction)),),
        ),
    )


def parse_judge(text: str) -> float | NoAnswer:
    """The judge's score, which must lie in [0, 1]; else NoAnswer.

    The number in ``\boxed{}`` if any, else the first number after the last "score/rating/answer"
    marker ("Score: 0.8", "The score is 0.9."), else the first number in the (markup-stripped,
    NFKC-normalised) reply. Source: ours (the paper's judge prompt asks for only a number; the
    release has no judge parser).
    """
    boxed = boxed_contents(normalize_unicode(text or ""))
    plain = strip_markup(boxed[-1] if boxed else (text or ""))
    markers = list(_SCORE_MARKER.finditer(plain)) if not boxed else []
    m = _NUMBER.search(plain, markers[-1].end()) if markers else None
    m = m or _NUMBER.search(plain)
    if not m:
        return NoAnswer("no number")
    value = float(m.group(1))
    if not 0.0 <= value <= 1.0:
        return NoAnswer(f"score {value} outside [0, 1]")
    return value


@register_task
class MinedJudge(Task):
    name = "mined_judge"
    suite = "mined_judge"
    version = "1"
    description = "LLM-as-judge (paper App. J) over a scored MINED run: --data <run dir>"
    headline_score = "judge"

    def load(self, path: Path, params: dict[str, Any]) -> Iterator[BuiltItem]:
        from chronoeval.api import read_records

        path = Path(path)
        if not (path / "samples.jsonl").is_file():
            raise DataError("not a scored run directory (no samples.jsonl)", file=path)
        records = [r for r in read_records(path) if r.task.startswith("mined_")]
        if not records:
            raise DataError("no MINED records in this run", file=path / "samples.jsonl")
        for r in records:
            if r.status not in ("answered", "no_answer"):
                raise DataError(
                    f"record has status {r.status!r}: finish the run (re-run it) before judging",
                    file=path / "samples.jsonl",
                    item_id=r.item_id,
                    field="status",
                )
            prediction = r.response or ""
            yield BuiltItem(
                Item(
                    f"judge-{r.item_id}",
                    self.suite,
                    self.name,
                    judge_messages(str(r.target), prediction),
                    str(r.target),
                    metadata={
                        "of_item": r.item_id,
                        "of_task": r.task,
                        "subtask": r.metadata.get("subtask"),
                        "sample": r.metadata.get("sample"),
                        "config": r.metadata.get("config"),
                        "type": r.metadata.get("type"),
                        "prediction_empty": is_empty(prediction),
                        "cem": (r.scores or {}).get("cem"),
                    },
                )
            )

    def parse(self, text: str, item: Item) -> float | NoAnswer:
        return parse_judge(text)

    def answer_to_json(self, answer: Any) -> Any:
        return answer

    def score(self, answer: Any, item: Item) -> dict[str, float | None]:
        unreadable = isinstance(answer, NoAnswer)
        return {
            "judge": 0.0 if unreadable else float(answer),
            "empty": float(bool(item.metadata.get("prediction_empty"))),
            "unreadable": float(unreadable),
        }

    def aggregate(self, records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
        groups: dict[tuple[str, str], list[SampleRecord]] = defaultdict(list)
        for r in records:
            groups[(str(r.metadata.get("subtask")), str(r.metadata.get("sample")))].append(r)
        per_subtask: dict[str, list[float]] = defaultdict(list)
        for (subtask, _), g in groups.items():
            per_subtask[subtask].append(
                item_score([None if r.scores.get("empty") else r.scores["judge"] for r in g])
                / 100.0
            )
        by_subtask = {s: mean_metric(v, seed=seed) for s, v in sorted(per_subtask.items())}
        values = [m["value"] for m in by_subtask.values() if m["value"] is not None]
        return {
            "overall": {
                "judge": {
                    "value": sum(values) / len(values) if values else None,
                    "ci95": None,
                    "n": len(values),
                    "note": "mean over subtasks (the paper's table average); CIs per subtask",
                }
            },
            "by_subtask": by_subtask,
            "unreadable": mean_metric([r.scores.get("unreadable", 0.0) for r in records]),
        }

    def headline(self, metrics: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        return ("judge", metrics["overall"]["judge"]) if metrics else None

    def summary_rows(self, results: dict[str, Any]) -> list[tuple[str, str]]:
        m = results["metrics"]
        rows = [("judge (mean of subtasks) %", fmt_metric(m["overall"]["judge"], pct=True))]
        rows += [(f"{s} %", fmt_metric(v, pct=True)) for s, v in m["by_subtask"].items()]
        rows.append(("unreadable judge replies %", fmt_metric(m["unreadable"], pct=True)))
        return rows
