"""Items: one question instance each, with chat messages (text and image parts) and a typed gold.

On disk an item is one JSON line::

    {"id": "clockqa-00001", "suite": "lost_in_time", "task": "clockqa",
     "messages": [{"role": "user", "content": [
         {"type": "image", "path": "images/clockqa-00001.png", "sha256": "…"},
         {"type": "text", "text": "What time is shown on the clock in the given image?"}]}],
     "target": "10:10:30", "choices": null, "metadata": {"style": "basic"}}

Images are files referenced by a path relative to the dataset directory, with their sha256 so a
request key never needs to re-read the bytes. The target stays a JSON value here; each task decodes
it into its typed answer (and names the field when it cannot).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from chronoeval.core.errors import DataError

ROLES = ("system", "user", "assistant")


@dataclass(frozen=True)
class TextPart:
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "text", "text": self.text}


@dataclass(frozen=True)
class ImagePart:
    path: str
    sha256: str
    mime: str = "image/png"

    def to_json(self) -> dict[str, Any]:
        out = {"type": "image", "path": self.path, "sha256": self.sha256}
        if self.mime != "image/png":
            out["mime"] = self.mime
        return out


Part = TextPart | ImagePart


@dataclass(frozen=True)
class Message:
    role: str
    content: tuple[Part, ...]

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "content": [p.to_json() for p in self.content]}

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.content if isinstance(p, TextPart))


@dataclass(frozen=True)
class Item:
    id: str
    suite: str
    task: str
    messages: tuple[Message, ...]
    target: Any
    choices: tuple[str, ...] | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "suite": self.suite,
            "task": self.task,
            "messages": [m.to_json() for m in self.messages],
            "target": self.target,
            "choices": list(self.choices) if self.choices is not None else None,
            "metadata": self.metadata,
        }

    def to_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True)

    @property
    def images(self) -> list[ImagePart]:
        # core/deferred_images.py DeferredLoad.check walks the same parts itself, with the same
        # indices: a new image-bearing part goes there too (tests/core/test_deferred_images.py)
        return [p for m in self.messages for p in m.content if isinstance(p, ImagePart)]

    @classmethod
    def from_json(cls, obj: Any) -> Item:
        """Validate one decoded JSON object; errors name the item id and the field."""
        if not isinstance(obj, dict):
            raise DataError(f"expected a JSON object, got {type(obj).__name__}")
        item_id = obj.get("id")
        if not isinstance(item_id, str) or not item_id:
            raise DataError("missing or empty string", field="id")

        def fail(field_name: str, message: str) -> DataError:
            return DataError(message, item_id=item_id, field=field_name)

        for name in ("suite", "task"):
            if not isinstance(obj.get(name), str) or not obj[name]:
                raise fail(name, "missing or empty string")
        if "target" not in obj:
            raise fail("target", "missing")
        raw_messages = obj.get("messages")
        if not isinstance(raw_messages, list) or not raw_messages:
            raise fail("messages", "must be a non-empty list")
        messages = []
        for i, raw in enumerate(raw_messages):
            where = f"messages[{i}]"
            if not isinstance(raw, dict) or raw.get("role") not in ROLES:
                raise fail(f"{where}.role", f"must be one of {', '.join(ROLES)}")
            content = raw.get("content")
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
            if not isinstance(content, list) or not content:
                raise fail(f"{where}.content", "must be a string or a non-empty list of parts")
            parts: list[Part] = []
            for j, part in enumerate(content):
                pwhere = f"{where}.content[{j}]"
                kind = part.get("type") if isinstance(part, dict) else None
                if kind == "text" and isinstance(part.get("text"), str):
                    parts.append(TextPart(part["text"]))
                elif kind == "image":
                    path, digest = part.get("path"), part.get("sha256")
                    if not isinstance(path, str) or not path:
                        raise fail(f"{pwhere}.path", "image part needs a relative path")
                    if not isinstance(digest, str) or len(digest) != 64:
                        raise fail(f"{pwhere}.sha256", "image part needs its sha256 hex digest")
                    parts.append(ImagePart(path, digest, part.get("mime", "image/png")))
                else:
                    raise fail(pwhere, "part must be {type: text, text} or {type: image, path}")
            messages.append(Message(raw["role"], tuple(parts)))
        choices = obj.get("choices")
        if choices is not None and (
            not isinstance(choices, list) or not all(isinstance(c, str) for c in choices)
        ):
            raise fail("choices", "must be null or a list of strings")
        metadata = obj.get("metadata", {})
        if not isinstance(metadata, dict):
            raise fail("metadata", "must be an object")
        return cls(
            id=item_id,
            suite=obj["suite"],
            task=obj["task"],
            messages=tuple(messages),
            target=obj["target"],
            choices=tuple(choices) if choices is not None else None,
            metadata=metadata,
        )


def user_message(*parts: Part) -> Message:
    return Message("user", tuple(parts))
