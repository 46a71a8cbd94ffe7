"""Backend for any OpenAI-compatible chat-completions endpoint (vLLM, SGLang, Ollama, llama.cpp
server, LM Studio, hosted APIs, ``chronoeval serve``).

Several base URLs (replicas of one model: vLLM or SGLang servers) share the load: each request
goes to the healthy replica with the fewest requests outstanding (ties: the one used longest ago),
never above ``max_per_endpoint`` in flight on one replica. A replica that fails (connection error,
timeout, 5xx, 429, unreadable body) is dropped for a cooldown (1 s, doubling to 30 s while it keeps
failing) and the request is tried at once on another replica; after the cooldown one real request
probes it, and it is re-admitted when that succeeds. Only when every replica failed for a request
does ``generate`` raise, and the runner's retries (with backoff) take over. All replicas share one
request key (the identity names the model, not where it is served).

Images travel as base64 data URLs. The API key is read from an environment variable at call time
and is never stored: not in the run config, not in the request key, not in any record.
"""

from __future__ import annotations

import asyncio
import base64
import email.utils
import json
import os
import secrets
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from chronoeval.core.items import ImagePart
from chronoeval.core.redact import redact_text
from chronoeval.engine.reasoning import join_reasoning
from chronoeval.engine.request import Request
from chronoeval.models.base import Backend, BackendError, Response
from chronoeval.models.chat_message import (
    RETRYABLE_STATUS,
    content_text,
    raise_reply_error,
    reply_reasoning,
)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def reply_text(choice: Any, url: str) -> Any:
    """The text of a chat-completions choice (``url``: where it came from, named redacted in an
    error). A choice without a ``message`` object, or whose
    ``content`` is null (with no ``refusal`` or reasoning text), is a protocol error: retried and,
    if it stays, stored as an error, never scored as NoAnswer. An explicit refusal is the model's
    answer; reasoning with a null content is a reply without an answer (NoAnswer, reasoning kept).
    ``content`` given as a list of parts (Mistral's Magistral models: ``{"type": "thinking",
    "thinking": [...]}`` then ``{"type": "text", "text": ...}``; some proxies wrap plain text
    so) gives its text parts, joined; a list with thinking but no text part is an unfinished
    reply like a null content with reasoning (NoAnswer); one with neither is a protocol error.
    A choice the provider's content filter withheld (``finish_reason: "content_filter"``, Azure
    OpenAI and OpenAI; Azure sends ``content: null`` or no content at all) is a reply without an
    answer: ``""``, scored as ``NoAnswer("content filter")`` (api._record), never retried, since
    the same prompt is filtered again."""
    filtered = isinstance(choice, dict) and choice.get("finish_reason") == "content_filter"
    message = choice.get("message") if isinstance(choice, dict) else None
    if filtered and (
        not isinstance(message, dict)
        or (content_text(message.get("content")) is None and not message.get("refusal"))
    ):
        return ""
    if not isinstance(message, dict):
        raise BackendError(
            f"protocol error: response from {redact_text(url)} has a choice without message"
        )
    content = content_text(message.get("content"))  # parts without text: as a null content
    if content is None:
        refusal = message.get("refusal")
        if isinstance(refusal, str) and refusal:
            return refusal
        if reply_reasoning(message):
            return ""  # a reasoning model that never got to its answer (e.g. out of tokens)
        raise BackendError(f"protocol error: response from {redact_text(url)} has content: null")
    return content


def split_base_urls(base_url: str | list[str] | tuple[str, ...]) -> list[str]:
    """Base URLs from a comma-separated string or a list (entries may themselves hold commas)."""
    raw = [base_url] if isinstance(base_url, str) else list(base_url)
    urls = [u.strip().rstrip("/") for entry in raw for u in entry.split(",") if u.strip()]
    if not urls:
        raise ValueError("no base URL given")
    if len(set(urls)) != len(urls):
        raise ValueError(f"a base URL is listed twice: {', '.join(urls)}")
    return urls


