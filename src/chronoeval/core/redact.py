"""Credentials written inside URLs (``https://user:key@host/v1``) never reach a run directory, a
report or an error text: :func:`redact` replaces the userinfo with ``***`` in any string, list or
dict. (The configured API key's value is redacted elsewhere; this module is only about URLs.)"""

from __future__ import annotations

import re
from typing import Any

_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<userinfo>[^/@\s?#]+)@")


def redact_text(text: str) -> str:
    """``http://user:key@host`` → ``http://***@host`` wherever a URL appears in ``text``."""
    return _USERINFO.sub(lambda m: f"{m.group('scheme')}***@", text)


def redact(obj: Any) -> Any:
    """A copy of ``obj`` with every URL credential in its strings (keys included) redacted."""
    if isinstance(obj, str):
        return redact_text(obj)
    if isinstance(obj, dict):
        return {redact(k): redact(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return type(obj)(redact(v) for v in obj)
    return obj
