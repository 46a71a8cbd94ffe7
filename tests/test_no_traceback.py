"""Every failure the issue-16 report listed is one clear line and a documented exit status, never
a raw traceback: the command line as a user meets it, each case run for real."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from chronoeval.engine.identity import MAX_LABEL, task_label
from helpers import chronoeval, make_clock_dataset

BLOCK_TORCH = """
import sys
class _NoTorch:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "torch":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _NoTorch())
"""


def one_line(proc: subprocess.CompletedProcess[str], *expected: str, code: int = 2) -> None:
    text = proc.stdout + proc.stderr
    assert "Traceback" not in text, text
    assert proc.returncode == code, text
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), text
    for part in expected:
        assert part in lines[0], text


@pytest.fixture
def ds(tmp_path: Path) -> Path:
    return make_clock_dataset(tmp_path / "ds", n=2).root


def run_args(ds: Path, *extra: str) -> list[str]:
    return ["run", "--task", "clockqa", "--data", str(ds), "--model", "constant:x", *extra]


def test_bad_parameters(tmp_path: Path) -> None:
    one_line(
        chronoeval(
            "run", "--task", "clockqa", "--model", "constant:x", "--param", "n=abc", cwd=tmp_path
        ),
        "--param n must be an integer",
        "'abc'",
    )
    deep = "x=" + "[" * 50_000 + "]" * 50_000
    one_line(
        chronoeval(
            "run", "--task", "clockqa", "--model", "constant:x", "--param", deep, cwd=tmp_path
        ),
        "nested too deeply",
    )


def test_out_naming_a_file_or_too_long(tmp_path: Path, ds: Path) -> None:
    (tmp_path / "afile").write_text("x")
    one_line(chronoeval(*run_args(ds, "--out", str(tmp_path / "afile")), cwd=tmp_path), "is a file")
    one_line(
        chronoeval(*run_args(ds, "--out", str(tmp_path / "afile" / "sub")), cwd=tmp_path),
        "is a file",
    )
    one_line(chronoeval(*run_args(ds, "--out", "r" * 300), cwd=tmp_path), "too long")
    assert len(task_label([f"task_number_{i}" for i in range(40)])) <= MAX_LABEL


def test_hf_without_torch_names_the_install_command(tmp_path: Path, ds: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCK_TORCH)
    env = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", *run_args(ds)[:-2], "--model", "hf:some/model"],
        cwd=tmp_path,
        timeout=300,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "500", **env},
    )
    one_line(proc, "pip install 'chronoeval[hf]'")


def test_corrupt_config_json(tmp_path: Path, ds: Path) -> None:
    out = tmp_path / "run"
    assert (
        chronoeval(*run_args(ds, "--out", str(out), "--no-progress"), cwd=tmp_path).returncode == 0
    )
    (out / "config.json").write_text('{"tasks": {"clockqa": ')
    one_line(chronoeval("score", str(out), cwd=tmp_path), "config.json", "corrupt")
    one_line(chronoeval(*run_args(ds, "--out", str(out)), cwd=tmp_path), "corrupt")
    (out / "config.json").write_text("[" * 100_000 + "]" * 100_000)
    one_line(chronoeval("score", str(out), cwd=tmp_path), "corrupt")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["convert", "gregorian", "hebrew", "0000-01-01"], "out of the supported range"),
        (["convert", "gregorian", "hebrew", "10000-01-01"], "out of the supported range"),
        (["convert", "hebrew", "gregorian", "0000-01-01"], "out of the supported range"),
        (["festival", "Passover", "0"], "hebrew festival"),
        (["festival", "Passover", "0", "--calendar", "hebrew"], "out of the supported range"),
    ],
)
def test_span_commands_out_of_range(tmp_path: Path, args: list[str], expected: str) -> None:
    one_line(chronoeval("span", *args, cwd=tmp_path), expected)


def test_image_path_that_is_a_directory(tmp_path: Path, ds: Path) -> None:
    image = next((ds / "images").iterdir())
    image.unlink()
    image.mkdir()
    one_line(chronoeval(*run_args(ds), cwd=tmp_path), "is a directory", "item 'c000'")


def test_serve_on_a_busy_port(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = str(s.getsockname()[1])
        proc = chronoeval(
            "serve",
            "--model",
            "constant:x",
            "--task",
            "clockqa",
            "--host",
            "127.0.0.1",
            "--port",
            port,
            cwd=tmp_path,
        )
    one_line(proc, f"cannot serve on 127.0.0.1:{port}")