def flat_usage(usage: object) -> dict[str, int]:
    """Token counts of a reply's ``usage``; nested details (``completion_tokens_details``:
    ``reasoning_tokens``, ...) flattened as ``completion_tokens_details.reasoning_tokens``."""
    out: dict[str, int] = {}
    if not isinstance(usage, dict):
        return out
    for k, v in usage.items():
        if isinstance(v, int) and not isinstance(v, bool):
            out[str(k)] = v
        elif isinstance(v, dict):
            for kk, vv in v.items():
                if isinstance(vv, int) and not isinstance(vv, bool):
                    out[f"{k}.{kk}"] = vv
    return out


class Replica:
    """One endpoint's load and health, as this client sees them."""

    def __init__(self, url: str, order: int) -> None:
        self.url = url
        self.outstanding = 0
        self.failures = 0  # consecutive
        self.down_until = 0.0  # monotonic time; 0 = admitted
        self.last_used = order - 1e12  # ties: the replica used longest ago (at first: listed first)
        self.sent = 0
        self.errors = 0
        self.peak = 0  # most requests in flight at once

    def admitted(self, now: float) -> bool:
        """Healthy, or past its cooldown with no request in flight (one probe at a time)."""
        return self.failures == 0 or (now >= self.down_until and self.outstanding == 0)

    def failed(self, now: float, cooldown_s: float, max_cooldown_s: float) -> None:
        self.errors += 1
        if self.failures and now < self.down_until:
            return  # another request of the same outage: it is down already
        self.failures += 1
        self.down_until = now + min(max_cooldown_s, cooldown_s * 2 ** (self.failures - 1))

    def succeeded(self) -> None:
        self.failures = 0
        self.down_until = 0.0


class ReplicaPool:
    """Least-outstanding-requests choice among admitted replicas, with a per-replica cap."""

    def __init__(
        self,
        urls: list[str],
        *,
        max_per_endpoint: int | None = None,
        cooldown_s: float = 1.0,
        max_cooldown_s: float = 30.0,
    ) -> None:
        self.replicas = [Replica(u, i) for i, u in enumerate(urls)]
        self.max_per_endpoint = max_per_endpoint
        self.cooldown_s = cooldown_s
        self.max_cooldown_s = max_cooldown_s
        self._freed: asyncio.Condition | None = None

    def _condition(self) -> asyncio.Condition:
        if self._freed is None:
            self._freed = asyncio.Condition()
        return self._freed

    def _pick(self, exclude: set[str]) -> Replica | None | bool:
        """A replica to use now; None when all are excluded; False when all are at their cap."""
        now = time.monotonic()
        candidates = [r for r in self.replicas if r.url not in exclude]
        if not candidates:
            return None
        admitted = [r for r in candidates if r.admitted(now)]
        if not admitted:
            # every remaining replica is cooling down: ask the one that comes back first rather
            # than fail without trying (with one replica this is plain retry behaviour)
            admitted = [min(candidates, key=lambda r: r.down_until)]
        cap = self.max_per_endpoint
        free = [r for r in admitted if cap is None or r.outstanding < cap]
        if not free:
            return False
        return min(free, key=lambda r: (r.outstanding, r.last_used))

    async def acquire(self, exclude: set[str]) -> Replica | None:
        cond = self._condition()
        async with cond:
            while True:
                r = self._pick(exclude)
                if r is None:
                    return None
                if r is not False:
                    assert isinstance(r, Replica)
                    r.outstanding += 1
                    r.peak = max(r.peak, r.outstanding)
                    r.sent += 1
                    r.last_used = time.monotonic()
                    return r
                await cond.wait()

    async def release(self, r: Replica, *, ok: bool) -> None:
        cond = self._condition()
        async with cond:
            r.outstanding -= 1
            if ok:
                r.succeeded()
            else:
                r.failed(time.monotonic(), self.cooldown_s, self.max_cooldown_s)
            cond.notify_all()

    def stats(self) -> list[dict[str, Any]]:
        return [
            {
                "url": r.url,
                "sent": r.sent,
                "errors": r.errors,
                "peak": r.peak,
                "down": r.failures > 0,
            }
            for r in self.replicas
        ]


