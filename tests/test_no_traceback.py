"""Every raw traceback the issue-16 report listed is now one clear line and a documented exit
status: ONE test walks the whole list through the command line as a user meets it, each case run
for real (a busy port is a real bound socket, "without torch" blocks the import in the child)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from chronoeval.core.errors import EXIT_BAD_INPUT
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


@dataclass
class Case:
    """One listed failure: the command, what its one line must say, and its exit status."""

    name: str
    args: list[str]
    expected: tuple[str, ...]
    code: int = EXIT_BAD_INPUT
    env: dict[str, str] = field(default_factory=dict)
    one_line: bool = True  # False: a case that now succeeds (checked for its status only)


def problems_of(case: Case, proc: subprocess.CompletedProcess) -> list[str]:
    text = proc.stdout + proc.stderr
    out = []
    if "Traceback" in text:
        out.append("raw traceback")
    if proc.returncode != case.code:
        out.append(f"exit {proc.returncode}, want {case.code}")
    if case.one_line:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if len(lines) != 1 or not lines[0].startswith("error: "):
            out.append(f"{len(lines)} lines, want one 'error: …' line")
        out += [f"line lacks {part!r}" for part in case.expected if part not in text]
    return [f"{case.name}: {p}\n    {text.strip()[:600]}" for p in out]


def rewrite_items(root: Path, data: bytes) -> None:
    """Replace a dataset's items.jsonl and keep its manifest's content hash true, so that only
    the items themselves are wrong."""
    (root / "items.jsonl").write_bytes(data)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["content_hash"] = hashlib.sha256(data).hexdigest()
    (root / "manifest.json").write_text(json.dumps(manifest))


def test_every_listed_traceback_case_is_one_line(tmp_path: Path) -> None:
    ds = make_clock_dataset(tmp_path / "ds", n=2).root
    # the cases, each needing its own small set-up
    (tmp_path / "afile").write_text("x")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCK_TORCH)
    no_torch = {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    corrupt = tmp_path / "corrupt_run"
    corrupt.mkdir()
    (corrupt / "config.json").write_text('{"tasks": {"clockqa": ')
    nested_run = tmp_path / "nested_run"
    nested_run.mkdir()
    (nested_run / "config.json").write_text("[" * 100_000 + "]" * 100_000)
    nested_ds = tmp_path / "nested_ds"
    shutil.copytree(ds, nested_ds)
    rewrite_items(nested_ds, ("[" * 200_000 + "]" * 200_000 + "\n").encode())
    dir_ds = tmp_path / "dir_ds"
    shutil.copytree(ds, dir_ds)
    image = sorted((dir_ds / "images").iterdir())[0]
    image.unlink()
    image.mkdir()
    deep_param = "x=" + "[" * 50_000 + "]" * 50_000
    long_tasks = ["span"] * 13  # "span+span+…" is longer than MAX_LABEL: the default path
    assert len("+".join(long_tasks)) > MAX_LABEL  # used to be one over-long file name

    def run(data: Path, *extra: str, model: str = "constant:x") -> list[str]:
        return ["run", "--task", "clockqa", "--data", str(data), "--model", model, *extra]

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        cases = [
            Case(
                "--param n=abc",
                ["run", "--task", "clockqa", "--model", "constant:x", "--param", "n=abc"],
                ("--param n must be an integer", "'abc'"),
            ),
            Case(
                "--param deeply nested JSON",
                ["run", "--task", "clockqa", "--model", "constant:x", "--param", deep_param],
                ("--param x", "nested too deeply"),
            ),
            Case("--out a file", run(ds, "--out", str(tmp_path / "afile")), ("is a file",)),
            Case(
                "--out below a file",
                run(ds, "--out", str(tmp_path / "afile" / "sub")),
                ("is a file",),
            ),
            Case("--out too long", run(ds, "--out", "r" * 300), ("too long",)),
            Case(
                "long task combination (default path)",
                [
                    "run",
                    *[a for t in long_tasks for a in ("--task", t)],
                    "--model",
                    "constant:x",
                    "--n",
                    "1",
                    "--no-progress",
                ],
                (),
                code=0,
                one_line=False,
            ),
            Case(
                "--model hf:x without torch",
                run(ds, model="hf:some/model"),
                ("pip install 'chronoeval[hf]'",),
                env=no_torch,
            ),
            Case(
                "serve on a busy port",
                [
                    "serve",
                    "--model",
                    "constant:x",
                    "--task",
                    "clockqa",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    port,
                ],
                (f"cannot serve on 127.0.0.1:{port}",),
            ),
            Case("score: corrupt config.json", ["score", str(corrupt)], ("config.json", "corrupt")),
            Case("run: corrupt config.json", run(ds, "--out", str(corrupt)), ("corrupt",)),
            Case("score: nested config.json", ["score", str(nested_run)], ("corrupt",)),
            Case(
                "span convert 0000-01-01",
                ["span", "convert", "gregorian", "hebrew", "0000-01-01"],
                ("'0000-01-01'", "out of the supported range"),
            ),
            Case(
                "span convert 10000-01-01",
                ["span", "convert", "gregorian", "hebrew", "10000-01-01"],
                ("'10000-01-01'", "out of the supported range"),
            ),
            Case(
                "span convert hebrew 0000-01-01",
                ["span", "convert", "hebrew", "gregorian", "0000-01-01"],
                ("out of the supported range",),
            ),
            Case(
                "span festival Passover 0",
                ["span", "festival", "Passover", "0"],
                ("hebrew festival",),
            ),
            Case(
                "span festival Passover 0 --calendar hebrew",
                ["span", "festival", "Passover", "0", "--calendar", "hebrew"],
                ("out of the supported range",),
            ),
            Case(
                "deeply nested items.jsonl",
                run(nested_ds),
                ("items.jsonl", "nested too deeply"),
            ),
            Case(
                "image path that is a directory",
                run(dir_ds),
                ("is a directory", "item 'c000'"),
            ),
        ]
        with ThreadPoolExecutor(max_workers=3) as pool:
            procs = list(
                pool.map(lambda c: chronoeval(*c.args, cwd=tmp_path, env=c.env, timeout=300), cases)
            )
    problems = [p for case, proc in zip(cases, procs, strict=True) for p in problems_of(case, proc)]
    assert not problems, "\n".join(problems)
    # the long combination ran into an abbreviated default directory (the hash keeps it unique)
    (label_dir,) = (tmp_path / "runs").glob("span+12more-*")
    assert (label_dir / "constant_x" / "results.json").is_file()
    assert len(task_label([f"task_number_{i}" for i in range(40)])) <= MAX_LABEL
