"""The CLI's exit statuses and its last-resort error lines (no raw traceback for known failures).

Exit statuses (also in docs/architecture.md, "What a run guarantees"): 0 a complete run; 1
``verify`` mismatches; 2 bad input or an impossible set-up (nothing asked); 3 an incomplete run
(errors or missing items remain: re-run to resume); 4 a storage failure; 5 the run directory is
busy (another process holds its lock).
"""

from __future__ import annotations

import errno
import sqlite3
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from chronoeval.core.errors import EXIT_BAD_INPUT, EXIT_INCOMPLETE, EXIT_STORAGE
from chronoeval.core.redact import redact_text
from chronoeval.models.support import EXTRA_MODULES


def exit_if_incomplete(results_by_model: dict[str, dict[str, Any]], console: Console) -> None:
    """Exit with :data:`EXIT_INCOMPLETE` (after saying why) unless every run is complete."""
    problems = []
    for model, res in results_by_model.items():
        if res.get("complete"):
            continue
        tasks = res.get("tasks", {})
        err = sum(t.get("counts", {}).get("error", 0) for t in tasks.values())
        missing = sum(t.get("counts", {}).get("missing", 0) for t in tasks.values())
        total = sum(sum(t.get("counts", {}).values()) for t in tasks.values())
        what = "no items" if total == 0 else f"{err} errors, {missing} missing"
        problems.append(f"{model}: {what}")
    if problems:
        console.print(
            f"[bold yellow]incomplete:[/bold yellow] {escape('; '.join(problems))} "
            "(run the same command again to ask what is missing)",
            highlight=False,
            emoji=False,
        )
        raise typer.Exit(EXIT_INCOMPLETE)


def _say(console: Console, text: str) -> None:
    console.print(
        f"[bold red]error:[/bold red] {escape(redact_text(text))}", highlight=False, emoji=False
    )


def last_resort(exc: BaseException, console: Console | None = None) -> int | None:
    """One line and an exit status for a failure no command turned into a ChronoevalError;
    None (re-raise) for exits, interrupts and genuine bugs."""
    console = console or Console(stderr=True)
    if isinstance(exc, SystemExit | KeyboardInterrupt | typer.Exit):
        return None
    if isinstance(exc, RecursionError):
        _say(console, "input nested too deeply (JSON deeper than Python can read)")
        return EXIT_BAD_INPUT
    if isinstance(exc, ModuleNotFoundError):
        for extra, modules in EXTRA_MODULES.values():
            if exc.name in modules:
                _say(console, f"module {exc.name!r} is missing: pip install 'chronoeval[{extra}]'")
                return EXIT_BAD_INPUT
        return None
    if isinstance(exc, sqlite3.Error):
        _say(console, f"run store: {exc}")
        return EXIT_STORAGE
    if isinstance(exc, OSError) and exc.errno is not None:
        where = f"{exc.filename}: " if exc.filename else ""
        if exc.errno == errno.ENAMETOOLONG:
            _say(console, f"{where}file name too long; give a shorter --out")
            return EXIT_BAD_INPUT
        if exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EDQUOT):
            _say(console, f"{where}{exc.strerror}")
            return EXIT_STORAGE
        if exc.errno in (errno.EISDIR, errno.ENOTDIR, errno.ENOENT, errno.EADDRINUSE):
            _say(console, f"{where}{exc.strerror}")
            return EXIT_BAD_INPUT
    return None
