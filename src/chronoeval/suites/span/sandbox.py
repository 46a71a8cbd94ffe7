"""Running model-written code in isolation by the operating system (threat model:
docs/security.md).

Model output is untrusted input. The code a model writes runs in a separate process that:

- starts from an EMPTY environment (no API key, token or credential; not even ``PATH``);
- runs in a fresh, empty working directory (its own, removed afterwards);
- holds no privileges: with bubblewrap it is uid 65534 in its own user namespace without
  capabilities; without bubblewrap a root harness's child drops to uid/gid 65534 itself;
- has rlimits: CPU seconds, address space, file size (0: nothing can be written), number of
  processes (0 where the kernel enforces it);
- is killed at a wall-clock limit together with its whole session; with bubblewrap it is pid 1's
  child in its own pid namespace with ``--die-with-parent``, so when it ends or is killed every
  process it started (a ``setsid`` grandchild too) dies with it, and the harness returns only once
  that namespace is empty (layer ``pidns-emptied``); without bubblewrap, it cannot fork
  at all (RLIMIT_NPROC 0 binds an unprivileged uid) and its process group is killed;
- has its stdout and stderr read incrementally with a byte cap: a flood is cut off and killed,
  never buffered by the harness;
- with bubblewrap (``/usr/bin/bwrap``, where the kernel allows namespaces): no network (own empty
  network namespace), a read-only system (only ``/usr``, the interpreter, the virtual environment
  and chronoeval's source are mounted, read-only), a private ``/tmp`` and ``/proc``, no ``/etc``,
  ``/root``, ``/home`` or run directory at all.

Which layers were active is recorded in every result (:attr:`SandboxResult.layers`, so in every
code turn of the run store). ``CHRONOEVAL_SANDBOX=bwrap|process`` forces a mode (``bwrap`` fails
closed when bubblewrap cannot run); the default ``auto`` uses bubblewrap when a probe run works.

Inside the process the old Python-level filters stay (a syntax check refusing ``__`` names,
restricted builtins, an audit hook). They are a CONVENIENCE that gives ordinary mistakes a clear
error; they are known to be bypassable and are not the security boundary — the tests run the escape
catalogue with them switched off (``python_filters=False``) to show the OS layers alone hold.

The outcome is a :class:`SandboxResult` (ok, printed output, error text, layers); nothing raises.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

MAX_OUTPUT = 4000
"""Characters of printed output handed back (the tail)."""
STREAM_CAP = 256 * 1024
"""Bytes read from each of the child's stdout/stderr; more is a flood: the child is killed."""
MAX_CODE = 100_000
"""Longest model code accepted (calendar code needs a few hundred characters)."""
NOBODY = 65534
SANDBOX_DIR = "/sandbox"
"""The working directory's path inside the bubblewrap sandbox."""
NOT_ENDED = "the sandbox's processes could not be ended (its pid namespace outlived the run)"
"""The error of a run after which something the code started is still there."""
STDLIB_MODULES = ("datetime", "calendar", "math", "re", "itertools", "functools", "collections",
                  "fractions", "decimal", "operator", "string")  # fmt: skip
"""What code run WITHOUT the calendar API (``run_code(..., calendar_api=False)``, SPAN's
TimeAgent baseline ``timeagent:code-nocal``) may import: pure standard-library modules, loaded
before the model code runs. The interpreter then runs with ``-S`` (no site-packages on
``sys.path``), chronoeval's source is not put on the path (nor mounted, with bubblewrap) and, with
bubblewrap, empty tmpfs mounts hide the site-packages directories: the calendar libraries are not
there to import."""


@dataclass(frozen=True)
class SandboxLimits:
    cpu_s: int = 5
    wall_s: float = 20.0
    memory_mb: int = 256
    """Address space allowed on top of the loaded interpreter and calendar libraries."""
    max_output: int = MAX_OUTPUT
    stream_cap: int = STREAM_CAP


@dataclass(frozen=True)
class SandboxResult:
    ok: bool
    output: str
    error: str | None = None
    netns: bool | None = None
    """Whether the code ran in its own empty network namespace (None: it never ran)."""
    layers: tuple[str, ...] = field(default_factory=tuple)
    """The isolation layers that were active (empty: the code never ran)."""

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "output": self.output,
            "error": self.error,
            "netns": self.netns,
            "layers": list(self.layers),
        }


