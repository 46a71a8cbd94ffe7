"""Each reference agent's own compute on the default job's items (issue 21).

For each task: the items the default job asks (generated with the task's defaults, or ``--n``),
answered one after another in this process by the task's reference agent, exactly as the engine
would call it (the rendered messages and an image reader). Prints items, wall and CPU seconds and
milliseconds per item. The first call of an agent includes its imports and model loading (RapidOCR
for calendars); ``--warm`` answers one item first, untimed, to leave that out.

    python benchmarks/bench_reference_agents.py                      # clockqa, calendarqa
    python benchmarks/bench_reference_agents.py --tasks span seeing_time_colour --n 50

``--one-thread``: compute as an agent worker of ``chronoeval run`` does (models/agent_pool.py
``one_thread_per_worker``: BLAS, OpenCV and new ONNX Runtime sessions on one thread). Without it
the libraries keep their defaults (a thread per core); compare the CPU column of both.
"""

from __future__ import annotations

import argparse
import time

from chronoeval import api
from chronoeval.core.registry import DEFAULT_JOB, get_task
from chronoeval.engine.request import GenerationConfig


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", nargs="*", default=list(DEFAULT_JOB["tasks"]))
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--warm", action="store_true", help="leave the first call out of the timing")
    ap.add_argument("--one-thread", action="store_true", help="native libraries as in a worker")
    args = ap.parse_args()
    if args.one_thread:
        import importlib

        from chronoeval.models import agent_pool

        for name in args.tasks:  # the agents' libraries loaded first, then limited
            agent = get_task(name).reference_agent()
            module = importlib.import_module(getattr(agent, "__module__", "builtins"))
            for extra in getattr(module, "WARM", {}).get(getattr(agent, "__name__", ""), ()):
                importlib.import_module(extra)
        agent_pool.one_thread_per_worker()
    for name in args.tasks:
        task = get_task(name)
        agent = task.reference_agent()
        if agent is None:
            print(f"{name}: no reference agent")
            continue
        ds = api.prepare_dataset(task, n=args.n)
        reqs = [api.item_request(it, GenerationConfig(), ds.root) for it in ds.items]
        if args.warm and reqs:
            agent(reqs[0].messages, reqs[0].read_image)
        t, c = time.perf_counter(), time.process_time()
        for r in reqs:
            agent(r.messages, r.read_image)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        per, per_cpu = (1000 * x / max(1, len(reqs)) for x in (wall, cpu))
        print(
            f"{name}: {len(reqs)} items, wall {wall:.2f} s, cpu {cpu:.2f} s, {per:.1f} ms/item "
            f"(cpu {per_cpu:.1f} ms/item)"
        )


if __name__ == "__main__":
    main()
