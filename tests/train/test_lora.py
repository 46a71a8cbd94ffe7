"""The LoRA recipe on a tiny random VLM on the CPU: loss falls, the adapter saves, reloads through
the hf backend and evaluates; the chat JSONL export has the LLaMA-Factory / ms-swift shape."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from chronoeval.train.lora import PAPER, export_chat_jsonl, train_lora, training_examples

SMALL = {"n_locations": 25}


def test_paper_settings() -> None:
    assert (PAPER.r, PAPER.alpha, PAPER.dropout, PAPER.lr) == (8, 16, 0.1, 5e-5)
    assert (PAPER.batch_size, PAPER.grad_accum, PAPER.epochs) == (2, 8, 3)


def test_export_chat_jsonl(tmp_path: Path) -> None:
    ex = training_examples(["tp_pov", "tp_isr"], n=3, params=SMALL)
    path = export_chat_jsonl(ex, tmp_path / "out")
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    assert len(rows) == 6
    for r in rows:
        user, assistant = r["messages"]
        assert user["role"] == "user" and assistant["role"] == "assistant"
        assert user["content"].count("<image>") == len(r["images"])
        assert all(Path(p).is_file() for p in r["images"])
    assert rows[0]["messages"][1]["content"] in ("True", "False")
    info = json.loads((tmp_path / "out" / "dataset_info.json").read_text())
    assert info["timepercept_train"]["formatting"] == "sharegpt"


def test_lora_trains_saves_reloads_and_evaluates(tmp_path: Path) -> None:
    pytest.importorskip("peft")
    from chronoeval import api
    from chronoeval.models.registry import BackendOptions
    from chronoeval.models.tiny import build_tiny_vlm

    model_dir = build_tiny_vlm("llava", tmp_path / "tiny", seed=0)
    ex = training_examples(["tp_pov"], n=4, params=SMALL)
    recipe = replace(PAPER, lr=5e-3, grad_accum=1, max_steps=12)  # a few fast steps
    res = train_lora(model_dir, ex, tmp_path / "adapter", recipe)
    assert res.steps == 12
    first, last = sum(res.losses[:3]) / 3, sum(res.losses[-3:]) / 3
    assert last < first, res.losses
    assert (tmp_path / "adapter" / "adapter_config.json").is_file()
    cfg = json.loads((tmp_path / "adapter" / "adapter_config.json").read_text())
    assert cfg["r"] == 8 and cfg["lora_alpha"] == 16
    out = api.run(
        ["tp_pov"],
        f"hf:{model_dir}",
        n=4,
        seed=0,
        params={**SMALL},
        run_dir=tmp_path / "run",
        progress=False,
        plots=False,
        backend_options=BackendOptions(
            extra={
                "adapter": str(tmp_path / "adapter"),
            }
        ),
    )
    counts = out.results["tasks"]["tp_pov"]["counts"]
    assert counts["error"] == 0 and counts["answered"] + counts["no_answer"] == 4
