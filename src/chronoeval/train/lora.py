"""LoRA fine-tuning recipe (TimePerceptBench §V-1) over the union of the nine training splits.

Paper settings (:data:`PAPER`): rank 8, α 16, dropout 0.1, learning rate 5e-5 with a cosine
schedule, batch size 2, gradient accumulation 8, 3 epochs. LoRA adapts only the language model's
attention projections (``(language_model|text_model)\\..*\\.(q_proj|v_proj)``; plain
``q_proj``/``v_proj`` would also hit the vision tower). Loss is on the answer tokens only.

Also :func:`export_chat_jsonl`: the same training set as chat-format JSONL with image paths, in the
``messages`` + ``images`` shape that LLaMA-Factory (sharegpt formatting; a ``dataset_info.json``
entry is written beside it) and ms-swift both accept.

torch, transformers and peft are imported inside the functions.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronoeval.core.items import ImagePart, TextPart
from chronoeval.train.runtime import Runtime, enable_checkpointing, to_device

TIMEPERCEPT_TASKS = (
    "tp_tal",
    "tp_isr",
    "tp_sov",
    "tp_pov",
    "tp_tpl",
    "tp_ice",
    "tp_pic",
    "tp_ipr",
    "tp_eii",
)
LORA_TARGETS = r".*(language_model|text_model)\..*\.(q_proj|v_proj)"


@dataclass(frozen=True)
class Recipe:
    r: int = 8
    alpha: int = 16
    dropout: float = 0.1
    lr: float = 5e-5
    batch_size: int = 2
    grad_accum: int = 8
    epochs: int = 3
    max_steps: int | None = None  # optimizer steps; None: epochs decide
    seed: int = 0


PAPER = Recipe()


@dataclass
class Example:
    """One training conversation: user turn (text with ``<image>`` placeholders in order, image
    paths) and the gold answer as the assistant's turn."""

    task: str
    item_id: str
    parts: list[tuple[str, str]]  # ("text", text) | ("image", absolute path)
    answer: str

    def prompt_text(self) -> str:
        return "".join("<image>" if kind == "image" else text for kind, text in self.parts)

    @property
    def images(self) -> list[str]:
        return [v for k, v in self.parts if k == "image"]


@dataclass
class TrainResult:
    adapter_dir: Path
    losses: list[float] = field(default_factory=list)  # one per optimizer step
    steps: int = 0


def training_examples(
    tasks: Sequence[str] = TIMEPERCEPT_TASKS,
    *,
    n: int = 800,
    seed: int = 0,
    params: dict[str, Any] | None = None,
    data: Path | None = None,
) -> list[Example]:
    """The union of the tasks' training splits (``split=train``), gold written as a model would.

    ``data``: a manifest or fMoW folder (default: the synthetic collection). The split is the
    collection's one location split (``params["split_file"]`` or the hash rule), the same one the
    test items come from, so no test location is trained on."""
    from chronoeval import api
    from chronoeval.core.registry import get_task

    out: list[Example] = []
    for name in tasks:
        task = get_task(name)
        if data is not None:
            ds = api.import_data(
                name, data, {**(params or {}), "n": n, "seed": seed, "split": "train"}
            )
        else:
            ds = api.generate(name, n=n, seed=seed, params={**(params or {}), "split": "train"})
        for item in ds.items:
            parts: list[tuple[str, str]] = []
            for m in item.messages:
                for p in m.content:
                    if isinstance(p, TextPart):
                        parts.append(("text", p.text + "\n"))
                    elif isinstance(p, ImagePart):
                        parts.append(("image", str((ds.root / p.path).resolve())))
            out.append(Example(name, item.id, parts, task.gold_text(item)))
    return out


