"""``chronoeval span ...``: the calendar interface from the command line.

chronoeval span convert gregorian hebrew 2000-07-01        -> 5760-03-28
chronoeval span festival Passover 5760 --calendar hebrew   -> 2000-04-20 (Gregorian)
chronoeval span festivals
"""

from __future__ import annotations

from typing import Annotated

import typer

from chronoeval.suites.span.calendars import FESTIVALS, search_calendar

app = typer.Typer(help="SPAN: convert dates between the six calendars, festival dates.")


@app.command()
def convert(
    source: Annotated[str, typer.Argument(help="calendar of DATE")],
    target: Annotated[str, typer.Argument(help="calendar to convert to")],
    date: Annotated[str, typer.Argument(help="YYYY-MM-DD (Chinese leap month YYYY-LMM-DD)")],
) -> None:
    """Convert a date between calendars (gregorian, chinese, hebrew, islamic, islamic_tabular,
    persian, shaka)."""
    typer.echo(search_calendar(source, target, date=date))


@app.command()
def festival(
    name: Annotated[str, typer.Argument(help="festival name, e.g. 'Mid-Autumn Festival'")],
    year: Annotated[int, typer.Argument(help="a year of the festival's calendar")],
    calendar: Annotated[str, typer.Option(help="the festival's calendar")] = "gregorian",
    to: Annotated[str, typer.Option(help="calendar of the answer")] = "gregorian",
) -> None:
    """The date of a festival in a year of its own calendar."""
    typer.echo(search_calendar(calendar, to, festival=name, year=year))


@app.command()
def festivals() -> None:
    """List the festivals and their rules."""
    for f in FESTIVALS:
        typer.echo(f"{f.family:10} {f.name:28} {f.rule()}")
