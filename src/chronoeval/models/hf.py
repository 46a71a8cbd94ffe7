"""In-process Hugging Face image-text-to-text models (``--model hf:<model dir or hub id>``).

``AutoProcessor`` + ``AutoModelForImageTextToText``; the prompt is the model's own chat template
applied to the item's messages (images as ``{"type": "image"}`` parts, pixels passed alongside).
Requests are gathered into batches of up to ``batch_size`` with the same generation config and run
in a worker thread, so the event loop keeps feeding the batcher while the model computes.

Options (``--model-opt key=value``):

- ``dtype``: ``auto`` (the checkpoint's), ``float32``, ``bfloat16``, ``float16``;
- ``device``: ``cpu``, ``cuda``, ``cuda:1``, ``mps``, or ``auto`` (accelerate's device map);
- ``batch_size`` (default 8);
- ``adapter``: a PEFT LoRA adapter directory (e.g. from the fine-tuning recipe), applied on load;
- ``local_files_only`` (default true: nothing is downloaded unless set to false);
- ``padding_side`` (default ``left``, what batched generation with decoder-only language models
  needs; every family here is decoder-only).

Decoding is greedy (deterministic) at temperature 0; at temperature > 0 it samples with
``torch.manual_seed(config.seed)`` set before each batch, so a sampled answer depends on which
requests shared its batch (documented in docs/backends.md). Stop sequences use transformers'
``stop_strings``.

torch, transformers and peft are imported when the backend is built: the core install needs none of
them (``pip install chronoeval[hf]`` plus a torch wheel).
"""

from __future__ import annotations

import asyncio
import io
import threading
import time
from dataclasses import dataclass
from typing import Any

from chronoeval.core.errors import ChronoevalError
from chronoeval.core.items import ImagePart, TextPart
from chronoeval.core.params import as_bool
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.models.base import (
    BackendError,
    BatchingBackend,
    Pending,
    Response,
    same_config_batch,
)

DTYPES = ("auto", "float32", "bfloat16", "float16")


@dataclass(frozen=True)
class HFOptions:
    model: str
    dtype: str = "auto"
    device: str = "cpu"
    batch_size: int = 8
    adapter: str | None = None
    local_files_only: bool = True
    padding_side: str = "left"

    @classmethod
    def from_extra(cls, model: str, extra: dict[str, Any]) -> HFOptions:
        known = {"dtype", "device", "batch_size", "adapter", "local_files_only", "padding_side"}
        unknown = set(extra) - known
        if unknown:
            raise ChronoevalError(
                f"hf backend: unknown option(s) {', '.join(sorted(unknown))}; "
                f"known: {', '.join(sorted(known))}"
            )
        opts = cls(
            model=model,
            dtype=str(extra.get("dtype", "auto")),
            device=str(extra.get("device", "cpu")),
            batch_size=int(extra.get("batch_size", 8)),
            adapter=str(extra["adapter"]) if extra.get("adapter") else None,
            local_files_only=as_bool(extra.get("local_files_only", True), "local_files_only"),
            padding_side=str(extra.get("padding_side", "left")),
        )
        if opts.dtype not in DTYPES:
            raise ChronoevalError(f"hf backend: dtype must be one of {', '.join(DTYPES)}")
        if opts.batch_size < 1:
            raise ChronoevalError("hf backend: batch_size must be >= 1")
        if opts.padding_side not in ("left", "right"):
            raise ChronoevalError("hf backend: padding_side must be left or right")
        return opts


def to_chat(request: Request) -> tuple[list[dict[str, Any]], list[Any]]:
    """(chat-template messages, PIL images in order of appearance) for a request.

    Images are decoded here and belong to this call only (nothing is kept after the batch).
    """
    from PIL import Image

    messages: list[dict[str, Any]] = []
    images: list[Any] = []
    for m in request.messages:
        parts: list[dict[str, Any]] = []
        for p in m.content:
            if isinstance(p, TextPart):
                parts.append({"type": "text", "text": p.text})
            elif isinstance(p, ImagePart):
                with Image.open(io.BytesIO(request.read_image(p.path))) as im:
                    images.append(im.convert("RGB"))
                parts.append({"type": "image"})
        messages.append({"role": m.role, "content": parts})
    return messages, images


