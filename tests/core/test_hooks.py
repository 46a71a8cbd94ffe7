"""Core hooks suites plug into: gold verification, prediction scorers, suite commands."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from chronoeval import api, cli
from chronoeval.core import registry
from chronoeval.core.errors import ChronoevalError, DataError, UnknownNameError
from chronoeval.core.items import Item
from chronoeval.suites.lost_in_time.clock_task import ClockQA


class ProgramClock(ClockQA):
    """clockqa whose stored 'program' is wrong on one item (verify must flag exactly that one)."""

    name = "clockqa_verified"

    def verify(self, item: Item) -> None:
        if item.id.endswith("0001"):
            raise DataError("program gives 00:00:00, stored gold differs", item_id=item.id)


def test_verify_reports_mismatches_with_file_and_item(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._TASKS, "clockqa_verified", ProgramClock())
    checked, problems = api.verify("clockqa_verified", n=3)
    assert checked == 3 and len(problems) == 1
    assert "items.jsonl" in problems[0] and "0001" in problems[0]
    result = CliRunner().invoke(cli.app, ["verify", "--task", "clockqa_verified", "--n", "3"])
    assert result.exit_code == 1 and "3 items checked, 1 mismatches" in result.output


def test_verify_of_a_task_without_programs_is_a_clear_error() -> None:
    with pytest.raises(ChronoevalError, match="stores no program"):
        api.verify("clockqa", n=2)


def test_prediction_scorer_is_called_with_path_and_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = {}

    def scorer(path: Path, options: dict[str, str]) -> str:
        seen.update(path=path, options=options)
        return "CEM 12.3456"

    monkeypatch.setitem(registry._PREDICTION_SCORERS, "toy", scorer)
    f = tmp_path / "preds.jsonl"
    f.write_text("{}\n")
    result = CliRunner().invoke(
        cli.app, ["score", "toy", "--predictions", str(f), "--option", "cem=squad"]
    )
    assert result.exit_code == 0, result.output
    assert "CEM 12.3456" in result.output
    assert seen == {"path": f, "options": {"cem": "squad"}}
    with pytest.raises(UnknownNameError, match="prediction scorer"):
        registry.get_prediction_scorer("nosuch")


def test_suite_commands_are_mounted_under_the_package_name(monkeypatch: pytest.MonkeyPatch) -> None:
    sub = typer.Typer()

    @sub.command()
    def hello() -> None:
        typer.echo("hello from toy")

    @sub.command()
    def other() -> None:  # two commands, so typer keeps the subcommand level
        pass

    monkeypatch.setattr(registry, "suite_command_apps", lambda: {"toy": sub})
    app = typer.Typer()
    monkeypatch.setattr(cli, "app", app)
    cli._mount_suite_commands()
    assert CliRunner().invoke(app, ["toy", "hello"]).output.strip() == "hello from toy"
