"""TimeAgent (SPAN paper §5) for any model, as the ``timeagent`` backend:

- ``timeagent:code:<inner spec>`` (e.g. ``timeagent:code:openai:<model>`` with ``--base-url``): the
  model writes Python calling ``search_calendar``; the code runs in the sandbox
  (:mod:`chronoeval.suites.span.sandbox`); its output goes back as a user turn; the model answers.
  Any backend that takes chat messages works as the inner model.
- ``timeagent:tools:openai:<model>``: OpenAI function calling with the calendar functions as tools,
  executed in process, until the model answers without a tool call.

Every turn (model replies, code, outputs, tool calls and results) is returned in
``Response.turns`` and so stored in the run store and the sample records. A failed model call is a
``BackendError`` carrying the turns so far; a failed code run or tool call is a recorded turn the
model sees and may recover from. ``span-speaker`` is a scripted model for tests that speaks both
protocols from the question text (the reference agent's plan), to serve with ``chronoeval serve``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import re
import time
import uuid
from typing import TYPE_CHECKING, Any

from chronoeval.core.errors import ChronoevalError
from chronoeval.core.items import Item, Message, TextPart
from chronoeval.core.redact import redact
from chronoeval.core.task import Task
from chronoeval.engine.reasoning import join_reasoning
from chronoeval.engine.request import Request
from chronoeval.models.base import Backend, BackendError, Response
from chronoeval.models.chat_message import content_text, raise_reply_error, reply_reasoning
from chronoeval.models.registry import BackendOptions, make_backend, register_backend, split_spec
from chronoeval.suites.span.sandbox import SandboxLimits

if TYPE_CHECKING:
    import aiohttp  # imported at first use (_post): ~0.14 s that a task import does not need

MAX_ROUNDS = 4
PROTOCOL_VERSION = 1
"""Part of the backend identity (so of every request key): bump it when the prompts, tools or
sandbox limits change, so a resumed run never reuses answers given under the old protocol."""
CALENDARS = "gregorian, chinese, hebrew, islamic (= Umm al-Qura), islamic_tabular, persian, shaka"
API_DOC = f"""Calendar functions (strings in, strings out):
- search_calendar(source, target, date=None, festival=None, year=None) -> 'YYYY-MM-DD': convert
  `date` from calendar `source` to `target`, or give the date in `target` of `festival` (a festival
  of `source`) in `source` year `year`.
- add_days(calendar, date, n) -> 'YYYY-MM-DD'; add_years(calendar, date, n) -> 'YYYY-MM-DD'
  (same month and day n years on in that calendar).
- month_length(calendar, year, month, leap=False) -> int; festivals() -> list of names.
Calendars: {CALENDARS}. Dates are 'YYYY-MM-DD'; a Chinese leap month is 'YYYY-LMM-DD'; Hebrew
months are numbered from Nisan = 1 (Adar I = 12, Adar II = 13 in a leap year)."""

CODE_SYSTEM = f"""You answer calendar questions by writing Python. Reply with one ```python code
block that prints what you need. It runs in a sandbox where these are predefined (and
`from calendar_api import *` works; nothing else can be imported; `date`, `timedelta` are there):
{API_DOC}
You then see the printed output and give the final answer in the format the question asks."""

TOOLS_SYSTEM = f"""You answer calendar questions using the calendar tools; call them as needed,
then give the final answer in the format the question asks.
{API_DOC}"""

RESULT_PROMPT = "Output of your code:\n{output}\nNow give the final answer in the required format."
ERROR_PROMPT = "Your code failed:\n{error}\nFix it (reply with a new ```python block) or answer."

_FENCE = re.compile(r"```(?:python|py)?\s*\n(.*?)```", re.DOTALL | re.IGNORECASE)


def extract_code(text: str) -> str | None:
    blocks = _FENCE.findall(text or "")
    return blocks[-1] if blocks else None


SANDBOX_OPTIONS = {"sandbox_cpu_s": "cpu_s", "sandbox_wall_s": "wall_s",
                   "sandbox_memory_mb": "memory_mb"}  # fmt: skip
"""``--model-opt`` keys of the code mode (read here, not passed to the inner backend)."""


