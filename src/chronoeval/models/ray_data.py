"""Ray Data backends (optional extra ``ray``): the items run as a Ray Dataset, and every answer
comes back through the runner into the same run store and records as any other backend.

``--model ray:<model> --base-url URL[,URL…]``: OpenAI-compatible endpoints (vLLM / SGLang replicas,
``chronoeval serve``). The dataset is ``map_batches`` over an actor pool of *chronoeval's own* async
client (:class:`~chronoeval.models.openai.OpenAIBackend`: many requests in flight per actor,
replica choice and failover, every failure recorded per row with whether it may be retried).
``ray.data.llm``'s ``HttpRequestProcessorConfig`` is not used for this: on ray 2.60 it sends one
request after another within a worker, does not retry a 500 nor expose its status, and a 500 with a
plain-text body stops the whole dataset (see docs/backends.md for what was measured).

``--model ray-vllm:<model dir or hub id>``: the vLLM engine inside Ray Data actors on GPUs, through
``ray.data.llm``'s ``vLLMEngineProcessorConfig`` (images through its multimodal stage, as OpenAI
``image_url`` data-URL parts). Configuration only here: vllm is not installed in CI, so
:func:`vllm_processor_config` builds and validates the config object (which needs ray, not vllm),
and the processor is built only when the run starts.

How a window works: the runner hands requests to :meth:`RayDataBackend.generate` (up to
``--concurrency`` at once: that is the window size); the backend puts every waiting request into one
Dataset, streams the result rows back as blocks finish and resolves each request as its row
arrives, so the store commits answers while the dataset is still running. A row that failed is an
error for that request alone (retried by the runner like any backend error); if the dataset itself
fails (a worker killed, the driver losing the cluster), every request of the window without a row
yet gets a retryable error naming the failure: no finished answer is lost, and nothing is asked
twice once answered (the runner asks only for keys without a stored answer).
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from chronoeval.core.errors import ChronoevalError
from chronoeval.engine.request import Request
from chronoeval.models.base import BackendError, BatchingBackend, Pending, Response
from chronoeval.models.openai import OpenAIBackend

RESULT_COLUMNS = ("idx", "text", "error", "retryable", "latency_s", "usage", "finish_reason")


def require_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ChronoevalError(
            "the Ray Data backend needs ray: pip install 'chronoeval[ray]'"
        ) from None
    return ray


# -- HTTP workers ------------------------------------------------------------------------------
class HTTPWorker:
    """A Ray Data actor: sends a batch of chat bodies concurrently through chronoeval's client."""

    def __init__(
        self,
        base_urls: list[str],
        model: str,
        api_key_env: str,
        timeout_s: float,
        max_per_endpoint: int | None,
        concurrency: int,
        fault_crash_file: str | None = None,
    ) -> None:
        self.client = OpenAIBackend(
            base_urls,
            model,
            api_key_env=api_key_env,
            timeout_s=timeout_s,
            max_per_endpoint=max_per_endpoint,
        )
        self.concurrency = concurrency
        self.fault_crash_file = fault_crash_file
        self.loop = asyncio.new_event_loop()

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[Any]]:
        if self.fault_crash_file and os.path.exists(self.fault_crash_file):
            # fault injection for tests: this worker process dies mid-dataset, once
            os.remove(self.fault_crash_file)
            os._exit(1)
        payloads = [str(p) for p in batch["payload"]]
        keys = [str(k) for k in batch["key"]]
        rows = self.loop.run_until_complete(self._all(payloads, keys))
        out: dict[str, list[Any]] = {c: [] for c in RESULT_COLUMNS}
        for idx, row in zip(batch["idx"], rows, strict=True):
            row["idx"] = int(idx)
            for c in RESULT_COLUMNS:
                out[c].append(row[c])
        return out

    async def _all(self, payloads: list[str], keys: list[str]) -> list[dict[str, Any]]:
        sem = asyncio.Semaphore(self.concurrency)

        async def one(payload: str, key: str) -> dict[str, Any]:
            async with sem:
                try:
                    r = await self.client.send(payload, key)
                except BackendError as exc:
                    return _row(error=str(exc), retryable=exc.retryable)
                except Exception as exc:  # noqa: BLE001 - recorded on the row
                    return _row(error=f"{type(exc).__name__}: {exc}", retryable=False)
                return _row(
                    text=r.text,
                    latency_s=r.latency_s,
                    usage=json.dumps(r.usage),
                    finish_reason=r.finish_reason or "",
                )

        return await asyncio.gather(*(one(p, k) for p, k in zip(payloads, keys, strict=True)))


def _row(
    *,
    text: str = "",
    error: str = "",
    retryable: bool = False,
    latency_s: float = 0.0,
    usage: str = "{}",
    finish_reason: str = "",
) -> dict[str, Any]:
    # fixed types per column (Arrow needs one type per column: no None mixed with str)
    return {
        "idx": -1,
        "text": text,
        "error": error,
        "retryable": retryable,
        "latency_s": latency_s,
        "usage": usage,
        "finish_reason": finish_reason,
    }


