"""The transformers backend on tiny random models of three families, on the CPU, offline.

The batched backend's answers are checked against an independent path: the plain transformers
calls for one request at a time (no batching, no padding), written out here.
"""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from typer.testing import CliRunner  # noqa: E402

from chronoeval.core.dataset import Dataset  # noqa: E402
from chronoeval.engine.request import GenerationConfig, Request  # noqa: E402
from chronoeval.models.hf import HFBackend, HFOptions  # noqa: E402
from chronoeval.models.tiny import FAMILIES, build_tiny_vlm, register_processors  # noqa: E402
from helpers import make_clock_dataset  # noqa: E402

MAX_TOKENS = 6


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("tiny")
    return {f: build_tiny_vlm(f, root / f, seed=0) for f in FAMILIES}


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    return make_clock_dataset(tmp_path_factory.mktemp("ds") / "clock", n=6)


def _unbatched_reference(model_dir: Path, ds: Dataset) -> list[str]:
    """Greedy answers one item at a time with plain transformers calls (the independent path)."""
    import torch
    from PIL import Image
    from transformers import AutoModelForImageTextToText, AutoProcessor

    register_processors()
    processor = AutoProcessor.from_pretrained(model_dir)
    model = AutoModelForImageTextToText.from_pretrained(model_dir).eval()
    out = []
    for item in ds.items:
        (msg,) = item.messages
        chat = [
            {
                "role": "user",
                "content": [
                    {"type": "image"} if hasattr(p, "sha256") else {"type": "text", "text": p.text}
                    for p in msg.content
                ],
            }
        ]
        images = [
            Image.open(io.BytesIO((ds.root / p.path).read_bytes())).convert("RGB")
            for p in msg.content
            if hasattr(p, "sha256")
        ]
        prompt = processor.apply_chat_template(chat, add_generation_prompt=True)
        inputs = processor(text=[prompt], images=[images], return_tensors="pt")
        with torch.inference_mode():
            ids = model.generate(**inputs, max_new_tokens=MAX_TOKENS, do_sample=False)
        new = ids[0, inputs["input_ids"].shape[1] :].tolist()
        eos = model.generation_config.eos_token_id
        if eos in new:
            new = new[: new.index(eos)]
        out.append(processor.tokenizer.decode(new, skip_special_tokens=True))
    return out


def test_tiny_models_load_offline_with_their_processors(tiny_models: dict[str, Path]) -> None:
    from transformers import AutoModelForImageTextToText, AutoProcessor

    register_processors()
    expected = {
        "llava": ("LlavaProcessor", "LlavaForConditionalGeneration"),
        "idefics3": ("Idefics3Processor", "Idefics3ForConditionalGeneration"),
        "qwen2_vl": ("Qwen2VLImageOnlyProcessor", "Qwen2VLForConditionalGeneration"),
    }
    for family, path in tiny_models.items():
        proc = AutoProcessor.from_pretrained(path)
        model = AutoModelForImageTextToText.from_pretrained(path)
        assert (type(proc).__name__, type(model).__name__) == expected[family]
        assert sum(p.numel() for p in model.parameters()) < 500_000
        assert "image" in proc.apply_chat_template(
            [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "hi"}]}],
            add_generation_prompt=True,
        )


def test_tiny_build_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    a = build_tiny_vlm("llava", tmp_path / "a", seed=3)
    b = build_tiny_vlm("llava", tmp_path / "b", seed=3)
    c = build_tiny_vlm("llava", tmp_path / "c", seed=4)
    weights = [(p / "model.safetensors").read_bytes() for p in (a, b, c)]
    assert weights[0] == weights[1] != weights[2]


