"""TimeAgent: the sandbox refuses what it must, never hangs; code and tool-calling modes reach
100% through `chronoeval serve` with a scripted model speaking the protocols, every turn stored."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.items import Message, TextPart
from chronoeval.engine.request import Request
from chronoeval.engine.store import RunStore
from chronoeval.models.base import Backend, Response
from chronoeval.models.registry import BackendOptions
from chronoeval.suites.span.sandbox import run_code
from chronoeval.suites.span.timeagent import CodeTimeAgent, call_tool

SEED = 4242


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("import os\nos.system('echo hi')", "only calendar_api can be imported"),
        ("import socket\nsocket.socket().connect(('127.0.0.1', 9))", "only calendar_api"),
        ("().__class__.__base__.__subclasses__()", "names starting with '__'"),
        ("getattr(1, '__class__')", "'__' attributes"),
        ("open('/etc/hostname').read()", "name 'open' is not defined"),
        ("x = ' ' * (2**31)", "MemoryError"),
        ("print(search_calendar('hebrew', 'gregorian', date='5760-14-01'))", "has no month 14"),
        ("print(search_calendar('gregorian', 'hebrew', date='2001-02-30'))", "not day 30"),
        ("print(search_calendar('islamic', 'gregorian', date='1520-01-01'))", "outside"),
        ("print(search_calendar('aztec', 'gregorian', date='1520-01-01'))", "unknown calendar"),
        (
            "print(search_calendar('hebrew', 'gregorian', festival='Diwali', year=5760))",
            "unknown festival",
        ),
    ],
)
def test_sandbox_refuses(code: str, error: str) -> None:
    result = run_code(code, cpu_s=2, wall_s=20)
    assert not result.ok and error in (result.error or ""), result


def test_sandbox_runs_calendar_code_and_stops_endless_loops() -> None:
    ok = run_code("from calendar_api import *\nprint(add_days('gregorian', '2000-07-01', 3))")
    assert ok.ok and ok.output == "2000-07-04\n"
    assert ok.netns in (True, False)  # True where the kernel lets the child unshare its network
    loop = run_code("while True:\n    pass", cpu_s=1, wall_s=30)
    assert not loop.ok and ("signal" in (loop.error or "") or "timed out" in (loop.error or ""))


def test_tool_calls_report_bad_input_as_failed_turns() -> None:
    assert call_tool(
        "search_calendar", '{"source": "gregorian", "target": "hebrew", "date": "2000-07-01"}'
    ) == (
        True,
        "5760-03-28",
    )
    ok, text = call_tool(
        "search_calendar", {"source": "hebrew", "target": "gregorian", "date": "5760-14-01"}
    )
    assert not ok and "no month 14" in text
    assert call_tool("rm_rf", "{}")[0] is False
    assert call_tool("add_days", "not json")[0] is False


class _Scripted(Backend):
    identity = "scripted"

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies

    async def generate(self, request: Request) -> Response:
        return Response(text=self.replies.pop(0))


def test_code_agent_records_a_failed_code_turn_and_goes_on() -> None:
    agent = CodeTimeAgent(_Scripted(["```python\nimport os\n```", "Answer: 2000-07-01"]))
    req = Request((Message("user", (TextPart("When?"),)),))
    resp = asyncio.run(agent.generate(req))
    assert resp.text == "Answer: 2000-07-01"
    assert [t["role"] for t in resp.turns] == ["assistant", "code", "assistant"]
    assert resp.turns[1]["ok"] is False and "calendar_api" in resp.turns[1]["error"]


@pytest.mark.parametrize("mode", ["code", "tools"])
def test_timeagent_through_serve(serve, tmp_path: Path, mode: str) -> None:
    server = serve("--model", "span-speaker")
    n = 10 if mode == "code" else 40
    run_dir = tmp_path / mode
    res = api.run(
        ["span"],
        f"timeagent:{mode}:openai:span-speaker/span",
        n=n,
        seed=SEED,
        params={"eval_dates": "2015-07-01"},
        run_dir=run_dir,
        backend_options=BackendOptions(base_url=server.url),
        concurrency=4,
        progress=False,
        plots=False,
    )
    t = res.results["tasks"]["span"]
    assert t["counts"]["answered"] == n and t["metrics"]["overall"]["accuracy"]["value"] == 1.0
    with RunStore.in_dir(run_dir) as store:
        stored = list(store.all().values())
    assert len(stored) == n
    for s in stored:
        roles = [turn["role"] for turn in s.turns or []]
        assert roles[0] == "assistant" and roles[-1] == "assistant"
        assert ("code" if mode == "code" else "tool") in roles
        json.dumps(s.turns)


def test_serve_passes_tool_bodies_only_to_backends_that_speak_them(serve) -> None:
    from helpers import post_json

    server = serve("--model", "span-speaker", "--model", "reference")

    def post(body: dict) -> tuple[int, dict]:
        return post_json(server.url + "/chat/completions", body)

    q = "Today is July 1, 2000 in the Gregorian calendar. What is the date 3 days after today, in the Hebrew calendar?"
    status, data = post(
        {"model": "span-speaker/span", "messages": [{"role": "user", "content": q}], "tools": [{}]}
    )
    msg = data["choices"][0]["message"]
    assert status == 200 and data["choices"][0]["finish_reason"] == "tool_calls"
    assert msg["tool_calls"][0]["function"]["name"] == "search_calendar"
    status, data = post(
        {
            "model": "span-speaker/span",
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [{}],
        }
    )
    assert status == 400 and "not a SPAN question" in data["error"]["message"]
    tool_msg = [
        {"role": "user", "content": q},
        {"role": "tool", "tool_call_id": "x", "content": "1"},
    ]
    status, data = post({"model": "reference/span", "messages": tool_msg})
    assert status == 400  # a backend without chat_completion gets the ordinary path, which refuses


@pytest.mark.parametrize(
    ("name", "arguments", "error"),
    [
        ("add_days", '{"calendar": "gregorian", "date": "2000-01-01", "n": 1e300}', "out of range"),
        ("add_days", {"calendar": "gregorian", "date": "2000-01-01", "n": 10**12}, "out of range"),
        ("add_days", {"calendar": "gregorian", "date": "2000-01-01", "n": True}, "integer"),
        ("add_days", {"calendar": "gregorian", "date": "2000-01-01"}, "missing argument(s) n"),
        ("add_days", {"calendar": "gregorian", "date": "x" * 65, "n": 1}, "longer than 64"),
        (
            "add_days",
            '{"calendar": "gregorian", "date": "2000-01-01", "n": 1, "cmd": "rm"}',
            "unknown argument(s) cmd",
        ),  # fmt: skip
        ("search_calendar", '{"source": ["gregorian"], "target": "hebrew"}', "must be a string"),
        ("search_calendar", "[1, 2]", "must be a JSON object"),
        ("search_calendar", "{" * 5000, "longer than 2000"),
        ("search_calendar", '{"source": "gregorian", "target": "hebrew", "date": "2000-01', "JSON"),
        ("add_years", {"calendar": "hebrew", "date": "5760-01-01", "n": 999_999}, "error"),
    ],
)
def test_tool_arguments_are_validated_and_bounded(name: str, arguments, error: str) -> None:
    ok, text = call_tool(name, arguments)
    assert not ok and text.startswith("error: ") and error in text, text
    assert len(text) < 300


def test_sandbox_limits_come_from_model_options() -> None:
    from chronoeval.core.errors import ChronoevalError
    from chronoeval.suites.span.timeagent import sandbox_limits

    limits, rest = sandbox_limits({"sandbox_cpu_s": "2", "sandbox_wall_s": "3.5", "x": 1})
    assert (limits.cpu_s, limits.wall_s, rest) == (2, 3.5, {"x": 1})
    with pytest.raises(ChronoevalError, match="out of range"):
        sandbox_limits({"sandbox_memory_mb": "0"})
    with pytest.raises(ChronoevalError, match="must be a number"):
        sandbox_limits({"sandbox_cpu_s": "lots"})


def test_tool_mode_survives_hostile_tool_calls() -> None:
    """A model answering with malformed, oversized and too many tool calls: each bad call is a
    recorded failed turn with a clear error, the loop ends with the model's answer."""
    from chronoeval.suites.span.timeagent import ToolsTimeAgent
    from suites.span.escapes import CoderServer

    def fn(name: str, arguments: object) -> dict:
        return {"id": "c", "type": "function", "function": {"name": name, "arguments": arguments}}

    hostile = [
        "not a call",
        {"function": "not a dict"},
        fn("add_days", "{" * 100_000),
        fn("add_days", '{"calendar": "gregorian", "date": "2000-01-01", "n": 10000000000}'),
        fn("add_days", '{"calendar": "gregorian", "date": "2000-01-01", "n": 1, "__class__": 1}'),
        fn("__import__", '{"name": "os"}'),
        *[fn("add_days", '{"calendar": "gregorian", "date": "2000-01-01", "n": 1}')] * 10,
    ]

    def script(body: dict) -> dict:
        if any(m.get("role") == "tool" for m in body["messages"]):
            return {"role": "assistant", "content": "Answer: 2000-01-02"}
        return {"role": "assistant", "content": None, "tool_calls": hostile}

    server = CoderServer(tool_script=script)
    try:
        agent = ToolsTimeAgent(server.url, "m", api_key_env="NO_SUCH_KEY", timeout_s=30)
        req = Request((Message("user", (TextPart("When?"),)),))
        resp = asyncio.run(agent.generate(req))
        asyncio.run(agent.aclose())
    finally:
        server.stop()
    assert resp.text == "Answer: 2000-01-02"
    tools = [t for t in resp.turns if t["role"] == "tool"]
    assert len(tools) == len(hostile) - 1  # the non-dict entry is dropped, the rest answered
    errors = [t["content"] for t in tools if not t["ok"]]
    assert any("longer than 2000" in e for e in errors)
    assert any("out of range" in e for e in errors)
    assert any("unknown argument(s) __class__" in e for e in errors)
    assert any("unknown tool" in e for e in errors)
    assert any("more than 8 tool calls" in e for e in errors)
    # the 5 bad calls take the first slots; of the 10 good ones only 3 fit under the cap of 8
    assert [t["ok"] for t in tools] == [False] * 5 + [True] * 3 + [False] * 7
    assert all(len(t["content"]) < 300 for t in tools)
