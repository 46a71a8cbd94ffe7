"""Backend specs -> backends. A spec is ``name`` or ``name:argument``:

``openai:<model>`` (with ``base_url``: one URL or several, comma separated), ``hf:<model>``,
``ray:<model>``, ``ray-vllm:<model>``, ``vllm:<model>`` (in process), ``reference``, ``random``, ``majority``,
``constant:<answer>``. New backends register a factory with :func:`register_backend`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chronoeval.core.errors import ChronoevalError, UnknownNameError
from chronoeval.core.items import Item
from chronoeval.core.redact import register_secret_env
from chronoeval.core.task import Task
from chronoeval.models.base import Backend


@dataclass
class BackendOptions:
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 120.0
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


Factory = Callable[[str | None, Task, list[Item], BackendOptions], Backend]
_FACTORIES: dict[str, Factory] = {}
TASK_BOUND = {"reference", "random", "majority", "constant"}
"""Backends whose answers depend on the task (agents and baselines), not on an external model."""


def register_backend(name: str) -> Callable[[Factory], Factory]:
    def deco(fn: Factory) -> Factory:
        _FACTORIES[name] = fn
        return fn

    return deco


def split_spec(spec: str) -> tuple[str, str | None]:
    name, _, arg = spec.partition(":")
    return name.strip(), (arg if _ else None)


def make_backend(
    spec: str, task: Task, items: list[Item] | None = None, options: BackendOptions | None = None
) -> Backend:
    name, arg = split_spec(spec)
    if (
        name not in _FACTORIES
    ):  # a suite's backend (timeagent, grayprior): its suite may not be loaded
        from chronoeval.core.registry import load_suites

        load_suites()
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise UnknownNameError("model backend", name, list(_FACTORIES)) from None
    options = options or BackendOptions()
    register_secret_env(options.api_key_env)  # its value is redacted from run dirs and turns
    return factory(arg, task, items or [], options)


def known_backends() -> list[str]:
    return sorted(_FACTORIES)


@register_backend("openai")
def _openai(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.openai import OpenAIBackend

    if not opts.base_url:
        raise ChronoevalError("the openai backend needs --base-url (e.g. http://127.0.0.1:8000/v1)")
    if not arg:
        raise ChronoevalError("name the served model: --model openai:<model-name>")
    known = {"max_per_endpoint", "cooldown_s", "max_cooldown_s"}
    unknown = set(opts.extra) - known
    if unknown:
        raise ChronoevalError(
            f"openai backend: unknown option(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(known))} (fields of the request body, e.g. "
            "max_completion_tokens, go in --request-opt key=value)"
        )
    try:
        return OpenAIBackend(
            opts.base_url,
            arg,
            api_key_env=opts.api_key_env,
            timeout_s=opts.timeout_s,
            max_per_endpoint=(
                int(opts.extra["max_per_endpoint"]) if "max_per_endpoint" in opts.extra else None
            ),
            cooldown_s=float(opts.extra.get("cooldown_s", 1.0)),
            max_cooldown_s=float(opts.extra.get("max_cooldown_s", 30.0)),
        )
    except ValueError as exc:
        raise ChronoevalError(f"openai backend: {exc}") from None


@register_backend("hf")
def _hf(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.hf import HFBackend, HFOptions

    if not arg:
        raise ChronoevalError("name the model: --model hf:<model dir or hub id>")
    return HFBackend(HFOptions.from_extra(arg, opts.extra))


@register_backend("ray")
def _ray(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.ray_data import RayOptions, http_backend

    if not opts.base_url or not arg:
        raise ChronoevalError("the ray backend needs --model ray:<model-name> and --base-url")
    return http_backend(
        arg,
        opts.base_url,
        api_key_env=opts.api_key_env,
        timeout_s=opts.timeout_s,
        opts=RayOptions.from_extra(opts.extra),
    )


@register_backend("ray-vllm")
def _ray_vllm(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.ray_data import RayOptions, vllm_backend

    if not arg:
        raise ChronoevalError("name the model: --model ray-vllm:<model dir or hub id>")
    extra = dict(opts.extra)
    engine = extra.pop("engine_kwargs", None) or {}
    if not isinstance(engine, dict):
        raise ChronoevalError("ray-vllm: engine_kwargs must be a JSON object")
    known = ("batch_size", "num_workers", "address", "num_cpus")
    return vllm_backend(arg, RayOptions.from_extra(extra, known), engine)


@register_backend("vllm")
def _vllm(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.vllm_local import VLLMBackend, VLLMOptions

    if not arg:
        raise ChronoevalError("name the model: --model vllm:<model dir or hub id>")
    return VLLMBackend(VLLMOptions.from_extra(arg, opts.extra, items))


@register_backend("reference")
def _reference(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.local import reference_backend

    return reference_backend(task)


@register_backend("random")
def _random(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.local import random_backend

    return random_backend(task, seed=int(arg) if arg else opts.seed)


@register_backend("constant")
def _constant(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.local import constant_backend

    if arg is None:
        raise ChronoevalError("constant baseline needs an answer: --model constant:<answer>")
    return constant_backend(arg)


@register_backend("majority")
def _majority(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    from chronoeval.models.local import FunctionBackend, majority_answer

    text = majority_answer(task, items)
    return FunctionBackend(f"majority/{task.name}/{text}", lambda _r: text, threaded=False)


# the no-image wrapper (language-prior baseline) registers itself; kept in its own module
from chronoeval.models import noimage as _noimage_module  # noqa: E402, F401