def sandbox_limits(extra: dict[str, Any]) -> tuple[SandboxLimits, dict[str, Any]]:
    """The sandbox limits named in backend options, and the options left for the inner model."""
    rest = {k: v for k, v in extra.items() if k not in SANDBOX_OPTIONS}
    values: dict[str, Any] = {}
    for key, attr in SANDBOX_OPTIONS.items():
        if key not in extra:
            continue
        try:
            value = float(extra[key]) if attr == "wall_s" else int(extra[key])
        except (TypeError, ValueError):
            raise ChronoevalError(f"timeagent: --model-opt {key} must be a number") from None
        if not 0 < value <= (4096 if attr == "memory_mb" else 600):
            raise ChronoevalError(f"timeagent: --model-opt {key}={extra[key]} is out of range")
        values[attr] = value
    return SandboxLimits(**values), rest


class CodeTimeAgent(Backend):
    system = CODE_SYSTEM
    calendar_api = True
    """Whether the sandbox predefines the calendar API (False: the ``code-nocal`` baseline)."""
    label, version = "code", PROTOCOL_VERSION
    """The identity's name and protocol version (``timeagent-<label>-v<version>…/<inner>``)."""

    def __init__(
        self,
        inner: Backend,
        *,
        cpu_s: int = 5,
        wall_s: float = 20.0,
        limits: SandboxLimits | None = None,
    ) -> None:
        self.inner = inner
        self.limits = limits or SandboxLimits(cpu_s=cpu_s, wall_s=wall_s)
        self.cpu_s, self.wall_s = self.limits.cpu_s, self.limits.wall_s
        suffix = (
            ""
            if self.limits == SandboxLimits()
            else (
                f"[cpu={self.limits.cpu_s},wall={self.limits.wall_s:g},mem={self.limits.memory_mb}]"
            )
        )
        self.identity = f"timeagent-{self.label}-v{self.version}{suffix}/{inner.identity}"

    def describe(self) -> dict[str, Any]:
        from chronoeval.suites.span.sandbox import isolation_mode

        try:
            isolation = isolation_mode()
        except RuntimeError as exc:
            isolation = f"none: {exc}"
        return {"identity": self.identity, "inner": self.inner.describe(), "cpu_s": self.cpu_s,
                "wall_s": self.wall_s, "memory_mb": self.limits.memory_mb,
                "isolation": isolation, "calendar_api": self.calendar_api}  # fmt: skip

    async def generate(self, request: Request) -> Response:
        from chronoeval.suites.span.sandbox import run_code

        start = time.perf_counter()
        messages = [Message("system", (TextPart(self.system),)), *request.messages]
        turns: list[dict[str, Any]] = []
        usage: dict[str, int] = {}
        text = ""
        for _round in range(MAX_ROUNDS):
            try:
                resp = await self.inner.generate(Request(tuple(messages), request.config))
            except BackendError as exc:
                raise BackendError(str(exc), retryable=exc.retryable, turns=turns) from None
            for k, v in resp.usage.items():
                usage[k] = usage.get(k, 0) + v
            text = resp.text
            turns.append({"role": "assistant", "content": text})
            code = extract_code(text)
            if code is None:
                break
            result = await asyncio.to_thread(
                run_code, code, limits=self.limits, calendar_api=self.calendar_api
            )
            # defence in depth: whatever the code printed, no secret value goes on
            shown = redact(result.to_json())
            turns.append({"role": "code", "code": code, **shown})
            follow = (
                RESULT_PROMPT.format(output=str(shown["output"]).strip() or "(nothing printed)")
                if result.ok
                else ERROR_PROMPT.format(error=shown["error"])
            )
            messages += [
                Message("assistant", (TextPart(redact(text)),)),
                Message("user", (TextPart(follow),)),
            ]
        return Response(text=text, latency_s=time.perf_counter() - start, usage=usage, turns=turns)

    async def aclose(self) -> None:
        await self.inner.aclose()


def _schema(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required}


_S = {"type": "string"}
_I = {"type": "integer"}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search_calendar",
            "description": "Convert a date between calendars, or give a festival's date.",
            "parameters": _schema(
                {"source": _S, "target": _S, "date": _S, "festival": _S, "year": _I},
                ["source", "target"],
            ),
        },
    },
    {
        "type": "function",
        "function": {
            "name": "add_days",
            "description": "The date n days after date (negative: before), same calendar.",
            "parameters": _schema({"calendar": _S, "date": _S, "n": _I}, ["calendar", "date", "n"]),
        },
    },
    {
        "type": "function",
        "function": {
            "name": "add_years",
            "description": "Same month and day n years on, in that calendar.",
            "parameters": _schema({"calendar": _S, "date": _S, "n": _I}, ["calendar", "date", "n"]),
        },
    },
]


