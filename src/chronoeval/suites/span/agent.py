"""The SPAN reference agent: reads the question text alone (never the item's program, target or
metadata), turns it into a plan of calendar-interface calls, and answers from their results.

The plan is also what the TimeAgent speakers use: :func:`plan_question` gives the steps,
:func:`plan_code` writes them as Python over ``search_calendar`` (code mode), and
:func:`execute_plan` runs them in process (reference agent; tool mode speaks them as tool calls).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chronoeval.core.items import Message
from chronoeval.suites.span.calendars import (
    BACKENDS,
    CalDate,
    add_days,
    convert,
    festival_date,
    get_calendar,
    get_festival,
    shift_years,
)
from chronoeval.suites.span.parsing import ParsedDate, parse_date_answer

LABELS = {b.label: b.name for b in BACKENDS.values()}
_LABEL_ALT = "|".join(re.escape(label) for label in sorted(LABELS, key=len, reverse=True))
_STEM = re.compile(rf"Today is (?P<ref>.+?) in the (?P<src>{_LABEL_ALT}) calendar\.")
_CONTENT = re.compile(rf"What is (?P<phrase>.+), in the (?P<tgt>{_LABEL_ALT}) calendar\?")
_POLAR = re.compile(
    rf"Is (?P<cand>.+?) in the (?P<tgt>{_LABEL_ALT}) calendar (?P<phrase>the date .+)\?"
)
_OFFSET = re.compile(r"the date (\d+) (day|week)s? (after|before) today")
_YEARS = re.compile(r"the date (\d+) .+?-calendar years? (later|earlier) than today")
_FEST = re.compile(
    r"the date of (?P<fest>.+?) in the (?:(?P<rel>current|next|previous) .+ year"
    r"|.+ year (?P<k>\d+) years after the current one)$"
)


@dataclass(frozen=True)
class Plan:
    source: str
    target: str
    ref: CalDate
    kind: str  # days | years | festival
    n: int = 0
    festival: str | None = None
    candidate: CalDate | None = None


def _to_caldate(p: ParsedDate, calendar: str) -> CalDate:
    if p.year is None:
        raise ValueError("date without a year in the question")
    return get_calendar(calendar).date(p.year, p.month, p.day, p.leap)


def plan_question(text: str) -> Plan:
    """Read a SPAN question; ValueError when it is not one."""
    stem = _STEM.search(text)
    ask = _POLAR.search(text) or _CONTENT.search(text)
    if not stem or not ask:
        raise ValueError("not a SPAN question")
    src, tgt = LABELS[stem["src"]], LABELS[ask["tgt"]]
    ref_p = parse_date_answer(stem["ref"], get_calendar(src).family)
    if not isinstance(ref_p, ParsedDate):
        raise ValueError(f"cannot read the reference date {stem['ref']!r}")
    ref = _to_caldate(ref_p, src)
    cand = None
    if "cand" in ask.groupdict():
        cp = parse_date_answer(ask["cand"], get_calendar(tgt).family)
        if not isinstance(cp, ParsedDate):
            raise ValueError(f"cannot read the candidate {ask['cand']!r}")
        cand = _to_caldate(cp, tgt)
    phrase = ask["phrase"]
    if m := _OFFSET.match(phrase):
        n = int(m[1]) * (7 if m[2] == "week" else 1) * (1 if m[3] == "after" else -1)
        return Plan(src, tgt, ref, "days", n, candidate=cand)
    if m := _YEARS.match(phrase):
        return Plan(
            src, tgt, ref, "years", int(m[1]) * (1 if m[2] == "later" else -1), candidate=cand
        )
    if m := _FEST.match(phrase):
        k = {"current": 0, "next": 1, "previous": -1}[m["rel"]] if m["rel"] else int(m["k"])
        return Plan(src, tgt, ref, "festival", k, festival=m["fest"], candidate=cand)
    raise ValueError(f"unknown question phrase {phrase!r}")


def execute_plan(plan: Plan) -> CalDate:
    if plan.kind == "days":
        result = add_days(plan.ref, plan.n)
    elif plan.kind == "years":
        result = shift_years(plan.ref, plan.n)[0]
    else:
        assert plan.festival is not None
        result = festival_date(get_festival(plan.festival), plan.ref.year + plan.n, plan.source)
    return convert(result, plan.target)


def answer_text(plan: Plan, result: CalDate) -> str:
    if plan.candidate is not None:
        return f"Answer: {'yes' if result == plan.candidate else 'no'}"
    return f"Answer: {result.iso()}"


def span_agent(messages: Sequence[Message], read_image: Callable[[str], bytes]) -> str:
    """Reference agent: the last user message's text -> plan -> calendar calls -> answer."""
    text = next(m.text for m in reversed(messages) if m.role == "user")
    try:
        plan = plan_question(text)
    except ValueError as exc:
        return f"I cannot read this question ({exc})."
    return answer_text(plan, execute_plan(plan))


def plan_code(plan: Plan) -> str:
    """The plan as Python over the sandbox's calendar API (what a TimeAgent model would write)."""
    lines = [f"ref = {plan.ref.iso()!r}  # {plan.source}"]
    if plan.kind == "days":
        lines.append(f"g = search_calendar({plan.source!r}, 'gregorian', date=ref)")
        lines.append(f"day = add_days('gregorian', g, {plan.n})")
        lines.append(f"result = search_calendar('gregorian', {plan.target!r}, date=day)")
    elif plan.kind == "years":
        lines.append(f"moved = add_years({plan.source!r}, ref, {plan.n})")
        lines.append(f"result = search_calendar({plan.source!r}, {plan.target!r}, date=moved)")
    else:
        lines.append(f"year = int(ref.split('-')[0]) + {plan.n}")
        lines.append(
            f"result = search_calendar({plan.source!r}, {plan.target!r}, "
            f"festival={plan.festival!r}, year=year)"
        )
    if plan.candidate is not None:
        lines.append(f"print('yes' if result == {plan.candidate.iso()!r} else 'no')")
    else:
        lines.append("print(result)")
    return "\n".join(lines)
