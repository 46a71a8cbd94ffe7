"""Do two source trees give the same results.json and samples on the same items?

Runs ``api.run`` in a fresh process per tree on one generated ClockQA dataset, for each model:
``constant:10:10:00``, ``random``, and ``corpus`` (registered here: item i gets reply i of the
ClockQA reply corpus plus terse replies, cycled, so the full parser and its shortcuts both run).
results.json must be equal (the ``python`` field aside); samples.jsonl and samples.parquet must be
equal row by row with ``latency_s`` (a measured time) left out. Prints one line per model.

    python benchmarks/same_results.py --before /tmp/before/src --after src --n 600
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from clockqa_subprocess import generate_clockqa

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys
from pathlib import Path
from chronoeval import api
from chronoeval.models.local import FunctionBackend
from chronoeval.models.registry import register_backend

corpus = [json.loads(l)["reply"] for l in Path(sys.argv[4]).read_text().splitlines() if l.strip()]
corpus += ["10:10:00", "3:45", " 7:05:09.\n", "15:20:45", "25:10:00", "00:00", "**4:20:15**"]
ids = {}

@register_backend("corpus")
def _corpus(arg, task, items, opts):
    def answer(request):
        # the item is found by its image's sha256, the same in both trees
        sha = [p.sha256 for m in request.messages for p in m.content if hasattr(p, "sha256")][0]
        return corpus[ids[sha] % len(corpus)]
    return FunctionBackend("corpus", answer, threaded=False)

data, out, model = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
from chronoeval.core.dataset import load_dataset
for i, it in enumerate(load_dataset(data).items):
    ids[[p.sha256 for m in it.messages for p in m.content if hasattr(p, "sha256")][0]] = i
api.run(["clockqa"], model, data=data, run_dir=out, progress=False, plots=False, concurrency=16)
"""


def _samples(run: Path) -> list[dict[str, object]]:
    rows = [json.loads(x) for x in (run / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    for r in rows:
        r.pop("latency_s", None)
    return rows


def _parquet(run: Path) -> dict[str, list[object]]:
    import pyarrow.parquet as pq

    table = pq.read_table(run / "samples.parquet").to_pydict()
    table.pop("latency_s", None)
    return table


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--after", type=Path, required=True)
    ap.add_argument("--n", type=int, default=600)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="chronoeval-same-results-"))
    env = {**os.environ, "CHRONOEVAL_CACHE": str(tmp / "cache")}
    data = generate_clockqa(args.after, args.n, env)
    corpus = ROOT / "tests" / "reply_corpus" / "clockqa.jsonl"
    failed = False
    for model in ("constant:10:10:00", "random", "corpus"):
        runs = {}
        for name, src in (("before", args.before), ("after", args.after)):
            runs[name] = tmp / name / model.replace(":", "_")
            subprocess.run(
                [sys.executable, "-c", CHILD, data, str(runs[name]), model, str(corpus)],
                env={**env, "PYTHONPATH": str(src.resolve())},
                check=True,
            )
        res = [json.loads((runs[k] / "results.json").read_text()) for k in ("before", "after")]
        for r in res:
            r.pop("python", None)
        same_results = res[0] == res[1]
        same_samples = _samples(runs["before"]) == _samples(runs["after"])
        same_parquet = _parquet(runs["before"]) == _parquet(runs["after"])
        counts = res[1]["tasks"]["clockqa"]["counts"]
        print(
            f"{model}: results.json equal {same_results}, samples.jsonl equal {same_samples}, "
            f"samples.parquet equal {same_parquet} (counts {counts})"
        )
        failed |= not (same_results and same_samples and same_parquet)
    shutil.rmtree(tmp, ignore_errors=True)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