MAX_ARGUMENTS_CHARS = 2000
"""Longest tool-call ``arguments`` accepted (the calendar tools need well under 200)."""
MAX_STRING = 64
MAX_ABS_N = 1_000_000
"""|n| and |year| bound: far beyond any calendar range the backends cover."""
MAX_CALLS_PER_TURN = 8
_ARG_TYPES: dict[str, dict[str, tuple[type, bool]]] = {
    # name -> argument -> (type, required)
    "search_calendar": {"source": (str, True), "target": (str, True), "date": (str, False),
                        "festival": (str, False), "year": (int, False)},
    "add_days": {"calendar": (str, True), "date": (str, True), "n": (int, True)},
    "add_years": {"calendar": (str, True), "date": (str, True), "n": (int, True)},
}  # fmt: skip


def validate_tool_arguments(name: str, arguments: object) -> dict[str, Any]:
    """The tool call's arguments as a checked dict; ``ValueError`` with a clear message if not.

    Tool arguments are model output: size, JSON shape, names, types and ranges are all checked
    before anything runs."""
    spec = _ARG_TYPES[name]
    if isinstance(arguments, str):
        if len(arguments) > MAX_ARGUMENTS_CHARS:
            raise ValueError(f"arguments longer than {MAX_ARGUMENTS_CHARS} characters")
        try:
            args = json.loads(arguments) if arguments.strip() else {}
        except ValueError as exc:
            raise ValueError(f"arguments are not valid JSON ({exc.msg})") from None
    else:
        args = arguments
    if not isinstance(args, dict):
        raise ValueError("arguments must be a JSON object")
    unknown = sorted(str(k)[:MAX_STRING] for k in args if k not in spec)
    if unknown:
        raise ValueError(
            f"unknown argument(s) {', '.join(unknown)}; {name} takes {', '.join(spec)}"
        )
    missing = [k for k, (_, req) in spec.items() if req and args.get(k) is None]
    if missing:
        raise ValueError(f"missing argument(s) {', '.join(missing)} for {name}")
    out: dict[str, Any] = {}
    for key, value in args.items():
        kind = spec[key][0]
        if value is None:
            continue
        if kind is int:
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{key} must be an integer, not {type(value).__name__}")
            if abs(value) > MAX_ABS_N:
                raise ValueError(f"{key} is out of range (|{key}| <= {MAX_ABS_N})")
        elif not isinstance(value, str):
            raise ValueError(f"{key} must be a string, not {type(value).__name__}")
        elif len(value) > MAX_STRING:
            raise ValueError(f"{key} is longer than {MAX_STRING} characters")
        out[key] = value
    return out


def call_tool(name: str, arguments: str | dict[str, Any]) -> tuple[bool, str]:
    """Run one tool call in process: (ok, result or error text). Never raises."""
    from chronoeval.suites.span import calendar_api

    fns = {"search_calendar": calendar_api.search_calendar, "add_days": calendar_api.add_days,
           "add_years": calendar_api.add_years}  # fmt: skip
    if name not in fns:
        return False, f"error: unknown tool {str(name)[:MAX_STRING]!r}; tools: {', '.join(fns)}"
    try:
        args = validate_tool_arguments(name, arguments)
        return True, str(fns[name](**args))
    except (ValueError, TypeError, OverflowError) as exc:  # CalendarError is a ValueError
        return False, f"error: {name}: {str(exc)[:300]}"
    except Exception as exc:  # noqa: BLE001 - a tool failure is a turn the model sees, never fatal
        return False, f"error: {name}: {type(exc).__name__}: {str(exc)[:300]}"