def _cannot_load(opts: HFOptions, exc: Exception) -> ChronoevalError:
    """One line for a model that cannot be loaded (transformers' messages span lines)."""
    why = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
    hint = (
        "give a local model directory or a Hub id already in the cache "
        "(nothing is downloaded unless --model-opt local_files_only=false)"
        if opts.local_files_only
        else "check the model id and the network"
    )
    return ChronoevalError(f"hf backend: cannot load {opts.model!r}: {why}; {hint}")


class LoadedModel:
    """A loaded processor + model (kept across tasks of one run: loading is the slow part)."""

    def __init__(self, opts: HFOptions) -> None:
        import torch
        from transformers import AutoModelForImageTextToText, AutoProcessor

        from chronoeval.models.tiny import register_processors

        register_processors()
        self.opts = opts
        self.torch = torch
        try:
            self.processor = AutoProcessor.from_pretrained(
                opts.model, local_files_only=opts.local_files_only
            )
        except (OSError, ValueError) as exc:  # not found, not cached, not a model (issue 16)
            raise _cannot_load(opts, exc) from None
        if not hasattr(self.processor, "tokenizer") or not hasattr(
            self.processor, "image_processor"
        ):
            raise ChronoevalError(
                f"hf backend: {opts.model} has no image processor (AutoProcessor returned "
                f"{type(self.processor).__name__}); is it an image-text-to-text model?"
            )
        self.tokenizer = self.processor.tokenizer
        self.tokenizer.padding_side = opts.padding_side
        if getattr(self.processor, "padding_side", None) is not None:
            self.processor.padding_side = opts.padding_side
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        kwargs: dict[str, Any] = {"local_files_only": opts.local_files_only}
        kwargs["dtype"] = "auto" if opts.dtype == "auto" else getattr(torch, opts.dtype)
        if opts.device == "auto":
            kwargs["device_map"] = "auto"
        try:
            model = AutoModelForImageTextToText.from_pretrained(opts.model, **kwargs)
        except (OSError, ValueError) as exc:
            raise _cannot_load(opts, exc) from None
        if opts.device != "auto":
            model = model.to(opts.device)
        if opts.adapter:
            from peft import PeftModel

            model = PeftModel.from_pretrained(model, opts.adapter)
        self.model = model.eval()
        self.lock = threading.Lock()  # one generate() at a time on the model

    @property
    def device(self) -> Any:
        return next(self.model.parameters()).device

    def prompt(self, messages: list[dict[str, Any]]) -> str:
        template_owner = self.processor if self.processor.chat_template else self.tokenizer
        if not getattr(template_owner, "chat_template", None):
            raise ChronoevalError(f"hf backend: {self.opts.model} has no chat template")
        return template_owner.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=False
        )

    def generate(self, requests: list[Request], config: GenerationConfig) -> list[Response]:
        """One batched ``generate`` call; every request shares ``config``."""
        torch = self.torch
        start = time.perf_counter()
        texts, images = [], []
        for r in requests:
            messages, imgs = to_chat(r)
            texts.append(self.prompt(messages))
            images.append(imgs)
        proc_kwargs: dict[str, Any] = {"text": texts, "return_tensors": "pt", "padding": True}
        if any(images):
            if not all(images):
                raise ValueError("a batch mixes requests with and without images")
            proc_kwargs["images"] = images
        # floating inputs (pixel values) in the model's dtype, e.g. bfloat16; ids stay integers
        param = next(self.model.parameters())
        inputs = self.processor(**proc_kwargs).to(param.device, dtype=param.dtype)
        gen: dict[str, Any] = {
            "max_new_tokens": config.max_tokens,
            "pad_token_id": self.tokenizer.pad_token_id,
        }
        if config.temperature > 0:
            gen.update(do_sample=True, temperature=config.temperature)
            if config.top_p is not None:
                gen["top_p"] = config.top_p
        else:
            gen.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        if config.stop:
            gen.update(stop_strings=list(config.stop), tokenizer=self.tokenizer)
        with self.lock, torch.inference_mode():
            if config.temperature > 0 and config.seed is not None:
                torch.manual_seed(config.seed)
            out = self.model.generate(**inputs, **gen)
        n_in = inputs["input_ids"].shape[1]
        new = out[:, n_in:]
        latency = time.perf_counter() - start
        eos = self.model.generation_config.eos_token_id
        eos_ids = set(eos if isinstance(eos, list) else [eos]) - {None}
        responses = []
        for row, mask in zip(new, inputs["attention_mask"], strict=True):
            ids = row.tolist()
            pad = self.tokenizer.pad_token_id
            # generated ids stop at the first end token; what follows is padding for the batch
            cut = next((i for i, t in enumerate(ids) if t in eos_ids), None)
            kept = ids if cut is None else ids[:cut]
            if cut is None and pad not in eos_ids:
                while kept and kept[-1] == pad:
                    kept.pop()
            text = self.tokenizer.decode(kept, skip_special_tokens=True)
            if config.stop:
                text = _cut_at_stop(text, config.stop)
            responses.append(
                Response(
                    text=text,
                    latency_s=latency,
                    usage={
                        "prompt_tokens": int(mask.sum()),
                        "completion_tokens": len(kept),
                    },
                    finish_reason="length"
                    if cut is None and len(kept) >= config.max_tokens
                    else "stop",
                )
            )
        return responses


