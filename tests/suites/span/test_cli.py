"""`chronoeval span ...` commands and `chronoeval verify --task span` from the real CLI."""

from __future__ import annotations

import subprocess
import sys


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chronoeval", *args], capture_output=True, text=True
    )


def test_span_commands_and_verify() -> None:
    out = _cli("span", "convert", "gregorian", "chinese", "1990-07-01")
    assert out.returncode == 0 and out.stdout.strip() == "1990-L05-09"
    out = _cli("span", "festival", "Passover", "5760", "--calendar", "hebrew")
    assert out.stdout.strip() == "2000-04-20"
    bad = _cli("span", "convert", "hebrew", "gregorian", "5760-14-01")
    assert bad.returncode == 2 and "has no month 14" in bad.stdout + bad.stderr
    ver = _cli("verify", "--task", "span", "--param", "eval_dates=1960-07-01", "--n", "300")
    assert ver.returncode == 0 and "300 items checked, 0 mismatches" in ver.stdout
