"""User-facing errors. The CLI prints these as one clear message, never as a bare traceback."""

from __future__ import annotations

from pathlib import Path

EXIT_OK = 0
"""The run is complete: every item has a stored answer (or a NoAnswer), none errored or missing."""
EXIT_FAILURE = 1
"""``verify`` found mismatches."""
EXIT_BAD_INPUT = 2
"""Bad input or an impossible set-up, refused before any request (also typer's usage errors)."""
EXIT_INCOMPLETE = 3
"""The run finished but is incomplete: errors or missing items remain (re-run to resume)."""
EXIT_STORAGE = 4
"""The run directory or its store cannot be written or read (disk full, read-only, corrupt)."""
EXIT_BUSY = 5
"""Another process holds the run directory's lock."""


class ChronoevalError(Exception):
    """An error the user can act on; the message says what and where."""

    exit_code = EXIT_BAD_INPUT


class StorageError(ChronoevalError):
    """A run directory or store that cannot be written or read; names the path and what was kept."""

    exit_code = EXIT_STORAGE


class RunBusyError(ChronoevalError):
    """Another process is writing the run directory (its lock names the holder)."""

    exit_code = EXIT_BUSY


class DataError(ChronoevalError):
    """Bad input data: names the file, the line or item id, and the field."""

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        item_id: str | None = None,
        field: str | None = None,
    ) -> None:
        self.file = str(file) if file is not None else None
        self.line = line
        self.item_id = item_id
        self.field = field
        self.detail = message
        where = []
        if self.file is not None:
            where.append(self.file + (f":{line}" if line is not None else ""))
        elif line is not None:
            where.append(f"line {line}")
        if item_id is not None:
            where.append(f"item {item_id!r}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)

    def at(
        self,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        item_id: str | None = None,
    ) -> DataError:
        """The same error with location details filled in where they were missing."""
        return DataError(
            self.detail,
            file=self.file or file,
            line=self.line if self.line is not None else line,
            item_id=self.item_id or item_id,
            field=self.field,
        )


class UnknownNameError(ChronoevalError):
    """An unknown task, suite or backend name; the message lists the known ones."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        super().__init__(f"unknown {kind} {name!r}; known: {', '.join(sorted(known)) or '(none)'}")


class NotApplicable(ChronoevalError):
    """A backend (baseline, control agent) that does not apply to a task. A multi-task run skips
    the task and records this reason in config.json and results.json (``skipped``) instead of
    failing; a single-task run reports it like any error."""
