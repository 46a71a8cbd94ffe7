"""Running model-written code: a separate Python process with a CPU-time, wall-time and memory
limit, in which only ``calendar_api`` can be imported and nothing can open files, sockets or
processes.

Layers (each enough for the common cases; together for the rest):

1. a syntax check refusing names and attributes that start with ``__`` (the usual escapes go
   through ``__class__``/``__subclasses__``/``__globals__``);
2. restricted builtins: no ``open``, ``eval``, ``exec``, ``compile``, ``input``, ``globals``,
   ``vars``, ``breakpoint``; ``getattr`` refuses ``__`` names; ``__import__`` admits only
   ``calendar_api``;
3. an audit hook (PEP 578, cannot be removed from Python) installed after the calendar backends are
   loaded: it refuses every ``open``, ``socket.*``, ``subprocess.*``, ``os.*``, ``shutil.*``,
   ``ctypes.*`` event and any import of a module not loaded yet;
4. ``resource.setrlimit``: CPU seconds, address space, no file writes (RLIMIT_FSIZE = 0), no new
   processes (RLIMIT_NPROC = 0; not binding for root, which layer 3 covers);
5. where the kernel allows it (root, or unprivileged user namespaces), ``unshare`` into a new
   empty network namespace before any model code runs, so even a socket made some other way has
   no route (``SandboxResult.netns`` says whether it happened);
6. the parent kills the child at the wall-clock limit.

The outcome is a :class:`SandboxResult` (ok, printed output, error text); nothing raises.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import dataclass

MAX_OUTPUT = 4000


@dataclass(frozen=True)
class SandboxResult:
    ok: bool
    output: str
    error: str | None = None
    netns: bool | None = None
    """Whether the code ran in its own empty network namespace (None: it never ran)."""

    def to_json(self) -> dict[str, object]:
        return {"ok": self.ok, "output": self.output, "error": self.error, "netns": self.netns}


def check_source(code: str) -> str | None:
    """Why the code is refused before running, or None."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return f"SyntaxError: {exc.msg} (line {exc.lineno})"
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.alias):
            name = node.name
        if name is not None and name.startswith("__"):
            return f"refused: names starting with '__' are not allowed ({name})"
    return None


_CHILD = r"""
import io, json, resource, sys, traceback, contextlib, builtins, ctypes, os
req = json.loads(sys.stdin.read())
import chronoeval.suites.span.calendar_api as api

def no_network():
    # a new, empty network namespace (only a down loopback): no route anywhere
    libc = ctypes.CDLL(None, use_errno=True)
    for flags in (0x40000000, 0x10000000 | 0x40000000):  # CLONE_NEWNET, + CLONE_NEWUSER
        if libc.unshare(flags) == 0:
            return True
    return False

netns = no_network()

def vm_bytes():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0

cpu = int(req["cpu_s"])
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
mem = vm_bytes() + int(req["memory_mb"]) * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
with contextlib.suppress(ValueError, OSError):
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
real_stdout = sys.stdout
BLOCKED = ("open", "socket.", "subprocess.", "os.", "shutil.", "ctypes.", "sys.addaudithook",
           "_posixsubprocess", "pty.", "fcntl.", "mmap.", "webbrowser", "glob.", "winreg")
def hook(event, args):
    if event == "import":
        if args[0] not in sys.modules:
            raise ImportError(f"import of {args[0]!r} is blocked in the sandbox")
    elif event.startswith(BLOCKED):
        raise PermissionError(f"{event} is blocked in the sandbox")

def safe_import(name, globals=None, locals=None, fromlist=(), level=0):
    if name != "calendar_api":
        raise ImportError(f"only calendar_api can be imported here, not {name!r}")
    return api

def safe_getattr(obj, name, *default):
    if str(name).startswith("__"):
        raise AttributeError("'__' attributes are not accessible here")
    return getattr(obj, name, *default)

safe = {k: getattr(builtins, k) for k in dir(builtins) if not k.startswith("_")}
for k in ("open", "eval", "exec", "compile", "input", "globals", "locals", "vars", "breakpoint",
          "help", "exit", "quit", "memoryview", "delattr", "setattr"):
    safe.pop(k, None)
safe["getattr"] = safe_getattr
safe["__import__"] = safe_import
safe["__build_class__"] = builtins.__build_class__
env = {"__builtins__": safe, "__name__": "__sandbox__"}
env.update({k: getattr(api, k) for k in api.__all__})
code = compile(req["code"], "<model code>", "exec")
buf = io.StringIO()
sys.addaudithook(hook)
ok, err = True, None
try:
    with contextlib.redirect_stdout(buf):
        exec(code, env)
except BaseException as exc:
    ok = False
    err = "".join(traceback.format_exception_only(type(exc), exc)).strip()
out = buf.getvalue()[-int(req["max_output"]) :]
real_stdout.write(json.dumps({"ok": ok, "output": out, "error": err, "netns": netns}))
real_stdout.flush()
"""


def run_code(
    code: str, *, cpu_s: int = 5, wall_s: float = 10.0, memory_mb: int = 256
) -> SandboxResult:
    """Run model code in the sandbox and return what it printed or why it failed."""
    refused = check_source(code)
    if refused is not None:
        return SandboxResult(False, "", refused)
    payload = json.dumps(
        {"code": code, "cpu_s": cpu_s, "memory_mb": memory_mb, "max_output": MAX_OUTPUT}
    )
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-c", _CHILD],
            input=payload,
            capture_output=True,
            text=True,
            timeout=wall_s,
            env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"},
        )
    except subprocess.TimeoutExpired:
        return SandboxResult(False, "", f"timed out after {wall_s:g} s (wall clock); killed")
    if proc.returncode != 0:
        why = proc.stderr.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        if proc.returncode < 0:
            why = [f"killed by signal {-proc.returncode} (CPU or memory limit)"]
        return SandboxResult(False, "", why[0][:500])
    try:
        out = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return SandboxResult(False, "", "the sandbox returned no result")
    return SandboxResult(bool(out["ok"]), str(out["output"]), out.get("error"), out.get("netns"))
