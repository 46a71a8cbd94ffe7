"""Backend for any OpenAI-compatible chat-completions endpoint (vLLM, SGLang, Ollama, llama.cpp
server, LM Studio, hosted APIs, ``chronoeval serve``).

Images travel as base64 data URLs. The API key is read from an environment variable at call time
and is never stored: not in the run config, not in the request key, not in any record.
"""

from __future__ import annotations

import email.utils
import json
import os
import time
from typing import Any

import aiohttp

from chronoeval.engine.request import Request
from chronoeval.models.base import Backend, BackendError, Response

RETRYABLE_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


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


class OpenAIBackend(Backend):
    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 120.0,
        max_connections: int = 256,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout_s = timeout_s
        self.max_connections = max_connections
        self.extra_body = extra_body or {}
        self.identity = f"openai/{model}"
        self._session: aiohttp.ClientSession | None = None

    def describe(self) -> dict[str, Any]:
        return {
            "identity": self.identity,
            "base_url": self.base_url,
            "model": self.model,
            "api_key_env": self.api_key_env,
            "timeout_s": self.timeout_s,
        }

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

    def body(self, request: Request) -> dict[str, Any]:
        cfg = request.config
        body: dict[str, Any] = {
            "model": self.model,
            "messages": request.openai_messages(),
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
        return body

    async def generate(self, request: Request) -> Response:
        session = await self._get_session()
        url = f"{self.base_url}/chat/completions"
        headers = self._headers()
        headers["X-Chronoeval-Request-Key"] = request.key(self.identity)
        payload = json.dumps(self.body(request))
        start = time.perf_counter()
        try:
            async with session.post(url, data=payload, headers=headers) as resp:
                raw = await resp.read()
                status = resp.status
                retry_after = parse_retry_after(resp.headers.get("Retry-After"))
        except TimeoutError:
            raise BackendError(f"timed out after {self.timeout_s:g}s: {url}") from None
        except aiohttp.ClientConnectorError as exc:
            raise BackendError(f"cannot connect to {url}: {exc.os_error or exc}") from None
        except aiohttp.ClientError as exc:
            raise BackendError(f"{type(exc).__name__} talking to {url}: {exc}") from None
        latency = time.perf_counter() - start
        if status != 200:
            snippet = raw[:200].decode("utf-8", "replace")
            raise BackendError(
                f"HTTP {status} from {url}: {snippet}",
                retryable=status in RETRYABLE_STATUS,
                retry_after=retry_after,
            )
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise BackendError(f"malformed JSON from {url}: {raw[:120]!r}") from None
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or not choices:
            raise BackendError(f"response from {url} has no choices")
        message = choices[0].get("message") if isinstance(choices[0], dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        if content is None:
            content = ""  # a model that returned nothing answered nothing: parsed as NoAnswer
        if not isinstance(content, str):
            raise BackendError(f"response from {url} has non-text content")
        usage = data.get("usage") or {}
        return Response(
            text=content,
            latency_s=latency,
            usage={k: int(v) for k, v in usage.items() if isinstance(v, int)},
            finish_reason=choices[0].get("finish_reason"),
        )

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
