"""``--model vllm:<model dir or hub id>``: vLLM's offline engine in this process.

Requests are batched (:class:`BatchingBackend`) and answered by one ``LLM.chat(conversations,
sampling_params)`` call per batch, with the images of every conversation as multimodal inputs;
each answer becomes the same :class:`Response` (text, latency, token usage, finish reason) the
other backends write, so the records, keys and resume behave as everywhere else.

vLLM is imported only when the backend is built (its wheels are CUDA builds: it is not a
dependency and not installed in CI). Without it, building the backend is one clear error naming
the install. Everything up to the engine call — option checking, request → vLLM conversation,
generation config → sampling parameters, output → response — is plain Python and tested on the
CPU with an engine stand-in that has ``LLM.chat``'s signature (tests/models/test_vllm_local.py).

Options (``--model-opt key=value``): ``dtype`` (auto, bfloat16, float16, float32),
``max_model_len``, ``gpu_memory_utilization``, ``tensor_parallel_size``, ``max_num_seqs``,
``batch_size`` (requests per ``LLM.chat`` call, default 64), ``images_per_prompt`` (vLLM's
``limit_mm_per_prompt`` for images, default 1 or the most images any item has), ``adapter`` (a
LoRA adapter directory, served through vLLM's LoRA support), ``max_lora_rank``, ``enforce_eager``,
``trust_remote_code`` (default no), ``image_parts`` (``data_url``: images as base64 data URLs, which
every vLLM version reads; ``pil``: decoded PIL images as ``image_pil`` parts, which only newer
vLLM releases accept: not checked here).
"""

from __future__ import annotations

import asyncio
import io
import time
from dataclasses import dataclass
from typing import Any

from chronoeval.core.errors import ChronoevalError
from chronoeval.core.items import ImagePart, Item
from chronoeval.core.params import as_bool
from chronoeval.engine.request import GenerationConfig, Request
from chronoeval.models.base import (
    BackendError,
    BatchingBackend,
    Pending,
    Response,
    same_config_batch,
)

INSTALL = (
    "the vllm backend needs vLLM, which is not installed: `pip install vllm` on a machine with a "
    "CUDA GPU (vLLM's wheels are CUDA builds; it is not a chronoeval dependency)"
)
DTYPES = ("auto", "bfloat16", "float16", "float32")
KNOWN = (
    "dtype",
    "max_model_len",
    "gpu_memory_utilization",
    "tensor_parallel_size",
    "max_num_seqs",
    "batch_size",
    "images_per_prompt",
    "adapter",
    "max_lora_rank",
    "enforce_eager",
    "trust_remote_code",
    "image_parts",
    "seed",
)


