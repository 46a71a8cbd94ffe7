"""Where the time of a run at a model latency goes, request by request, on client and server.

One ``chronoeval serve`` (instant ``constant`` backend, ``--latency`` seconds per request counted
from its arrival, ``--request-log`` with the server's ``arrived`` and ``answered`` stamps), the
same ClockQA items as bench_targets.py. In each round, in turn: the raw aiohttp client of
bench_targets.py and ``api.run`` with the openai backend. For every request the client notes
when it started sending and when it had the reply (``time.monotonic``, the same clock as the
server's on one machine; chronoeval's client is timed around ``OpenAIBackend._post``). Where
uvloop is installed (and ``CHRONOEVAL_EVENT_LOOP`` is not ``asyncio``), a third path, ``rawuv``:
the raw client on uvloop's loop, the loop chronoeval and serve then use. Printed
per path, medians and 95th percentiles in milliseconds:

  send->arrived   client start of the POST to serve's handler stamping the arrival (the
                  request's transfer plus the time it waited in serve's event loop)
  arrived->answer serve's handler: arrival to the answer (the latency, at least)
  answer->reply   serve's answer to the client having the whole reply (transfer plus the
                  client's event loop)
  reply->next     a client slot from one reply to sending its next request (the client's own
                  work per answer: store, scoring, building the next body)
  cycle           one slot's send to its next send

and the run's wall time against the ideal (ceil(n / concurrency) waves of ``--latency``), the
time before the first send and after the last reply, how far apart in time the requests of one
wave are (the spread of the 64 arrivals), and the CPU seconds of the client and of serve.

    python benchmarks/bench_http_timeline.py --n 2000 --rounds 2 [--serve-cpus 0 --client-cpus 1]
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_targets import (  # noqa: E402
    loop_used,
    pin_cores,
    raw_client,
    run_clockqa,
    target_arguments,
    uvloop_factory,
)


def proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def self_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


async def raw_timed(
    root: Path, url: str, concurrency: int, marks: list[tuple[float, float]]
) -> int:
    """bench_targets.raw_client with a (sent, replied) stamp per request and the loop probe."""
    return await raw_client(root, url, concurrency, marks, probe_client_loop)


CLIENT_LAGS: list[float] = []
LAG_EVENTS: list[tuple[float, float]] = []  # (when, ms late) of the client probe's late timers
_probed: set[int] = set()


def probe_client_loop() -> None:
    """Start, once per event loop, a task noting how late a 5 ms timer fires (ms) in this
    client's loop (asyncio.run cancels it with the loop's other tasks)."""
    loop = asyncio.get_running_loop()
    if id(loop) in _probed:
        return
    _probed.add(id(loop))

    async def probe() -> None:
        while True:
            due = time.monotonic() + 0.005
            await asyncio.sleep(0.005)
            CLIENT_LAGS.append((time.monotonic() - due) * 1000.0)
            if CLIENT_LAGS[-1] > 5.0:
                LAG_EVENTS.append((due, CLIENT_LAGS[-1]))

    loop.create_task(probe())


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def analyse(
    name: str,
    marks: list[tuple[float, float]],
    log: list[dict[str, Any]],
    wall: tuple[float, float],
    args: Any,
    cpu: dict[str, float],
) -> None:
    """Match client stamps to server stamps in order of sending and arrival (one connection per
    slot, so the k-th send is the k-th arrival up to reordering in flight; the matching is by
    sort order, which is what the medians need)."""
    marks = sorted(marks)
    log = sorted(log, key=lambda e: e["arrived"])
    n = min(len(marks), len(log))
    sent = [m[0] for m in marks[:n]]
    replied = [m[1] for m in marks[:n]]
    arrived = [e["arrived"] for e in log[:n]]
    answered = sorted(e["answered"] for e in log[:n])
    ms = 1000.0
    rows = {
        "send->arrived": [(a - s) * ms for s, a in zip(sent, arrived, strict=True)],
        "arrived->answer": [(e["answered"] - e["arrived"]) * ms for e in log[:n]],
        "answer->reply": [(r - a) * ms for a, r in zip(answered, sorted(replied), strict=True)],
    }
    # reply -> next send: the k-th reply frees a slot; the (k + concurrency)-th send uses one
    nexts = sorted(sent)[args.concurrency :]
    rs = sorted(replied)
    rows["reply->next"] = [(s - r) * ms for r, s in zip(rs, nexts, strict=False)]
    rows["cycle"] = [(b - a) * ms for a, b in zip(sorted(sent), nexts, strict=False)]
    start, end = wall
    ideal = math.ceil(args.n / args.concurrency) * args.latency
    print(
        f"  {name}: wall {end - start:.3f} s (ideal {ideal:.2f} s, {args.n / (end - start):.0f}/s"
        f" = {args.n / (end - start) / (args.concurrency / args.latency):.3f} of the limit); "
        f"before first send {(min(sent) - start) * ms:.0f} ms, after last reply "
        f"{(end - max(replied)) * ms:.0f} ms; CPU client {cpu['client']:.2f} s, serve "
        f"{cpu['serve']:.2f} s"
    )
    for k, v in rows.items():
        print(
            f"    {k:16s} median {statistics.median(v):7.1f}  p95 {pct(v, 0.95):7.1f}  "
            f"max {max(v):7.1f} ms"
        )
    c = args.concurrency  # session 7: the first wave on its own (new connections, one burst)
    if n >= 2 * c:
        first = {k: v[:c] for k, v in rows.items() if k != "reply->next"}
        print(
            "    first wave of "
            + f"{c}: "
            + ", ".join(
                f"{k} median {statistics.median(v):.1f} max {max(v):.1f}" for k, v in first.items()
            )
            + " ms"
        )
    lags = [e.get("loop_lag_ms", 0.0) for e in log[:n]]
    print(
        f"    serve's event-loop lag (5 ms probe, worst between two logged answers): median "
        f"{statistics.median(lags):.1f}  p95 {pct(lags, 0.95):.1f}  max {max(lags):.1f} ms"
    )
    if CLIENT_LAGS:
        print(
            f"    client's event-loop lag (5 ms probe): median {statistics.median(CLIENT_LAGS):.1f}"
            f"  p95 {pct(CLIENT_LAGS, 0.95):.1f}  max {max(CLIENT_LAGS):.1f} ms, "
            f"{len(CLIENT_LAGS)} samples"
        )
    waves = [arrived[i : i + args.concurrency] for i in range(0, n, args.concurrency)]
    spread = [(w[-1] - w[0]) * ms for w in waves if len(w) == args.concurrency]
    print(
        f"    arrivals of one wave of {args.concurrency} spread over: median "
        f"{statistics.median(spread):.1f} ms (first wave {spread[0]:.1f}, last full "
        f"{spread[-1]:.1f})"
    )


# -- session 7: what the client's event loop is doing while a chronoeval run asks ------------------
GC_PAUSES: list[tuple[float, float, int]] = []  # (start, seconds, generation) per collection
COMMITS: list[tuple[float, float, int]] = []  # (start, seconds, answers) per store.put_many
OFFERS: list[
    tuple[float, float]
] = []  # (start, seconds) per ScoreMemo.offer (scoring while asking)
SLOT_MARKS: dict[int, list[tuple[float, float]]] = {}  # per asyncio task (one per slot)
_gc_start = [0.0]


def _gc_callback(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_start[0] = time.monotonic()
    else:
        GC_PAUSES.append((_gc_start[0], time.monotonic() - _gc_start[0], info["generation"]))


def instrument_chronoeval() -> None:
    """Time the store's group commits and scoring while asking (wrapping the methods), and every
    garbage collection (gc.callbacks); results are unchanged."""
    import gc

    from chronoeval.engine.scoring_memo import ScoreMemo
    from chronoeval.engine.store import RunStore

    real_put_many = RunStore.put_many
    real_offer = ScoreMemo.offer

    def put_many(self: Any, outcomes: Any) -> Any:
        t = time.monotonic()
        try:
            return real_put_many(self, outcomes)
        finally:
            COMMITS.append((t, time.monotonic() - t, len(outcomes)))

    def offer(self: Any, *a: Any, **k: Any) -> Any:
        t = time.monotonic()
        try:
            return real_offer(self, *a, **k)
        finally:
            OFFERS.append((t, time.monotonic() - t))

    RunStore.put_many = put_many  # type: ignore[method-assign]
    ScoreMemo.offer = offer  # type: ignore[method-assign]
    gc.callbacks.append(_gc_callback)


def clear_diagnostics() -> None:
    for x in (GC_PAUSES, COMMITS, OFFERS, LAG_EVENTS):
        x.clear()
    SLOT_MARKS.clear()


def _overlap(a0: float, a1: float, spans: list[tuple[float, float]]) -> float:
    return sum(max(0.0, min(a1, s + d) - max(a0, s)) for s, d in spans)


def analyse_slots(start: float, end: float) -> None:
    """Per slot (one asyncio task per runner worker), exact: the round trip (send to reply) and
    the gap (reply to the slot's next send); the slowest 5% of cycles and how much of each was
    spent in a garbage collection, a group commit or scoring while asking (anywhere in the
    loop's thread: while it runs, no slot moves)."""
    ms = 1000.0
    trips, gaps, cycles = [], [], []
    for seq in SLOT_MARKS.values():
        seq.sort()
        for (s0, r0), (s1, _r1) in zip(seq, seq[1:], strict=False):
            trips.append((r0 - s0) * ms)
            gaps.append((s1 - r0) * ms)
            cycles.append((s0, s1, r0))
        if seq:
            trips.append((seq[-1][1] - seq[-1][0]) * ms)
    if not cycles:
        return
    firsts = sorted((seq[0][1] - seq[0][0]) * ms for seq in SLOT_MARKS.values() if seq)
    print(
        f"    each slot's first round trip: min {firsts[0]:.1f} median "
        f"{statistics.median(firsts):.1f} max {firsts[-1]:.1f} ms; first reply "
        f"{(min(q[0][1] for q in SLOT_MARKS.values()) - start) * ms:.0f} ms into the run"
    )
    print(
        f"    per slot ({len(SLOT_MARKS)} slots): round trip median {statistics.median(trips):.1f}"
        f" p95 {pct(trips, 0.95):.1f} max {max(trips):.1f}; reply->own next send median "
        f"{statistics.median(gaps):.2f} p95 {pct(gaps, 0.95):.2f} max {max(gaps):.1f} ms"
    )
    for label, spans in (
        ("GC pauses", [(s, d) for s, d, _g in GC_PAUSES]),
        ("store commits", [(s, d) for s, d, _n in COMMITS]),
        ("scoring while asking", OFFERS),
    ):
        durs = [d * ms for _s, d in spans]
        if not durs:
            print(f"    {label}: none")
            continue
        print(
            f"    {label}: {len(durs)}, total {sum(durs):.1f} ms, median {statistics.median(durs):.2f}"
            f" p95 {pct(durs, 0.95):.2f} max {max(durs):.1f} ms"
        )
    if GC_PAUSES:
        gens = {g: [d * ms for _s, d, gg in GC_PAUSES if gg == g] for g in (0, 1, 2)}
        print(
            "    GC by generation: "
            + ", ".join(
                f"gen {g}: {len(v)} ({sum(v):.1f} ms, max {max(v, default=0):.1f})"
                for g, v in gens.items()
            )
        )
    big = sorted(COMMITS, key=lambda c: -c[1])[:5]
    print(
        "    slowest commits (ms into the run, ms, answers): "
        + ", ".join(f"{(s - start) * ms:.0f}: {d * ms:.1f} ({n})" for s, d, n in big)
    )
    print(
        "    the client loop's timer late > 5 ms (ms into the run: ms late): "
        + ", ".join(f"{(t - start) * ms:.0f}: {lag:.1f}" for t, lag in LAG_EVENTS[:30])
    )
    print(
        "    commits > 5 ms (ms into the run: ms): "
        + ", ".join(f"{(t - start) * ms:.0f}: {d * ms:.1f}" for t, d, _n in COMMITS if d > 0.005)
    )
    print(
        "    GC > 1 ms (ms into the run: ms, gen): "
        + ", ".join(
            f"{(t - start) * ms:.0f}: {d * ms:.1f} g{g}" for t, d, g in GC_PAUSES if d > 0.001
        )
    )
    durs = sorted((s1 - s0) * ms for s0, s1, _r in cycles)
    cut = durs[int(0.95 * len(durs))]
    slow = [(s0, s1, r0) for s0, s1, r0 in cycles if (s1 - s0) * ms >= cut]
    gcs = [(s, d) for s, d, _g in GC_PAUSES]
    com = [(s, d) for s, d, _n in COMMITS]
    per = [
        (
            (s1 - s0) * ms,
            (r0 - s0) * ms,
            (s1 - r0) * ms,
            _overlap(s0, s1, gcs) * ms,
            _overlap(s0, s1, com) * ms,
            _overlap(s0, s1, OFFERS) * ms,
        )
        for s0, s1, r0 in slow
    ]
    if per:
        cols = list(zip(*per, strict=True))
        print(
            f"    the slowest 5% of cycles (>= {cut:.1f} ms, {len(per)}), medians: cycle "
            f"{statistics.median(cols[0]):.1f}, round trip {statistics.median(cols[1]):.1f}, reply->"
            f"next {statistics.median(cols[2]):.2f}; inside them GC {statistics.median(cols[3]):.1f},"
            f" commits {statistics.median(cols[4]):.1f}, scoring {statistics.median(cols[5]):.1f} ms"
        )
        when = sorted((s0 - start) * ms for s0, _s1, _r in slow)
        print(
            "    when the slowest cycles start (ms into the run; deciles): "
            + ", ".join(
                f"{when[int(q * (len(when) - 1))]:.0f}" for q in (0, 0.1, 0.3, 0.5, 0.7, 0.9, 1)
            )
        )


def main() -> None:
    parser = target_arguments(pinning=True)
    parser.add_argument(
        "--only",
        nargs="+",
        default=None,
        help="run only these paths (raw, ce, rawuv); all by default",
    )
    args = parser.parse_args()
    serve_cpus = pin_cores(args)
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-timeline-"))
    os.environ["CHRONOEVAL_CACHE"] = str(tmp / "cache")
    import subprocess

    from chronoeval import api
    from chronoeval.models import openai as openai_mod

    ds = api.generate("clockqa", n=args.n, seed=0)
    api.prepare_dataset  # noqa: B018 - imported, nothing else
    log_path = tmp / "requests.jsonl"
    ready = tmp / "s.url"
    proc = subprocess.Popen(
        [sys.executable, "-m", "chronoeval", "serve", "--model", "constant:10:10:00", "--task",
         "clockqa", "--port", "0", "--latency", str(args.latency), "--ready-file", str(ready),
         "--request-log", str(log_path)],
        stdout=subprocess.DEVNULL,
        preexec_fn=(lambda: os.sched_setaffinity(0, serve_cpus)) if serve_cpus else None,  # noqa: PLW1509
    )  # fmt: skip
    while not ready.exists():
        if proc.poll() is not None:
            raise SystemExit("chronoeval serve did not start")
        time.sleep(0.05)
    url = ready.read_text().strip()
    marks: list[tuple[float, float]] = []
    last_cpu = [0.0]
    real_post = openai_mod.OpenAIBackend._post

    async def timed_post(self: Any, base_url: str, payload: Any, headers: Any) -> Any:
        probe_client_loop()
        sent = time.monotonic()
        try:
            return await real_post(self, base_url, payload, headers)
        finally:
            marks.append((sent, time.monotonic()))
            SLOT_MARKS.setdefault(id(asyncio.current_task()), []).append(marks[-1])
            last_cpu[0] = time.process_time()  # this process's CPU at its latest reply

    openai_mod.OpenAIBackend._post = timed_post  # type: ignore[method-assign]
    instrument_chronoeval()
    counter = [0]

    def ce() -> None:
        counter[0] += 1
        run_clockqa(ds.root, tmp / f"run{counter[0]}", args.n, args.concurrency, url)

    def raw() -> None:
        assert asyncio.run(raw_timed(ds.root, url, args.concurrency, marks)) == args.n

    def rawuv() -> None:  # the same raw client on uvloop's loop (session 6: an extra row)
        with asyncio.Runner(loop_factory=uvloop_factory()) as runner:
            assert runner.run(raw_timed(ds.root, url, args.concurrency, marks)) == args.n

    paths = [("raw", raw), ("ce", ce)] + ([("rawuv", rawuv)] if uvloop_factory() else [])
    if args.only:
        paths = [p for p in paths if p[0] in args.only]

    try:
        print(
            f"{args.n} ClockQA items, concurrency {args.concurrency}, latency {args.latency}s, "
            f"{os.cpu_count()} cores; chronoeval's and serve's event loop: {loop_used()}"
        )
        for rnd in range(args.rounds):
            for name, fn in paths if rnd % 2 == 0 else paths[::-1]:
                marks.clear()
                CLIENT_LAGS.clear()
                clear_diagnostics()
                _probed.clear()  # a new loop may reuse a closed one's id: probe each run's loop
                log_path.write_text("")
                load = os.getloadavg()[0]
                cpu0, scpu0 = self_cpu(), proc_cpu(proc.pid)
                start = time.monotonic()
                fn()
                end = time.monotonic()
                post_cpu = time.process_time() - last_cpu[0]
                cpu = {"client": self_cpu() - cpu0, "serve": proc_cpu(proc.pid) - scpu0}
                time.sleep(0.2)  # the log's last lines
                log = [json.loads(x) for x in log_path.read_text().splitlines() if x.strip()]
                print(f"round {rnd + 1}, load {load:.1f}")
                analyse(name, marks, log, (start, end), args, cpu)
                if name == "ce":  # CPU, which the load moves less than the wall time above
                    print(f"  ce: CPU after the last reply {post_cpu * 1000:.1f} ms")
                    analyse_slots(start, end)
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