class OpenAIBackend(Backend):
    network_bound = True
    """Its asking is waiting on sockets: a run asks on uvloop where installed
    (engine/event_loop.py), and its workers start one loop turn apart (engine/runner.py)."""

    prepares_ahead = True
    """A body (the image read, base64 and JSON: ~0.2 ms) is encoded while the loop waits."""

    def __init__(
        self,
        base_url: str | list[str],
        model: str,
        *,
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 120.0,
        max_connections: int = 256,
        extra_body: dict[str, Any] | None = None,
        max_per_endpoint: int | None = None,
        cooldown_s: float = 1.0,
        max_cooldown_s: float = 30.0,
    ) -> None:
        self.base_urls = split_base_urls(base_url)
        self.base_url = self.base_urls[0]
        self.model = model
        self.api_key_env = api_key_env
        self.timeout_s = timeout_s
        self.max_connections = max_connections
        self.extra_body = extra_body or {}
        self.identity = f"openai/{model}"
        self.max_per_endpoint = max_per_endpoint
        self.pool = ReplicaPool(
            self.base_urls,
            max_per_endpoint=max_per_endpoint,
            cooldown_s=cooldown_s,
            max_cooldown_s=max_cooldown_s,
        )
        self._session: aiohttp.ClientSession | None = None
        # bodies encoded ahead (prepare), by the request's id, with the request itself so that
        # a reused id never matches another request; taken (once) by generate
        self._ready: dict[int, tuple[Request, bytes | Exception]] = {}

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "identity": self.identity,
            "base_url": redact_text(self.base_url),
            "model": self.model,
            "api_key_env": self.api_key_env,
            "timeout_s": self.timeout_s,
        }
        if len(self.base_urls) > 1:
            out["base_urls"] = [redact_text(u) for u in self.base_urls]
        if self.max_per_endpoint is not None:
            out["max_per_endpoint"] = self.max_per_endpoint
        return out

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        key = os.environ.get(self.api_key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    async def _get_session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self.max_connections),
                timeout=aiohttp.ClientTimeout(total=self.timeout_s),
            )
        return self._session

    def body(
        self,
        request: Request,
        image_part: Callable[[ImagePart, bytes], dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        cfg = request.config
        body: dict[str, Any] = {
            "model": self.model,
            "messages": request.openai_messages(image_part),
            "temperature": cfg.temperature,
            "max_tokens": cfg.max_tokens,
        }
        if cfg.seed is not None:
            body["seed"] = cfg.seed
        if cfg.stop:
            body["stop"] = list(cfg.stop)
        if cfg.top_p is not None:
            body["top_p"] = cfg.top_p
        body.update(self.extra_body)
        body.update(cfg.extra_body)  # the run's request options (--request-opt), verbatim
        for name in cfg.omit:  # fields an endpoint rejects (--omit)
            body.pop(name, None)
        return body

    def payload(self, request: Request) -> bytes:
        """``json.dumps(self.body(request))`` as UTF-8, byte for byte, without running each
        image's base64 text through the JSON encoder: the body is encoded with a marker where
        each image's data URL goes, and the base64 bytes (which need no escaping) are put in
        its place."""
        nonce = secrets.token_hex(8)
        images: list[tuple[str, str, bytes]] = []

        def marked(part: ImagePart, data: bytes) -> dict[str, Any]:
            marker = f"\x00{nonce}:{len(images)}\x00"
            images.append((marker, f"data:{part.mime};base64,", base64.b64encode(data)))
            return {"type": "image_url", "image_url": {"url": marker}}

        text = json.dumps(self.body(request, marked))
        pieces: list[bytes] = []
        for marker, prefix, b64 in images:
            inside = json.dumps(marker)[1:-1]  # the marker as it reads inside a JSON string
            head, found, rest = text.partition(inside)
            if not found:  # the messages were replaced (extra body fields): encode plainly
                return json.dumps(self.body(request)).encode("utf-8")
            pieces += [head.encode("utf-8"), json.dumps(prefix)[1:-1].encode("utf-8"), b64]
            text = rest
        pieces.append(text.encode("utf-8"))
        return b"".join(pieces)

    def prepare(self, request: Request) -> None:
        try:
            body: bytes | Exception = self.payload(request)
        except Exception as exc:  # noqa: BLE001 - raised by generate, where it would have been
            body = exc
        self._ready[id(request)] = (request, body)

    async def generate(self, request: Request) -> Response:
        ready = self._ready.pop(id(request), None)
        if ready is not None and ready[0] is request:
            body = ready[1]
            if isinstance(body, Exception):
                raise body
        else:
            body = self.payload(request)
        return await self.send(body, request.key(self.identity))

    async def send(self, payload: str | bytes, request_key: str | None = None) -> Response:
        """POST a chat-completions body (JSON text) to replicas in least-outstanding order until
        one answers; raise the last failure. Used as is by the Ray Data workers."""
        headers = self._headers()
        if request_key:
            headers["X-Chronoeval-Request-Key"] = request_key
        tried: set[str] = set()
        last: BackendError | None = None
        while True:
            replica = await self.pool.acquire(tried)
            if replica is None:
                assert last is not None
                if len(tried) > 1:
                    last = BackendError(
                        f"all {len(tried)} replicas failed; last: {last}",
                        retryable=last.retryable,
                        retry_after=last.retry_after,
                    )
                raise last
            tried.add(replica.url)
            try:
                resp = await self._post(replica.url, payload, headers)
            except BackendError as exc:
                # a non-retryable error (4xx) is about the request, not the replica: same answer
                # everywhere, so stop here and keep the replica admitted
                await self.pool.release(replica, ok=not exc.retryable)
                if not exc.retryable:
                    raise
                last = exc
                continue
            except BaseException:
                await self.pool.release(replica, ok=True)
                raise
            await self.pool.release(replica, ok=True)
            return resp

    async def _post(self, base_url: str, payload: str | bytes, headers: dict[str, str]) -> Response:
        session = await self._get_session()
        url = f"{base_url}/chat/completions"
        # credentials in the URL never reach an error text: redact_text(url) in each (made only
        # where one is raised: it looks at the environment, ~30 us, before every send otherwise)
        start = time.perf_counter()
        try:
            async with session.post(url, data=payload, headers=headers) as resp:
                raw = await resp.read()
                status = resp.status
                retry_after = parse_retry_after(resp.headers.get("Retry-After"))
        except TimeoutError:
            raise BackendError(f"timed out after {self.timeout_s:g}s: {redact_text(url)}") from None
        except aiohttp.ClientConnectorError as exc:
            raise BackendError(
                redact_text(f"cannot connect to {url}: {exc.os_error or exc}")
            ) from None
        except aiohttp.ClientError as exc:
            raise BackendError(
                redact_text(f"{type(exc).__name__} talking to {url}: {exc}")
            ) from None
        latency = time.perf_counter() - start
        if status != 200:
            snippet = raw[:200].decode("utf-8", "replace")
            raise BackendError(
                f"HTTP {status} from {redact_text(url)}: {snippet}",
                retryable=status in RETRYABLE_STATUS,
                retry_after=retry_after,
            )
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise BackendError(f"malformed JSON from {redact_text(url)}: {raw[:120]!r}") from None
        raise_reply_error(data, url)  # an error sent in a 200 (OpenRouter)
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or not choices:
            raise BackendError(f"response from {redact_text(url)} has no choices")
        content = reply_text(choices[0], url)
        if not isinstance(content, str):
            raise BackendError(f"response from {redact_text(url)} has non-text content")
        message = choices[0].get("message")  # a dict, or none where the filter withheld it
        reasoning = reply_reasoning(message) if isinstance(message, dict) else None
        if reasoning:
            content = join_reasoning(reasoning, content)  # split off again when scored
        usage = data.get("usage") or {}
        return Response(
            text=content,
            latency_s=latency,
            usage=flat_usage(usage),
            finish_reason=choices[0].get("finish_reason"),
        )

    async def aclose(self) -> None:
        self._ready.clear()  # bodies of jobs a stopped run never asked
        self.pool._freed = None  # bound to this event loop; a later loop makes its own
        if self._session is not None:
            await self._session.close()
            self._session = None
