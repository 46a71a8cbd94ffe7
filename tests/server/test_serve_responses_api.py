"""``POST /v1/responses`` on ``chronoeval serve`` (server/responses.py), driven by clients nobody
here wrote: the OpenAI SDK's ``responses.create`` and Inspect's ``openai/`` provider, which sends
every request to the Responses API unless told ``responses_api=false`` (before this route, every
Inspect sample against ``chronoeval serve`` failed with HTTP 404). The same prompt and settings
must get the same answer as on ``/v1/chat/completions``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from chronoeval.server.responses import ResponsesError, chat_body, response_body
from helpers import clock_parts, data_url, plain_chat_answer, post_json, tiny_clock_png

QUESTION = "What time does the clock show?"


def _responses_input(url: str) -> list[dict[str, Any]]:
    return [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": QUESTION},
                {"type": "input_image", "image_url": url, "detail": "auto"},
            ],
        }
    ]


def _post(base: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return post_json(base + "/responses", body)


def test_the_sdk_responses_api_gets_the_chat_answers(serve) -> None:  # type: ignore[no-untyped-def]
    openai = pytest.importorskip("openai")
    server = serve("--model", "random", "--task", "clockqa")
    client = openai.OpenAI(base_url=server.url, api_key="unused", max_retries=0, timeout=30)
    urls = [data_url(tiny_clock_png(i)) for i in range(4)]
    got = []
    for url in urls:
        resp = client.responses.create(
            model="random", input=_responses_input(url), temperature=0, max_output_tokens=64
        )
        assert resp.status == "completed"
        assert resp.output[0].role == "assistant"
        got.append(resp.output_text)
    assert len(set(got)) > 1  # the images are told apart
    assert [plain_chat_answer(server.url, u) for u in urls] == got


def test_a_constant_model_answers_verbatim_and_a_cut_answer_is_incomplete(serve) -> None:  # type: ignore[no-untyped-def]
    spec = "constant:It is ten past ten, I think"
    server = serve("--model", spec, "--task", "clockqa")
    status, body = _post(
        server.url, {"model": spec, "input": "What time is it?", "instructions": "Be brief."}
    )
    assert status == 200
    assert body["status"] == "completed" and body["incomplete_details"] is None
    assert body["output"][0]["content"][0]["text"] == "It is ten past ten, I think"
    assert body["instructions"] == "Be brief."
    # a chat completion stopped by its token limit is an incomplete response
    completion = {
        "model": spec,
        "choices": [{"message": {"content": "It is"}, "finish_reason": "length"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7},
    }
    cut = response_body(completion, {"max_output_tokens": 2})
    assert cut["status"] == "incomplete"
    assert cut["incomplete_details"] == {"reason": "max_output_tokens"}
    assert cut["usage"]["output_tokens"] == 2 and cut["usage"]["total_tokens"] == 7


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"input": QUESTION, "tools": [{"type": "function", "name": "f"}]}, "tools"),
        ({"input": QUESTION, "stream": True}, "stream"),
        ({"input": QUESTION, "previous_response_id": "resp_1"}, "previous_response_id"),
        ({"input": [{"type": "function_call_output", "call_id": "c", "output": "1"}]}, "input[0]"),
        ({"input": [{"role": "tool", "content": "x"}]}, "input[0].role"),
        ({"input": []}, "input"),
        (
            {
                "input": [
                    {
                        "role": "user",
                        "content": [{"type": "input_image", "image_url": "https://x/y.png"}],
                    }
                ]
            },
            "input[0].content[0].image_url",
        ),
        (
            {"input": [{"role": "user", "content": [{"type": "input_file", "file_id": "f"}]}]},
            "input[0].content[0]",
        ),
    ],
)
def test_what_is_not_served_is_refused_naming_the_field(serve, body, field) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ResponsesError, match="^" + re.escape(field) + "[:. ]"):
        chat_body(body)
    if field == "tools":  # and over HTTP: a 400 with the same one line, nothing answered
        server = serve("--model", "random", "--task", "clockqa")
        status, answer = _post(server.url, {"model": "random", **body})
        assert status == 400
        assert answer["error"]["message"].startswith("tools:")


def test_instructions_and_roles_translate_to_chat_messages() -> None:
    body = {
        "model": "m",
        "instructions": "Answer with a time.",
        "input": [
            {"role": "developer", "content": "Be brief."},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]},
            {"role": "assistant", "content": [{"type": "output_text", "text": "10:10"}]},
        ],
        "max_output_tokens": 9,
        "temperature": 0.5,
        "store": False,
        "reasoning": {"effort": "low"},
    }
    assert chat_body(body) == {
        "model": "m",
        "messages": [
            {"role": "system", "content": "Answer with a time."},
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "10:10"}]},
        ],
        "max_tokens": 9,
        "temperature": 0.5,
    }
    assert chat_body({"input": "Hello"})["messages"] == [{"role": "user", "content": "Hello"}]


@pytest.mark.parametrize("responses_api", [True, False])
def test_inspect_openai_provider_gets_the_chat_answers(
    serve, tmp_path: Path, responses_api, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("openai")
    pytest.importorskip(
        "inspect_ai", reason="inspect-ai is not installed (optional extra: inspect)"
    )
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
    from inspect_ai.solver import generate

    server = serve("--model", "random", "--task", "clockqa")
    monkeypatch.setenv("OPENAI_API_KEY", "unused")
    urls = [data_url(tiny_clock_png(i)) for i in range(3)]
    samples = [
        Sample(
            input=[ChatMessageUser(content=[ContentText(text=QUESTION), ContentImage(image=u)])],
            target="",
            id=i,
        )
        for i, u in enumerate(urls)
    ]
    [log] = inspect_eval(
        Task(dataset=samples, solver=generate()),
        model="openai/random",
        model_base_url=server.url,
        model_args={"responses_api": responses_api},
        temperature=0,
        max_tokens=64,
        display="none",
        log_dir=str(tmp_path),
        log_format="json",
    )
    assert log.status == "success", log.error
    got = {s.id: s.output.completion for s in log.samples}
    assert [got[i] for i in range(3)] == [plain_chat_answer(server.url, u) for u in urls]


def test_a_developer_message_is_a_system_message(serve) -> None:  # type: ignore[no-untyped-def]
    """OpenAI's SDK and newer clients send the system prompt as role ``developer``."""
    server = serve("--model", "random", "--task", "clockqa")
    url = data_url(tiny_clock_png(2))
    answers = []
    for role in ("system", "developer"):
        answers.append(
            plain_chat_answer(
                server.url,
                url,
                messages=[
                    {"role": role, "content": "Answer with the time only."},
                    {"role": "user", "content": clock_parts(url)},
                ],
            )
        )
    assert answers[0] == answers[1]


def test_a_route_not_served_gets_one_line_naming_what_is(serve) -> None:  # type: ignore[no-untyped-def]
    server = serve("--model", "random", "--task", "clockqa")
    status, body = post_json(server.url + "/completions", {"model": "random", "prompt": "Hi"})
    assert status == 404
    assert body["error"]["message"] == (
        "chronoeval serve answers POST /v1/chat/completions, POST /v1/responses and "
        "GET /v1/models, not POST /v1/completions"
    )
