"""The whole 11-subtask suite end to end: released files + placeholder images -> the openai
backend -> a real `chronoeval serve` -> scoring; then the run exported in the released output
layout and re-scored by the released-scorer path gives the same numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.registry import get_task, suite_tasks
from chronoeval.models.registry import BackendOptions
from chronoeval.suites.mined.predictions import export_run, score_file
from chronoeval.suites.mined.released import SUBTASK_FILES
from suites.mined.mined_helpers import PEERS, placeholder_images

pytestmark = pytest.mark.skipif(not PEERS.is_dir(), reason="released MINED data not present")
UNANSWERABLE = {"mined_future_unanswerable_date", "mined_previous_unanswerable_date"}


def test_suite_through_openai_backend_and_serve(serve, tmp_path: Path) -> None:
    # the first two samples of every released file (a temporary copy, to keep the test fast)
    data = tmp_path / "mined_data"
    data.mkdir()
    for name in SUBTASK_FILES.values():
        head = json.loads((PEERS / name).read_text())[:2]
        (data / name).write_text(json.dumps(head), encoding="utf-8")
    root = placeholder_images(tmp_path / "imgs", list(SUBTASK_FILES.values()))
    server = serve("--model", "constant:Unknown")
    tasks = suite_tasks("mined")
    assert len(tasks) == 11
    run_dir = tmp_path / "run"
    for name in tasks:
        res = api.run(
            [name],
            f"openai:constant:Unknown/{name}",
            data=data,  # two samples x four configurations per subtask
            params={"images_root": str(root)},
            run_dir=run_dir / name,
            backend_options=BackendOptions(base_url=server.url),
            concurrency=4,
            progress=False,
            plots=(name == "mined_time_agnostic"),
        )
        entry = res.results["tasks"][name]
        assert entry["counts"] == {"answered": 8, "no_answer": 0, "error": 0, "missing": 0}
        m = entry["metrics"]
        expected = 1.0 if name in UNANSWERABLE else 0.0
        assert m["overall"]["cem"]["value"] == expected
        assert m["counts"]["samples"] == 2 and m["counts"]["text_only"] == 0
        assert set(m["by_config"]) == {
            "image_mm_questions",
            "paraphrase_image_mm_questions",
            "image_mm_paraphrase_completion",
            "paraphrase_image_mm_paraphrase_completion",
        }
        label, headline = get_task(name).headline(m)
        assert label == "CEM" and headline["value"] == expected
        # the same predictions in the released layout, scored by the released-scorer path
        (out,) = export_run(run_dir / name, tmp_path / "released", "constant")
        assert score_file(out).cem == pytest.approx(100 * expected)
    reqs = server.requests()
    assert len(reqs) == 11 * 8
    assert {r["status"] for r in reqs} == {200}
    assert (run_dir / "mined_time_agnostic" / "plots" / "mined_time_agnostic_loi.png").is_file()
    ta = json.loads((run_dir / "mined_time_agnostic" / "results.json").read_text())
    loi = ta["tasks"]["mined_time_agnostic"]["metrics"]["loi"]
    assert loi["irrelevant"]["value"] == 1.0  # "Unknown" names no value of the attribute list
