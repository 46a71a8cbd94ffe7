"""Where the time of `chronoeval run` goes, phase by phase (issue 21).

Each round runs the default job (`chronoeval run`, no arguments: clockqa + calendarqa, reference
agents and random baseline) in a fresh process through the real CLI, with timers wrapped around
the path's functions: start-up (interpreter + imports until the command starts), dataset
(prepare: load + validate, or generate), engine (asking the models: here the reference agents' own
compute is most of it), dataset reload for scoring, scoring (parse, score, bootstrap), samples
(samples.jsonl + samples.parquet), figures (each task's matplotlib figures, counted as drawn or
reused from the in-process memo), report (HTML, figures excluded) and the rest. Since issue 21's
second session, ``chronoeval run`` draws figures, profile charts and thumbnails in its worker
processes (models/agent_pool.py): "figures" then counts only what the main process draws itself,
and the time it waits for the workers' figures falls into "report". The first round
also generates the datasets; later rounds find them cached (and their images verified by the
stamp of core/verified.py). Then the dataset-load comparison: the same 2,000-item ClockQA
directory loaded with every image re-hashed (CHRONOEVAL_VERIFY_ALWAYS=1) and with the stamp,
interleaved.

    python benchmarks/bench_fixed_costs.py --rounds 3 [--n-load 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PHASES = (
    "startup",
    "dataset",
    "engine",
    "dataset reload",
    "scoring",
    "samples",
    "figures",
    "report",
    "rest",
    "total",
)


def run_default_job_here(cli: Any) -> None:
    """``chronoeval run --no-progress`` (the default job) in this process, through the CLI."""
    sys.argv = ["chronoeval", "run", "--no-progress"]
    try:
        cli.main()
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise


def child(out_json: Path, t_launch: float) -> None:
    """Run the default job through the CLI with timers around the path's functions."""
    times: dict[str, float] = dict.fromkeys(PHASES, 0.0)
    counts = {"figure_sets_drawn": 0}
    t_start = time.time()
    from chronoeval import api, cli
    from chronoeval.core import registry
    from chronoeval.report import memo

    times["startup"] = time.time() - t_launch

    def wrap(owner: Any, name: str, phase: str) -> None:
        real = getattr(owner, name)

        def timed(*a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return real(*a, **kw)
            finally:
                times[phase] += time.perf_counter() - t

        setattr(owner, name, timed)

    wrap(api, "prepare_dataset", "dataset")
    wrap(api, "ask_all", "engine")  # api.run asks each task's models through engine.ask_all
    wrap(api, "load_dataset", "dataset reload")
    wrap(api, "write_samples", "samples")
    score_t = {"score_records": 0.0, "report": 0.0}
    fig_in = {"score_records": 0.0, "report": 0.0, None: 0.0}
    ctx: list[str | None] = [None]

    def inclusive(name: str) -> Any:
        real = getattr(api, name)

        def timed(*a: Any, **kw: Any) -> Any:
            ctx.append(name)
            t = time.perf_counter()
            try:
                return real(*a, **kw)
            finally:
                score_t[name] += time.perf_counter() - t
                ctx.pop()

        return timed

    api.score_records = inclusive("score_records")
    api.report = inclusive("report")
    for task in registry.all_tasks().values():
        real_plots = task.plots

        def plots(runs: Any, out_dir: Path, _real: Any = real_plots) -> Any:
            t = time.perf_counter()
            counts["figure_sets_drawn"] += 1
            try:
                return _real(runs, out_dir)
            finally:
                dt = time.perf_counter() - t
                times["figures"] += dt
                fig_in[ctx[-1]] += dt

        task.plots = plots  # type: ignore[method-assign]
    run_default_job_here(cli)
    total = time.time() - t_launch
    times["scoring"] = (
        score_t["score_records"]
        - times["dataset reload"]
        - times["samples"]
        - fig_in["score_records"]
    )
    times["report"] = score_t["report"] - fig_in["report"]
    times["rest"] = total - sum(times[k] for k in PHASES if k not in ("rest", "total"))
    times["total"] = total
    counts["figure_sets_reused"] = memo.stats["figure_hits"]
    out_json.write_text(json.dumps({"times": times, "counts": counts, "t0": t_start - t_launch}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--n-load", type=int, default=2000)
    ap.add_argument("--child", nargs=2, metavar=("OUT", "T_LAUNCH"))
    args = ap.parse_args()
    if args.child:
        child(Path(args.child[0]), float(args.child[1]))
        return
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-fixed-"))
    env = {**os.environ, "CHRONOEVAL_CACHE": str(tmp / "cache")}
    rows: list[dict[str, Any]] = []
    print(f"load average at start: {os.getloadavg()[0]:.1f} (2-core machine: > 2 means shared)")
    for rnd in range(args.rounds):
        work = tmp / f"w{rnd}"
        work.mkdir()
        out = work / "phases.json"
        subprocess.run(
            [sys.executable, __file__, "--child", str(out), repr(time.time())],
            cwd=work,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        got = json.loads(out.read_text())
        rows.append(got)
        label = "first (generates datasets)" if rnd == 0 else "datasets cached"
        print(
            f"round {rnd + 1}, {label}, load {os.getloadavg()[0]:.1f}: "
            + ", ".join(f"{k} {v:.2f}s" for k, v in got["times"].items())
            + f"; figure sets drawn {got['counts']['figure_sets_drawn']}, "
            f"reused {got['counts']['figure_sets_reused']}"
        )
    later = rows[1:] or rows
    print("\n| phase | first round (s) | median of later rounds (s) |\n|---|---|---|")
    for k in PHASES:
        med = statistics.median(r["times"][k] for r in later)
        print(f"| {k} | {rows[0]['times'][k]:.2f} | {med:.2f} |")

    # dataset load: every image re-hashed vs the verify-once stamp, interleaved
    os.environ["CHRONOEVAL_CACHE"] = str(tmp / "cache")
    from chronoeval import api
    from chronoeval.core import verified
    from chronoeval.core.dataset import load_dataset

    ds = api.generate("clockqa", n=args.n_load, seed=0)
    verified.RACY_NS = 0  # the set was written a moment ago; a real cache is older
    load_dataset(ds.root)  # writes the stamp
    always, stamped = [], []
    for _ in range(args.rounds):
        for mode, sink in (("1", always), ("0", stamped)):
            os.environ["CHRONOEVAL_VERIFY_ALWAYS"] = mode
            t = time.perf_counter()
            load_dataset(ds.root)
            sink.append(time.perf_counter() - t)
    a, s = statistics.median(always), statistics.median(stamped)
    print(
        f"\nload of {args.n_load} ClockQA items: every image re-hashed {a:.3f}s, with the stamp "
        f"{s:.3f}s (ratio {a / s:.1f}x; rounds: {[round(x, 3) for x in always]} vs "
        f"{[round(x, 3) for x in stamped]})"
    )


if __name__ == "__main__":
    main()
