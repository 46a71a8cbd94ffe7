"""SPAN question templates and the generator: 10 directions x 2 reasoning types x 2 formats,
instantiated for any Gregorian evaluation date (the paper's protocol, Figure 1: convert the
evaluation date into the source calendar -> reference date; fill a question-program template; run
the program -> gold). Wording, festival list and answer format are ours (docs/suites/span.md).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from chronoeval.core.errors import DataError
from chronoeval.suites.span.calendars import (
    CalDate,
    CalendarError,
    add_days,
    festivals_of,
    get_calendar,
    shift_years,
)
from chronoeval.suites.span.program import Program, lit, run_program

OTHERS = ("chinese", "shaka", "hebrew", "islamic", "persian")
DIRECTIONS: tuple[tuple[str, str], ...] = tuple(("gregorian", x) for x in OTHERS) + tuple(
    (x, "gregorian") for x in OTHERS
)
OFFSETS: tuple[tuple[str, int], ...] = (
    *(("days", n) for n in range(1, 11)),
    *(("weeks", n) for n in range(1, 11)),
    *(("years", n) for n in range(1, 6)),
)
SIGNS = (1, -1)
FESTIVAL_YEARS = (-1, 0, 1, 2, 3, 4, 5)
SWEEP = tuple(f"{y}-07-01" for y in range(1960, 2061, 5))
"""The paper's 21 evaluation dates: July 1st, 1960, 1965, ..., 2060."""

DISPUTED = {"chinese": (dt.date(2057, 9, 28).toordinal(), dt.date(2057, 10, 27).toordinal())}
"""Days where the calendar's two implementations disagree (tests/suites/span/test_calendars.py);
items touching them are left out unless ``include_disputed``."""
UQ_AGREED = (dt.date(1999, 4, 17).toordinal(), dt.date(2029, 8, 10).toordinal())
"""The days on which hijridate's Umm al-Qura agrees with ICU's, measured day by day
(tests/suites/span/test_umalqura_icu.py): items touching a day outside are marked."""

MONTH_HINT = {
    "gregorian": "",
    "chinese": " (lunar month number; a leap month as L plus its number, e.g. 2033-L11-05)",
    "hebrew": " (months numbered from Nisan = 1; in a leap year Adar I = 12 and Adar II = 13)",
    "islamic": " (Muharram = 1)",
    "persian": " (Farvardin = 1)",
    "shaka": " (Chaitra = 1)",
}
POLAR_INSTRUCTION = "Answer yes or no, ending with a line 'Answer: yes' or 'Answer: no'."


def content_instruction(target: str) -> str:
    fam = get_calendar(target).family
    return (
        f"Give the date in the {get_calendar(target).label} calendar as YYYY-MM-DD"
        f"{MONTH_HINT[fam]}, ending with a line 'Answer: YYYY-MM-DD'."
    )


def calendar_name(family: str, variant: str) -> str:
    """Backend name of a family, with the Islamic variant picked."""
    if family == "islamic":
        return {"umm_al_qura": "islamic_umalqura", "tabular": "islamic_tabular"}[variant]
    return family


def describe(date: CalDate) -> str:
    return get_calendar(date.calendar).day_name(date)


def parse_eval_dates(value: Any) -> list[dt.date]:
    if isinstance(value, list | tuple):
        texts = [str(v) for v in value]
    elif str(value).strip().lower() == "sweep":
        texts = list(SWEEP)
    else:
        texts = [t for t in str(value).split(",") if t.strip()]
    out = []
    for t in texts:
        try:
            out.append(dt.date.fromisoformat(t.strip()))
        except ValueError:
            raise DataError(f"not a YYYY-MM-DD date: {t!r}", field="eval_dates") from None
    if not out:
        raise DataError("give at least one evaluation date (or 'sweep')", field="eval_dates")
    return out


@dataclass
class Question:
    id: str
    text: str
    target: str
    program: Program
    metadata: dict[str, Any] = field(default_factory=dict)


def _wrong_candidates(
    gold: CalDate, prog: Program, other_prog: Program | None
) -> list[tuple[str, CalDate]]:
    """Plausible wrong answers: off by a day, a month, a year; the other Islamic variant."""
    cal = get_calendar(gold.calendar)
    out: list[tuple[str, CalDate]] = []
    for kind, fn in (
        ("day+1", lambda: add_days(gold, 1)),
        ("day-1", lambda: add_days(gold, -1)),
        ("year+1", lambda: shift_years(gold, 1)[0]),
        ("year-1", lambda: shift_years(gold, -1)[0]),
    ):
        try:
            out.append((kind, fn()))
        except CalendarError:
            continue
    months = cal.months(gold.year)
    i = months.index((gold.month, gold.leap))
    for kind, j in (("month+1", i + 1), ("month-1", i - 1)):
        if 0 <= j < len(months):
            m, lp = months[j]
            day = min(gold.day, cal.month_length(gold.year, m, lp))
            try:
                out.append((kind, cal.date(gold.year, m, day, lp)))
            except CalendarError:
                continue
    if other_prog is not None:
        try:
            alt = run_program(other_prog)
            if isinstance(alt, CalDate):
                if alt.calendar != gold.calendar:  # same day numbers read in the other variant
                    alt = CalDate(gold.calendar, alt.year, alt.month, alt.day, alt.leap)
                    cal.to_ordinal(alt)
                out.append(("islamic_variant", alt))
        except CalendarError:
            pass
    return [(k, c) for k, c in out if c != gold]


