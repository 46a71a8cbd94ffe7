"""Typed answers and the explicit NoAnswer outcome.

A parser turns a model's raw text into a typed answer or a :class:`NoAnswer`. NoAnswer is never
"wrong": it is counted and reported on its own, and it stays in every denominator (a NoAnswer scores
0 on exact-match style metrics and is listed separately; error-magnitude metrics are computed over
answered samples and the answered count is reported beside them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NoAnswer:
    """The response could not be read as an answer (empty, refusal, out of range, ambiguous)."""

    reason: str = "unreadable"

    def __bool__(self) -> bool:  # a NoAnswer is falsy so `if answer:` reads naturally
        return False

    def __str__(self) -> str:
        return f"NoAnswer({self.reason})"


CONTENT_FILTER = "content filter"
"""The NoAnswer reason of a reply the provider's content filter withheld (``finish_reason:
"content_filter"`` with no text): the call succeeded, the model's answer never came."""


def is_no_answer(value: object) -> bool:
    return isinstance(value, NoAnswer)
