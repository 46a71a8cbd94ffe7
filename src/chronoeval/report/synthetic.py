"""Labels for results measured on a suite's *synthetic* default set.

A task may carry ``synthetic_note`` (a class attribute): what its generated set can and cannot
measure (e.g. "harness and parser check; a real VLM cannot read these dating cues"). A task result
whose dataset was generated (``dataset.source == "generated"``) is labelled with it in the printed
summary, the HTML report and ``chronoeval list``, so a synthetic score is never presented as the
paper's measure."""

from __future__ import annotations

from html import escape
from typing import Any

from chronoeval.core.registry import get_task


def synthetic_note(task_name: str) -> str | None:
    try:
        note = getattr(get_task(task_name), "synthetic_note", None)
    except Exception:  # an unknown task in an old run: no label rather than a failure
        return None
    return note if isinstance(note, str) and note else None


def ran_on_synthetic(task_entry: dict[str, Any]) -> bool:
    return (task_entry.get("dataset") or {}).get("source") == "generated"


def synthetic_labels(results: dict[str, Any]) -> dict[str, str]:
    """Task -> note, for the tasks of one run that ran on their generated set."""
    out = {}
    for name, entry in (results.get("tasks") or {}).items():
        note = synthetic_note(name)
        if note and ran_on_synthetic(entry):
            out[name] = note
    return out


def synthetic_html(task_name: str, task_entries: list[dict[str, Any]]) -> str:
    """A labelled paragraph when any of the runs measured the task on its synthetic set."""
    note = synthetic_note(task_name)
    if not note or not any(ran_on_synthetic(e) for e in task_entries):
        return ""
    return (
        "<p class=synthetic><strong>Synthetic set.</strong> "
        f"{escape(note)} Real data: see docs/suites for the released layout.</p>"
    )
