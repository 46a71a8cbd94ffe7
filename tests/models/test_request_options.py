"""Request options against a real local OpenAI-compatible server that records request bodies:
system prompt, top_p, extra body fields, omitted fields; reasoning kept apart from the parsed
answer; token usage per sample; the prompt in the records."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq

from chronoeval.engine.reasoning import join_reasoning, split_reasoning
from chronoeval.engine.request import GenerationConfig
from helpers import chronoeval, make_clock_dataset
from openai_stub import chat_reply, openai_stub

REPLIES = [
    # vLLM with --reasoning-parser: thinking in reasoning_content, a stray time in it
    chat_reply(
        "The time is 3:15:42.",
        reasoning="The hour hand is close to 12, so maybe 12:00:00? No, look again.",
        reasoning_tokens=21,
    ),
    # Qwen3 served without a parser: the thinking inline
    chat_reply(
        "<think>\nHour hand near 11, minute hand on 55: 11:55:00?\n</think>\n\nIt is 4:20:10."
    ),
    # DeepSeek-R1's template opens <think> in the prompt: only the closing tag is in the reply
    chat_reply("Minute hand at 9 → 45 minutes... 2:45:00\n</think>\n\n7:05:30"),
    # cut off while thinking: no answer, not the half-finished thought
    chat_reply("<think>The hour hand points at 8, so 8:00:00 maybe, but"),
    # Ollama / OpenRouter name the field `reasoning`
    chat_reply("9:10:11", reasoning="counting ticks: 1:00:00", field="reasoning"),
]


def test_request_options_reasoning_usage_and_prompt(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=6)
    with openai_stub(REPLIES) as stub:
        proc = chronoeval(
            "run", "--task", "clockqa", "--data", str(ds.root), "--model", "openai:qwen3",
            "--base-url", stub.url, "--out", str(tmp_path / "run"), "--concurrency", "1",
            "--limit", "5", "--system-prompt", "Answer with the time only. [no markup]",
            "--top-p", "0.9", "--omit", "max_tokens,temperature",
            "--request-opt", "max_completion_tokens=64",
            "--request-opt", "reasoning_effort=low",
            "--request-opt", 'response_format={"type": "json_object"}',
            "--request-opt", 'chat_template_kwargs={"enable_thinking": false}',
            cwd=tmp_path,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(stub.bodies) == 5  # --limit 5 of 6 items
    for body in stub.bodies:
        assert "max_tokens" not in body and "temperature" not in body
        assert body["top_p"] == 0.9 and body["max_completion_tokens"] == 64
        assert body["reasoning_effort"] == "low"
        assert body["response_format"] == {"type": "json_object"}
        assert body["chat_template_kwargs"] == {"enable_thinking": False}
        assert body["model"] == "qwen3" and body["seed"] == 0
        assert body["messages"][0] == {
            "role": "system",
            "content": "Answer with the time only. [no markup]",
        }
        assert body["messages"][1]["role"] == "user"
    run = tmp_path / "run"
    config = json.loads((run / "config.json").read_text())
    assert config["limit"] == 5 and config["tasks"]["clockqa"]["n_items"] == 5
    gen = config["generation"]
    assert gen["omit"] == ["max_tokens", "temperature"] and gen["top_p"] == 0.9
    assert gen["extra_body"]["chat_template_kwargs"] == {"enable_thinking": False}
    rows = [json.loads(x) for x in (run / "samples.jsonl").read_text().splitlines()]
    by_answer = [r["answer"] for r in rows]
    assert by_answer[:3] == ["3:15:42", "4:20:10", "7:05:30"], by_answer
    assert rows[3]["status"] == "no_answer"
    assert by_answer[4] == "9:10:11"
    assert "12:00:00" in rows[0]["reasoning"] and "12:00:00" not in rows[0]["response"]
    assert rows[1]["response"] == "It is 4:20:10." and "11:55:00" in rows[1]["reasoning"]
    assert "2:45:00" in rows[2]["reasoning"] and rows[2]["response"] == "7:05:30"
    assert "8:00:00" in rows[3]["reasoning"] and rows[3]["response"] == ""
    assert rows[4]["reasoning"] == "counting ticks: 1:00:00"
    assert rows[0]["usage"]["completion_tokens_details.reasoning_tokens"] == 21
    assert rows[0]["usage"]["prompt_tokens"] == 120
    prompt = rows[0]["prompt"]
    assert prompt[0]["content"] == [
        {"type": "text", "text": "Answer with the time only. [no markup]"}
    ]
    image = prompt[1]["content"][0]
    item0 = ds.items[0]
    assert image == {
        "type": "image",
        "path": item0.images[0].path,
        "sha256": item0.images[0].sha256,
        "mime": "image/png",
    }
    assert prompt[1]["content"][1]["text"] == item0.messages[0].content[1].text
    table = pq.read_table(run / "samples.parquet").to_pylist()
    assert json.loads(table[0]["prompt"]) == prompt
    assert table[1]["reasoning"] and "11:55:00" in table[1]["reasoning"]
    assert json.loads(table[0]["usage"])["completion_tokens"] == 51
    page = (run / "report.html").read_text(encoding="utf-8")  # the sample browser shows both
    assert "[system]\nAnswer with the time only. [no markup]" in page
    assert "<summary>reasoning</summary>" in page
    # re-scoring the stored texts gives the same split (the store keeps the reasoning too)
    again = chronoeval("score", str(run), cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    rows2 = [json.loads(x) for x in (run / "samples.jsonl").read_text().splitlines()]
    assert [r.get("reasoning") for r in rows2] == [r.get("reasoning") for r in rows]


def test_default_request_is_unchanged_by_the_new_options(tmp_path: Path) -> None:
    """No option given: the standard fields are sent and no extra key appears (old run stores
    keep their request keys)."""
    assert set(GenerationConfig().to_json()) == {
        "temperature",
        "max_tokens",
        "seed",
        "stop",
        "top_p",
    }
    ds = make_clock_dataset(tmp_path / "ds", n=2)
    with openai_stub([chat_reply("1:00:00")]) as stub:
        proc = chronoeval(
            "run", "--task", "clockqa", "--data", str(ds.root), "--model", "openai:m",
            "--base-url", stub.url, "--out", str(tmp_path / "run"), cwd=tmp_path,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    body = stub.bodies[0]
    assert set(body) == {"model", "messages", "temperature", "max_tokens", "seed"}
    assert body["messages"][0]["role"] == "user"


def test_split_reasoning_cases() -> None:
    assert split_reasoning("plain 3:00") == (None, "plain 3:00")
    assert split_reasoning(join_reasoning("think", "answer")) == ("think", "answer")
    assert split_reasoning("<THINK>a</THINK>b<think>c</think>d") == ("a\n\nc", "bd")
    assert split_reasoning("") == (None, "")
    assert split_reasoning("<think></think>x") == (None, "x")


def test_bad_request_opt_and_omit_are_one_line(tmp_path: Path) -> None:
    proc = chronoeval("run", "--task", "clockqa", "--model", "random", "--request-opt", "oops",
                      cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and "--request-opt needs key=value" in proc.stdout
    proc = chronoeval("run", "--task", "clockqa", "--model", "random", "--omit", "max_tokns",
                      cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and "unknown field(s) max_tokns" in proc.stdout
    proc = chronoeval("run", "--task", "clockqa", "--n", "1", "--model", "openai:m", "--base-url",
                      "http://127.0.0.1:9/v1", "--model-opt", "max_completion_tokens=100",
                      cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 2 and "go in --request-opt key=value" in " ".join(proc.stdout.split())
    assert "Traceback" not in proc.stdout + proc.stderr
