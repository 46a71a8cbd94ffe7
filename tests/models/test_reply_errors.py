"""An error sent in an HTTP 200 reply, as OpenRouter sends one (it commits the 200 before the
upstream provider runs): a top-level ``{"error": {"message": ..., "code": 502}}`` with no choices,
or a first choice with ``finish_reason: "error"`` and an ``error`` of its own beside an empty
message (the shape in OpenRouter's documented choice schema and in the failures reported by
mini-swe-agent #902 and nodetool #5755). Each is a failed call (an error, retried), never a reply
to score; before session 12 the choice-level one was scored as NoAnswer."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from chronoeval import api
from chronoeval.core.items import Message, TextPart
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.engine.runner import RetryPolicy
from chronoeval.models.base import BackendError
from chronoeval.models.chat_message import raise_reply_error
from chronoeval.models.registry import BackendOptions
from chronoeval.suites.span.timeagent import ToolsTimeAgent
from helpers import make_clock_dataset
from openai_stub import chat_reply, openai_stub

FLAGGED = {"error": {"message": "This content was flagged for possible risk", "code": 403}}
UPSTREAM = {"error": {"message": "Upstream provider error", "code": 502}}


def failed_choice(code: int = 429, message: str = "Rate limit exceeded upstream") -> dict[str, Any]:
    reply = chat_reply("")
    choice = reply["choices"][0]
    choice["finish_reason"] = "error"
    choice["native_finish_reason"] = "error"
    choice["error"] = {"code": code, "message": message}
    return reply


def test_errors_in_a_200_are_raised_with_their_message() -> None:
    url = "https://user:s3cret@openrouter.example/api/v1/chat/completions"
    cases = [
        (UPSTREAM, True, "502: Upstream provider error"),
        (FLAGGED, False, "403: This content"),
    ]
    cases += [(failed_choice(), True, "429: Rate limit"), (failed_choice(400, "bad"), False, "400")]
    cases += [({"error": "overloaded"}, True, "overloaded")]
    for body, retryable, text in cases:
        with pytest.raises(BackendError) as err:
            raise_reply_error(body, url)
        assert err.value.retryable is retryable and text in str(err.value), body
        assert "s3cret" not in str(err.value)
    for fine in (chat_reply("3:00"), chat_reply(""), {"choices": []}, None, [], {"error": None}):
        raise_reply_error(fine, url)  # nothing to raise: the reply (or its absence) is read on


def test_a_choice_that_failed_is_an_error_not_a_no_answer(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=2)

    def run(replies: list[dict[str, Any]], **kw: Any) -> Any:
        with openai_stub(replies) as stub:
            return api.run(
                ["clockqa"],
                "openai:routed",
                data=ds.root,
                run_dir=tmp_path / "run",
                progress=False,
                plots=False,
                backend_options=BackendOptions(base_url=stub.url),
                **kw,
            )

    res = run([failed_choice(), UPSTREAM], concurrency=1, retry=RetryPolicy(max_retries=0))
    counts = res.results["tasks"]["clockqa"]["counts"]
    assert counts == {"answered": 0, "no_answer": 0, "error": 2, "missing": 0}, counts
    errors = sorted(r.error or "" for r in res.records)
    assert "429: Rate limit exceeded upstream" in errors[0] + errors[1]
    assert "502: Upstream provider error" in errors[0] + errors[1]
    again = run([chat_reply("It is 3:00:00.")])  # resumed: asked again, answered
    assert again.results["tasks"]["clockqa"]["counts"]["answered"] == 2


def test_the_tool_agent_raises_a_failed_choice_with_its_turns() -> None:
    request = Request(
        (Message("user", (TextPart("What is 1 Tishrei 5785?"),)),), GenerationConfig()
    )
    with openai_stub([failed_choice(502, "provider crashed")]) as stub:
        agent = ToolsTimeAgent(stub.url, "routed", api_key_env="NO_SUCH_KEY", timeout_s=10)

        async def ask() -> None:
            try:
                await agent.generate(request)
            finally:
                await agent.aclose()

        with pytest.raises(BackendError, match="502: provider crashed") as err:
            asyncio.run(ask())
    assert err.value.retryable and err.value.turns == []
