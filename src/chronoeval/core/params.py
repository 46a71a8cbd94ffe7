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


def as_number(value: Any, name: str, kind: type) -> Any:
    """An int (or float) parameter: numbers pass, anything else is a clear error; ``n`` (an item
    count) must be at least 1."""
    if isinstance(value, str):  # "5" from a Python caller; the CLI already decoded JSON numbers
        try:
            value = int(value) if kind is int else float(value)
            value = int(value) if isinstance(value, float) and value.is_integer() else value
        except ValueError:
            pass
    ok = isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        ok = ok or isinstance(value, float)
    if not ok:
        what = "an integer" if kind is int else "a number"
        raise ChronoevalError(f"--param {name} must be {what}, got {value!r}")
    if name == "n" and value < 1:
        raise ChronoevalError(f"--param n must be at least 1, got {value}")
    return value


def coerce_params(values: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """``values`` with every parameter whose default is a bool read by :func:`as_bool`, and every
    parameter whose default is a list read by :func:`as_list` (comma-separated names), and every
    parameter whose default is a number (or that is the item count ``n``) checked to be one."""
    out: dict[str, Any] = {}
    for k, v in values.items():
        default = defaults.get(k)
        if isinstance(default, bool):
            out[k] = as_bool(v, k)
        elif isinstance(default, (list, tuple)):
            out[k] = as_list(v)
        elif k == "n" and v is None:
            out[k] = v
        elif k == "n":
            out[k] = as_number(v, k, int)
        elif isinstance(default, int | float) and not isinstance(v, list):
            out[k] = as_number(v, k, float)  # ints pass unchanged
        else:
            out[k] = v
    return out