def test_importing_the_backends_needs_no_torch() -> None:
    code = (
        "import sys, chronoeval.cli, chronoeval.models.registry, chronoeval.models.hf, "
        "chronoeval.models.tiny; assert 'torch' not in sys.modules, 'torch imported'; "
        "assert 'transformers' not in sys.modules"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("family", ["llava", "qwen2_vl", "idefics3"])
def test_cli_run_batched_matches_unbatched_transformers(
    family: str, tiny_models: dict[str, Path], dataset: Dataset, tmp_path: Path
) -> None:
    from chronoeval.cli import app

    out = tmp_path / "run"
    args = ["run", "--task", "clockqa", "--data", str(dataset.root), "--model"]
    args += [f"hf:{tiny_models[family]}", "--model-opt", "batch_size=4", "--out", str(out)]
    args += ["--max-tokens", str(MAX_TOKENS), "--no-progress"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output + repr(res.exception)
    results = json.loads((out / "results.json").read_text())
    counts = results["tasks"]["clockqa"]["counts"]
    assert counts["error"] == counts["missing"] == 0
    assert counts["answered"] + counts["no_answer"] == 6
    assert results["backend"]["batch_size"] == 4
    rows = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert [r["item_id"] for r in rows] == [it.id for it in dataset.items]
    assert all(0 < r["usage"]["completion_tokens"] <= MAX_TOKENS for r in rows)
    # mixed batches (left padding) give exactly the answers of one-at-a-time generation
    assert [r["response"] for r in rows] == _unbatched_reference(tiny_models[family], dataset)
    # resuming asks nothing again
    res2 = CliRunner().invoke(app, args)
    assert res2.exit_code == 0 and "6 already stored, 0 asked" in " ".join(res2.output.split())


def test_a_failing_request_fails_alone_in_its_batch(
    tiny_models: dict[str, Path], dataset: Dataset, tmp_path: Path
) -> None:
    backend = HFBackend(HFOptions.from_extra(str(tiny_models["llava"]), {"batch_size": 4}))
    good = [
        Request(it.messages, GenerationConfig(max_tokens=3), dataset.root) for it in dataset.items
    ]
    bad = Request(dataset.items[0].messages, GenerationConfig(max_tokens=3), tmp_path)  # no images

    async def go() -> list[object]:
        return await asyncio.gather(
            *(backend.generate(r) for r in [good[0], bad, good[1], good[2]]),
            return_exceptions=True,
        )

    results = asyncio.run(go())
    assert [type(r).__name__ for r in results] == ["Response", "BackendError", "Response"] + [
        "Response"
    ]
    assert "FileNotFoundError" in str(results[1]) and not results[1].retryable  # type: ignore[union-attr]


def test_unknown_option_is_refused_by_name(tiny_models: dict[str, Path]) -> None:
    from chronoeval.core.errors import ChronoevalError

    with pytest.raises(ChronoevalError, match="unknown option.*batchsize"):
        HFOptions.from_extra(str(tiny_models["llava"]), {"batchsize": 2})
    with pytest.raises(ChronoevalError, match="dtype"):
        HFOptions.from_extra("x", {"dtype": "float8"})


def test_lora_adapter_is_applied(tiny_models: dict[str, Path], dataset: Dataset, tmp_path: Path):
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForImageTextToText

    base = AutoModelForImageTextToText.from_pretrained(tiny_models["llava"])
    torch.manual_seed(0)
    cfg = LoraConfig(
        r=4,
        target_modules=r".*(language_model|text_model)\..*\.(q_proj|v_proj)",
        init_lora_weights=False,  # random B: the adapter changes the outputs
    )
    peft_model = get_peft_model(base, cfg)
    peft_model.save_pretrained(tmp_path / "adapter")

    opts = {"adapter": str(tmp_path / "adapter"), "batch_size": 2}
    backend = HFBackend(HFOptions.from_extra(str(tiny_models["llava"]), opts))
    assert backend.identity.endswith(f"+lora:{tmp_path / 'adapter'}")
    assert type(backend.loaded.model).__name__ == "PeftModel"
    lora_params = [n for n, _ in backend.loaded.model.named_parameters() if "lora_" in n]
    assert lora_params and all("language_model" in n for n in lora_params)
    req = Request(dataset.items[0].messages, GenerationConfig(max_tokens=MAX_TOKENS), dataset.root)

    assert asyncio.run(backend.generate(req)).usage["completion_tokens"] > 0

    # the adapter's weights are in the forward pass: compare raw logits, which always differ
    inputs = backend.loaded.processor(
        text=["USER: <image>\nhi ASSISTANT:"],
        images=[[_first_image(dataset)]],
        return_tensors="pt",
    )
    with torch.inference_mode():
        a = backend.loaded.model(**inputs).logits
        with backend.loaded.model.disable_adapter():
            b = backend.loaded.model(**inputs).logits
    assert not torch.allclose(a, b)


def _first_image(ds: Dataset):  # type: ignore[no-untyped-def]
    from PIL import Image

    part = ds.items[0].messages[0].content[0]
    return Image.open(io.BytesIO((ds.root / part.path).read_bytes())).convert("RGB")


def test_bfloat16_casts_pixels_and_names_the_dtype(tiny_models: dict[str, Path], dataset: Dataset):
    import torch

    opts = HFOptions.from_extra(str(tiny_models["qwen2_vl"]), {"dtype": "bfloat16"})
    backend = HFBackend(opts)
    assert backend.identity == f"hf/{tiny_models['qwen2_vl']}@bfloat16"
    assert next(backend.loaded.model.parameters()).dtype == torch.bfloat16
    req = Request(dataset.items[0].messages, GenerationConfig(max_tokens=3), dataset.root)
    resp = asyncio.run(backend.generate(req))
    assert resp.usage["completion_tokens"] > 0 and resp.finish_reason in ("stop", "length")


def test_a_model_that_cannot_be_loaded_is_one_line(tmp_path: Path) -> None:
    """`--model hf:x` with torch present but no such model (not cached, or a directory holding no
    model) is one line naming the model and the fix, exit 2 — never transformers' traceback."""
    import os

    data = make_clock_dataset(tmp_path / "ds", n=1).root
    (tmp_path / "empty").mkdir()
    for spec in ("hf:nobody/not-a-cached-model", f"hf:{tmp_path / 'empty'}"):
        proc = subprocess.run(
            [sys.executable, "-m", "chronoeval", "run", "--task", "clockqa", "--data", str(data)]
            + ["--model", spec, "--out", str(tmp_path / "run"), "--no-progress"],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "COLUMNS": "1000", "HF_HUB_OFFLINE": "1"},
        )
        text = proc.stdout + proc.stderr
        assert "Traceback" not in text and proc.returncode == 2, text
        lines = [ln for ln in text.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: hf backend: cannot load"), text
        assert spec.removeprefix("hf:") in lines[0] and "local model directory" in lines[0], text
