"""The escape catalogue (tests/suites/span/escapes.py) against the sandbox itself, in both modes:
with bubblewrap, and the no-bubblewrap fallback. Each attack is contained: a recorded result or
error, in bounded time; no process survives; nothing is written outside the sandbox's directory."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chronoeval.suites.span.sandbox import (
    SandboxLimits,
    _await_exit,
    bwrap_disables_userns,
    bwrap_works,
    run_code,
)
from suites.span.escapes import CATALOGUE, FALLBACK_SKIP, render, stray_files, survivors

LIMITS = SandboxLimits(cpu_s=1, wall_s=4, memory_mb=128)
KILLED = ("killed by signal", "timed out")
EXPECT: dict[str, tuple[str, ...]] = {
    # name -> one of these must be in the recorded error (the outcome, not just "some outcome")
    "infinite_loop": KILLED,
    "huge_integer": KILLED,
    "sleep_forever": ("timed out",),
    "stderr_flood": ("output limit exceeded",),
    "stdout_flood_raw": ("output limit exceeded",),
    "memory_bomb": ("MemoryError", *KILLED),
    "output_bomb": ("MemoryError", "output limit exceeded", *KILLED),
    "deep_recursion": ("RecursionError",),
    "deep_recursion_unlimited": ("RecursionError", "MemoryError", *KILLED),
    "huge_integer_print": ("Exceeds the limit",),
    "subclasses_walk": ("refused",),
}


def _harness_env_values() -> list[str]:
    """This process's initial environment (what /proc/<pid>/environ shows), long values only."""
    raw = Path("/proc/self/environ").read_bytes().decode("utf-8", "replace")
    values = [v for _, _, v in (e.partition("=") for e in raw.split("\0")) if len(v) >= 20]
    # a bare file path (the interpreter, a CA bundle) may show up legitimately; PATH (with ':')
    # and non-path values may not
    return [v for v in values if ":" in v or not v.startswith("/")]


MODES = ["bwrap", "process"]