def _swap_variant(prog: Any) -> Any:
    swap = {"islamic_umalqura": "islamic_tabular", "islamic_tabular": "islamic_umalqura"}
    if isinstance(prog, dict):
        return {k: _swap_variant(v) for k, v in prog.items()}
    if isinstance(prog, str):
        return swap.get(prog, prog)
    return prog


def questions_for_date(
    eval_date: dt.date,
    *,
    seed: int,
    islamic_variant: str = "auto",
    include_disputed: bool = False,
    types: tuple[str, ...] = ("date", "festival"),
    formats: tuple[str, ...] = ("content", "polar"),
) -> Iterator[Question]:
    if islamic_variant not in ("auto", "umm_al_qura", "tabular"):
        raise DataError(
            f"islamic_variant must be auto, umm_al_qura or tabular, got {islamic_variant!r}",
            field="islamic_variant",
        )
    g_eval = get_calendar("gregorian").date(eval_date.year, eval_date.month, eval_date.day)
    for src_fam, tgt_fam in DIRECTIONS:
        specs = []
        if "date" in types:
            specs += [("date", unit, n * s) for unit, n in OFFSETS for s in SIGNS]
        if "festival" in types:
            specs += [
                ("festival", f.name, k) for f in festivals_of(src_fam) for k in FESTIVAL_YEARS
            ]
        built = [
            q
            for spec in specs
            if (
                q := _instantiate(g_eval, src_fam, tgt_fam, spec, islamic_variant, include_disputed)
            )
        ]
        for fmt in formats:
            if fmt == "content":
                for base in built:
                    yield _content(base)
                continue
            for qtype in types:
                group = [b for b in built if b.metadata["type"] == qtype]
                rng = random.Random(f"span:{seed}:{eval_date}:{src_fam}:{tgt_fam}:{qtype}")
                labels = [i % 2 == 0 for i in range(len(group))]
                rng.shuffle(labels)
                for base, yes in zip(group, labels, strict=True):
                    yield _polar(base, yes, rng)


@dataclass
class _Base:
    key: str
    stem: str  # "Today is ... in the S calendar."
    ask_content: str
    ask_polar: str  # with {candidate}
    program: Program
    other_program: Program | None
    gold: CalDate
    metadata: dict[str, Any]


def _instantiate(
    g_eval: CalDate,
    src_fam: str,
    tgt_fam: str,
    spec: tuple[str, Any, int],
    islamic_variant: str,
    include_disputed: bool,
) -> _Base | None:
    variants = ["umm_al_qura", "tabular"] if islamic_variant == "auto" else [islamic_variant]
    uses_islamic = "islamic" in (src_fam, tgt_fam)
    last_error: CalendarError | None = None
    for variant in variants if uses_islamic else ["umm_al_qura"]:
        try:
            return _instantiate_variant(g_eval, src_fam, tgt_fam, spec, variant, include_disputed)
        except CalendarError as exc:
            last_error = exc
    if islamic_variant == "umm_al_qura":
        raise DataError(
            f"evaluation date {g_eval.iso()}: {last_error} (use islamic_variant=auto or tabular)",
            field="islamic_variant",
        )
    raise DataError(f"evaluation date {g_eval.iso()}: {last_error}", field="eval_dates")


