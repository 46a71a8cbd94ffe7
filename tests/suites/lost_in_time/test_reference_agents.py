"""The reference agents' scores, reproduced on freshly generated items through the engine.

Targets (issue 3): ≥ 99% on 600 generated clocks across all six styles, ≥ 99% on 60 generated
calendar questions. Since issue 19 the clock check uses classic faces (``look=classic``) with the
reader's measured level; realistic faces are measured in benchmarks/bench_clock_reader.py. The seed can be changed with CHRONOEVAL_TEST_SEED to sweep others.
"""

from __future__ import annotations

import os
from pathlib import Path

from chronoeval import api
from chronoeval.models.registry import BackendOptions

SEED = int(os.environ.get("CHRONOEVAL_TEST_SEED", "20261121"))


def test_clock_reference_agent_600_items(tmp_path: Path) -> None:
    # classic faces (generator v1); realistic faces are measured in benchmarks/bench_clock_reader.py
    res = api.run(
        ["clockqa"],
        "reference",
        n=600,
        seed=SEED,
        params={"look": "classic"},
        run_dir=tmp_path / "run",
        progress=False,
        plots=False,
    )
    t = res.results["tasks"]["clockqa"]
    assert t["counts"]["answered"] + t["counts"]["no_answer"] == 600
    # issue 19: the reader for any dial reads classic faces at 99.56 % hour:minute (was 100 %)
    assert t["metrics"]["overall"]["hm_em"]["value"] >= 0.97
    assert set(t["metrics"]["by_style"]) == {
        "easy",
        "basic",
        "black_dial",
        "no_second_hand",
        "roman",
        "arrow_hands",
    }
    for style, m in t["metrics"]["by_style"].items():
        assert m["hm_em"]["n"] == 100 and m["hm_em"]["value"] >= 0.93, style


def test_calendar_reference_agent_60_items(tmp_path: Path) -> None:
    res = api.run(
        ["calendarqa"],
        "reference",
        seed=SEED,
        run_dir=tmp_path / "run",
        progress=False,
        plots=False,
    )
    t = res.results["tasks"]["calendarqa"]
    assert t["dataset"]["n_items"] == 60
    assert len(t["metrics"]["by_qtype"]) == 6
    assert t["metrics"]["overall"]["accuracy"]["value"] >= 0.99


def test_reference_agents_answer_through_serve(serve, tmp_path: Path) -> None:
    server = serve("--model", "reference")
    opts = BackendOptions(base_url=server.url)
    for task, key, n in (("calendarqa", "accuracy", 12), ("clockqa", "em", 24)):
        res = api.run(
            [task],
            f"openai:reference/{task}",
            n=n,
            seed=SEED + 1,
            run_dir=tmp_path / task,
            backend_options=opts,
            progress=False,
            plots=False,
        )
        t = res.results["tasks"][task]
        assert t["counts"]["answered"] == n
        # calendars: exact; clocks (realistic faces by default): the reader's measured level
        assert t["metrics"]["overall"][key]["value"] >= (1.0 if task == "calendarqa" else 0.75)
        # the same items in process give the same answers
        local = api.run(
            [task],
            "reference",
            n=n,
            seed=SEED + 1,
            run_dir=tmp_path / f"{task}-l",
            progress=False,
            plots=False,
        )
        assert local.results["tasks"][task]["metrics"] == t["metrics"]
