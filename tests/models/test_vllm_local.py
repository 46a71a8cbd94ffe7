"""The in-process vLLM backend on the CPU: options, the request -> vLLM conversion, sampling
parameters, outputs -> records through the real runner and store. vLLM itself is absent here (CUDA
wheels); the engine is a stand-in with ``LLM.chat``'s call shape, and the real engine run is
recorded in docs/benchmarks.md only when a GPU was lent."""

from __future__ import annotations

import asyncio
import base64
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from chronoeval.api import item_request
from chronoeval.core.dataset import Dataset
from chronoeval.core.errors import ChronoevalError
from chronoeval.core.registry import get_task
from chronoeval.engine.request import GenerationConfig
from chronoeval.engine.runner import Job, RetryPolicy, run_jobs
from chronoeval.engine.store import RunStore
from chronoeval.models.registry import BackendOptions, make_backend
from chronoeval.models.vllm_local import (
    INSTALL,
    VLLMBackend,
    VLLMOptions,
    sampling_kwargs,
    to_conversation,
)


def test_options_and_engine_kwargs(clock_dataset: Dataset) -> None:
    opts = VLLMOptions.from_extra(
        "/models/tiny",
        {"dtype": "bfloat16", "max_model_len": "4096", "adapter": "/ad", "batch_size": "8"},
        clock_dataset.items,
    )
    kw = opts.engine_kwargs()
    assert kw["model"] == "/models/tiny" and kw["dtype"] == "bfloat16"
    assert kw["max_model_len"] == 4096 and kw["limit_mm_per_prompt"] == {"image": 1}
    assert kw["enable_lora"] is True and kw["trust_remote_code"] is False
    with pytest.raises(ChronoevalError, match="unknown option.*bogus"):
        VLLMOptions.from_extra("m", {"bogus": 1})
    with pytest.raises(ChronoevalError, match="dtype must be"):
        VLLMOptions.from_extra("m", {"dtype": "fp8"})
    with pytest.raises(ChronoevalError, match="max_model_len must be an integer"):
        VLLMOptions.from_extra("m", {"max_model_len": "lots"})
    with pytest.raises(ChronoevalError, match="trust_remote_code"):
        VLLMOptions.from_extra("m", {"trust_remote_code": "maybe"})


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vllm is installed")
def test_missing_vllm_is_one_clear_error(clock_dataset: Dataset) -> None:
    with pytest.raises(ChronoevalError) as exc:
        make_backend(
            "vllm:/models/tiny", get_task("clockqa"), clock_dataset.items, BackendOptions()
        )
    assert str(exc.value) == INSTALL and "pip install vllm" in INSTALL
    with pytest.raises(ChronoevalError, match="name the model"):
        make_backend("vllm", get_task("clockqa"))


def test_conversation_carries_text_and_the_exact_image(clock_dataset: Dataset) -> None:
    item = clock_dataset.items[0]
    req = item_request(item, GenerationConfig(), clock_dataset.root)
    conv = to_conversation(req)
    assert [m["role"] for m in conv] == [m.role for m in item.messages]
    parts = conv[-1]["content"]
    url = next(p["image_url"]["url"] for p in parts if p["type"] == "image_url")
    head, payload = url.split(",", 1)
    assert head == "data:image/png;base64"
    assert base64.b64decode(payload) == clock_dataset.image_path(item.images[0]).read_bytes()
    texts = [p["text"] for p in parts if p["type"] == "text"]
    assert texts and texts[0] in item.messages[-1].text
    pil = to_conversation(req, "pil")[-1]["content"]
    img = next(p["image_pil"] for p in pil if p["type"] == "image_pil")
    assert img.mode == "RGB" and img.size[0] > 0


def test_sampling_kwargs() -> None:
    assert sampling_kwargs(GenerationConfig()) == {"temperature": 0.0, "max_tokens": 512, "seed": 0}
    kw = sampling_kwargs(
        GenerationConfig(temperature=0.7, max_tokens=9, seed=None, stop=("\n",), top_p=0.9)
    )
    assert kw == {"temperature": 0.7, "max_tokens": 9, "stop": ["\n"], "top_p": 0.9}


@dataclass
class _Completion:
    text: str
    token_ids: list[int]
    finish_reason: str = "stop"


@dataclass
class _Output:
    prompt_token_ids: list[int]
    outputs: list[_Completion]


@dataclass
class StandIn:
    """LLM.chat's call shape: (conversations, sampling params, use_tqdm, lora_request)."""

    calls: list[tuple[int, Any]] = field(default_factory=list)
    sampling_params_class: Any = dict

    def chat(
        self,
        conversations: list[Any],
        params: Any,
        *,
        use_tqdm: bool = True,
        lora_request: Any = None,
    ) -> list[_Output]:
        self.calls.append((len(conversations), params))
        out = []
        for conv in conversations:
            text = conv[-1]["content"][-1]["text"] if isinstance(conv[-1]["content"], list) else ""
            n_img = sum(p.get("type") == "image_url" for p in conv[-1]["content"])
            if "c003" in text:  # no completion for one request: an error, not an answer
                out.append(_Output([1, 2], []))
            else:
                out.append(_Output(list(range(10 + n_img)), [_Completion("10:10:00", [5, 6, 7])]))
        return out


def test_batches_through_the_runner_into_the_store(clock_dataset: Dataset, tmp_path: Path) -> None:
    engine = StandIn()
    backend = VLLMBackend(VLLMOptions.from_extra("/models/tiny", {"batch_size": "5"}), engine)
    assert backend.identity == "vllm//models/tiny"
    items = clock_dataset.items
    # mark one item's prompt so the stand-in withholds its completion
    jobs = []
    for item in items:
        req = item_request(item, GenerationConfig(), clock_dataset.root)
        if item.id == "c003":
            from dataclasses import replace

            from chronoeval.core.items import Message, TextPart

            msgs = list(req.messages)
            msgs[-1] = Message(msgs[-1].role, (*msgs[-1].content, TextPart("c003")))
            req = replace(req, messages=tuple(msgs))
        jobs.append(Job(req.key(backend.identity), item.id, "clockqa", req))
    with RunStore.in_dir(tmp_path) as store:
        summary = asyncio.run(
            run_jobs(
                jobs,
                backend,
                store,
                concurrency=16,
                progress=False,
                retry=RetryPolicy(max_retries=1, base_delay_s=0.0),
            )
        )
        stored = store.all()
    asyncio.run(backend.aclose())
    assert summary.answered == len(items) - 1 and summary.errors == 1
    assert all(n <= 5 for n, _ in engine.calls)  # batches of at most batch_size
    assert engine.calls[0][1] == {"temperature": 0.0, "max_tokens": 512, "seed": 0}
    ok = [r for r in stored.values() if r.ok]
    assert {r.text for r in ok} == {"10:10:00"}
    assert ok[0].usage == {"prompt_tokens": 11, "completion_tokens": 3}
    bad = [r for r in stored.values() if not r.ok]
    assert len(bad) == 1 and "no completion" in (bad[0].error or "")
