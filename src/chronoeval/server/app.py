"""``chronoeval serve``: an OpenAI-compatible server (``/v1/chat/completions``, ``/v1/models``,
and ``/v1/responses`` translated to a chat completion: server/responses.py) in front of any
task-bound backend (reference agents, baselines).

Model ids are ``<backend spec>/<task>``, e.g. ``reference/clockqa``; with ``--task`` the bare spec
works too. Bound to 127.0.0.1 unless told otherwise.

For testing clients (ours and other harnesses'), the server can inject faults by request number
(``--faults "500@2,429:1.5@3,malformed@4,empty@5,hang@6"``: the 2nd chat request gets HTTP 500,
the 3rd a 429 with ``Retry-After: 1.5``, …; ``null``/``nomessage`` are protocol errors, ``filter``
Azure OpenAI's filtered completion), add latency, and log every request it answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from chronoeval.core.errors import ChronoevalError
from chronoeval.core.registry import all_tasks, get_task
from chronoeval.engine import event_loop
from chronoeval.engine.request import GenerationConfig, request_from_openai
from chronoeval.models.base import Backend, BackendError
from chronoeval.models.registry import make_backend
from chronoeval.server.alarm import ALARM
from chronoeval.server.exposure import api_key_middleware, exposure_warning
from chronoeval.server.payloads import DecodedImages
from chronoeval.server.responses import ResponsesError, chat_body, response_body

FAULT_KINDS = ("500", "429", "malformed", "empty", "hang", "close", "null", "nomessage", "filter")


@dataclass(frozen=True)
class Fault:
    kind: str
    arg: float | None = None


def parse_faults(spec: str | None) -> dict[int, Fault]:
    """``kind[:arg]@N`` entries, comma separated; N is the 1-based chat-request number."""
    out: dict[int, Fault] = {}
    if not spec:
        return out
    for entry in spec.split(","):
        entry = entry.strip()
        if not entry:
            continue
        what, at, where = entry.partition("@")
        kind, _, arg = what.partition(":")
        if not at or kind not in FAULT_KINDS:
            raise ChronoevalError(
                f"bad fault {entry!r}: use kind[:arg]@N with kind in {', '.join(FAULT_KINDS)}"
            )
        for n in where.split("+"):
            out[int(n)] = Fault(kind, float(arg) if arg else None)
    return out


class ModelRouter:
    """Model id -> backend, built on first use and kept."""

    def __init__(self, specs: list[str], task: str | None = None) -> None:
        self.specs = specs
        self.task = task
        self._backends: dict[str, Backend] = {}
        if task is not None:
            get_task(task)  # fail fast on an unknown task

    def model_ids(self) -> list[str]:
        """Every id this server can answer: those whose backend the factory can build."""
        candidates = list(self.specs) if self.task else []
        candidates += [f"{spec}/{name}" for spec in self.specs for name in all_tasks()]
        ids = []
        for model_id in candidates:
            try:
                self.resolve(model_id)
            except ChronoevalError:  # e.g. no reference agent, or a baseline that needs items
                continue
            ids.append(model_id)
        return ids

    def resolve(self, model_id: str) -> Backend:
        if model_id in self._backends:
            return self._backends[model_id]
        spec, task_name = None, None
        if model_id in self.specs and self.task:
            spec, task_name = model_id, self.task
        else:
            head, _, tail = model_id.rpartition("/")
            if head in self.specs:
                spec, task_name = head, tail
        if spec is None or task_name is None:
            raise KeyError(model_id)
        backend = make_backend(spec, get_task(task_name))
        self._backends[model_id] = backend
        return backend


def _completion(
    model_id: str, message: dict[str, Any], finish_reason: str, usage: dict[str, int] | None
) -> web.Response:
    """One chat.completion body around an assistant message (text or tool calls)."""
    return web.json_response(
        {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model_id,
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
            "usage": usage or {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }
    )


def _error(status: int, message: str, kind: str = "invalid_request_error") -> web.Response:
    return web.json_response({"error": {"message": message, "type": kind}}, status=status)


def create_app(
    router: ModelRouter,
    *,
    faults: dict[int, Fault] | None = None,
    latency_s: float = 0.0,
    request_log: Path | None = None,
    on_request: Callable[[dict[str, Any]], None] | None = None,
) -> web.Application:
    faults = faults or {}
    state = {"n": 0}
    images = DecodedImages()  # each distinct image decoded and hashed once
    alarm = ALARM  # --latency's waits (server/alarm.py): one thread, started on first use
    log_fh = open(request_log, "a", buffering=1, encoding="utf-8") if request_log else None  # noqa: SIM115

    lag = {"max": 0.0}  # the event loop's worst lag since the last logged request (--request-log)

    def log(entry: dict[str, Any]) -> None:
        if log_fh is not None:
            entry["loop_lag_ms"] = round(lag["max"] * 1000.0, 3)
            lag["max"] = 0.0
            log_fh.write(json.dumps(entry) + "\n")
        if on_request is not None:
            on_request(entry)

    async def models(_request: web.Request) -> web.Response:
        data = [{"id": m, "object": "model", "owned_by": "chronoeval"} for m in router.model_ids()]
        return web.json_response({"object": "list", "data": data})

    async def chat(request: web.Request) -> web.StreamResponse:
        # the latency runs from here: decoding the body is inside it
        arrived = request.get("arrived", time.monotonic())
        state["n"] += 1
        n = state["n"]
        entry: dict[str, Any] = {
            "n": n,
            "key": request.headers.get("X-Chronoeval-Request-Key"),
            "auth": "Authorization" in request.headers,  # whether a key came, never its value
            "arrived": arrived,  # time.monotonic(): comparable with a client's on this machine
        }
        fault = faults.get(n)
        if fault is not None:
            entry["fault"] = fault.kind
            log(entry)
            if fault.kind == "500":
                return _error(500, "injected server error", "server_error")
            if fault.kind == "429":
                headers = {"Retry-After": f"{fault.arg if fault.arg is not None else 1:g}"}
                return web.json_response(
                    {"error": {"message": "rate limited"}}, status=429, headers=headers
                )
            if fault.kind == "malformed":
                return web.Response(text='{"choices": [', content_type="application/json")
            if fault.kind == "empty":
                return web.json_response({"id": "x", "object": "chat.completion", "choices": []})
            if fault.kind in ("null", "nomessage"):  # protocol errors a client must not score
                choice: dict[str, Any] = {"index": 0, "finish_reason": "stop"}
                if fault.kind == "null":
                    choice["message"] = {"role": "assistant", "content": None}
                return web.json_response(
                    {"id": "x", "object": "chat.completion", "choices": [choice]}
                )
            if fault.kind == "filter":  # Azure OpenAI's filtered completion: a reply, no answer
                filtered = {"filtered": True, "severity": "medium"}
                choice = {
                    "index": 0,
                    "finish_reason": "content_filter",
                    "message": {"role": "assistant", "content": None},
                    "content_filter_results": {"violence": filtered},
                }
                return web.json_response(
                    {"id": "x", "object": "chat.completion", "choices": [choice]}
                )
            if fault.kind == "hang":
                await asyncio.sleep(fault.arg if fault.arg is not None else 3600)
                return _error(504, "hung")
            if fault.kind == "close" and request.transport is not None:
                request.transport.close()
                return web.Response(status=500)
        try:
            body = request["chat_body"] if "chat_body" in request else await request.json()
        except json.JSONDecodeError:
            return _error(400, "request body is not JSON")
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return _error(400, "body needs a messages list")
        model_id = str(body.get("model", ""))
        try:
            backend = router.resolve(model_id)
        except KeyError:
            return _error(
                404, f"unknown model {model_id!r}; GET /v1/models lists them", "model_not_found"
            )
        except ChronoevalError as exc:
            return _error(400, str(exc))
        raw_turn = getattr(backend, "chat_completion", None)
        if raw_turn is not None and (
            body.get("tools")
            or any(isinstance(m, dict) and m.get("role") == "tool" for m in body["messages"])
        ):
            # tool calling: a backend that speaks raw chat-completions turns (tools, tool_calls,
            # tool messages) gets the body as is and returns the assistant message
            try:
                message = await raw_turn(body)
            except (ChronoevalError, ValueError, StopIteration) as exc:
                return _error(400, f"{type(exc).__name__}: {exc}")
            entry.update(model=model_id, status=200, tools=True)
            log(entry)
            return _completion(
                model_id, message, "tool_calls" if message.get("tool_calls") else "stop", None
            )
        stop = body.get("stop")
        try:
            config = GenerationConfig(
                temperature=float(body.get("temperature", 0.0) or 0.0),
                max_tokens=int(body.get("max_tokens") or body.get("max_completion_tokens") or 512),
                seed=body.get("seed"),
                stop=tuple([stop] if isinstance(stop, str) else (stop or ())),
            )
            req = request_from_openai(body["messages"], config, images)
        except (TypeError, ValueError) as exc:
            return _error(400, str(exc))
        try:
            resp = await backend.generate(req)
        except Exception as exc:
            if latency_s:  # a failure is answered no sooner than an answer would be, as before
                await alarm.until(arrived + latency_s)
            if isinstance(exc, BackendError):
                return _error(502, str(exc), "upstream_error")
            raise
        answer = _completion(
            model_id,
            {"role": "assistant", "content": resp.text},
            resp.finish_reason or "stop",
            resp.usage,
        )
        if latency_s:
            # a model that answers latency_s after the request arrived, or when its answer is
            # ready if that takes longer: the backend's own work and the body are inside the
            # latency, not added to it (nothing is left to do after the wait but send)
            await alarm.until(arrived + latency_s)  # to well under a millisecond
        entry.update(model=model_id, status=200, answered=time.monotonic())
        log(entry)
        return answer

    async def responses(request: web.Request) -> web.StreamResponse:
        """The Responses API, translated to and from a chat completion (server/responses.py)."""
        request["arrived"] = time.monotonic()
        try:
            asked = await request.json()
            request["chat_body"] = chat_body(asked)
        except json.JSONDecodeError:
            return _error(400, "request body is not JSON")
        except ResponsesError as exc:
            return _error(400, str(exc))
        answer = await chat(request)
        if answer.status != 200 or not isinstance(answer, web.Response):
            return answer  # errors have the same shape on both routes
        try:
            return web.json_response(response_body(json.loads(answer.body), asked))  # type: ignore[arg-type]
        except (ValueError, KeyError, IndexError, TypeError):
            return answer  # an injected protocol fault (malformed, empty, ...) passes as it is

    app = web.Application(client_max_size=64 * 1024**2)
    app.router.add_get("/v1/models", models)
    app.router.add_post("/v1/chat/completions", chat)
    app.router.add_post("/v1/responses", responses)

    async def elsewhere(request: web.Request) -> web.Response:
        return _error(
            404,
            f"chronoeval serve answers POST /v1/chat/completions, POST /v1/responses and "
            f"GET /v1/models, not {request.method} {request.path}",
            "not_found",
        )

    app.router.add_route("*", "/{tail:.*}", elsewhere)

    async def close_log(_app: web.Application) -> None:
        if log_fh is not None:
            log_fh.close()

    app.on_cleanup.append(close_log)
    if log_fh is not None:

        async def lag_probe() -> None:
            """How late a 5 ms timer fires: the time a request would wait for the loop."""
            while True:
                due = time.monotonic() + 0.005
                await asyncio.sleep(0.005)
                lag["max"] = max(lag["max"], time.monotonic() - due)

        async def start_probe(app_: web.Application) -> None:
            app_["lag_probe"] = asyncio.ensure_future(lag_probe())

        async def stop_probe(app_: web.Application) -> None:
            app_["lag_probe"].cancel()

        app.on_startup.append(start_probe)
        app.on_cleanup.append(stop_probe)
    return app


def serve(
    specs: list[str],
    *,
    task: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    faults: str | None = None,
    latency_s: float = 0.0,
    request_log: Path | None = None,
    ready_file: Path | None = None,
    api_key: str | None = None,
) -> None:
    """Serve until interrupted. ``port=0`` picks a free port; ``ready_file`` receives the URL.
    With ``api_key`` every request needs ``Authorization: Bearer <api_key>``; a bind beyond
    loopback prints a warning (server/exposure.py)."""
    event_loop.loop_name()  # a bad CHRONOEVAL_EVENT_LOOP refused before any model is loaded
    router = ModelRouter(specs, task)
    app = create_app(
        router, faults=parse_faults(faults), latency_s=latency_s, request_log=request_log
    )
    if api_key:
        app.middlewares.append(api_key_middleware(api_key))
    warning = exposure_warning(host, api_key)
    if warning:
        print(warning, file=sys.stderr, flush=True)

    async def main() -> None:
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise ChronoevalError(
                f"cannot serve on {host}:{port} ({exc.strerror or exc}); pick another --port "
                "(0 = any free port) or stop what holds it"
            ) from None
        sockets = site._server.sockets if site._server else []  # type: ignore[union-attr]
        bound = sockets[0].getsockname()[1] if sockets else port
        url = f"http://{host}:{bound}/v1"
        print(
            f"chronoeval serve: {url} (models: {', '.join(router.model_ids()[:6])} …)", flush=True
        )
        if ready_file is not None:
            tmp = Path(str(ready_file) + ".tmp")
            tmp.write_text(url)
            tmp.replace(ready_file)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    with contextlib.suppress(KeyboardInterrupt):
        event_loop.run(main())  # uvloop where installed (the `fast` extra)
