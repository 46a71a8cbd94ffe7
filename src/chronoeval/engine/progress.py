"""Plain progress lines for logs: when output is not a terminal (a log file, a batch job), the
runner prints one line every ``interval_s`` seconds instead of a live bar::

    progress clockqa · openai:m: 40/120 (33%) · 5.2/s · ETA 15s · 1 error

``done`` counts items answered or stored before (resumed) plus those asked this session; the rate
is over requests sent this session; errors are final failures (after retries). A first line is
printed when the task starts and a last one when it ends, so even a short task leaves a trace.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def fmt_duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h}h{m:02d}m"
    if m:
        return f"{m}m{s:02d}s"
    return f"{s}s"


class PlainProgress:
    def __init__(
        self,
        description: str,
        total: int,
        cached: int = 0,
        *,
        interval_s: float = 10.0,
        stream: TextIO | None = None,
        clock: object = time.monotonic,
    ) -> None:
        self.description = description
        self.total = total
        self.cached = cached
        self.called = 0
        self.errors = 0
        self.interval_s = interval_s
        self.stream = stream or sys.stderr
        self._clock = clock
        self.start = self._now()
        self._last = self.start
        self.line(final=False)

    def _now(self) -> float:
        return float(self._clock())  # type: ignore[operator]

    def advance(self, ok: bool) -> None:
        self.called += 1
        self.errors += 0 if ok else 1
        now = self._now()
        if now - self._last >= self.interval_s:
            self._last = now
            self.line(final=False)

    def close(self) -> None:
        self.line(final=True)

    def line(self, *, final: bool) -> None:
        done = self.cached + self.called
        pct = 100.0 * done / self.total if self.total else 100.0
        elapsed = self._now() - self.start
        parts = [f"progress {self.description}: {done}/{self.total} ({pct:.0f}%)"]
        rate = self.called / elapsed if elapsed > 0 and self.called else None
        parts.append(f"{rate:.1f}/s" if rate else "?/s")
        if final:
            parts.append(f"done in {fmt_duration(elapsed)}")
        else:
            left = self.total - done
            parts.append(f"ETA {fmt_duration(left / rate)}" if rate else "ETA ?")
        parts.append(f"{self.errors} error{'s' if self.errors != 1 else ''}")
        print(" · ".join(parts), file=self.stream, flush=True)
