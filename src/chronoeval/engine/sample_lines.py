"""samples.jsonl's lines and samples.parquet's JSON-text columns, each value encoded once.

``api.write_samples`` writes every record twice: as one JSON line (``ensure_ascii=False``,
``default=str``), and as Parquet columns, six of which are a field's own JSON text (target,
answer and metadata with ``default=str``; scores, usage and prompt without; prompt with
``ensure_ascii=False``). Encoded separately, the line repeats the columns' work, and each of the
seven ``json.JSONEncoder.encode`` calls per record pays Python set-up around the C encoder.

:func:`encode` gives the same strings with less work:

- each column value is encoded once, by a C encoder made once per option set
  (:func:`encoder`: ``json``'s own ``c_make_encoder`` with the options ``JSONEncoder`` would give
  it, so the same text);
- the line is assembled from its fields' encodings (``{"k": v, ...}`` with ``json``'s default
  separators), reusing a column's text where it is the line's text too: always for the prompt
  (same options), and for the ASCII-escaped columns when their text holds no ``\\u`` escape
  (then no string in the value had a character the two ``ensure_ascii`` settings write
  differently); anything else in the line is encoded on its own.

Where a column cannot be encoded (a value ``json`` refuses), :func:`encode` returns None and the
caller writes both files the general way, failing as it always did.
``tests/engine/test_sample_lines.py`` compares the strings with plain ``json.dumps``'s.
"""

from __future__ import annotations

import json
import json.encoder as _json_encoder
import math
from collections.abc import Callable
from typing import Any

Encode = Callable[[Any], str]


def encoder(*, ensure_ascii: bool = True, default: Callable[[Any], Any] | None = None) -> Encode:
    """``json.JSONEncoder(ensure_ascii=..., default=...).encode`` for values without reference
    cycles (the same strings), without its per-call set-up where the C encoder is there. It keeps
    no state between calls (no circular-reference marks: a cycle ends in RecursionError, where
    ``JSONEncoder`` says ValueError; :func:`encode` then goes the general way)."""
    py = json.JSONEncoder(ensure_ascii=ensure_ascii, default=default)
    make = getattr(_json_encoder, "c_make_encoder", None)
    esc = getattr(
        _json_encoder,
        "c_encode_basestring_ascii" if ensure_ascii else "c_encode_basestring",
        None,
    )
    if make is None or esc is None:
        return py.encode
    # the arguments JSONEncoder.iterencode gives c_make_encoder for these options, but no marks
    c_encode = make(
        None,
        py.default,
        esc,
        None,
        py.key_separator,
        py.item_separator,
        py.sort_keys,
        py.skipkeys,
        py.allow_nan,
    )
    join = "".join

    def encode(o: Any) -> str:
        return esc(o) if isinstance(o, str) else join(c_encode(o, 0))

    return encode


_line = encoder(ensure_ascii=False, default=str)
_as_str = encoder(default=str)
_plain = encoder()
_unicode = encoder(ensure_ascii=False)
_esc_unicode: Callable[[str], str] = getattr(_json_encoder, "c_encode_basestring", None) or (
    _json_encoder.py_encode_basestring
)

COLUMNS = ("target", "answer", "scores", "metadata", "prompt", "usage")
"""The Parquet columns that hold a field's JSON text."""


def _value(v: Any) -> str:
    """``v`` as the line's encoder writes it."""
    if type(v) is str:
        return _esc_unicode(v)
    if v is None:
        return "null"
    if type(v) is float and math.isfinite(v):
        return float.__repr__(v)
    return _line(v)


def encode(rows: list[dict[str, Any]]) -> tuple[list[str], dict[str, list[str]]] | None:
    """The JSON lines of ``rows`` (``SampleRecord.to_json()``, without the newline) and the
    JSON-text columns, exactly as the general way writes them; None where anything fails (a
    value ``json`` refuses, a cycle): the caller then goes the general way, which fails as it
    always did."""
    try:
        return _encode(rows)
    except Exception:  # noqa: BLE001 - the general way raises what it always raised
        return None


def _encode(rows: list[dict[str, Any]]) -> tuple[list[str], dict[str, list[str]]] | None:
    lines: list[str] = []
    cols: dict[str, list[str]] = {c: [] for c in COLUMNS}
    targets, answers, scores_col = cols["target"], cols["answer"], cols["scores"]
    metas, prompts, usages = cols["metadata"], cols["prompt"], cols["usage"]
    for row in rows:
        reuse = {
            "target": _as_str(row["target"]),
            "answer": _as_str(row["answer"]),
            "scores": _plain(row["scores"]),
            "metadata": _as_str(row["metadata"]),
        }
        usage = row.get("usage")
        usage_text = _plain(usage or {})
        prompt_text = _unicode(row.get("prompt"))
        targets.append(reuse["target"])
        answers.append(reuse["answer"])
        scores_col.append(reuse["scores"])
        metas.append(reuse["metadata"])
        prompts.append(prompt_text)
        usages.append(usage_text)
        if usage:
            reuse["usage"] = usage_text
        parts = []
        for k, v in row.items():
            if type(k) is not str:
                return None
            text = reuse.get(k)
            if text is not None and "\\u" in text:
                text = None  # a character the two ensure_ascii settings may write differently
            if k == "prompt" and v:
                text = prompt_text  # the same options: the same text
            parts.append(f"{_esc_unicode(k)}: {_value(v) if text is None else text}")
        lines.append("{" + ", ".join(parts) + "}")
    return lines, cols