def _mode(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if mode == "bwrap" and not bwrap_works():
        pytest.skip("bubblewrap is not installed or cannot create namespaces here")
    if mode == "process" and os.getuid() != 0:
        pytest.skip("the no-bubblewrap fallback drops to uid 65534 only when the harness is root")
    monkeypatch.setenv("CHRONOEVAL_SANDBOX", mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_escape_is_contained(
    name: str, mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if mode == "process" and name in FALLBACK_SKIP:
        pytest.skip("would signal other uid-65534 processes on this shared machine")
    _mode(mode, monkeypatch)
    marker = f"3600.{os.getpid()}{time.monotonic_ns() % 10**9}"
    canary = tmp_path / "canary.txt"
    canary.write_text("intact")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    code = render(name, MARKER=marker, RUN_DIR=run_dir, CANARY=canary, PORT=9)
    start = time.monotonic()
    result = run_code(code, limits=LIMITS)
    took = time.monotonic() - start
    assert took < LIMITS.wall_s + 5, took
    assert result.ok or result.error, result  # a recorded outcome either way
    if result.layers:  # it ran: under the mode's layers
        assert (mode if mode == "bwrap" else "uid-65534") in result.layers, result
        # with bubblewrap, run_code returned only once the pid namespace was empty
        assert mode != "bwrap" or "pidns-emptied" in result.layers, result
    else:  # or the convenience filter refused it before running
        assert (result.error or "").startswith("refused:"), result
    assert canary.read_text() == "intact"
    assert list(run_dir.iterdir()) == []
    assert stray_files(marker, str(tmp_path)) == []
    assert survivors(marker) == []
    out = result.output + (result.error or "")
    if name in EXPECT:
        assert any(x in (result.error or "") for x in EXPECT[name]), result
    assert not [v for v in _harness_env_values() if v in out], "harness environment leaked"
    assert "pwned" not in out and "wrote" not in out and "sent" not in out.split()
    if name == "nested_userns" and mode == "bwrap" and "no-nested-userns" in result.layers:
        assert "unshare -1" in out, result  # refused (it returned 0 before session 14)
    if mode == "bwrap":  # nothing of the harness is visible: no /etc, /root or host processes
        assert "root:x:0:0" not in out and "PYTHONPATH" not in out
    assert str(os.getpid()) + ":" not in out or name != "signal_parent"


def test_a_starved_namespace_leaves_no_survivor() -> None:
    """bubblewrap exits when the code's own process ends, before its namespace's init has taken a
    ``setsid`` grandchild down; run_code waits for that init (a pidfd from ``--info-fd``). With
    the init starved of CPU, the code before that wait left the grandchild alive at return in
    3/20 and 10/20 runs (tests/suites/span/starved_namespace.py)."""
    if not bwrap_works():
        pytest.skip("bubblewrap is not installed or cannot create namespaces here")
    if os.getuid() != 0:
        pytest.skip("starving the namespace needs nice -10: root only")
    script = Path(__file__).with_name("starved_namespace.py")
    env = {**os.environ, "CHRONOEVAL_SANDBOX": "bwrap"}
    done = subprocess.run(
        [sys.executable, str(script), "20"], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "survivors 0/20", done.stdout


def test_await_exit_waits_for_the_process_or_kills_it() -> None:
    """_await_exit on real processes: it returns when one ends by itself, and kills one that does
    not end within the timeout."""
    short = subprocess.Popen(["sleep", "0.4"])
    start = time.monotonic()
    assert _await_exit(os.pidfd_open(short.pid), timeout_s=10)
    assert 0.3 < time.monotonic() - start < 5
    assert short.wait(5) == 0
    stuck = subprocess.Popen(["sleep", "60"])
    start = time.monotonic()
    assert _await_exit(os.pidfd_open(stuck.pid), timeout_s=0.3)
    assert time.monotonic() - start < 5
    assert stuck.wait(5) == -signal.SIGKILL


def test_no_user_namespace_of_the_codes_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a user namespace of its own the code holds every capability over what its uid maps to
    outside: with a root harness, uid 0 (session 14's attacker mounted the host's cgroup freezer
    there and froze a process so that it outlived the run)."""
    _mode("bwrap", monkeypatch)
    if not bwrap_disables_userns():
        pytest.skip("this bubblewrap has no --disable-userns (bubblewrap < 0.8)")
    code = (
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nprint(libc.unshare(0x10000000))"
    )
    res = run_code(code, limits=LIMITS, python_filters=False)
    assert res.ok and res.output.strip() == "-1", res
    assert "no-nested-userns" in res.layers, res


def test_bwrap_mode_never_runs_without_bubblewrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """bubblewrap gone after the probe: an error, not the code run bare under bubblewrap's
    layers (before session 14 it ran with no sandbox and reported ``bwrap``, ``netns``...)."""
    monkeypatch.setenv("CHRONOEVAL_SANDBOX", "bwrap")
    monkeypatch.setattr("chronoeval.suites.span.sandbox.bwrap_works", lambda: True)
    monkeypatch.setattr("chronoeval.suites.span.sandbox.bwrap_command", lambda *a, **k: None)
    res = run_code("print(1)")
    assert not res.ok and "bubblewrap cannot run here" in (res.error or "") and not res.layers


def test_a_namespace_that_outlives_the_run_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the namespace's init could not be ended, the run is an error, not a result."""
    _mode("bwrap", monkeypatch)
    monkeypatch.setattr("chronoeval.suites.span.sandbox._await_exit", lambda pidfd: False)
    res = run_code("print(1)", limits=LIMITS)
    assert not res.ok and "could not be ended" in (res.error or ""), res
    assert "pidns-emptied" not in res.layers


def test_honest_code_runs_the_same_in_both_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    code = "print(search_calendar('gregorian', 'hebrew', date='2000-07-01'))"
    for mode in MODES:
        if mode == "bwrap" and not bwrap_works():
            continue
        monkeypatch.setenv("CHRONOEVAL_SANDBOX", mode)
        res = run_code(code, limits=LIMITS)
        assert res.ok and res.output == "5760-03-28\n", res
        assert "empty-env" in res.layers and "rlimit-fsize-0" in res.layers


def test_floods_are_cut_at_the_cap_without_buffering(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    res = run_code(
        render("stderr_flood", MARKER="1", RUN_DIR="/nonexistent", CANARY="/nonexistent", PORT=9),
        limits=SandboxLimits(cpu_s=5, wall_s=20),
    )
    assert not res.ok and "output limit exceeded" in (res.error or ""), res
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 64 * 1024, grown_kib  # the cap is 256 KiB per stream


def test_forced_bwrap_fails_closed_where_it_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHRONOEVAL_SANDBOX", "bwrap")
    monkeypatch.setattr("chronoeval.suites.span.sandbox.bwrap_works", lambda: False)
    res = run_code("print(1)")
    assert not res.ok and "bubblewrap cannot run here" in (res.error or "") and not res.layers


def test_auto_refuses_without_bwrap_or_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CHRONOEVAL_SANDBOX", raising=False)
    monkeypatch.setattr("chronoeval.suites.span.sandbox.bwrap_works", lambda: False)
    monkeypatch.setattr("chronoeval.suites.span.sandbox.os.getuid", lambda: 1000)
    res = run_code("print(1)")
    assert not res.ok and "no OS isolation for model code here" in (res.error or ""), res


def test_oversized_code_is_refused_before_running() -> None:
    res = run_code("x = 1\n" * 60_000)
    assert not res.ok and "longer than 100000" in (res.error or "") and not res.layers
