"""Protocol errors are errors (never NoAnswer); credentials in URLs are never written; `serve`
warns beyond loopback, can require an API key, and says so when its port is busy (issue 16)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.redact import redact, redact_text
from chronoeval.engine.runner import RetryPolicy
from chronoeval.models.base import BackendError
from chronoeval.models.openai import reply_text
from chronoeval.server.exposure import exposure_warning
from helpers import run_clockqa_over_http

FAST = RetryPolicy(max_retries=3, base_delay_s=0.01, max_delay_s=0.05)


def run(ds_root: Path, run_dir: Path, url: str, retry: RetryPolicy = FAST, **kw):
    return run_clockqa_over_http(ds_root, run_dir, url, retry, **kw)


def test_null_content_and_missing_message_are_retried(serve, clock_dataset, tmp_path) -> None:
    server = serve(
        "--model", "constant:10:10:00", "--task", "clockqa", "--faults", "null@1,nomessage@3"
    )
    res = run(clock_dataset.root, tmp_path / "run", server.url)
    s = res.summaries["clockqa"]
    assert (s.answered, s.errors, s.retries) == (12, 0, 2)
    counts = res.results["tasks"]["clockqa"]["counts"]
    assert counts["answered"] == 12 and counts["no_answer"] == 0 and res.results["complete"]


def test_protocol_errors_that_stay_are_errors_not_no_answer(serve, clock_dataset, tmp_path) -> None:
    server = serve(
        "--model", "constant:10:10:00", "--task", "clockqa", "--faults", "null@1,nomessage@2"
    )
    res = run(clock_dataset.root, tmp_path / "run", server.url, retry=RetryPolicy(max_retries=0))
    counts = res.results["tasks"]["clockqa"]["counts"]
    assert counts == {"answered": 10, "no_answer": 0, "error": 2, "missing": 0}
    assert not res.results["complete"]
    errors = [r.error for r in res.records if r.status == "error"]
    assert all("protocol error" in e for e in errors), errors
    again = run(clock_dataset.root, tmp_path / "run", server.url)  # asked again on resume
    assert again.summaries["clockqa"].called == 2 and again.results["complete"]


def test_reply_text_reads_refusals_and_rejects_broken_choices() -> None:
    assert reply_text({"message": {"content": "10:10"}}, "u") == "10:10"
    refusal = {"message": {"content": None, "refusal": "I can't help with that."}}
    assert reply_text(refusal, "u") == "I can't help with that."  # an answer: parsed as NoAnswer
    for bad in ({"message": {"content": None}}, {"finish_reason": "stop"}, {"message": "x"}, 3):
        with pytest.raises(BackendError) as err:
            reply_text(bad, "u")
        assert err.value.retryable


def test_url_credentials_are_redacted_everywhere(serve, clock_dataset, tmp_path: Path) -> None:
    assert (
        redact_text("see https://ann:s3cret@h.example/v1 now") == "see https://***@h.example/v1 now"
    )
    assert redact({"u": ["http://a:b@h"]}) == {"u": ["http://***@h"]}
    server = serve("--model", "constant:10:10:00", "--task", "clockqa")
    secret_url = server.url.replace("http://", "http://ann:s3cret@")
    out = tmp_path / "run"
    run(clock_dataset.root, out, secret_url)
    dead = tmp_path / "dead"
    run(clock_dataset.root, dead, "http://ann:s3cret@127.0.0.1:9/v1", retry=RetryPolicy(0))
    api.report([out, dead], out=tmp_path / "report.html")
    written = [p for d in (out, dead) for p in d.rglob("*") if p.is_file()]
    written.append(tmp_path / "report.html")
    assert any(p.name == "config.json" for p in written)
    for path in written:
        assert b"s3cret" not in path.read_bytes(), path
    assert "***@127.0.0.1" in (out / "config.json").read_text()
    assert "cannot connect to http://***@127.0.0.1:9" in (dead / "samples.jsonl").read_text()


def test_serve_requires_the_api_key_when_given(serve, clock_dataset, tmp_path, monkeypatch):
    server = serve("--model", "constant:10:10:00", "--task", "clockqa", "--api-key", "k-123")
    monkeypatch.setenv("OPENAI_API_KEY", "wrong")
    denied = run(clock_dataset.root, tmp_path / "denied", server.url)
    assert denied.results["tasks"]["clockqa"]["counts"]["error"] == 12
    assert "HTTP 401" in denied.records[0].error
    monkeypatch.setenv("OPENAI_API_KEY", "k-123")
    ok = run(clock_dataset.root, tmp_path / "ok", server.url)
    assert ok.results["complete"]


def test_exposure_warning_beyond_loopback() -> None:
    for host in ("127.0.0.1", "::1", "localhost", "127.0.0.5"):
        assert exposure_warning(host, None) is None
    warn = exposure_warning("0.0.0.0", None)
    assert warn and "WITHOUT authentication" in warn and "--api-key" in warn
    assert "API key" in (exposure_warning("192.168.1.4", "k") or "")


def test_serve_on_a_busy_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "chronoeval", "serve", "--model", "constant:x"]
            + ["--task", "clockqa", "--host", "127.0.0.1", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "COLUMNS": "300"},
        )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"cannot serve on 127.0.0.1:{port}" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_serve_beyond_loopback_warns_on_stderr(tmp_path: Path) -> None:
    """The real `serve` prints the warning before it binds. 192.0.2.1 (TEST-NET-1, RFC 5737) is
    no address of this machine, so the bind fails and nothing is ever exposed."""
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", "serve", "--model", "constant:x"]
        + ["--task", "clockqa", "--host", "192.0.2.1", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "300"},
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert "serving on 192.0.2.1" in proc.stderr and "WITHOUT authentication" in proc.stderr
    assert proc.returncode == 2 and "cannot serve on 192.0.2.1" in proc.stdout


def test_each_error_a_reply_can_give_names_its_url_redacted(serve, clock_dataset, tmp_path) -> None:
    """The URL in an error is redacted where the error is raised (no longer before every send):
    an HTTP error, a choice without message and a null content each name the URL without its
    credentials."""
    server = serve(
        "--model", "constant:10:10:00", "--task", "clockqa", "--faults", "500@1,null@2,nomessage@3"
    )
    secret_url = server.url.replace("http://", "http://ann:s3cret@")
    res = run(clock_dataset.root, tmp_path / "run", secret_url, retry=RetryPolicy(max_retries=0))
    errors = sorted(r.error or "" for r in res.records if r.status == "error")
    assert len(errors) == 3, errors
    assert any(e.startswith("HTTP 500 from http://***@127.0.0.1") for e in errors), errors
    assert any("has content: null" in e for e in errors) and any(
        "without message" in e for e in errors
    )
    assert all("http://***@127.0.0.1" in e and "s3cret" not in e for e in errors), errors
