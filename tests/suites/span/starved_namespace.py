"""Run the ``setsid_grandchild`` escape N times while the sandbox's pid-namespace init is starved of
CPU, and print how many runs left the grandchild alive when ``run_code`` returned.

bubblewrap's outer process exits as soon as the code's own process ends; the namespace's init then
has to be scheduled to take the namespace (and a ``setsid`` grandchild in it) down. Here that init is
made to wait: this process and three busy loops share one CPU, this process at nice -10 and the
init at SCHED_IDLE (set by a watcher thread as soon as it appears). Root only (nice -10).

    python tests/suites/span/starved_namespace.py 40   # prints "survivors 0/40"
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/, for suites.span.escapes

from chronoeval.suites.span.sandbox import SandboxLimits, run_code  # noqa: E402
from suites.span.escapes import render, survivors  # noqa: E402


def namespace_inits() -> list[int]:
    """Processes that are pid 1 of a pid namespace nested in this one."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("NSpid:") and len(line.split()) >= 3 and line.split()[-1] == "1":
                found.append(int(pid))
    return found


def main(n: int) -> int:
    os.environ["CHRONOEVAL_SANDBOX"] = "bwrap"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    hogs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)
    ]  # they inherit the one-CPU affinity
    with contextlib.suppress(PermissionError):  # without CAP_SYS_NICE: a weaker starvation
        os.nice(-10)
    stop = threading.Event()

    def starve() -> None:
        while not stop.is_set():
            for pid in namespace_inits():
                with contextlib.suppress(OSError):  # gone already
                    os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))
            time.sleep(0.0005)

    threading.Thread(target=starve, daemon=True).start()
    left = 0
    try:
        for _ in range(n):
            marker = f"3600.{os.getpid()}{time.monotonic_ns() % 10**9}"
            code = render("setsid_grandchild", MARKER=marker, RUN_DIR="/x", CANARY="/x", PORT=9)
            run_code(code, limits=SandboxLimits(cpu_s=1, wall_s=4, memory_mb=128))
            left += bool(survivors(marker))
            deadline = time.monotonic() + 5  # let any survivor die before the next run
            while survivors(marker) and time.monotonic() < deadline:
                time.sleep(0.005)
    finally:
        stop.set()
        for h in hogs:
            h.kill()
            h.wait()
    print(f"survivors {left}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
