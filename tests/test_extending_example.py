"""examples/extending.py (docs/extending.md) runs as it stands: one's own backend and task."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "extending.py"


def test_example_runs_end_to_end(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rules = json.loads((tmp_path / "out" / "weekday-rules_chatty" / "results.json").read_text())
    entry = rules["tasks"]["weekday"]
    assert entry["counts"]["answered"] == 14
    assert entry["metrics"]["overall"]["accuracy"]["value"] == 1.0  # the rules are right
    rnd = json.loads((tmp_path / "out" / "random" / "results.json").read_text())
    assert rnd["tasks"]["weekday"]["metrics"]["overall"]["accuracy"]["value"] < 0.6
    assert (tmp_path / "out" / "report.html").is_file()
    rows = (tmp_path / "out" / "weekday-rules_chatty" / "samples.jsonl").read_text().splitlines()
    first = json.loads(rows[0])
    assert first["prompt"][0]["content"][0]["text"].startswith("What day of the week was")
    assert first["usage"]["completion_tokens"] > 0
