"""``chronoeval train lora`` on a tiny random VLM on the CPU: bf16, gradient checkpointing and
gradient accumulation through the real CLI process; the adapter is evaluated through ``hf:``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chronoeval.core.errors import ChronoevalError
from chronoeval.train.runtime import Runtime

SMALL = ["--param", "n_locations=25"]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chronoeval", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        timeout=300,
    )


def test_runtime_checks() -> None:
    with pytest.raises(ChronoevalError, match="dtype must be"):
        Runtime(dtype="fp8").check()
    with pytest.raises(ChronoevalError, match="device must be"):
        Runtime(device="tpu").check()
    with pytest.raises(ChronoevalError, match="float16 needs a GPU"):
        Runtime(device="cpu", dtype="float16").resolve()
    import torch

    if not torch.cuda.is_available():
        with pytest.raises(ChronoevalError, match="no CUDA GPU"):
            Runtime(device="cuda").resolve()
        assert str(Runtime(device="auto").resolve()[0]) == "cpu"


def test_train_lora_cli_bf16_checkpointing_accumulation(tmp_path: Path) -> None:
    pytest.importorskip("peft")
    from chronoeval.models.tiny import build_tiny_vlm

    model_dir = build_tiny_vlm("llava", tmp_path / "tiny", seed=0)
    adapter = tmp_path / "adapter"
    proc = _cli(
        "train", "lora", "--model", str(model_dir), "--out", str(adapter),
        "--task", "tp_pov", "--n", "4", *SMALL,
        "--device", "cpu", "--dtype", "bfloat16", "--gradient-checkpointing",
        "--batch-size", "1", "--grad-accum", "2", "--max-steps", "2", "--lr", "5e-3",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "2 optimizer steps on 4 examples" in proc.stdout
    summary = json.loads((adapter / "chronoeval_train.json").read_text())
    assert summary["runtime"] == {
        "device": "cpu", "dtype": "bfloat16", "gradient_checkpointing": True,
        "trust_remote_code": False,
    }  # fmt: skip
    assert summary["recipe"]["grad_accum"] == 2 and summary["steps"] == 2
    import torch
    from safetensors.torch import load_file

    weights = load_file(str(adapter / "adapter_model.safetensors"))
    # the base model computed in bf16; PEFT keeps the adapter's own weights in fp32 (its
    # autocast_adapter_dtype default), the usual mixed-precision LoRA setup
    assert weights and all(w.dtype == torch.float32 for w in weights.values())

    from chronoeval import api
    from chronoeval.models.registry import BackendOptions

    out = api.run(
        ["tp_pov"],
        f"hf:{model_dir}",
        n=4,
        params={"n_locations": 25},
        run_dir=tmp_path / "run",
        progress=False,
        plots=False,
        backend_options=BackendOptions(extra={"adapter": str(adapter), "dtype": "bfloat16"}),
    )
    results = out.results
    counts = results["tasks"]["tp_pov"]["counts"]
    assert counts["error"] == 0 and counts["answered"] + counts["no_answer"] == 4
    assert results["backend"]["adapter"] == str(adapter)


def test_train_lora_cli_bad_input_is_one_line(tmp_path: Path) -> None:
    proc = _cli("train", "lora", "--model", str(tmp_path), "--out", str(tmp_path / "a"),
                "--dtype", "fp8")  # fmt: skip
    assert proc.returncode == 2 and "dtype must be one of" in " ".join(
        (proc.stdout + proc.stderr).split()
    )
    assert "Traceback" not in proc.stderr
    proc = _cli("train", "lora", "--model", str(tmp_path), "--out", str(tmp_path / "a"))
    said = " ".join((proc.stdout + proc.stderr).split())  # the console wraps long lines
    assert proc.returncode == 2 and "not a model directory" in said
