"""Redaction of secret VALUES (the configured API key and its kind) from anything the harness sends
to a model or writes to a run directory — defence in depth behind the sandbox (docs/security.md).

The sandbox keeps credentials out of model-written code (empty environment, no view of the
harness's /proc); this module makes sure that even if a value leaked into a tool or code turn, it
is replaced by :data:`REDACTED` before the next model turn and before ``RunStore.put`` writes it
(so store.sqlite, samples.jsonl, results and report.html never hold it).

Which values: the environment variables registered with :func:`register_secret_env` (every
backend's ``api_key_env``, ``OPENAI_API_KEY`` by default) and any environment variable whose name
looks like a credential (``*KEY*``, ``*TOKEN*``, ``*SECRET*``, ``*PASSWORD*``, ``*CREDENTIAL*``),
with values of at least :data:`MIN_LEN` characters. Besides the literal value, its base64
(standard and URL-safe, with or without padding), hex and reversed forms are replaced. Any other
encoding is not caught here: that is the sandbox's job.

Credentials written inside URLs (``https://user:key@host/v1``, e.g. in ``--base-url``) are redacted
too, whatever their value: the userinfo becomes ``***`` in any string, so they never reach a run
directory, a report or an error text.
"""

from __future__ import annotations

import base64
import os
import re
import threading
from typing import Any, TypeVar

REDACTED = "[REDACTED]"
MIN_LEN = 8
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
_names: set[str] = {"OPENAI_API_KEY"}
_lock = threading.Lock()
_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<userinfo>[^/@\s?#]+)@")
T = TypeVar("T")


def register_secret_env(name: str | None) -> None:
    """Treat the value of environment variable ``name`` as a secret from now on."""
    if name:
        with _lock:
            _names.add(name)


def _forms(value: str) -> set[str]:
    raw = value.encode("utf-8", "surrogatepass")
    forms = {value, value[::-1], raw.hex(), raw.hex().upper()}
    for enc in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        text = enc.decode("ascii")
        forms |= {text, text.rstrip("=")}
    return {f for f in forms if len(f) >= MIN_LEN}


_cache: tuple[Any, list[str]] | None = None


def secret_values() -> list[str]:
    """The strings to redact now, longest first.

    Recomputed whenever the environment or the registered names change: the cache key is a
    snapshot of both (a C-level copy of the environment's items, microseconds), so a variable set
    or changed at any time is seen by the next call, as without the cache."""
    global _cache
    with _lock:
        names = set(_names)
    data = getattr(os.environ, "_data", None)
    snap = (frozenset(names), tuple(data.items())) if isinstance(data, dict) else None
    cached = _cache
    if snap is not None and cached is not None and cached[0] == snap:
        return list(cached[1])
    out = _secret_values(names)
    if snap is not None:
        _cache = (snap, out)
    return list(out)


def _secret_values(names: set[str]) -> list[str]:
    names = set(names)
    names |= {k for k in os.environ if _SECRET_NAME.search(k)}
    out: set[str] = set()
    for name in names:
        value = os.environ.get(name) or ""
        if len(value.strip()) >= MIN_LEN:
            out |= _forms(value)
    return sorted(out, key=len, reverse=True)


def redact_url_credentials(text: str) -> str:
    """``http://user:key@host`` → ``http://***@host`` wherever a URL appears in ``text``."""
    if "@" not in text:
        return text
    return _USERINFO.sub(lambda m: f"{m.group('scheme')}***@", text)


def redact_text(text: str, secrets: list[str] | None = None) -> str:
    """``text`` with URL credentials and every secret value replaced."""
    text = redact_url_credentials(text)
    for s in secret_values() if secrets is None else secrets:
        if s in text:
            text = text.replace(s, REDACTED)
    return text


def redact(obj: T, secrets: list[str] | None = None) -> T:
    """``obj`` with URL credentials and every secret value in its strings (dict keys too, nested)
    replaced."""
    secrets = secret_values() if secrets is None else secrets
    return _walk(obj, secrets)  # type: ignore[no-any-return]


def _walk(obj: Any, secrets: list[str]) -> Any:
    if isinstance(obj, str):
        return redact_text(obj, secrets)
    if isinstance(obj, dict):
        return {_walk(k, secrets): _walk(v, secrets) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_walk(v, secrets) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_walk(v, secrets) for v in obj)
    return obj
