"""Unparsed replies made visible: NoAnswer rate, reasons and the most common unread replies.

Silent zeros from parsing are the field's most reported complaint: a parser that cannot read a
model's format turns a good model into a bad score. :func:`no_answer_summary` is written per task
into results.json (``tasks.<task>.no_answer``); the terminal summary (:func:`print_unparsed`) and
the HTML report (:func:`unparsed_html`) show each task's NoAnswer rate and its most common unparsed
replies, so a user sees a parser problem before trusting a score.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any

from rich.console import Console
from rich.text import Text

from chronoeval.core.task import SampleRecord

TOP = 5
"""How many of the most common unparsed replies are kept per task."""
REPLY_CHARS = 300
"""An example reply is cut to this many characters (whitespace collapsed)."""


def reason_of(answer: Any) -> str:
    """The NoAnswer reason stored in a record (``"NoAnswer(refusal (json))"`` -> ``refusal``),
    reduced to its class: the text before the first ``:``, without a trailing ``(...)`` detail,
    digits as ``N`` (so "out of range: '13:75'" and "out of range: '25:00'" count together)."""
    text = str(answer or "")
    if text.startswith("NoAnswer(") and text.endswith(")"):
        text = text[len("NoAnswer(") : -1]
    text = text.split(":", 1)[0].strip()
    text = re.sub(r"\s*\([^()]*\)$", "", text)
    return re.sub(r"\d+", "N", text) or "unreadable"


def _reply_key(text: str | None) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= REPLY_CHARS else flat[: REPLY_CHARS - 1] + "…"


def no_answer_summary(records: list[SampleRecord], top: int = TOP) -> dict[str, Any]:
    """``{"n", "no_answer", "rate", "by_reason", "examples"}`` over the scored records.

    ``n``: answered + no_answer records (errors and missing items are not replies); ``rate``:
    no_answer / n (None when n is 0); ``by_reason``: count per reason class, most common first;
    ``examples``: the ``top`` most common unparsed replies (whitespace collapsed, cut to
    :data:`REPLY_CHARS`), each with its count and its most common reason.
    """
    scored = [r for r in records if r.status in ("answered", "no_answer")]
    unread = [r for r in scored if r.status == "no_answer"]
    reasons = Counter(reason_of(r.answer) for r in unread)
    replies = Counter(_reply_key(r.response) for r in unread)
    reason_by_reply: dict[str, Counter[str]] = {}
    for r in unread:
        reason_by_reply.setdefault(_reply_key(r.response), Counter())[reason_of(r.answer)] += 1
    return {
        "n": len(scored),
        "no_answer": len(unread),
        "rate": len(unread) / len(scored) if scored else None,
        "by_reason": dict(reasons.most_common()),
        "examples": [
            {"reply": reply, "count": count, "reason": reason_by_reply[reply].most_common(1)[0][0]}
            for reply, count in replies.most_common(top)
        ],
    }


def _rate(entry: dict[str, Any]) -> str:
    na = entry.get("no_answer")
    if not isinstance(na, dict) or na.get("rate") is None:
        return "—"
    return f"{100 * na['rate']:.1f}% ({na['no_answer']}/{na['n']})"


def print_unparsed(
    results_by_model: dict[str, dict[str, Any]], console: Console, width: int = 100
) -> None:
    """Per task with any NoAnswer: its rate, reasons and most common unparsed replies (literal
    text: replies are untrusted, never read as rich markup)."""
    lines: list[Text] = []
    for model, results in results_by_model.items():
        for task, entry in results.get("tasks", {}).items():
            na = entry.get("no_answer")
            if not isinstance(na, dict) or not na.get("no_answer"):
                continue
            reasons = ", ".join(f"{k} {v}" for k, v in na.get("by_reason", {}).items())
            lines.append(Text(f"{task} / {model}: NoAnswer {_rate(entry)} — {reasons}"))
            for ex in na.get("examples", []):
                reply = ex["reply"] if len(ex["reply"]) <= width else ex["reply"][: width - 1] + "…"
                lines.append(Text(f"    {ex['count']}× [{ex['reason']}] {reply!r}"))
            extra = entry.get("with_extraction")
            if isinstance(extra, dict):
                lines.append(Text(f"    {extraction_line(extra)}"))
    if lines:
        console.print(
            Text("Unparsed replies (NoAnswer; check the parser before trusting a score):")
        )
        for line in lines:
            console.print(line)


def extraction_line(extra: dict[str, Any]) -> str:
    """ "with --extract-with M: recovered r/k; <headline> = v" (its own metric, never the
    headline)."""
    head = extra.get("headline") or {}
    value = (head.get("metric") or {}).get("value")
    shown = f"{head.get('name')} = {value:.4g}" if isinstance(value, int | float) else "—"
    return (
        f"with --extract-with {extra.get('extract_with')}: recovered {extra.get('recovered')}"
        f"/{extra.get('asked')} ({extra.get('errors', 0)} extractor errors); {shown}"
    )


def unparsed_html(task: str, runs: list[Any]) -> str:
    """The HTML block of one task: per run its NoAnswer rate, reasons and most common unparsed
    replies, every string escaped. Empty when no run has a summary (old results.json)."""
    rows = []
    for run in runs:
        entry = run.results["tasks"].get(task, {})
        na = entry.get("no_answer")
        if not isinstance(na, dict):
            continue
        reasons = ", ".join(
            f"{html.escape(str(k))} {int(v)}" for k, v in na.get("by_reason", {}).items()
        )
        examples = "".join(
            f"<li>{int(ex['count'])}× <small>{html.escape(str(ex['reason']))}</small>: "
            f"<code>{html.escape(str(ex['reply']))}</code></li>"
            for ex in na.get("examples", [])
        )
        extra = entry.get("with_extraction")
        if isinstance(extra, dict):
            examples += f"<li>{html.escape(extraction_line(extra))}</li>"
        rows.append(
            f"<tr><td>{html.escape(str(run.label))}</td><td>{html.escape(_rate(entry))}</td>"
            f"<td>{reasons or '—'}</td><td><ul class=unparsed>{examples}</ul></td></tr>"
        )
    if not rows:
        return ""
    return (
        "<table class=no-answer><tr><th>run</th><th>NoAnswer rate</th><th>reasons</th>"
        "<th>most common unparsed replies</th></tr>" + "".join(rows) + "</table>"
    )