# -- vLLM engine processor (configuration) ------------------------------------------------------
def vllm_processor_config(
    model_source: str,
    *,
    batch_size: int = 16,
    concurrency: int = 1,
    engine_kwargs: dict[str, Any] | None = None,
    has_image: bool = True,
    max_concurrent_batches: int = 8,
    accelerator_type: str | None = None,
) -> Any:
    """``ray.data.llm.vLLMEngineProcessorConfig`` for an image-text-to-text model.

    Built and validated by ray's own pydantic model (needs ray, not vllm). The chat template,
    tokenizer and detokenizer stages run inside Ray; the multimodal stage turns the rows' image
    parts into vLLM inputs; ``should_continue_on_error`` makes one failed row an error row instead
    of failing the whole dataset (chronoeval then reports and retries it).
    """
    require_ray()
    from ray.data.llm import vLLMEngineProcessorConfig

    kwargs: dict[str, Any] = {
        "model_source": model_source,
        "engine_kwargs": {"max_model_len": 8192, **(engine_kwargs or {})},
        "batch_size": batch_size,
        "concurrency": concurrency,
        "max_concurrent_batches": max_concurrent_batches,
        "should_continue_on_error": True,
        "chat_template_stage": {"enabled": True},
        "tokenize_stage": {"enabled": True},
        "detokenize_stage": {"enabled": True},
        "prepare_multimodal_stage": {"enabled": has_image},
    }
    if accelerator_type:
        kwargs["accelerator_type"] = accelerator_type
    return vLLMEngineProcessorConfig(**kwargs)


def vllm_preprocess(row: dict[str, Any]) -> dict[str, Any]:
    """Our row (a chat body as JSON) -> the vLLM processor's input row."""
    body = json.loads(row["payload"])
    sampling: dict[str, Any] = {
        "temperature": body.get("temperature", 0.0),
        "max_tokens": body.get("max_tokens", 512),
    }
    for key in ("seed", "stop", "top_p"):
        if body.get(key) is not None:
            sampling[key] = body[key]
    return {"idx": row["idx"], "messages": body["messages"], "sampling_params": sampling}


def vllm_postprocess(row: dict[str, Any]) -> dict[str, Any]:
    """The vLLM processor's output row -> our result row."""
    usage = {
        "prompt_tokens": int(row.get("num_input_tokens") or 0),
        "completion_tokens": int(row.get("num_generated_tokens") or 0),
    }
    out = _row(text=str(row.get("generated_text") or ""), usage=json.dumps(usage))
    out["idx"] = int(row["idx"])
    out["finish_reason"] = str(row.get("finish_reason") or "")
    return out


# -- the backend ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class RayOptions:
    batch_size: int = 16
    num_workers: int = 2
    worker_concurrency: int = 16
    max_per_endpoint: int | None = None
    address: str | None = None
    num_cpus: int | None = None
    fault_crash_file: str | None = None

    KNOWN = (
        "batch_size",
        "num_workers",
        "worker_concurrency",
        "max_per_endpoint",
        "address",
        "num_cpus",
        "fault_crash_file",
    )

    @classmethod
    def from_extra(cls, extra: dict[str, Any], known: tuple[str, ...] = KNOWN) -> RayOptions:
        unknown = set(extra) - set(known)
        if unknown:
            raise ChronoevalError(
                f"ray backend: unknown option(s) {', '.join(sorted(unknown))}; "
                f"known: {', '.join(sorted(known))}"
            )

        def opt_int(k: str) -> int | None:
            return int(extra[k]) if extra.get(k) is not None else None

        return cls(
            batch_size=int(extra.get("batch_size", 16)),
            num_workers=int(extra.get("num_workers", 2)),
            worker_concurrency=int(extra.get("worker_concurrency", 16)),
            max_per_endpoint=opt_int("max_per_endpoint"),
            address=str(extra["address"]) if extra.get("address") else None,
            num_cpus=opt_int("num_cpus"),
            fault_crash_file=str(extra["fault_crash_file"])
            if extra.get("fault_crash_file")
            else None,
        )


