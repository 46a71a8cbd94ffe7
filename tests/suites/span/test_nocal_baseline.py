"""TimeAgent baseline ``timeagent:code-nocal``: TimeAgent's code loop and sandbox with NO calendar
API. Checked in the sandbox itself (standard library only, calendar functions and libraries out of
reach even with the Python-level filters switched off) and end to end against scripted
OpenAI-compatible models on 127.0.0.1: an honest coder using only ``datetime`` answers a
Gregorian-only question; the scripted TimeAgent speaker, whose code calls ``search_calendar``,
reaches 100% with ``timeagent:code`` and fails every code turn with ``timeagent:code-nocal``."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.items import Message, TextPart
from chronoeval.core.registry import get_task
from chronoeval.engine.request import Request
from chronoeval.engine.store import RunStore
from chronoeval.models.registry import BackendOptions, make_backend
from chronoeval.report import paper_tables as pt
from chronoeval.report.runs import load_run
from chronoeval.suites.span.baselines import NOCAL_SYSTEM, NoCalendarCodeBaseline
from chronoeval.suites.span.sandbox import run_code
from chronoeval.suites.span.tables import ACCURACY
from chronoeval.suites.span.timeagent import CODE_SYSTEM
from openai_stub import Stub, chat_reply, openai_stub

CALENDAR_CALL = "print(search_calendar('gregorian', 'hebrew', date='2000-07-01'))"


def test_without_the_api_only_the_standard_library_is_there() -> None:
    honest = run_code(
        "import datetime\nprint(datetime.date(2000, 7, 1) + datetime.timedelta(days=100))",
        calendar_api=False,
    )
    assert honest.ok and honest.output == "2000-10-09\n", honest
    assert "no-calendar-api" in honest.layers and "no-site-packages (-S)" in honest.layers
    # the same call works with the API and is not defined without it
    assert run_code(CALENDAR_CALL).output == "5760-03-28\n"
    named = run_code(CALENDAR_CALL, calendar_api=False)
    assert not named.ok and "NameError" in (named.error or ""), named
    imported = run_code("from calendar_api import *", calendar_api=False)
    assert not imported.ok and "no calendar API" in (imported.error or ""), imported
    # the Python filters are a convenience: switched off, the calendar libraries and chronoeval
    # are still not importable (site-packages off sys.path; with bubblewrap not even visible)
    for module in ("hijridate", "convertdate", "chronoeval"):
        res = run_code(f"import {module}", calendar_api=False, python_filters=False)
        assert not res.ok and "ModuleNotFoundError" in (res.error or ""), (module, res)
    # the isolation layers of the ordinary sandbox are all still there
    with_api = run_code("print(1)")
    assert set(with_api.layers) - {"python-filters (convenience)"} <= set(honest.layers)


def _gregorian_only(question: str) -> str | None:
    m = re.search(r"(\d+) days after (\d{4}-\d{2}-\d{2}) in the Gregorian calendar", question)
    return f"{int(m.group(1))} {m.group(2)}" if m else None


class _Coder:
    """A model that first tries the calendar API (as a model used to TimeAgent might), reads the
    error, then computes with ``datetime`` only (served by tests/openai_stub.py)."""

    @staticmethod
    def reply(messages: list[dict]) -> str:
        last = str(messages[-1]["content"])
        if last.startswith("Output of your code:"):
            out = last.split("\n", 1)[1].rsplit("\nNow give", 1)[0].strip()
            return f"The program printed {out}.\nAnswer: {out}"
        if last.startswith("Your code failed:"):
            n, start = _gregorian_only(str(messages[1]["content"])).split()  # type: ignore[union-attr]
            return ("No calendar functions, then. With datetime:\n```python\nimport datetime\n"
                    f"d = datetime.date.fromisoformat('{start}') + datetime.timedelta(days={n})\n"
                    "print(d.isoformat())\n```")  # fmt: skip
        return (
            f"```python\nprint(add_days('gregorian', '{_gregorian_only(last).split()[1]}', 1))\n```"  # type: ignore[union-attr]
        )


@pytest.fixture()
def coder() -> Iterator[Stub]:
    def reply(body: dict) -> dict:
        out = chat_reply(_Coder.reply(body["messages"]))
        out["usage"] = {"prompt_tokens": 9, "completion_tokens": 5, "total_tokens": 14}
        return out

    with openai_stub(reply) as stub:
        yield stub


def test_honest_datetime_coder_answers_a_gregorian_question(coder: Stub) -> None:
    backend = make_backend(
        "timeagent:code-nocal:openai:coder",
        get_task("span"),
        [],
        BackendOptions(base_url=coder.url, api_key_env="NO_SUCH_KEY_ENV"),
    )
    assert isinstance(backend, NoCalendarCodeBaseline)
    assert backend.identity == "timeagent-code-nocal-v1/" + backend.inner.identity
    question = "What is the date 1000 days after 1999-12-31 in the Gregorian calendar?"
    resp = asyncio.run(backend.generate(Request((Message("user", (TextPart(question),)),))))
    asyncio.run(backend.aclose())
    want = (dt.date(1999, 12, 31) + dt.timedelta(days=1000)).isoformat()
    assert resp.text.endswith(f"Answer: {want}")
    roles = [t["role"] for t in resp.turns]
    assert roles == ["assistant", "code", "assistant", "code", "assistant"]
    first, second = resp.turns[1], resp.turns[3]
    assert not first["ok"] and "add_days" in first["error"] and "NameError" in first["error"]
    assert second["ok"] and second["output"].strip() == want
    assert "no-calendar-api" in second["layers"]
    assert all(b["messages"][0] == {"role": "system", "content": NOCAL_SYSTEM}
               for b in coder.bodies)  # fmt: skip
    assert resp.usage["completion_tokens"] == 5 * 3  # summed over the three model calls


def test_speaker_reaches_100_with_the_api_and_fails_without_it(serve, tmp_path: Path) -> None:
    """The same scripted coder (its code calls the calendar API) through ``chronoeval serve``:
    the SPAN table shows the two TimeAgent variants as rows."""
    server = serve("--model", "span-speaker")
    runs = {}
    for mode in ("code", "code-nocal"):
        d = tmp_path / mode
        res = api.run(["span"], f"timeagent:{mode}:openai:span-speaker/span", n=6, seed=7,
                      params={"eval_dates": "2015-07-01"}, run_dir=d,
                      backend_options=BackendOptions(base_url=server.url), concurrency=3,
                      progress=False, plots=False)  # fmt: skip
        runs[mode] = (d, res.results["tasks"]["span"])
    assert runs["code"][1]["metrics"]["overall"]["accuracy"]["value"] == 1.0
    nocal = runs["code-nocal"][1]
    assert nocal["metrics"]["overall"]["accuracy"]["value"] == 0.0
    with RunStore.in_dir(runs["code-nocal"][0]) as store:
        stored = list(store.all().values())
    assert len(stored) == 6
    for s in stored:
        code_turns = [t for t in s.turns or [] if t["role"] == "code"]
        assert code_turns and all(not t["ok"] for t in code_turns)
        assert all("no-calendar-api" in t["layers"] for t in code_turns)
        assert any("is not defined" in t["error"] or "no calendar API" in t["error"]
                   for t in code_turns)  # fmt: skip
    table = pt.build_table(ACCURACY, [load_run(d) for d, _ in runs.values()])
    cells = {r.model: r.cells["all"] for r in table.rows}
    assert cells["timeagent:code:openai:span-speaker/span"].value == pytest.approx(100.0)
    assert cells["timeagent:code-nocal:openai:span-speaker/span"].value == pytest.approx(0.0)
    assert CODE_SYSTEM != NOCAL_SYSTEM and "calendar_api" not in NOCAL_SYSTEM


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_without_the_api_the_os_layers_still_hold(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Standard-library-only mode removes things; it keeps every OS layer. Attacks written with
    the Python filters switched off (they are no boundary): the harness's environment, a file
    outside the sandbox, the network."""
    import os
    import socket

    from chronoeval.suites.span.sandbox import SandboxLimits, bwrap_works

    if mode == "bwrap" and not bwrap_works():
        pytest.skip("bubblewrap cannot run here")
    if mode == "process" and os.getuid() != 0:
        pytest.skip("the fallback drops to uid 65534 only when the harness is root")
    monkeypatch.setenv("CHRONOEVAL_SANDBOX", mode)
    monkeypatch.setenv("CHRONOEVAL_TEST_SECRET", "s3cr3t-value-that-must-not-leak")
    canary = tmp_path / "canary.txt"
    canary.write_text("intact")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    # (with the process fallback, modules not loaded before the uid drop cannot even be read:
    # the base installation lives under /root; so every step guards its own import)
    code = f"""
import os
out = []
for pid in [os.getppid(), 1]:
    try:
        out.append(open(f"/proc/{{pid}}/environ", "rb").read().decode("latin-1"))
    except Exception as exc:
        out.append(type(exc).__name__)
try:
    open({str(canary)!r}, "w").write("pwned")
    out.append("wrote")
except Exception as exc:
    out.append(type(exc).__name__)
try:
    import socket
    socket.create_connection(("127.0.0.1", {port}), 2)
    out.append("connected")
except Exception as exc:
    out.append(type(exc).__name__)
print(os.environ, out)
"""
    limits = SandboxLimits(cpu_s=2, wall_s=10)
    try:
        res = run_code(code, limits=limits, python_filters=False, calendar_api=False)
    finally:
        listener.close()
    assert res.ok, res
    assert "no-calendar-api" in res.layers and "empty-env" in res.layers
    assert ("bwrap" if mode == "bwrap" else "uid-65534") in res.layers
    assert "s3cr3t-value" not in res.output
    assert "wrote" not in res.output and canary.read_text() == "intact"
    assert "connected" not in res.output
