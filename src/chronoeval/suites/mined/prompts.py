"""MINED's prompts: the templates of the released ``inference.py`` (``get_instruction_prompt``),
verbatim, with the two fixes documented in docs/suites/mined.md:

1. The release has no branch for ``eval_type == "openqa"`` (every time-agnostic item): it raises,
   and those items get no prediction. Here ``openqa`` uses the ``time_agnostic`` template (the one
   the release names for it and the paper's App. G shows for Time-Agnostic).
2. The release computes ``current_date`` and never uses it, although the time-agnostic template
   says "based on today's date". Here the date (default: the paper's knowledge cutoff
   T_current = 2025-06-23) is inserted as a ``CURRENT DATE: YYYY-MM-DD`` line before the question
   (``insert_date``: ``time_agnostic`` (default), ``all``, or ``none`` for the release's text).

The whole string is the text part of one user message, after the image, as in the release.
"""

from __future__ import annotations

SYSTEM = "System Prompt: You are a knowledgeable assistant who can answer factual questions.\n"

USER = {
    "time_agnostic": "User Prompt: Given a question and image, you should answer it using your "
    "own knowledge based on today's date. Remember, your answer must contain only the name, with "
    "no other words.\n",
    "temporal_interval": "User Prompt: Given a question and image, you should answer it using "
    "your own knowledge based on the temporal interval. Remember, your answer must contain only "
    "the name, with no other words.\n",
    "timestamp": "User Prompt: Given a question and image, you should answer it using your own "
    "knowledge based on the timestamp. Remember, your answer must contain only the name, with no "
    "other words.\n",
    "awareness_future_past": "User Prompt: Given a question and image and its relevant context, "
    "you should answer it using your own knowledge or the knowledge provided by the context. "
    "Remember, the provided context may not necessarily be up-to-date to answer the question, and "
    "your answer must contain only the name, with no other words.\n",
    "unanswerable_date": "User Prompt: Given a question and image, you should answer it using "
    "your own knowledge. Remember, please output 'Unknown' only if the answer does not exist. "
    "Otherwise, output the name only.\n",
    "understanding": "User Prompt: Given a question and image, you should answer the question "
    "using your knowledge and reasoning capacity. Remember, your answer must contain only the "
    "name, with no other words.\n",
    "ranking_calculation": "User Prompt: Given a question and image, you should answer the "
    "question using your knowledge and reasoning capacity. Remember, your answer must contain "
    "only the name, with no other words.\n",
    "robustness": "User Prompt: Given a question and image, you should answer the question using "
    "your knowledge and reasoning capacity. Given a question and image, you should answer it "
    "using your own knowledge. Remember, your answer must contain only 'Yes' or 'No'.\n",
}

EVAL_TYPE_TO_TEMPLATE = {
    "openqa": "time_agnostic",  # fix 1: missing in the release
    "time_agnostic": "time_agnostic",
    "temporal_interval": "temporal_interval",
    "temporal_interval_new": "temporal_interval",
    "timestamp": "timestamp",
    "timestamp_new": "timestamp",
    "future_unanswerable_date": "unanswerable_date",
    "previous_unanswerable_date": "unanswerable_date",
    "calculation": "ranking_calculation",
    "ranking": "ranking_calculation",
    "awareness_future": "awareness_future_past",
    "awareness_past": "awareness_future_past",
    "sufficient_context": "awareness_future_past",
    "understanding": "understanding",
    "robustness_openqa": "robustness",
    "robustness_temporal_interval": "robustness",
    "robustness_timestamp": "robustness",
}
INSERT_DATE = ("time_agnostic", "all", "none")
DEFAULT_CURRENT_DATE = "2025-06-23"
"""The paper's knowledge cutoff T_current (§3: "June 23, 2025")."""


def template_for(eval_type: str) -> str:
    try:
        return EVAL_TYPE_TO_TEMPLATE[eval_type]
    except KeyError:
        raise ValueError(
            f"unknown eval_type {eval_type!r}; known: {', '.join(sorted(EVAL_TYPE_TO_TEMPLATE))}"
        ) from None


def instruction_prompt(
    eval_type: str,
    question: str,
    context: str | None = None,
    *,
    current_date: str | None = DEFAULT_CURRENT_DATE,
    insert_date: str = "time_agnostic",
) -> str:
    """``get_instruction_prompt`` of the release (plus the two fixes above).

    ``insert_date="none"`` gives the release's exact text for every eval_type it handles."""
    if insert_date not in INSERT_DATE:
        raise ValueError(f"insert_date must be one of {', '.join(INSERT_DATE)}")
    name = template_for(eval_type)
    text = SYSTEM + USER[name]
    if name == "awareness_future_past":
        text += f"CONTEXT: {context or ''}\n"
    if current_date and (
        insert_date == "all" or (insert_date == "time_agnostic" and name == "time_agnostic")
    ):
        text += f"CURRENT DATE: {current_date}\n"
    return text + f"QUESTION: {question}\nYour answer:"