def check_source(code: str) -> str | None:
    """Why the code is refused before running, or None (a convenience, not a boundary)."""
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


# The child: reads one JSON request on stdin, drops what it can, runs the code, prints one JSON
# line. It runs with `python -I` (no environment, no user site, no cwd on sys.path).
_CHILD = r"""
import io, json, resource, sys, traceback, contextlib, builtins, ctypes, os
req = json.loads(sys.stdin.read())
api_mode = bool(req["api"])
if api_mode:
    sys.path.insert(0, req["src"])
    import chronoeval.suites.span.calendar_api as api
    allowed = {"calendar_api": api}
else:  # no calendar API: only these standard-library modules, loaded before the model code
    import importlib
    allowed = {name: importlib.import_module(name) for name in req["stdlib"]}
layers = [] if api_mode else ["no-calendar-api"]

def no_network():
    # a new, empty network namespace (only a down loopback): no route anywhere
    libc = ctypes.CDLL(None, use_errno=True)
    for flags in (0x40000000, 0x10000000 | 0x40000000):  # CLONE_NEWNET, + CLONE_NEWUSER
        if libc.unshare(flags) == 0:
            return True
    return False

netns = bool(req["netns"]) or no_network()

def vm_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0

def private_tmp():
    # no bubblewrap, root: own mount namespace with empty tmpfs over the world-writable places
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x00020000) != 0:  # CLONE_NEWNS
        return False
    if libc.mount(b"none", b"/", None, 0x4000 | 0x40000, None) != 0:  # MS_REC | MS_PRIVATE
        return False
    ok = True
    for d in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock"):
        if os.path.isdir(d) and not os.path.islink(d):
            flags = 0x2 | 0x4 | 0x8  # MS_NOSUID | MS_NODEV | MS_NOEXEC
            ok = libc.mount(b"tmpfs", d.encode(), b"tmpfs", flags, b"size=64k,mode=1777") == 0 and ok
    return ok

if os.getuid() == 0 and not req["netns"]:
    # no bubblewrap: a root harness's child gives up root before any model code runs
    if private_tmp():
        layers.append("private-tmp")
    os.setgroups([])
    os.setgid(req["uid"])
    os.setuid(req["uid"])
    layers.append("uid-%d" % req["uid"])
cpu = int(req["cpu_s"])
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
mem = vm_bytes() + int(req["memory_mb"]) * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
with contextlib.suppress(ValueError, OSError):
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    if os.getuid() != 0 and not req["netns"]:  # not binding in bwrap's user namespace
        layers.append("rlimit-nproc-0")
layers += ["rlimit-cpu", "rlimit-as", "rlimit-fsize-0"]
if netns:
    layers.append("netns")
real_stdout = sys.stdout
env = {"__name__": "__sandbox__"}
if api_mode:
    env.update({k: getattr(api, k) for k in api.__all__})
if req["filters"]:
    BLOCKED = ("open", "socket.", "subprocess.", "os.", "shutil.", "ctypes.", "sys.addaudithook",
               "_posixsubprocess", "pty.", "fcntl.", "mmap.", "webbrowser", "glob.", "winreg")
    def hook(event, args):
        if event == "import":
            if args[0] not in sys.modules:
                raise ImportError(f"import of {args[0]!r} is blocked in the sandbox")
        elif event.startswith(BLOCKED):
            raise PermissionError(f"{event} is blocked in the sandbox")

    def safe_import(name, globals=None, locals=None, fromlist=(), level=0):
        if name in allowed and not level:
            return allowed[name]
        if api_mode:
            raise ImportError(f"only calendar_api can be imported here, not {name!r}")
        raise ImportError(f"only the standard-library modules {', '.join(allowed)} can be "
                          f"imported here (no calendar API), not {name!r}")

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
    env["__builtins__"] = safe
    layers.append("python-filters (convenience)")
try:
    code = compile(req["code"], "<model code>", "exec")
except BaseException as exc:
    code, compile_error = None, "".join(traceback.format_exception_only(type(exc), exc)).strip()
buf = io.StringIO()
# the layer report goes out BEFORE any model code runs: the code cannot rewrite it afterwards
real_stdout.write(json.dumps({"layers": layers, "netns": netns}) + "\n")
real_stdout.flush()
if req["filters"]:
    sys.addaudithook(hook)
ok, err = True, None
if code is None:
    ok, err = False, compile_error
else:
    try:
        with contextlib.redirect_stdout(buf):
            exec(code, env)
    except BaseException as exc:
        ok = False
        try:
            err = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        except BaseException:
            err = type(exc).__name__
out = buf.getvalue()[-int(req["max_output"]) :]
real_stdout.write("\n" + json.dumps({"ok": ok, "output": out, "error": err}) + "\n")
real_stdout.flush()
"""


