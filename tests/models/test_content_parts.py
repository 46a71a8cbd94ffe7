"""Replies whose ``message.content`` is a list of parts, as real servers write them: Mistral's
Magistral reasoning models (a ``thinking`` chunk holding text chunks, then a ``text`` chunk: the
shape reported from magistral-medium-2509 in spring-ai issue #5019 and Mistral's ThinkChunk /
TextChunk schema), proxies that wrap plain text as ``[{"type": "text", ...}]``, and parts that
hold no text (references). Before session 12 each such reply was stored as an error ("non-text
content"): a whole Magistral run failed though every reply held an answer."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from chronoeval.core.items import Message, TextPart
from chronoeval.engine.reasoning import split_reasoning
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.models.base import BackendError
from chronoeval.models.chat_message import content_parts, reply_reasoning
from chronoeval.models.openai import reply_text
from chronoeval.suites.span.timeagent import ToolsTimeAgent
from helpers import chronoeval, make_clock_dataset
from openai_stub import chat_reply, openai_stub

MAGISTRAL = [
    {
        "type": "thinking",
        "thinking": [
            {"type": "text", "text": "The hour hand is just past 12, so 12:00:00? "},
            {"type": "text", "text": "No: the short hand points at 3."},
        ],
    },
    {"type": "text", "text": "The time shown is 3:15:42."},
]


def with_content(content: Any) -> dict[str, Any]:
    reply = chat_reply("unused")
    reply["choices"][0]["message"]["content"] = content
    return reply


def test_parts_give_the_text_and_the_thinking_apart() -> None:
    message = {"role": "assistant", "content": MAGISTRAL}
    assert reply_text({"message": message}, "u") == "The time shown is 3:15:42."
    assert reply_reasoning(message) == (
        "The hour hand is just past 12, so 12:00:00? No: the short hand points at 3."
    )
    wrapped = {"content": [{"type": "text", "text": "10:10"}, {"type": "text", "text": ":30"}]}
    assert reply_text({"message": wrapped}, "u") == "10:10:30" and reply_reasoning(wrapped) is None
    assert reply_text({"message": {"content": ["4:", "05"]}}, "u") == "4:05"  # bare strings
    # thinking only (cut off before the answer): a reply without an answer, reasoning kept
    unfinished = {"content": [{"type": "thinking", "thinking": "hour hand near 8"}]}
    assert reply_text({"message": unfinished}, "u") == ""
    assert reply_reasoning(unfinished) == "hour hand near 8"
    # a refusal beside parts without text is the answer, as with a null content
    refused = {"content": [{"type": "reference", "reference_ids": [1]}], "refusal": "No."}
    assert reply_text({"message": refused}, "u") == "No."
    assert content_parts([3, None, {"type": "image_url", "image_url": {"url": "x"}}]) == []
    for nothing in ([], [{"type": "reference", "reference_ids": [1, 2]}], [{"type": "text"}]):
        with pytest.raises(BackendError, match="protocol error"):
            reply_text({"message": {"content": nothing}}, "u")


def test_a_magistral_run_is_scored_on_its_text_part(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=3)
    replies = [
        with_content(MAGISTRAL),
        with_content([{"type": "text", "text": "It is 4:20:10."}]),
        with_content([{"type": "thinking", "thinking": [{"type": "text", "text": "8:00:00?"}]}]),
    ]
    with openai_stub(replies) as stub:
        proc = chronoeval(
            "run", "--task", "clockqa", "--data", str(ds.root), "--model", "openai:magistral",
            "--base-url", stub.url, "--out", str(tmp_path / "run"), "--concurrency", "1",
            "--no-progress", cwd=tmp_path,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert [r["status"] for r in rows] == ["answered", "answered", "no_answer"], rows
    assert [r["answer"] for r in rows[:2]] == ["3:15:42", "4:20:10"]
    assert rows[0]["response"] == "The time shown is 3:15:42."
    assert "12:00:00" in rows[0]["reasoning"] and "12:00:00" not in rows[0]["response"]
    assert rows[2]["response"] == "" and rows[2]["reasoning"] == "8:00:00?"
    assert not any(r.get("error") for r in rows)


def test_the_tool_agent_answers_with_the_text_part() -> None:
    request = Request(
        (Message("user", (TextPart("What is 1 Tishrei 5785?"),)),), GenerationConfig()
    )
    final = with_content(
        [
            {"type": "thinking", "thinking": [{"type": "text", "text": "Maybe 2023-09-16."}]},
            {"type": "text", "text": "2024-10-03"},
        ]
    )
    with openai_stub([final]) as stub:
        agent = ToolsTimeAgent(stub.url, "magistral", api_key_env="NO_SUCH_KEY", timeout_s=10)

        async def ask() -> str:
            try:
                return (await agent.generate(request)).text
            finally:
                await agent.aclose()

        text = asyncio.run(ask())
    # before: the whole list as JSON, its thinking's date among the answer's
    assert split_reasoning(text) == ("Maybe 2023-09-16.", "2024-10-03")
