"""A reply the provider's content filter withheld (``finish_reason: "content_filter"``, Azure OpenAI's
and OpenAI's) is a reply without an answer: NoAnswer("content filter"), counted and shown, kept in
the denominator, and not asked again on resume (the same prompt is filtered again). Before, Azure's
``content: null`` was a protocol error: retried, stored as an error, the run never complete."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.engine.runner import RetryPolicy
from chronoeval.models.base import BackendError
from chronoeval.models.openai import reply_text
from helpers import run_clockqa_over_http

FAST = RetryPolicy(max_retries=3, base_delay_s=0.01, max_delay_s=0.05)
URL = "http://127.0.0.1:1/v1/chat/completions"

# Azure OpenAI's filtered completion, as its docs describe it: a 200 whose choice has no content
AZURE_FILTERED = {
    "index": 0,
    "finish_reason": "content_filter",
    "message": {"role": "assistant", "content": None},
    "content_filter_results": {"violence": {"filtered": True, "severity": "medium"}},
}


def test_a_filtered_choice_is_a_reply_without_text() -> None:
    assert reply_text(AZURE_FILTERED, URL) == ""
    no_message = {k: v for k, v in AZURE_FILTERED.items() if k != "message"}
    assert reply_text(no_message, URL) == ""
    # partial text the filter cut is the model's text, read as it is
    partial = {**AZURE_FILTERED, "message": {"role": "assistant", "content": "It is 10:"}}
    assert reply_text(partial, URL) == "It is 10:"
    # a refusal beside the filter is the model's answer
    refused = {**AZURE_FILTERED, "message": {"content": None, "refusal": "I can't."}}
    assert reply_text(refused, URL) == "I can't."
    # a null content without the filter's finish_reason stays a protocol error
    with pytest.raises(BackendError, match="protocol error"):
        reply_text({**AZURE_FILTERED, "finish_reason": "stop"}, URL)


def _run(ds_root: Path, run_dir: Path, url: str) -> api.RunResult:
    return run_clockqa_over_http(ds_root, run_dir, url, FAST)


def test_a_filtered_reply_is_no_answer_counted_and_not_asked_again(
    serve, clock_dataset, tmp_path
) -> None:
    server = serve("--model", "constant:10:10:00", "--task", "clockqa", "--faults", "filter@2")
    res = _run(clock_dataset.root, tmp_path / "run", server.url)
    task = res.results["tasks"]["clockqa"]
    assert task["counts"] == {"answered": 11, "no_answer": 1, "error": 0, "missing": 0}
    assert res.results["complete"]
    assert task["no_answer"]["by_reason"] == {"content filter": 1}
    assert task["no_answer"]["n"] == 12  # in the denominator
    (filtered,) = [r for r in res.records if r.status == "no_answer"]
    assert filtered.answer == "NoAnswer(content filter)" and filtered.error is None
    assert len(server.requests()) == 12  # never retried
    lines = (tmp_path / "run" / "samples.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r["answer"] for r in rows if r["status"] == "no_answer"] == [filtered.answer]

    again = _run(clock_dataset.root, tmp_path / "run", server.url)  # resume: nothing to ask
    assert len(server.requests()) == 12
    assert again.results["tasks"]["clockqa"]["counts"] == task["counts"]
    assert again.results["tasks"]["clockqa"]["no_answer"]["by_reason"] == {"content filter": 1}
