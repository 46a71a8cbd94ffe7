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


def coerce_params(values: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """``values`` with every parameter whose default is a bool read by :func:`as_bool`."""
    return {
        k: as_bool(v, k) if isinstance(defaults.get(k), bool) else v for k, v in values.items()
    }