def _cut_at_stop(text: str, stops: tuple[str, ...]) -> str:
    idx = [text.find(s) for s in stops if s and text.find(s) >= 0]
    return text[: min(idx)] if idx else text


_CACHE: dict[HFOptions, LoadedModel] = {}


def load(opts: HFOptions) -> LoadedModel:
    """The loaded model for ``opts`` (one kept in memory: a suite's tasks share it)."""
    if opts not in _CACHE:
        _CACHE.clear()
        _CACHE[opts] = LoadedModel(opts)
    return _CACHE[opts]


class HFBackend(BatchingBackend):
    def __init__(self, opts: HFOptions) -> None:
        super().__init__()
        self.opts = opts
        self.loaded = load(opts)
        ident = f"hf/{opts.model}"
        if opts.dtype != "auto":
            ident += f"@{opts.dtype}"
        if opts.adapter:
            ident += f"+lora:{opts.adapter}"
        self.identity = ident
        # enough requests in flight to fill a batch while the previous one computes
        self.max_concurrency = 2 * opts.batch_size

    def describe(self) -> dict[str, Any]:
        return {
            "identity": self.identity,
            "model": self.opts.model,
            "dtype": self.opts.dtype,
            "device": self.opts.device,
            "batch_size": self.opts.batch_size,
            "adapter": self.opts.adapter,
            "padding_side": self.opts.padding_side,
            "model_class": type(self.loaded.model).__name__,
            "processor_class": type(self.loaded.processor).__name__,
        }

    def _take(self, pending: Pending) -> tuple[Pending, Pending]:
        return same_config_batch(pending, self.opts.batch_size)

    async def _run_batch(self, batch: Pending) -> None:
        requests = [r for r, _ in batch]
        try:
            responses = await asyncio.to_thread(self.loaded.generate, requests, requests[0].config)
        except Exception as exc:  # noqa: BLE001 - reported per request below
            if len(batch) > 1:  # find the request that fails; the others still get answers
                for entry in batch:
                    await self._run_batch([entry])
                return
            _, fut = batch[0]
            if not fut.done():
                fut.set_exception(_backend_error(exc))
            return
        for (_, fut), resp in zip(batch, responses, strict=True):
            if not fut.done():
                fut.set_result(resp)


def _backend_error(exc: Exception) -> BackendError:
    name = type(exc).__name__
    # running out of memory may pass on a retry with other company in the batch; bad input won't
    retryable = "OutOfMemory" in name
    return BackendError(f"hf generate failed: {name}: {exc}", retryable=retryable)