class ToolsTimeAgent(Backend):
    """OpenAI function calling against any chat-completions endpoint."""

    def __init__(self, base_url: str, model: str, *, api_key_env: str, timeout_s: float) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.api_key_env = api_key_env
        self.timeout_s = timeout_s
        self.identity = f"timeagent-tools-v{PROTOCOL_VERSION}/openai/{model}"
        self._session: aiohttp.ClientSession | None = None

    async def _post(self, body: dict[str, Any], turns: list[dict[str, Any]]) -> dict[str, Any]:
        import aiohttp

        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=self.timeout_s)
            )
        headers = {"Content-Type": "application/json"}
        if key := os.environ.get(self.api_key_env):
            headers["Authorization"] = f"Bearer {key}"
        try:
            async with self._session.post(self.url, json=body, headers=headers) as resp:
                status, raw = resp.status, await resp.read()
        except (TimeoutError, aiohttp.ClientError) as exc:
            raise BackendError(
                f"{type(exc).__name__} talking to {self.url}: {exc}", turns=turns
            ) from None
        if status != 200:
            raise BackendError(
                f"HTTP {status} from {self.url}: {raw[:200].decode('utf-8', 'replace')}",
                retryable=status in (408, 409, 425, 429) or status >= 500,
                turns=turns,
            )
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        raise_reply_error(data, self.url, turns=turns)  # an error sent in a 200 (OpenRouter)
        try:
            message = data["choices"][0]["message"]
            assert isinstance(message, dict)
        except (ValueError, KeyError, IndexError, TypeError, AssertionError):
            raise BackendError(
                f"malformed response from {self.url}: {raw[:120]!r}", turns=turns
            ) from None
        return data

    async def generate(self, request: Request) -> Response:
        start = time.perf_counter()
        messages: list[dict[str, Any]] = [{"role": "system", "content": TOOLS_SYSTEM}]
        messages += request.openai_messages()
        turns: list[dict[str, Any]] = []
        usage: dict[str, int] = {}
        for _round in range(2 * MAX_ROUNDS):
            body = {"model": self.model, "messages": messages, "tools": TOOLS,
                    "temperature": request.config.temperature, "max_tokens": request.config.max_tokens}  # fmt: skip
            data = await self._post(body, turns)
            for k, v in (data.get("usage") or {}).items():
                if isinstance(v, int):
                    usage[k] = usage.get(k, 0) + v
            msg = data["choices"][0]["message"]
            calls = msg.get("tool_calls") or []
            calls = [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []
            turns.append({"role": "assistant", "content": msg.get("content"), "tool_calls": calls})
            if not calls:
                text = content_text(msg.get("content")) or ""  # parts (Mistral): their text
                text = text if isinstance(text, str) else json.dumps(text)
                if reasoning := reply_reasoning(msg):  # kept, split off again when scored
                    text = join_reasoning(reasoning, text)
                return Response(
                    text=text,
                    latency_s=time.perf_counter() - start,
                    usage=usage,
                    turns=turns,
                    finish_reason=data["choices"][0].get("finish_reason"),  # content_filter
                )
            messages.append(
                {"role": "assistant", "content": msg.get("content"), "tool_calls": calls}
            )
            for i, call in enumerate(calls):
                fn = call.get("function")
                fn = fn if isinstance(fn, dict) else {}
                if i >= MAX_CALLS_PER_TURN:
                    ok, result = (
                        False,
                        f"error: more than {MAX_CALLS_PER_TURN} tool calls in one turn",
                    )
                else:
                    ok, result = call_tool(str(fn.get("name")), fn.get("arguments") or "{}")
                result = redact(result)
                turns.append({"role": "tool", "tool_call_id": call.get("id"), "name": fn.get("name"),
                              "arguments": fn.get("arguments"), "ok": ok, "content": result})  # fmt: skip
                messages.append({"role": "tool", "tool_call_id": call.get("id"), "content": result})
        raise BackendError(
            f"no final answer after {2 * MAX_ROUNDS} tool rounds", retryable=False, turns=turns
        )

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()


@register_backend("timeagent")
def _timeagent(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    mode, _, inner = (arg or "").partition(":")
    if mode == "code" and inner:
        limits, rest = sandbox_limits(opts.extra)
        inner_opts = dataclasses.replace(opts, extra=rest)
        return CodeTimeAgent(make_backend(inner, task, items, inner_opts), limits=limits)
    if mode == "code-nocal" and inner:  # issue 18: code without the calendar API (baselines.py)
        from chronoeval.suites.span.baselines import NoCalendarCodeBaseline

        limits, rest = sandbox_limits(opts.extra)
        inner_opts = dataclasses.replace(opts, extra=rest)
        return NoCalendarCodeBaseline(make_backend(inner, task, items, inner_opts), limits=limits)
    if mode == "cot" and inner:  # issue 18: the chain-of-thought baseline (span/baselines.py)
        from chronoeval.suites.span.baselines import CotBaseline

        return CotBaseline(make_backend(inner, task, items, opts))
    if mode == "tools" and inner:
        name, model = split_spec(inner)
        if name != "openai" or not model or not opts.base_url:
            raise ChronoevalError(
                "tool mode needs an OpenAI endpoint: timeagent:tools:openai:<model> --base-url URL"
            )
        return ToolsTimeAgent(
            opts.base_url, model, api_key_env=opts.api_key_env, timeout_s=opts.timeout_s
        )
    raise ChronoevalError(
        "use timeagent:code:<model spec>, timeagent:tools:openai:<model>, "
        "timeagent:cot:<model spec> or timeagent:code-nocal:<model spec>"
    )


# -- a scripted model that speaks the TimeAgent protocols (for tests, behind chronoeval serve) -----
class SpanSpeaker(Backend):
    """Writes code / tool calls from the question text (the reference agent's plan), then answers
    from the code output / tool results it is shown. It never sees an item's target or program."""

    identity = "span-speaker"

    async def generate(self, request: Request) -> Response:
        from chronoeval.suites.span.agent import plan_code, plan_question, span_agent

        last = request.messages[-1].text
        if last.startswith("Output of your code:"):
            out = last.split("\n", 1)[1].rsplit("\nNow give", 1)[0].strip()
            return Response(text=f"The code printed {out}.\nAnswer: {out}")
        if last.startswith("Your code failed:"):
            return Response(text="I could not compute it.")
        if any(m.role == "system" and "```python" in m.text for m in request.messages):
            question = next(m.text for m in request.messages if m.role == "user")
            try:
                return Response(text=f"```python\n{plan_code(plan_question(question))}\n```")
            except ValueError as exc:
                return Response(text=f"I cannot read this question ({exc}).")
        return Response(text=span_agent(request.messages, request.read_image))

    async def chat_completion(self, body: dict[str, Any]) -> dict[str, Any]:
        """The raw chat-completions turn for tool calling: the next tool call, or the answer."""
        from chronoeval.suites.span.agent import plan_question

        msgs = body.get("messages") or []
        question = next(str(m.get("content")) for m in msgs if m.get("role") == "user")
        plan = plan_question(question)
        results = [str(m.get("content")) for m in msgs if m.get("role") == "tool"]
        if results and results[-1].startswith("error:"):
            return {"role": "assistant", "content": f"The tool failed: {results[-1]}"}
        steps = _tool_steps(plan)
        if len(results) < len(steps):
            name, args = steps[len(results)](results[-1] if results else None)
            call = {"id": f"call_{uuid.uuid4().hex[:12]}", "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args)}}  # fmt: skip
            return {"role": "assistant", "content": None, "tool_calls": [call]}
        final = results[-1]
        if plan.candidate is not None:
            final = "yes" if final == plan.candidate.iso() else "no"
        return {"role": "assistant", "content": f"Answer: {final}"}


def _tool_steps(plan: Any) -> list[Any]:
    ref = plan.ref.iso()
    if plan.kind == "days":
        return [
            lambda _p: (
                "search_calendar",
                {"source": plan.source, "target": "gregorian", "date": ref},
            ),
            lambda p: ("add_days", {"calendar": "gregorian", "date": p, "n": plan.n}),
            lambda p: (
                "search_calendar",
                {"source": "gregorian", "target": plan.target, "date": p},
            ),
        ]
    if plan.kind == "years":
        return [
            lambda _p: ("add_years", {"calendar": plan.source, "date": ref, "n": plan.n}),
            lambda p: (
                "search_calendar",
                {"source": plan.source, "target": plan.target, "date": p},
            ),
        ]
    return [
        lambda _p: (
            "search_calendar",
            {
                "source": plan.source,
                "target": plan.target,
                "festival": plan.festival,
                "year": plan.ref.year + plan.n,
            },  # fmt: skip
        )
    ]


@register_backend("span-speaker")
def _speaker(arg: str | None, task: Task, items: list[Item], opts: BackendOptions) -> Backend:
    return SpanSpeaker()