def _instantiate_variant(
    g_eval: CalDate,
    src_fam: str,
    tgt_fam: str,
    spec: tuple[str, Any, int],
    variant: str,
    include_disputed: bool,
) -> _Base | None:
    src, tgt = calendar_name(src_fam, variant), calendar_name(tgt_fam, variant)
    s_cal, t_cal = get_calendar(src), get_calendar(tgt)
    ref_prog: Program = {"op": "convert", "to": src, "arg": lit(g_eval)}
    ref = run_program(ref_prog)
    assert isinstance(ref, CalDate)
    stem = f"Today is {describe(ref)} in the {s_cal.label} calendar."
    qtype, what, k = spec
    meta: dict[str, Any] = {"type": qtype}
    if qtype == "date":
        unit, n = what, k
        sign_word = "after" if n > 0 else "before"
        if unit == "years":
            node: Program = {"op": "add_years", "n": n, "arg": ref_prog}
            phrase = (
                f"the date {abs(n)} {s_cal.label}-calendar year{'s' if abs(n) > 1 else ''} "
                f"{'later' if n > 0 else 'earlier'} than today (same month and day in the "
                f"{s_cal.label} calendar)"
            )
            edges = shift_years(ref, n)[1]
        else:
            days = n * (7 if unit == "weeks" else 1)
            node = {"op": "add_days", "n": days, "arg": ref_prog}
            phrase = f"the date {abs(n)} {unit if abs(n) > 1 else unit[:-1]} {sign_word} today"
            edges = []
        key = f"{unit}{n:+d}"
        meta.update(unit=unit, n=n, edges=edges)
    else:
        fest, plus = what, k
        year = {"op": "year_of", "arg": ref_prog, "plus": plus}
        node = {"op": "festival", "festival": fest, "calendar": src, "year": year}
        when = {
            -1: f"in the previous {s_cal.label} year",
            0: f"in the current {s_cal.label} year",
            1: f"in the next {s_cal.label} year",
        }.get(plus, f"in the {s_cal.label} year {plus} years after the current one")
        phrase = f"the date of {fest} {when}"
        key = f"{fest.lower().replace(' ', '_').replace(chr(39), '')}{plus:+d}"
        meta.update(festival=fest, year_offset=plus, edges=[])
    prog: Program = {"op": "convert", "to": tgt, "arg": node}
    gold = run_program(prog)
    assert isinstance(gold, CalDate)
    touched = [get_calendar("gregorian").to_ordinal(g_eval), t_cal.to_ordinal(gold)]
    disputed = [
        fam
        for fam, (lo, hi) in DISPUTED.items()
        if fam in (src_fam, tgt_fam) and any(lo - 400 <= o <= hi + 400 for o in touched)
    ]
    if disputed and not include_disputed and _really_disputed(prog, gold):
        return None
    if "islamic" in (src_fam, tgt_fam):
        meta["islamic_variant"] = variant
        if variant == "umm_al_qura":
            meta["uq_outside_agreed_window"] = any(
                not UQ_AGREED[0] <= o <= UQ_AGREED[1] for o in touched
            )
    other = _swap_variant(prog) if "islamic" in (src_fam, tgt_fam) else None
    if other is not None and src_fam == "islamic":
        other = dict(other)
        other["arg"] = _replace_ref(other["arg"], ref, variant)
    meta.update(
        eval_date=g_eval.iso(),
        source=src_fam,
        target=tgt_fam,
        direction=f"{src_fam}->{tgt_fam}",
        group="gregorian->others" if src_fam == "gregorian" else "others->gregorian",
        calendar=tgt_fam if src_fam == "gregorian" else src_fam,
        past=None,
    )
    return _Base(
        key=f"{g_eval.iso()}-{src_fam}2{tgt_fam}-{qtype}-{key}",
        stem=stem,
        ask_content=f"What is {phrase}, in the {t_cal.label} calendar?",
        ask_polar=f"Is {{candidate}} in the {t_cal.label} calendar {phrase}?",
        program=prog,
        other_program=other,
        gold=gold,
        metadata=meta,
    )


def _really_disputed(prog: Program, gold: CalDate) -> bool:
    """Whether any Chinese date the program computes lies in the disputed window."""
    lo, hi = DISPUTED["chinese"]
    seen: list[CalDate] = [gold]

    def walk(node: Any) -> None:
        if isinstance(node, dict) and node.get("op") in (
            "convert",
            "add_days",
            "add_years",
            "festival",
        ):
            val = run_program(node)
            if isinstance(val, CalDate):
                seen.append(val)
            for v in node.values():
                walk(v)

    walk(prog)
    return any(
        d.calendar == "chinese" and lo <= get_calendar("chinese").to_ordinal(d) <= hi for d in seen
    )


def _replace_ref(node: Any, ref: CalDate, variant: str) -> Any:
    """In the other-variant program, read the reference date's numbers in the other variant."""
    other = calendar_name("islamic", "tabular" if variant == "umm_al_qura" else "umm_al_qura")
    if isinstance(node, dict):
        if (
            node.get("op") == "convert"
            and node.get("to") == other
            and node["arg"].get("op") == "date"
        ):
            return {"op": "date", "calendar": other, "date": ref.iso()}
        return {k: _replace_ref(v, ref, variant) for k, v in node.items()}
    return node


def _content(base: _Base) -> Question:
    meta = {**base.metadata, "format": "content", "program": base.program}
    text = f"{base.stem} {base.ask_content}\n{content_instruction(base.gold.calendar)}"
    return Question(f"span-{base.key}-content", text, str(base.gold), base.program, meta)


def _polar(base: _Base, yes: bool, rng: random.Random) -> Question:
    kind = "gold"
    candidate = base.gold
    if not yes:
        wrong = _wrong_candidates(base.gold, base.program, base.other_program)
        variant = [w for w in wrong if w[0] == "islamic_variant"]
        # the other Islamic variant is offered half the time it differs (the paper's confusion)
        pick = variant[0] if variant and rng.random() < 0.5 else rng.choice(wrong)
        kind, candidate = pick
    prog = {"op": "equals", "arg": base.program, "candidate": str(candidate)}
    meta = {
        **base.metadata,
        "format": "polar",
        "program": prog,
        "candidate": str(candidate),
        "candidate_kind": kind,
    }
    ask = base.ask_polar.replace("{candidate}", describe(candidate))
    text = f"{base.stem} {ask}\n{POLAR_INSTRUCTION}"
    return Question(f"span-{base.key}-polar", text, "yes" if yes else "no", prog, meta)
