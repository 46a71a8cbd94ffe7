"""Task parameters as users write them: ``--param key=value`` strings become typed values.

The CLI decodes JSON (``true``, ``3``, ``[1, 2]``); everything else arrives as a string. A flag whose
default is a bool must not be read with ``bool(value)`` — ``bool("no")`` is True — so values of bool
parameters are coerced here, once, for generation and load options alike.
"""

from __future__ import annotations

from typing import Any

from chronoeval.core.errors import ChronoevalError

TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")


def as_bool(value: Any, name: str) -> bool:
    """A strict yes/no: bools, 0/1 and true/false/yes/no/on/off; anything else is a clear error."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise ChronoevalError(f"--param {name} must be true or false, got {value!r}")


def as_list(value: Any) -> Any:
    """A list parameter written as ``a,b,c`` (or one name) becomes ``["a", "b", "c"]``; a JSON
    list stays as it is. Never ``list("roman")`` -> ``["r", "o", ...]``."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


def coerce_params(values: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """``values`` with every parameter whose default is a bool read by :func:`as_bool`, and every
    parameter whose default is a list read by :func:`as_list` (comma-separated names)."""
    out: dict[str, Any] = {}
    for k, v in values.items():
        if isinstance(defaults.get(k), bool):
            out[k] = as_bool(v, k)
        elif isinstance(defaults.get(k), (list, tuple)):
            out[k] = as_list(v)
        else:
            out[k] = v
    return out
