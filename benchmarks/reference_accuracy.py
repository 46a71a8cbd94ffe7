"""Reference-agent accuracy on freshly generated Lost in Time items, over several seeds.

    python benchmarks/reference_accuracy.py --seeds 0 1 2 3 4 [--clocks 600]

Each seed generates new items (600 clocks, 100 per style; 60 calendar questions, 10 years) and runs
the reference agents through the engine in process (concurrency 2 threads).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--clocks", type=int, default=600)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-ref-"))
    os.environ["CHRONOEVAL_CACHE"] = str(tmp / "cache")
    from chronoeval import api

    print("| seed | task | items | correct | accuracy | wall per item (agent + score + write) |")
    print("|---|---|---|---|---|---|")
    for seed in args.seeds:
        for task, key, n in (("clockqa", "em", args.clocks), ("calendarqa", "accuracy", None)):
            api.generate(task, n=n, seed=seed)  # generation is not part of the agent's time
            start = time.perf_counter()
            res = api.run(
                [task],
                "reference",
                n=n,
                seed=seed,
                run_dir=tmp / f"{task}-{seed}",
                concurrency=2,
                progress=False,
                plots=False,
            )
            wall = time.perf_counter() - start
            t = res.results["tasks"][task]
            m = t["metrics"]["overall"][key]
            items = t["dataset"]["n_items"]
            print(
                f"| {seed} | {task} | {items} | {round(m['value'] * items)} | "
                f"{100 * m['value']:.2f}% | {wall / items * 1000:.1f} ms |"
            )


if __name__ == "__main__":
    main()
