"""Requests: the rendered chat messages of one item plus the generation config, and their key.

The request key covers everything that changes the answer: the backend's identity, every message
(text, and each image by its sha256), and the generation config. Two runs that would ask the same
thing share a key, so a run resumes by key and never asks twice.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from chronoeval.core.items import ImagePart, Message, TextPart


@dataclass(frozen=True)
class GenerationConfig:
    temperature: float = 0.0
    max_tokens: int = 512
    seed: int | None = 0
    stop: tuple[str, ...] = ()
    top_p: float | None = None
    extra_body: dict[str, Any] = field(default_factory=dict, hash=False)
    """Extra chat-completions body fields, sent verbatim (merged over the standard fields) by the
    OpenAI-compatible backend, e.g. ``max_completion_tokens``, ``reasoning_effort``,
    ``response_format``, vLLM's ``chat_template_kwargs``. Other backends ignore them."""
    system_prompt: str | None = None
    """A system message put before every item's messages (see :func:`with_system_prompt`)."""
    omit: tuple[str, ...] = ()
    """Standard body fields not to send (e.g. ``max_tokens``, ``temperature``) to endpoints that
    reject them."""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["stop"] = list(self.stop)
        # omitted when unset, so every existing request key (and run store) stays valid
        for name in ("extra_body", "omit"):
            if not out[name]:
                del out[name]
        if self.omit:
            out["omit"] = list(self.omit)
        if self.system_prompt is None:
            del out["system_prompt"]
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> GenerationConfig:
        obj = dict(obj)
        obj["stop"] = tuple(obj.get("stop") or ())
        obj["omit"] = tuple(obj.get("omit") or ())
        obj["extra_body"] = dict(obj.get("extra_body") or {})
        return cls(**{k: v for k, v in obj.items() if k in cls.__dataclass_fields__})


_NEW_CONFIG: Any = object()
"""``Request``'s default configuration: a new ``GenerationConfig()`` per request, as the field's
``default_factory`` says."""