def export_chat_jsonl(
    examples: Sequence[Example], out_dir: Path, name: str = "timepercept_train"
) -> Path:
    """``{out_dir}/{name}.jsonl`` (one ``{"messages", "images"}`` object per line) and a
    LLaMA-Factory ``dataset_info.json`` entry; ms-swift reads the JSONL as is."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for ex in examples:
            fh.write(
                json.dumps(
                    {
                        "messages": [
                            {"role": "user", "content": ex.prompt_text()},
                            {"role": "assistant", "content": ex.answer},
                        ],
                        "images": ex.images,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    info = {
        name: {
            "file_name": path.name,
            "formatting": "sharegpt",
            "columns": {"messages": "messages", "images": "images"},
            "tags": {
                "role_tag": "role",
                "content_tag": "content",
                "user_tag": "user",
                "assistant_tag": "assistant",
            },
        }
    }
    (out_dir / "dataset_info.json").write_text(json.dumps(info, indent=2) + "\n")
    return path


def _chat(ex: Example, with_answer: bool) -> list[dict[str, Any]]:
    content = [
        {"type": "image"} if k == "image" else {"type": "text", "text": v} for k, v in ex.parts
    ]
    msgs: list[dict[str, Any]] = [{"role": "user", "content": content}]
    if with_answer:
        msgs.append({"role": "assistant", "content": [{"type": "text", "text": ex.answer}]})
    return msgs


def _batch(processor: Any, examples: Sequence[Example]) -> dict[str, Any]:
    """Processor inputs with ``labels``: answer tokens only (prompt and padding are −100)."""
    from PIL import Image

    owner = processor if getattr(processor, "chat_template", None) else processor.tokenizer
    full, prompts, per_example = [], [], []
    for ex in examples:
        prompt = owner.apply_chat_template(
            _chat(ex, False), add_generation_prompt=True, tokenize=False
        )
        prompts.append(prompt)
        full.append(prompt + ex.answer + (processor.tokenizer.eos_token or ""))
        ims = []
        for p in ex.images:
            with Image.open(p) as im:
                ims.append(im.convert("RGB"))
        per_example.append(ims)
    images = [im for ims in per_example for im in ims]
    processor.tokenizer.padding_side = "right"
    enc = processor(text=full, images=images or None, return_tensors="pt", padding=True)
    labels = enc["input_ids"].clone()
    for i, (prompt, ims) in enumerate(zip(prompts, per_example, strict=True)):
        n_prompt = processor(text=[prompt], images=ims or None, return_tensors="pt")["input_ids"]
        labels[i, : n_prompt.shape[1]] = -100
    labels[enc["attention_mask"] == 0] = -100
    enc["labels"] = labels
    return dict(enc)


def train_lora(
    model_dir: Path,
    examples: Sequence[Example],
    out_dir: Path,
    recipe: Recipe = PAPER,
    runtime: Runtime | None = None,
) -> TrainResult:
    """Fine-tune ``model_dir`` with LoRA on ``examples``; saves the adapter to ``out_dir``.

    ``runtime``: device, dtype and gradient checkpointing (train/runtime.py; default fp32 CPU)."""
    import random

    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import (
        AutoModelForImageTextToText,
        AutoProcessor,
        get_cosine_schedule_with_warmup,
    )

    from chronoeval.models.tiny import register_processors

    register_processors()
    runtime = runtime or Runtime()
    device, dtype = runtime.resolve()
    torch.manual_seed(recipe.seed)
    remote = {"trust_remote_code": True} if runtime.trust_remote_code else {}
    processor = AutoProcessor.from_pretrained(str(model_dir), local_files_only=True, **remote)
    if processor.tokenizer.pad_token is None:
        processor.tokenizer.pad_token = processor.tokenizer.eos_token
    model = AutoModelForImageTextToText.from_pretrained(
        str(model_dir), local_files_only=True, dtype=dtype, **remote
    ).to(device)
    if runtime.gradient_checkpointing:
        enable_checkpointing(model)
    model = get_peft_model(
        model,
        LoraConfig(
            r=recipe.r,
            lora_alpha=recipe.alpha,
            lora_dropout=recipe.dropout,
            target_modules=LORA_TARGETS,
        ),
    )
    order = list(range(len(examples)))
    micro_per_epoch = math.ceil(len(order) / recipe.batch_size)
    total = recipe.max_steps or max(1, recipe.epochs * micro_per_epoch // recipe.grad_accum)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=recipe.lr)
    sched = get_cosine_schedule_with_warmup(opt, 0, total)
    rng = random.Random(recipe.seed)
    model.train()
    result = TrainResult(Path(out_dir))
    step_loss, micro = 0.0, 0
    while result.steps < total:
        rng.shuffle(order)
        for start in range(0, len(order), recipe.batch_size):
            batch = _batch(
                processor, [examples[j] for j in order[start : start + recipe.batch_size]]
            )
            batch = to_device(batch, device, dtype)
            loss = model(**batch).loss / recipe.grad_accum
            loss.backward()
            step_loss += float(loss.detach())
            micro += 1
            if micro % recipe.grad_accum == 0:
                opt.step()
                sched.step()
                opt.zero_grad()
                result.losses.append(step_loss)
                result.steps += 1
                step_loss = 0.0
                if result.steps >= total:
                    break
    model.save_pretrained(str(out_dir))
    return result
