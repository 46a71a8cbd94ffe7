"""The escape catalogue end to end: `chronoeval run --task span --model timeagent:code:openai:<m>`
against a scripted coder (an OpenAI-compatible server on 127.0.0.1) that answers each question
with one attack. The run goes on; every item gets a recorded answer or error; the configured API
key reaches neither the model server nor the run directory (and the redaction layer never had to
act: the sandbox held on its own); nothing is written outside the sandbox; no process survives.
The same path with an honest scripted coder keeps TimeAgent's accuracy at 100%."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chronoeval.suites.span.sandbox import bwrap_works
from suites.span.escapes import (
    CATALOGUE,
    FALLBACK_SKIP,
    CoderServer,
    render,
    stray_files,
    survivors,
)

KEY = "sk-chronoeval-test-" + "7f3a9c2e5b1d4f60a8e2c7b9d3f1a6e4"


def _run(run_dir: Path, url: str, n: int, mode: str, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "OPENAI_API_KEY": KEY, "CHRONOEVAL_SANDBOX": mode}
    cmd = [sys.executable, "-m", "chronoeval", "run", "--task", "span",
           "--model", "timeagent:code:openai:coder", "--base-url", url, "--n", str(n),
           "--seed", "7", "--param", "eval_dates=2015-07-01", "--out", str(run_dir),
           "--concurrency", "4", "--no-progress", *extra]  # fmt: skip
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)


def _files_with(root: Path, needles: list[bytes]) -> list[str]:
    hits = []
    for p in root.rglob("*"):
        if p.is_file():
            data = p.read_bytes()
            hits += [f"{p}: {n[:12]!r}" for n in needles if n in data]
    return hits


def _needles() -> list[bytes]:
    raw = KEY.encode()
    return [raw, base64.b64encode(raw), raw.hex().encode(), KEY[::-1].encode()]


@pytest.mark.parametrize("mode", ["bwrap", "process"])
def test_escape_catalogue_through_chronoeval_run(tmp_path: Path, mode: str) -> None:
    if mode == "bwrap" and not bwrap_works():
        pytest.skip("bubblewrap is not installed or cannot create namespaces here")
    if mode == "process" and os.getuid() != 0:
        pytest.skip("the no-bubblewrap fallback drops to uid 65534 only when the harness is root")
    marker = f"3600.{os.getpid()}{time.monotonic_ns() % 10**9}"
    canary = tmp_path / "canary.txt"
    canary.write_text("intact")
    run_dir = tmp_path / "run"
    names = sorted(n for n in CATALOGUE if not (mode == "process" and n in FALLBACK_SKIP))
    server = CoderServer([])
    try:
        codes = {
            render(n, MARKER=marker, RUN_DIR=run_dir, CANARY=canary, PORT=server.port).strip(): n
            for n in names
        }
        server.attacks = list(codes)
        proc = _run(run_dir, server.url, len(names), mode,
                    "--model-opt", "sandbox_cpu_s=1", "--model-opt", "sandbox_wall_s=4")  # fmt: skip
        after = survivors(marker)
    finally:
        server.stop()
    assert proc.returncode == 0, proc.stderr[-3000:]
    # the run went on: one record per item, each an answer or a recorded error, each with its attack
    records = [json.loads(line) for line in (run_dir / "samples.jsonl").read_text().splitlines()]
    assert len(records) == len(names)
    seen = set()
    for rec in records:
        turns = rec.get("turns") or []
        code_turns = [t for t in turns if t.get("role") == "code"]
        assert code_turns, rec
        name = None
        for t in code_turns:
            name = codes.get(t["code"].strip()) or name
            assert t["ok"] or t["error"], t
            if t["layers"]:
                assert ("bwrap" if mode == "bwrap" else "uid-65534") in t["layers"], t
        assert name is not None, code_turns[0]["code"][:200]
        seen.add(name)
        assert rec.get("response") is not None or rec.get("error"), rec
    assert seen == set(names)
    # the key: configured (sent as the Authorization header) yet in no body sent to the model and
    # nowhere in the run directory; and the sandbox held by itself (nothing needed redacting)
    assert server.auth and all(a == f"Bearer {KEY}" for a in server.auth)
    bodies = "\n".join(server.bodies)
    assert not [n for n in _needles() if n.decode() in bodies]
    assert "[REDACTED]" not in bodies
    assert _files_with(run_dir, _needles()) == []
    # nothing outside the sandbox, no survivor
    assert canary.read_text() == "intact"
    assert stray_files(marker, str(tmp_path)) == []
    assert after == [] and survivors(marker) == []


def test_honest_coder_keeps_accuracy_through_chronoeval_run(tmp_path: Path) -> None:
    server = CoderServer(honest=True)
    try:
        proc = _run(tmp_path / "run", server.url, 12, "auto")
    finally:
        server.stop()
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    span = results["tasks"]["span"]
    assert span["counts"]["answered"] == 12
    assert span["metrics"]["overall"]["accuracy"]["value"] == 1.0
    records = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    layers = {tuple(t["layers"]) for r in records for t in r["turns"] if t["role"] == "code"}
    assert layers and all("empty-env" in ls for ls in layers)
    assert not [n for n in _needles() if n.decode() in "\n".join(server.bodies)]
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    expected = "bwrap" if bwrap_works() else "process"
    assert config["backend"]["isolation"] == expected
    assert all(expected in ls for ls in layers)
