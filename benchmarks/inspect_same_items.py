"""Run a chronoeval dataset directory through Inspect with its instant mockllm model.

Needs only ``inspect_ai`` (not chronoeval): it reads ``items.jsonl`` and the images itself, so it
can run in another environment. Prints one line: ``inspect <version> <n> samples <wall>s <rate>/s``.
With ``--runs K`` (K > 1) the process first runs one untimed warm-up eval, then K timed evals, and
prints the median: the same treatment ``bench_inproc_ab.py`` gives chronoeval's runs.

    python benchmarks/inspect_same_items.py DATASET_DIR [--runs K]
"""

from __future__ import annotations

import base64
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main(root: Path, runs: int = 1) -> None:
    import inspect_ai
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import (
        ChatMessageUser,
        ContentImage,
        ContentText,
        ModelOutput,
        get_model,
    )
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    samples = []
    for line in (root / "items.jsonl").read_text().splitlines():
        item = json.loads(line)
        content = []
        for part in item["messages"][0]["content"]:
            if part["type"] == "image":
                data = base64.b64encode((root / part["path"]).read_bytes()).decode()
                content.append(ContentImage(image=f"data:image/png;base64,{data}"))
            else:
                content.append(ContentText(text=part["text"]))
        samples.append(Sample(input=[ChatMessageUser(content=content)], target=item["target"]))

    cpus: list[float] = []

    def one() -> float:
        outputs = (ModelOutput.from_content("mockllm/model", "10:10:00") for _ in samples)
        model = get_model("mockllm/model", custom_outputs=outputs)
        start, cpu = time.perf_counter(), time.process_time()
        eval(
            Task(dataset=samples, solver=generate(), scorer=match()),
            model=model,
            display="none",
            log_dir=tempfile.mkdtemp(),
        )
        cpus.append(time.process_time() - cpu)  # the process's CPU, all its threads
        return time.perf_counter() - start

    if runs > 1:
        one()  # warm-up, untimed
        cpus.clear()
    wall = statistics.median(one() for _ in range(runs))
    cpu = statistics.median(cpus)
    print(f"cpu {cpu:.3f}s {len(samples) / cpu:.0f}/s-cpu")  # before the last line, parsed as is
    print(
        f"inspect {inspect_ai.__version__} {len(samples)} samples {wall:.2f}s "
        f"{len(samples) / wall:.0f}/s"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[3]) if sys.argv[2:3] == ["--runs"] else 1)
