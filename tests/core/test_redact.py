"""Secret values never reach a model or a run directory: core/redact.py, RunStore.put, and the
TimeAgent's code and tool turns."""

from __future__ import annotations

import asyncio
import base64
import json
import sqlite3
from pathlib import Path

import pytest

from chronoeval.core.items import Message, TextPart
from chronoeval.core.redact import REDACTED, redact, redact_text, register_secret_env
from chronoeval.engine.request import Request
from chronoeval.engine.store import RunStore
from chronoeval.models.base import Backend, Response
from chronoeval.suites.span.timeagent import CodeTimeAgent

KEY = "sk-live-51HxQ2eZvKYlo2C9bT0pQ7rS"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_PROVIDER_CRED", KEY)
    register_secret_env("MY_PROVIDER_CRED")


def test_literal_and_common_encodings_are_redacted() -> None:
    b64 = base64.b64encode(KEY.encode()).decode()
    text = f"a {KEY} b {b64} c {KEY.encode().hex()} d {KEY[::-1]} e"
    out = redact_text(text)
    assert KEY not in out and b64 not in out and KEY[::-1] not in out
    assert out.count(REDACTED) == 4 and out.startswith("a ") and out.endswith(" e")
    nested = redact({"turns": [{"output": KEY, KEY: (1, KEY)}], "n": 3})
    assert json.dumps(nested).count(REDACTED) == 3 and nested["n"] == 3


def test_names_that_look_like_credentials_are_covered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_SERVICE_TOKEN", "tok-abcdefghijkl")
    monkeypatch.setenv("SHORT_KEY", "abc")  # too short to redact safely
    assert redact_text("tok-abcdefghijkl abc") == f"{REDACTED} abc"


def test_run_store_never_holds_the_value(tmp_path: Path) -> None:
    with RunStore.in_dir(tmp_path) as store:
        store.put("k", item_id="i", task="t", backend="b", text=f"key={KEY}", error=None,
                  latency_s=0.1, usage=None, finish_reason="stop", attempts=1,
                  turns=[{"role": "code", "output": KEY}])  # fmt: skip
        store.put("k2", item_id="j", task="t", backend="b", text=None, error=f"HTTP 401 {KEY}",
                  latency_s=None, usage=None, finish_reason=None, attempts=1)  # fmt: skip
    raw = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert KEY.encode() not in raw
    rows = sqlite3.connect(tmp_path / "store.sqlite").execute(
        "SELECT text, error, turns FROM responses"
    )
    assert any(REDACTED in (r[0] or "") + (r[1] or "") + (r[2] or "") for r in rows)


class _Leaky(Backend):
    """A model that knows the key and writes code printing it; records what it was shown."""

    identity = "leaky"

    def __init__(self) -> None:
        self.seen: list[str] = []

    async def generate(self, request: Request) -> Response:
        self.seen += [m.text for m in request.messages]
        if len(request.messages) == 2:
            return Response(text=f"```python\nprint('{KEY}')\nprint(1/0)\n```")
        return Response(text="Answer: 2000-01-01")


def test_code_turn_output_is_redacted_before_the_model_and_the_turns() -> None:
    inner = _Leaky()
    agent = CodeTimeAgent(inner)
    resp = asyncio.run(agent.generate(Request((Message("user", (TextPart("When?"),)),))))
    code_turn = next(t for t in resp.turns if t["role"] == "code")
    shown = json.dumps({k: v for k, v in code_turn.items() if k != "code"})
    assert KEY not in shown and KEY not in "\n".join(inner.seen[2:])
    assert code_turn["layers"], code_turn  # and the record says which layers were active
