"""``chronoeval train lora``: the LoRA recipe (train/lora.py, TimePerceptBench §V-1 settings) from
the command line, with device, dtype, gradient checkpointing and gradient accumulation.

torch, transformers and peft are imported only when the command runs."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="Fine-tune models on the benchmarks' training splits (LoRA)")


@app.command()
def lora(
    model: Annotated[Path, typer.Option(help="a local image-text-to-text model directory")],
    out: Annotated[Path, typer.Option(help="where the adapter is saved")],
    task: Annotated[
        list[str] | None,
        typer.Option(help="training task(s) (default: the nine TimePerceptBench tasks)"),
    ] = None,
    n: Annotated[int, typer.Option(help="training items generated per task")] = 800,
    seed: Annotated[int, typer.Option(help="generation and training seed")] = 0,
    param: Annotated[
        list[str] | None, typer.Option(help="task parameter key=value (repeatable)")
    ] = None,
    device: Annotated[str, typer.Option(help="auto, cpu, cuda or cuda:<index>")] = "cpu",
    dtype: Annotated[str, typer.Option(help="float32, bfloat16 or float16 (GPU)")] = "float32",
    gradient_checkpointing: Annotated[
        bool, typer.Option(help="recompute activations in the backward pass (less memory)")
    ] = False,
    trust_remote_code: Annotated[
        bool, typer.Option(help="allow the model directory's own code (remote-code models)")
    ] = False,
    batch_size: Annotated[int | None, typer.Option(help="micro-batch size (paper: 2)")] = None,
    grad_accum: Annotated[
        int | None, typer.Option(help="micro-batches per optimizer step (paper: 8)")
    ] = None,
    epochs: Annotated[int | None, typer.Option(help="epochs (paper: 3)")] = None,
    max_steps: Annotated[
        int | None, typer.Option(help="stop after this many optimizer steps")
    ] = None,
    lr: Annotated[float | None, typer.Option(help="learning rate (paper: 5e-5)")] = None,
    rank: Annotated[int | None, typer.Option(help="LoRA rank (paper: 8)")] = None,
) -> None:
    """Train a LoRA adapter on the tasks' training splits (paper settings unless overridden).

    Evaluate it with ``chronoeval run --model hf:<model> --model-opt adapter=<out>`` (or
    ``--model vllm:<model> --model-opt adapter=<out>`` on a GPU machine with vLLM)."""
    from chronoeval.cli import _params
    from chronoeval.core.errors import ChronoevalError
    from chronoeval.train.lora import PAPER, TIMEPERCEPT_TASKS, train_lora, training_examples
    from chronoeval.train.runtime import Runtime

    runtime = Runtime(device, dtype, gradient_checkpointing, trust_remote_code)
    runtime.check()
    overrides = {
        "batch_size": batch_size,
        "grad_accum": grad_accum,
        "epochs": epochs,
        "max_steps": max_steps,
        "lr": lr,
        "r": rank,
    }
    for key, value in overrides.items():
        if value is not None and key != "lr" and value < 1:
            raise ChronoevalError(f"train lora: --{key.replace('_', '-')} must be >= 1")
    recipe = replace(PAPER, seed=seed, **{k: v for k, v in overrides.items() if v is not None})
    if not (Path(model) / "config.json").is_file():
        raise ChronoevalError(f"train lora: {model} is not a model directory (no config.json)")
    examples = training_examples(
        tuple(task or TIMEPERCEPT_TASKS), n=n, seed=seed, params=_params(param)
    )
    start = time.perf_counter()
    res = train_lora(model, examples, out, recipe, runtime)
    wall = time.perf_counter() - start
    summary = {
        "model": str(model),
        "adapter": str(out),
        "examples": len(examples),
        "steps": res.steps,
        "first_loss": res.losses[0] if res.losses else None,
        "last_loss": res.losses[-1] if res.losses else None,
        "wall_s": round(wall, 2),
        "recipe": recipe.__dict__,
        "runtime": runtime.__dict__,
    }
    (Path(out) / "chronoeval_train.json").write_text(json.dumps(summary, indent=2) + "\n")
    typer.echo(
        f"{res.steps} optimizer steps on {len(examples)} examples in {wall:.1f}s "
        f"(loss {summary['first_loss']:.4f} → {summary['last_loss']:.4f}); adapter in {out}"
        if res.losses
        else f"no optimizer step taken; adapter in {out}"
    )