@dataclass(frozen=True, init=False)
class Request:
    """What a backend is asked: the messages, the generation settings, and where images are."""

    messages: tuple[Message, ...]
    config: GenerationConfig = field(default_factory=GenerationConfig)
    image_root: Path | None = None
    """Directory that ImagePart paths are relative to (a dataset directory)."""
    inline_images: dict[str, bytes] | None = None
    """Image bytes by part path, for requests that arrived with the images inside (the server)."""

    def __init__(
        self,
        messages: tuple[Message, ...],
        config: GenerationConfig = _NEW_CONFIG,
        image_root: Path | None = None,
        inline_images: dict[str, bytes] | None = None,
    ) -> None:
        # the generated frozen __init__ sets each field through object.__setattr__; a run makes
        # one request per item, and writing the instance's dict directly costs half as much
        fields = self.__dict__
        fields["messages"] = messages
        fields["config"] = GenerationConfig() if config is _NEW_CONFIG else config
        fields["image_root"] = image_root
        fields["inline_images"] = inline_images

    def read_image(self, path: str) -> bytes:
        if self.inline_images is not None and path in self.inline_images:
            return self.inline_images[path]
        if self.image_root is None:
            raise FileNotFoundError(f"no image source for {path!r}")
        return read_confined(self.image_root, path)

    def key(self, backend_identity: str) -> str:
        # made once per request and identity (a run makes it for the job, a backend again for a
        # header or a seed); the fields are frozen, so it cannot go stale
        keys = self.__dict__.get("_keys")
        if keys is None:
            keys = {}
            object.__setattr__(self, "_keys", keys)
        got = keys.get(backend_identity)
        if got is None:
            got = keys[backend_identity] = request_key(backend_identity, self.messages, self.config)
        return got

    def openai_messages(
        self, image_part: Callable[[ImagePart, bytes], dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        """Chat-completions messages; images read now and not kept, each rendered by
        ``image_part(part, bytes)`` (default: a base64 data URL ``image_url`` part)."""
        render = image_part or data_url_part
        out: list[dict[str, Any]] = []
        for m in self.messages:
            if all(isinstance(p, TextPart) for p in m.content):
                out.append({"role": m.role, "content": m.text})
                continue
            parts: list[dict[str, Any]] = []
            for p in m.content:
                if isinstance(p, TextPart):
                    parts.append({"type": "text", "text": p.text})
                else:
                    parts.append(render(p, self.read_image(p.path)))
            out.append({"role": m.role, "content": parts})
        return out


_resolved_roots: dict[Path, str] = {}


def read_confined(root: Path, path: str) -> bytes:
    """The bytes of ``root / path``, never read from outside ``root``.

    The common case (a plain relative path whose components under the root are no symlinks) is
    checked with one ``lstat`` per component below the root, whose resolved path is kept per
    process; anything else (``..``, ``.``, a backslash, an absolute path, a symlink anywhere under
    the root) goes through :func:`chronoeval.core.imagecheck.confine`, which resolves the whole
    path (most of the per-request cost of reading an image before)."""
    from chronoeval.core.imagecheck import confine  # never read outside the dataset

    parts = path.split("/")
    if "\\" in path or path.startswith("~") or any(p in ("", ".", "..") for p in parts):
        return confine(root, path, field="image").read_bytes()
    base = _resolved_roots.get(root)
    if base is None:
        if len(_resolved_roots) > 64:
            _resolved_roots.clear()
        base = _resolved_roots[root] = str(Path(root).resolve())
    cur = base
    for part in parts:
        cur = os.path.join(cur, part)
        if stat.S_ISLNK(os.lstat(cur).st_mode):
            return confine(root, path, field="image").read_bytes()
    with open(cur, "rb") as fh:
        return fh.read()


def data_url_part(part: ImagePart, data: bytes) -> dict[str, Any]:
    """An image as an OpenAI ``image_url`` part holding a base64 data URL."""
    url = f"data:{part.mime};base64,{base64.b64encode(data).decode('ascii')}"
    return {"type": "image_url", "image_url": {"url": url}}


def with_system_prompt(messages: tuple[Message, ...], prompt: str | None) -> tuple[Message, ...]:
    """``messages`` with ``prompt`` as the system message: a new first message, or put ahead of
    the text of a system message the item already has (one system message either way)."""
    if not prompt:
        return messages
    if messages and messages[0].role == "system":
        first = Message("system", (TextPart(prompt), *messages[0].content))
        return (first, *messages[1:])
    return (Message("system", (TextPart(prompt),)), *messages)


def _key_form(messages: tuple[Message, ...]) -> list[dict[str, Any]]:
    return [
        {
            "role": m.role,
            "content": [
                {"text": p.text} if isinstance(p, TextPart) else {"image": p.sha256}
                for p in m.content
            ],
        }
        for m in messages
    ]


_canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
"""Canonical JSON: sorted keys, compact, UTF-8 as is (one encoder, not one per call)."""


_config_blobs: dict[GenerationConfig, tuple[GenerationConfig, str]] = {}
_last_config: tuple[Any, ...] = ()
"""The configuration object whose blob was made last, a copy of its ``extra_body`` then, and
the blob: the same object again (every request of a run shares one), its ``extra_body`` still
equal to that copy, has the same blob (its other fields are frozen) without hashing it."""


def _config_blob(config: GenerationConfig) -> str:
    """``config.to_json()`` in canonical JSON, made once per configuration (every request of a
    run shares one; ``dataclasses.asdict`` per request was most of the key's cost). The cached
    configuration must also compare equal field by field, ``extra_body`` included."""
    global _last_config
    last = _last_config  # one read: a tuple rebound whole, never changed in place
    if last and last[0] is config and config.extra_body == last[1]:  # the run's own, unchanged
        return last[2]
    try:
        hit = _config_blobs.get(config)
    except TypeError:  # an unhashable value inside (a list in ``stop``): not cached
        return _canonical(config.to_json())
    if hit is not None and hit[0] == config:
        _last_config = (config, hit[0].extra_body, hit[1])
        return hit[1]
    blob = _canonical(config.to_json())
    if len(_config_blobs) > 64:
        _config_blobs.clear()
    kept = dataclasses.replace(config, extra_body=copy.deepcopy(config.extra_body))
    _config_blobs[kept] = (kept, blob)
    _last_config = (config, kept.extra_body, blob)
    return blob


_text_blobs: dict[str, str] = {}
_HEX = re.compile("[0-9a-f]{64}")


def _json_str(text: str) -> str:
    """``_canonical(text)`` of a string, kept for the next request (a task's question wording and
    a run's backend identity repeat in every request; at most 4,096 strings are kept)."""
    blob = _text_blobs.get(text)
    if blob is None:
        blob = _canonical(text)
        if len(_text_blobs) > 4096:
            _text_blobs.clear()
        _text_blobs[text] = blob
    return blob


def _messages_blob(messages: tuple[Message, ...]) -> str:
    """``_canonical(_key_form(messages))``, byte for byte, built from pieces: a text's JSON is
    made once per distinct text (every item of a task shares its question wording), an image's
    sha256 is hex and needs no escaping. Anything else (a digest that is not 64 lower-case hex
    digits) takes the encoder (tests/engine/test_request_key_blob.py compares both)."""
    out = []
    for m in messages:
        parts = []
        for p in m.content:
            if isinstance(p, TextPart):
                parts.append('{"text":' + _json_str(p.text) + "}")
            elif len(p.sha256) == 64 and _HEX.fullmatch(p.sha256):
                parts.append('{"image":"' + p.sha256 + '"}')
            else:
                parts.append('{"image":' + _canonical(p.sha256) + "}")
        out.append('{"content":[' + ",".join(parts) + '],"role":' + _canonical(m.role) + "}")
    return "[" + ",".join(out) + "]"


def request_key(identity: str, messages: tuple[Message, ...], config: GenerationConfig) -> str:
    # byte for byte the canonical JSON (sorted keys) of
    # {"backend": identity, "config": config.to_json(), "messages": _key_form(messages)}
    ident = _json_str(identity) if type(identity) is str else _canonical(identity)
    blob = (
        f'{{"backend":{ident},"config":{_config_blob(config)},'
        f'"messages":{_messages_blob(messages)}}}'
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def decode_data_url(url: str) -> tuple[str, bytes]:
    """(mime, bytes) of a ``data:<mime>;base64,<payload>`` URL; ValueError otherwise."""
    if not url.startswith("data:") or ";base64," not in url:
        raise ValueError("only base64 data URLs are accepted for images (no network fetches)")
    head, payload = url[5:].split(";base64,", 1)
    try:
        data = base64.b64decode(payload, validate=True)
    except (ValueError, base64.binascii.Error) as exc:  # type: ignore[attr-defined]
        raise ValueError(f"image data URL is not valid base64: {exc}") from None
    return head or "application/octet-stream", data


def request_from_openai(
    messages: list[dict[str, Any]],
    config: GenerationConfig,
    decode: Callable[[str], tuple[str, bytes, str]] | None = None,
) -> Request:
    """Build a Request from chat-completions messages (as received by the server). ``decode``:
    data URL -> (mime, bytes, sha256 hex), e.g. the server's memo (server/payloads.py)."""
    out: list[Message] = []
    inline: dict[str, bytes] = {}
    for i, m in enumerate(messages):
        role = m.get("role") if isinstance(m, dict) else None
        role = "system" if role == "developer" else role  # OpenAI's newer name for it
        if role not in ("system", "user", "assistant"):
            raise ValueError(f"messages[{i}] needs a role of system, developer, user or assistant")
        content = m.get("content")
        if isinstance(content, str):
            out.append(Message(role, (TextPart(content),)))
            continue
        if not isinstance(content, list):
            raise ValueError(f"messages[{i}].content must be a string or a list of parts")
        parts: list[TextPart | ImagePart] = []
        for j, part in enumerate(content):
            kind = part.get("type") if isinstance(part, dict) else None
            if kind == "text":
                parts.append(TextPart(str(part.get("text", ""))))
            elif kind == "image_url":
                url = part.get("image_url")
                url = url.get("url") if isinstance(url, dict) else url
                if not isinstance(url, str):
                    raise ValueError(f"messages[{i}].content[{j}].image_url.url must be a string")
                if decode is not None:
                    mime, data, digest = decode(url)
                else:
                    mime, data = decode_data_url(url)
                    digest = hashlib.sha256(data).hexdigest()
                path = f"inline/{len(inline)}"
                inline[path] = data
                parts.append(ImagePart(path, digest, mime))
            else:
                raise ValueError(f"messages[{i}].content[{j}]: unsupported part type {kind!r}")
        out.append(Message(role, tuple(parts)))
    return Request(tuple(out), config, inline_images=inline)