@dataclass(frozen=True)
class VLLMOptions:
    model: str
    dtype: str = "auto"
    max_model_len: int | None = 8192
    gpu_memory_utilization: float = 0.9
    tensor_parallel_size: int = 1
    max_num_seqs: int | None = None
    batch_size: int = 64
    images_per_prompt: int = 1
    adapter: str | None = None
    max_lora_rank: int = 16
    enforce_eager: bool = False
    trust_remote_code: bool = False
    image_parts: str = "data_url"
    seed: int = 0

    @classmethod
    def from_extra(
        cls, model: str, extra: dict[str, Any], items: list[Item] | None = None
    ) -> VLLMOptions:
        unknown = set(extra) - set(KNOWN)
        if unknown:
            raise ChronoevalError(
                f"vllm backend: unknown option(s) {', '.join(sorted(unknown))}; "
                f"known: {', '.join(KNOWN)}"
            )
        most = max((len(it.images) for it in items or []), default=1)

        def num(key: str, kind: type, default: Any) -> Any:
            if extra.get(key) in (None, ""):
                return default
            try:
                return kind(extra[key])
            except (TypeError, ValueError):
                raise ChronoevalError(
                    f"vllm backend: {key} must be {'an integer' if kind is int else 'a number'}, "
                    f"got {extra[key]!r}"
                ) from None

        opts = cls(
            model=model,
            dtype=str(extra.get("dtype", "auto")),
            max_model_len=num("max_model_len", int, 8192),
            gpu_memory_utilization=num("gpu_memory_utilization", float, 0.9),
            tensor_parallel_size=num("tensor_parallel_size", int, 1),
            max_num_seqs=num("max_num_seqs", int, None),
            batch_size=num("batch_size", int, 64),
            images_per_prompt=num("images_per_prompt", int, max(1, most)),
            adapter=str(extra["adapter"]) if extra.get("adapter") else None,
            max_lora_rank=num("max_lora_rank", int, 16),
            enforce_eager=as_bool(extra.get("enforce_eager", False), "enforce_eager"),
            trust_remote_code=as_bool(extra.get("trust_remote_code", False), "trust_remote_code"),
            image_parts=str(extra.get("image_parts", "data_url")),
            seed=num("seed", int, 0),
        )
        if opts.dtype not in DTYPES:
            raise ChronoevalError(f"vllm backend: dtype must be one of {', '.join(DTYPES)}")
        if opts.batch_size < 1 or opts.tensor_parallel_size < 1 or opts.images_per_prompt < 0:
            raise ChronoevalError(
                "vllm backend: batch_size and tensor_parallel_size must be >= 1, "
                "images_per_prompt >= 0"
            )
        if not 0 < opts.gpu_memory_utilization <= 1:
            raise ChronoevalError("vllm backend: gpu_memory_utilization must be in (0, 1]")
        if opts.image_parts not in ("data_url", "pil"):
            raise ChronoevalError("vllm backend: image_parts must be data_url or pil")
        return opts

    def engine_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of ``vllm.LLM(...)``."""
        kw: dict[str, Any] = {
            "model": self.model,
            "dtype": self.dtype,
            "gpu_memory_utilization": self.gpu_memory_utilization,
            "tensor_parallel_size": self.tensor_parallel_size,
            "limit_mm_per_prompt": {"image": self.images_per_prompt},
            "trust_remote_code": self.trust_remote_code,
            "enforce_eager": self.enforce_eager,
            "seed": self.seed,
        }
        if self.max_model_len is not None:
            kw["max_model_len"] = self.max_model_len
        if self.max_num_seqs is not None:
            kw["max_num_seqs"] = self.max_num_seqs
        if self.adapter:
            kw["enable_lora"] = True
            kw["max_lora_rank"] = self.max_lora_rank
        return kw


def require_vllm() -> Any:
    try:
        import vllm
    except ImportError:
        raise ChronoevalError(INSTALL) from None
    return vllm


def pil_part(part: ImagePart, data: bytes) -> dict[str, Any]:
    """An image as vLLM's ``image_pil`` part (decoded here rather than by vLLM's URL loader)."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        return {"type": "image_pil", "image_pil": im.convert("RGB")}


def to_conversation(request: Request, image_parts: str = "data_url") -> list[dict[str, Any]]:
    """A request as one ``LLM.chat`` conversation (OpenAI message format; images inline as data
    URLs, or as PIL images with ``image_parts="pil"``)."""
    return request.openai_messages(pil_part if image_parts == "pil" else None)


def sampling_kwargs(config: GenerationConfig) -> dict[str, Any]:
    """A generation config as ``vllm.SamplingParams`` keyword arguments (only what is set)."""
    kw: dict[str, Any] = {"temperature": config.temperature, "max_tokens": config.max_tokens}
    if config.seed is not None:
        kw["seed"] = config.seed
    if config.stop:
        kw["stop"] = list(config.stop)
    if config.top_p is not None:
        kw["top_p"] = config.top_p
    return kw


