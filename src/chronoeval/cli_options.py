"""Parsing and printing helpers for the command line, kept out of cli.py.

- request options: ``--request-opt key=value`` (JSON values), ``--omit field[,field]``;
- ``--version``;
- literal printing: every user-supplied string (model specs, paths, error messages) is escaped
  before it reaches rich, whose markup would eat ``[ray]`` and whose emoji codes would turn
  ``openai:m:`` into a symbol;
- a console that does not wrap at 80 columns when output goes to a log file.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape

from chronoeval.core.errors import ChronoevalError

MODEL_KINDS = {
    "reference": "the task's reference agent (reads the prompt and pixels, never the target)",
    "random": "uniform random answers (random:<seed>)",
    "majority": "the most frequent gold answer of the run's items",
    "constant": "always the same answer (constant:<answer>)",
    "openai": "any OpenAI-compatible endpoint (openai:<served model>, with --base-url)",
    "hf": "a Hugging Face transformers model in-process (hf:<model dir or hub id>)",
    "ray": "an OpenAI-compatible endpoint through Ray Data (ray:<model>, with --base-url)",
    "ray-vllm": "vLLM engines inside Ray Data (ray-vllm:<model dir or hub id>)",
    "timeagent": "SPAN's TimeAgent (timeagent:tools:openai:<model>, timeagent:code:<spec>; "
    "baselines timeagent:cot:<spec>, timeagent:code-nocal:<spec>)",
    "span-speaker": "SPAN's scripted tool-using speaker (a test double for TimeAgent)",
    "grayprior": "Seeing Time's deliberately biased grayscale reader (shortcut tasks only)",
    "noimage": "any other spec with every image removed from the prompts (noimage:<spec>)",
    "vllm": "vLLM in-process (vllm:<model dir or hub id>, the vllm extra, a GPU)",
}
"""Every model kind `run --model` takes (a test keeps this in step with the backend registry)."""


def model_help() -> str:
    kinds = "; ".join(f"{name}: {what}" for name, what in MODEL_KINDS.items())
    return f"backend spec(s), repeatable. Kinds — {kinds}"


def lit(value: Any) -> str:
    """``value`` as text rich prints literally (no markup, see :func:`make_console` for emoji)."""
    return escape(str(value))


def make_console(file: Any = None) -> Console:
    """A console that prints user text literally (emoji codes off) and, when it writes to a file
    or pipe rather than a terminal (and COLUMNS is unset), does not wrap at 80 columns."""
    stream = file or sys.stdout
    wide = not (hasattr(stream, "isatty") and stream.isatty()) and "COLUMNS" not in os.environ
    return Console(file=file, emoji=False, width=240 if wide else None)


def request_opts(values: list[str] | None) -> dict[str, Any]:
    """``--request-opt key=value`` -> extra body fields; values are JSON when they parse
    (``100``, ``true``, ``{"type": "json_object"}``), strings otherwise."""
    out: dict[str, Any] = {}
    for kv in values or []:
        key, sep, raw = kv.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ChronoevalError(f"--request-opt needs key=value, got {kv!r}")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def omit_fields(values: list[str] | None) -> tuple[str, ...]:
    """``--omit max_tokens,temperature`` (repeatable, comma-separated) -> field names."""
    known = {"temperature", "max_tokens", "seed", "stop", "top_p"}
    names = [n.strip() for v in values or [] for n in v.split(",") if n.strip()]
    unknown = sorted(set(names) - known)
    if unknown:
        raise ChronoevalError(
            f"--omit: unknown field(s) {', '.join(unknown)}; known: {', '.join(sorted(known))} "
            "(extra fields set with --request-opt are simply not given)"
        )
    return tuple(dict.fromkeys(names))


def version_callback(value: bool) -> None:
    if value:
        from chronoeval import __version__

        print(f"chronoeval {__version__}")
        raise typer.Exit()
