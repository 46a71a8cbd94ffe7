"""Item programs: a small JSON expression over the calendar interface, stored in every item and
re-executed by ``Task.verify`` (``chronoeval verify``). Operations:

``{"op": "date", "calendar": c, "date": "YYYY-MM-DD"}`` a literal (the evaluation date);
``{"op": "convert", "to": c, "arg": P}``; ``{"op": "add_days", "n": k, "arg": P}``;
``{"op": "add_years", "n": k, "arg": P}`` (in P's calendar, edge rules of ``shift_years``);
``{"op": "festival", "festival": name, "calendar": c, "year": {"op": "year_of", "arg": P,
"plus": k}}``; ``{"op": "equals", "arg": P, "candidate": "c:YYYY-MM-DD"}`` (a yes/no answer).
"""

from __future__ import annotations

from typing import Any

from chronoeval.suites.span.calendars import (
    CalDate,
    CalendarError,
    add_days,
    convert,
    festival_date,
    get_calendar,
    get_festival,
    make_date,
    shift_years,
)

Program = dict[str, Any]


def lit(date: CalDate) -> Program:
    return {"op": "date", "calendar": date.calendar, "date": date.iso()}


def parse_tagged(text: str) -> CalDate:
    """``calendar:YYYY-MM-DD`` -> CalDate."""
    cal, _, iso = str(text).partition(":")
    return make_date(cal, iso)


def run_program(prog: Program) -> CalDate | bool | int:
    """Evaluate a program; CalendarError names the operation that failed."""
    if not isinstance(prog, dict) or "op" not in prog:
        raise CalendarError(f"program node must be an object with 'op', got {prog!r}")
    op = prog["op"]
    if op == "date":
        return make_date(prog["calendar"], prog["date"])
    if op == "year_of":
        d = run_program(prog["arg"])
        assert isinstance(d, CalDate)
        return d.year + int(prog.get("plus", 0))
    if op == "equals":
        return run_program(prog["arg"]) == parse_tagged(prog["candidate"])
    if op == "festival":
        year = run_program(prog["year"])
        assert isinstance(year, int)
        cal = get_calendar(prog["calendar"]).name
        return festival_date(get_festival(prog["festival"]), year, cal)
    arg = run_program(prog["arg"])
    if not isinstance(arg, CalDate):
        raise CalendarError(f"{op} needs a date argument")
    if op == "convert":
        return convert(arg, get_calendar(prog["to"]).name)
    if op == "add_days":
        return add_days(arg, int(prog["n"]))
    if op == "add_years":
        return shift_years(arg, int(prog["n"]))[0]
    raise CalendarError(f"unknown program op {op!r}")