def to_response(output: Any, latency_s: float) -> Response:
    """One ``vllm.RequestOutput`` as a response; an empty completion list is an error."""
    outs = getattr(output, "outputs", None) or []
    if not outs:
        raise BackendError("vllm returned no completion for this request", retryable=True)
    first = outs[0]
    prompt = getattr(output, "prompt_token_ids", None) or []
    usage = {
        "prompt_tokens": len(prompt),
        "completion_tokens": len(getattr(first, "token_ids", None) or []),
    }
    return Response(
        text=str(first.text or ""),
        latency_s=latency_s,
        usage=usage,
        finish_reason=getattr(first, "finish_reason", None),
    )


class VLLMBackend(BatchingBackend):
    """vLLM's offline engine, one ``LLM.chat`` call per batch of requests sharing a config.

    ``engine``: an object with vLLM's ``chat(messages, sampling_params, use_tqdm=..., lora_request
    =...)`` (built from the options with vllm when not given)."""

    def __init__(self, opts: VLLMOptions, engine: Any = None) -> None:
        super().__init__()
        self.opts = opts
        if engine is None:
            vllm = require_vllm()
            engine = vllm.LLM(**opts.engine_kwargs())
            self._sampling = vllm.SamplingParams
            self._lora = self._make_lora(vllm)
        else:
            self._sampling = getattr(engine, "sampling_params_class", dict)
            self._lora = getattr(engine, "lora_request", None)
        self.engine = engine
        ident = f"vllm/{opts.model}"
        if opts.dtype != "auto":
            ident += f"@{opts.dtype}"
        if opts.adapter:
            ident += f"+lora:{opts.adapter}"
        self.identity = ident
        self.max_concurrency = 2 * opts.batch_size

    def _make_lora(self, vllm: Any) -> Any:
        if not self.opts.adapter:
            return None
        from vllm.lora.request import LoRARequest

        return LoRARequest("adapter", 1, self.opts.adapter)

    def describe(self) -> dict[str, Any]:
        return {
            "identity": self.identity,
            "engine": "vllm-offline",
            "engine_kwargs": self.opts.engine_kwargs(),
            "batch_size": self.opts.batch_size,
            "image_parts": self.opts.image_parts,
        }

    def _take(self, pending: Pending) -> tuple[Pending, Pending]:
        return same_config_batch(pending, self.opts.batch_size)

    async def _run_batch(self, batch: Pending) -> None:
        requests = [r for r, _ in batch]
        try:
            responses: list[Response | BackendError] = list(
                await asyncio.to_thread(self._chat_outputs, requests)
            )
        except Exception as exc:  # noqa: BLE001 - reported per request below
            if len(batch) > 1:  # find the request that fails; the others still get answers
                for entry in batch:
                    await self._run_batch([entry])
                return
            if not batch[0][1].done():
                batch[0][1].set_exception(_backend_error(exc))
            return
        for (_, fut), resp in zip(batch, responses, strict=True):
            if fut.done():
                continue
            if isinstance(resp, BackendError):
                fut.set_exception(resp)
            else:
                fut.set_result(resp)

    def _chat_outputs(self, requests: list[Request]) -> list[Response | BackendError]:
        conversations = [to_conversation(r, self.opts.image_parts) for r in requests]
        params = self._sampling(**sampling_kwargs(requests[0].config))
        kwargs: dict[str, Any] = {"use_tqdm": False}
        if self._lora is not None:
            kwargs["lora_request"] = self._lora
        start = time.perf_counter()
        outputs = list(self.engine.chat(conversations, params, **kwargs))
        latency = (time.perf_counter() - start) / max(1, len(requests))
        if len(outputs) != len(requests):
            raise RuntimeError(f"vllm returned {len(outputs)} outputs for {len(requests)} requests")
        out: list[Response | BackendError] = []
        for o in outputs:
            try:
                out.append(to_response(o, latency))
            except BackendError as exc:
                out.append(exc)
        return out


def _backend_error(exc: Exception) -> BackendError:
    name = type(exc).__name__
    retryable = "OutOfMemory" in name or isinstance(exc, RuntimeError)
    return BackendError(f"vllm chat failed: {name}: {exc}", retryable=retryable)