def _src_root() -> Path:
    import chronoeval

    return Path(chronoeval.__file__).resolve().parent.parent


def _bwrap_path() -> str | None:
    return shutil.which("bwrap") or (
        "/usr/bin/bwrap" if os.access("/usr/bin/bwrap", os.X_OK) else None
    )


def _ro_system_args() -> list[str]:
    """``/usr`` read-only, and the merged-usr links (or read-only binds) for /bin, /lib…"""
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    return args


def _interpreter_dirs(with_src: bool = True) -> list[str]:
    """Directories the sandboxed interpreter needs, bound read-only at the same paths: the base
    installation (e.g. /root/.pyenv/versions/X), the virtual environment, chronoeval's source
    (not with ``with_src=False``: code without the calendar API needs no chronoeval)."""
    dirs: list[str] = []
    src = [str(_src_root())] if with_src else []
    for p in (sys.base_prefix, sys.prefix, *src, os.path.realpath(sys.executable)):
        p = os.path.realpath(p)
        if p.startswith("/usr/") or p == "/usr":
            continue
        if os.path.isfile(p):
            p = os.path.dirname(p)
        if not any(p == d or p.startswith(d + "/") for d in dirs):
            dirs = [d for d in dirs if not d.startswith(p + "/")] + [p]
    return dirs


def site_packages_dirs() -> list[str]:
    """The installed-package directories of the virtual environment and the base installation
    (hidden from code run without the calendar API)."""
    import sysconfig

    out: list[str] = []
    for base in (sys.prefix, sys.base_prefix):
        paths = sysconfig.get_paths(vars={"base": base, "platbase": base})
        for key in ("purelib", "platlib"):
            p = os.path.realpath(paths[key])
            if os.path.isdir(p) and p not in out:
                out.append(p)
    return out


def bwrap_command(workdir: str, stdlib_only: bool = False) -> list[str] | None:
    """The bubblewrap prefix for one run (None where bwrap is not installed). ``stdlib_only``:
    chronoeval's source is not mounted and empty tmpfs mounts hide the site-packages."""
    bwrap = _bwrap_path()
    if bwrap is None:
        return None
    cmd = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--clearenv",
           "--uid", str(NOBODY), "--gid", str(NOBODY), "--cap-drop", "ALL",
           *_ro_system_args()]  # fmt: skip
    # no user namespace of the code's own: in one it would hold every capability, over what its
    # uid maps to outside (a root harness's uid 0: mounting the host's cgroup hierarchies,
    # freezing a process so that it outlives the run)
    if _bwrap_knows(bwrap, "--disable-userns"):
        cmd[1:1] = ["--unshare-user", "--disable-userns"]
    # --size (bwrap >= 0.9) caps the next tmpfs; older versions do not know it
    size = ["--size", str(1 << 20)] if _bwrap_knows(bwrap, "--size") else []
    cmd += ["--proc", "/proc", "--dev", "/dev", *size, "--tmpfs", "/tmp", *size, "--tmpfs",
            "/dev/shm"]  # fmt: skip
    # the interpreter's directories after /tmp's tmpfs, so a virtual environment under /tmp
    # (a CI checkout) is not hidden by it
    for d in _interpreter_dirs(with_src=not stdlib_only):
        cmd += ["--ro-bind", d, d]
    if stdlib_only:
        for d in site_packages_dirs():
            cmd += [*size, "--tmpfs", d, "--remount-ro", d]
    cmd += ["--bind", workdir, SANDBOX_DIR, "--chdir", SANDBOX_DIR, "--"]
    return cmd