class RayDataBackend(BatchingBackend):
    gather_delay_s = 0.01  # let every runner worker hand in its request before a window starts

    """Windows of requests run as Ray Datasets through ``process`` (Dataset -> Dataset)."""

    def __init__(
        self,
        identity: str,
        body: Callable[[Request], dict[str, Any]],
        process: Callable[[Any], Any],
        opts: RayOptions,
        describe: dict[str, Any],
    ) -> None:
        super().__init__()
        self.identity = identity
        self._body = body
        self._process = process
        self.opts = opts
        self._describe = describe
        self.windows = 0
        self.dataset_failures: list[str] = []

    def describe(self) -> dict[str, Any]:
        return self._describe

    async def _run_batch(self, window: Pending) -> None:
        loop = asyncio.get_running_loop()
        rows = [
            {
                "idx": i,
                "key": req.key(self.identity),
                "payload": json.dumps(self._body(req)),
            }
            for i, (req, _) in enumerate(window)
        ]
        self.windows += 1

        def deliver(row: dict[str, Any]) -> None:
            _, fut = window[int(row["idx"])]
            if fut.done():
                return
            error = str(row.get("error") or row.get("__inference_error__") or "")
            if error:
                fut.set_exception(BackendError(error, retryable=bool(row.get("retryable", True))))
                return
            fut.set_result(
                Response(
                    text=str(row.get("text") or ""),
                    latency_s=float(row.get("latency_s") or 0.0),
                    usage=json.loads(row.get("usage") or "{}"),
                    finish_reason=str(row.get("finish_reason") or "") or None,
                )
            )

        def run() -> None:
            for row in self._iter_results(rows):
                loop.call_soon_threadsafe(deliver, row)

        try:
            await asyncio.to_thread(run)
        except Exception as exc:  # noqa: BLE001 - the whole window's unanswered requests retry
            msg = f"Ray Data failed: {type(exc).__name__}: {str(exc).splitlines()[0][:300]}"
            self.dataset_failures.append(msg)
            await asyncio.sleep(0)  # rows delivered before the failure land first
            for _, fut in window:
                if not fut.done():
                    fut.set_exception(BackendError(msg, retryable=True))
            return
        await asyncio.sleep(0)
        for _, fut in window:
            if not fut.done():  # a row the processor never returned: never silently dropped
                fut.set_exception(BackendError("Ray Data returned no row for this request"))

    def _iter_results(self, rows: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        ray = require_ray()
        ensure_ray(self.opts)
        ds = ray.data.from_items(
            rows, override_num_blocks=max(1, -(-len(rows) // self.opts.batch_size))
        )
        yield from self._process(ds).iter_rows()


_INIT_LOCK = threading.Lock()


def ensure_ray(opts: RayOptions) -> None:
    """Connect to Ray (``address``) or start a local instance, once per process."""
    ray = require_ray()
    with _INIT_LOCK:
        if ray.is_initialized():
            return
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if opts.address:
            kwargs["address"] = opts.address
        elif opts.num_cpus:
            kwargs["num_cpus"] = opts.num_cpus
        ray.init(**kwargs)


def http_backend(
    model: str,
    base_url: str,
    *,
    api_key_env: str,
    timeout_s: float,
    opts: RayOptions,
) -> RayDataBackend:
    """``ray:<model>``: HTTP endpoints through Ray Data actors running chronoeval's client."""
    require_ray()
    client = OpenAIBackend(base_url, model, api_key_env=api_key_env, timeout_s=timeout_s)
    worker_args = (
        client.base_urls,
        model,
        api_key_env,
        timeout_s,
        opts.max_per_endpoint,
        opts.worker_concurrency,
        opts.fault_crash_file,
    )

    def process(ds: Any) -> Any:
        return ds.map_batches(
            HTTPWorker,
            fn_constructor_args=worker_args,
            batch_size=opts.batch_size,
            concurrency=opts.num_workers,
            num_cpus=0.5,  # I/O bound: the actors mostly wait on sockets
            batch_format="numpy",
        )

    describe = {
        "identity": client.identity,
        "engine": "ray-data-http",
        "base_urls": client.base_urls,
        "model": model,
        "batch_size": opts.batch_size,
        "num_workers": opts.num_workers,
        "worker_concurrency": opts.worker_concurrency,
    }
    # the same identity as the openai backend: the same model asked the same thing shares keys
    return RayDataBackend(client.identity, client.body, process, opts, describe)


def vllm_backend(model_source: str, opts: RayOptions, engine: dict[str, Any]) -> RayDataBackend:
    """``ray-vllm:<model>``: the vLLM engine in Ray Data actors (needs vllm and GPUs to run)."""
    config = vllm_processor_config(
        model_source,
        batch_size=opts.batch_size,
        concurrency=opts.num_workers,
        engine_kwargs=engine,
    )
    body_maker = OpenAIBackend("http://unused.invalid/v1", model_source)

    def process(ds: Any) -> Any:
        from ray.data.llm import build_processor

        processor = build_processor(
            config, preprocess=vllm_preprocess, postprocess=vllm_postprocess
        )
        return processor(ds)

    describe = {
        "identity": f"vllm/{model_source}",
        "engine": "ray-data-vllm",
        "config": config.model_dump(),
    }
    return RayDataBackend(f"vllm/{model_source}", body_maker.body, process, opts, describe)