@functools.cache
def _bwrap_knows(bwrap: str, option: str) -> bool:
    """Whether this bubblewrap's ``--help`` lists ``option`` (options differ between versions)."""
    try:
        out = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=10, env={})
    except (OSError, subprocess.TimeoutExpired):
        return False
    return option in out.stdout + out.stderr


def bwrap_disables_userns() -> bool:
    """Whether this bubblewrap can refuse the code further user namespaces (``--disable-userns``,
    bubblewrap >= 0.8)."""
    bwrap = _bwrap_path()
    return bwrap is not None and _bwrap_knows(bwrap, "--disable-userns")


_PROBE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "import chronoeval.suites.span.calendar_api; print('ok')"
)


@functools.cache
def bwrap_works() -> bool:
    """Whether bubblewrap can create the sandbox here (installed, namespaces allowed) with the
    interpreter, its packages and the calendar API importable inside (probed once per process)."""
    with tempfile.TemporaryDirectory(prefix="chronoeval-probe-") as d:
        cmd = bwrap_command(d)
        if cmd is None:
            return False
        try:
            proc = subprocess.run(
                [*cmd, sys.executable, "-I", "-c", _PROBE, str(_src_root())],
                capture_output=True,
                text=True,
                timeout=30,
                env={},
            )
        except (OSError, subprocess.TimeoutExpired):
            return False
        return proc.returncode == 0 and proc.stdout.strip() == "ok"


def isolation_mode() -> str:
    """``bwrap`` or ``process``. ``auto`` (the default): bubblewrap where it runs, else the
    process fallback when the harness is root (it drops the child to uid 65534), else refuse:
    code under the harness's own uid could read the harness's /proc environment. ``CHRONOEVAL_SANDBOX``
    forces a mode (``bwrap`` fails closed; ``process`` accepts the same-uid fallback)."""
    want = os.environ.get("CHRONOEVAL_SANDBOX", "auto").strip().lower()
    if want == "process":
        return "process"
    if want == "bwrap":
        if not bwrap_works():
            raise RuntimeError(
                "CHRONOEVAL_SANDBOX=bwrap but bubblewrap cannot run here "
                "(not installed, or namespaces not allowed); see docs/security.md"
            )
        return "bwrap"
    if bwrap_works():
        return "bwrap"
    if os.getuid() == 0:
        return "process"
    raise RuntimeError(
        "no OS isolation for model code here: bubblewrap cannot run and the harness is not root "
        "(install bubblewrap, run as root, or set CHRONOEVAL_SANDBOX=process to accept a sandbox "
        "under your own uid; see docs/security.md)"
    )


def _kill_session(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()


def _namespace_init(info_fd: int, timeout_s: float, bwrap_pid: int) -> int | None:
    """A pidfd of the sandbox's pid-namespace init, from bubblewrap's ``--info-fd`` report
    (``{"child-pid": N, ...}``), checked to be ``bwrap_pid``'s child once pinned (not a process
    that took a reaped init's pid); None where bubblewrap wrote none, the process is gone or the
    kernel has no pidfds. Closes ``info_fd``."""
    try:
        raw, info = b"", None
        deadline = time.monotonic() + timeout_s
        with selectors.DefaultSelector() as sel:
            sel.register(info_fd, selectors.EVENT_READ)
            while info is None and time.monotonic() < deadline:
                if not sel.select(timeout=max(0.0, deadline - time.monotonic())):
                    continue
                chunk = os.read(info_fd, 4096)
                if not chunk:
                    break
                raw += chunk
                with contextlib.suppress(ValueError):  # a whole report yet?
                    info = json.loads(raw.decode("utf-8", "replace"))
        pid = info["child-pid"] if isinstance(info, dict) else None
        if not isinstance(pid, int) or pid <= 1:
            return None
        pidfd = os.pidfd_open(pid)
        status = Path(f"/proc/{pid}/status").read_text()
        ppid = next((x.split()[1] for x in status.splitlines() if x.startswith("PPid:")), "")
        if ppid != str(bwrap_pid):
            os.close(pidfd)
            return None
        return pidfd
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    finally:
        os.close(info_fd)


def _await_exit(pidfd: int, timeout_s: float = 5.0) -> bool:
    """Wait until the namespace init behind ``pidfd`` has exited, killing it if it has not within
    ``timeout_s``. bubblewrap exits as soon as the code's own process ends, while its init is still
    taking the namespace down (a ``setsid`` grandchild can run on for a few milliseconds, longer on
    a loaded machine). The kernel makes a pid-namespace init exit only after every other process
    in the namespace is gone, so once this returns True nothing the code started is left. Closes
    ``pidfd``."""
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(pidfd, selectors.EVENT_READ)
            if sel.select(timeout=timeout_s):
                return True
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            return bool(sel.select(timeout=timeout_s))
    finally:
        os.close(pidfd)


def _start(
    argv: list[str], cwd: str | None, bwrap: bool, timeout_s: float
) -> tuple[subprocess.Popen[bytes], int | None]:
    """Start the child (its code comes later, on stdin); with bubblewrap (``argv[0]``) also a
    pidfd of its pid namespace's init (:func:`_namespace_init`), pinned before the child has its
    code, so that init cannot have gone yet. Raises OSError where the child cannot start."""
    info_r, info_w = os.pipe() if bwrap else (-1, -1)
    if bwrap:  # bubblewrap reports its pid namespace's init on this pipe
        argv = [argv[0], "--info-fd", str(info_w), *argv[1:]]
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env={},
            start_new_session=True,
            close_fds=True,
            pass_fds=(info_w,) if bwrap else (),
        )
    except OSError:
        if bwrap:
            os.close(info_r)
        raise
    finally:
        if bwrap:
            os.close(info_w)
    return proc, _namespace_init(info_r, timeout_s, proc.pid) if bwrap else None


def _collect(
    proc: subprocess.Popen[bytes], payload: bytes, limits: SandboxLimits
) -> tuple[bytes, bytes, str | None]:
    """Feed stdin, read stdout/stderr incrementally up to the cap; (stdout, stderr, why killed)."""
    assert proc.stdin and proc.stdout and proc.stderr
    with contextlib.suppress(BrokenPipeError, OSError):
        proc.stdin.write(payload)
    with contextlib.suppress(BrokenPipeError, OSError):
        proc.stdin.close()
    bufs = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray()}
    sel = selectors.DefaultSelector()
    for f in (proc.stdout, proc.stderr):
        os.set_blocking(f.fileno(), False)
        sel.register(f.fileno(), selectors.EVENT_READ)
    deadline = time.monotonic() + limits.wall_s
    killed: str | None = None
    try:
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                killed = f"timed out after {limits.wall_s:g} s (wall clock); killed"
                break
            for key, _ in sel.select(timeout=min(left, 0.5)):
                try:
                    chunk = os.read(key.fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    sel.unregister(key.fd)
                    continue
                buf = bufs[key.fd]
                buf += chunk
                if len(buf) > limits.stream_cap:
                    del buf[limits.stream_cap :]
                    killed = f"output limit exceeded (> {limits.stream_cap} bytes); killed"
                    break
            if killed:
                break
    finally:
        sel.close()
    if killed:
        _kill_session(proc)
    try:
        proc.wait(timeout=max(0.5, deadline - time.monotonic()) if not killed else 10)
    except subprocess.TimeoutExpired:
        killed = killed or f"timed out after {limits.wall_s:g} s (wall clock); killed"
        _kill_session(proc)
        proc.wait(10)
    # the session may hold other members (the child's own process group): take them all
    _kill_session(proc)
    return bytes(bufs[proc.stdout.fileno()]), bytes(bufs[proc.stderr.fileno()]), killed


def run_code(
    code: str,
    *,
    cpu_s: int = 5,
    wall_s: float = 10.0,
    memory_mb: int = 256,
    limits: SandboxLimits | None = None,
    python_filters: bool = True,
    calendar_api: bool = True,
) -> SandboxResult:
    """Run model code in the sandbox and return what it printed or why it failed.

    ``calendar_api=False`` runs it with the standard library only (:data:`STDLIB_MODULES`): the
    same OS isolation, no calendar functions predefined or importable."""
    limits = limits or SandboxLimits(cpu_s=cpu_s, wall_s=wall_s, memory_mb=memory_mb)
    if len(code) > MAX_CODE:
        return SandboxResult(False, "", f"refused: code longer than {MAX_CODE} characters")
    if python_filters:
        refused = check_source(code)
        if refused is not None:
            return SandboxResult(False, "", refused)
    try:
        mode = isolation_mode()
    except RuntimeError as exc:
        return SandboxResult(False, "", str(exc))
    workdir = tempfile.mkdtemp(prefix="chronoeval-sandbox-")
    try:
        return _run(code, limits, python_filters, mode, workdir, calendar_api)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _run(
    code: str,
    limits: SandboxLimits,
    python_filters: bool,
    mode: str,
    workdir: str,
    calendar_api: bool = True,
) -> SandboxResult:
    python = sys.executable
    layers = ["process", "empty-env", "fresh-workdir", "wall-clock", "session-kill", "output-cap"]
    flags = ["-I"] if calendar_api else ["-I", "-S"]
    if not calendar_api:
        layers.append("no-site-packages (-S)")
    if mode == "bwrap":
        command = bwrap_command(workdir, stdlib_only=not calendar_api)
        if command is None:  # never run it unsandboxed under bubblewrap's layers
            return SandboxResult(False, "", "bubblewrap cannot run here (it is not installed)")
        prefix = command
        if not calendar_api:
            layers.append("site-packages-hidden")
        layers += ["bwrap", "userns-uid-65534-no-caps", "pidns-die-with-parent", "netns",
                   "ro-system", "private-tmp", "private-proc"]  # fmt: skip
        if "--disable-userns" in command:
            layers.append("no-nested-userns")
        cwd = None
        src = str(_src_root())
    else:
        prefix = []
        cwd = workdir
        src = str(_src_root())
        if os.getuid() == 0:
            os.chown(workdir, NOBODY, NOBODY)
        else:  # forced by CHRONOEVAL_SANDBOX=process: the code runs under the harness's uid
            layers.append("same-uid (no uid boundary)")
    os.chmod(workdir, 0o700)
    payload = json.dumps(
        {
            "code": code,
            "cpu_s": limits.cpu_s,
            "memory_mb": limits.memory_mb,
            "max_output": limits.max_output,
            "src": src,
            "uid": NOBODY,
            "netns": mode == "bwrap",
            "filters": python_filters,
            "api": calendar_api,
            "stdlib": list(STDLIB_MODULES),
        }  # fmt: skip
    ).encode()
    try:
        argv = [*prefix, python, *flags, "-c", _CHILD]
        proc, init = _start(argv, cwd, mode == "bwrap", limits.wall_s)
    except OSError as exc:
        return SandboxResult(False, "", f"the sandbox could not start: {exc}")
    try:
        out, err, killed = _collect(proc, payload, limits)
    finally:
        for f in (proc.stdin, proc.stdout, proc.stderr):
            if f is not None:
                with contextlib.suppress(OSError):
                    f.close()
        if init is not None:
            if _await_exit(init):
                layers.append("pidns-emptied")
            else:  # something the code started could not be ended: no result, whatever it says
                killed = NOT_ENDED
    text = out.decode("utf-8", "replace")
    first, _, rest = text.partition("\n")
    try:  # the child's own layer report, written before the model code ran
        report = json.loads(first)
        child_layers = [x for x in report["layers"] if isinstance(x, str)]
        netns = bool(report["netns"])
    except (ValueError, KeyError, TypeError):
        child_layers, netns = [], mode == "bwrap"
    layers += [x for x in child_layers if x not in layers]
    if killed:
        return SandboxResult(False, "", killed, netns, tuple(layers))
    last = rest.rstrip("\n").rsplit("\n", 1)[-1]
    try:
        res = json.loads(last)
        assert isinstance(res, dict) and "ok" in res
    except (ValueError, AssertionError):
        rc = proc.returncode or 0
        sig = -rc if rc < 0 else (rc - 128 if mode == "bwrap" and rc > 128 else 0)
        if sig:  # bubblewrap reports a child killed by signal N as exit status 128 + N
            why = f"killed by signal {sig} (CPU or memory limit)"
        else:
            tail = err.decode("utf-8", "replace").strip().splitlines()[-1:]
            why = (tail[0] if tail else f"exit status {proc.returncode}")[:500]
            why = f"the sandbox returned no result: {why}"
        return SandboxResult(False, "", why, netns, tuple(layers))
    return SandboxResult(
        bool(res.get("ok")),
        str(res.get("output") or ""),
        None if res.get("error") is None else str(res.get("error"))[:2000],
        netns,
        tuple(layers),
    )
