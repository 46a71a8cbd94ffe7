"""The reference agent answers from the question text alone and must reach 100% on freshly
generated items, in process and through `chronoeval serve`; aggregates and plots."""

from __future__ import annotations

import os
from pathlib import Path

from chronoeval import api
from chronoeval.models.registry import BackendOptions

SEED = int(os.environ.get("CHRONOEVAL_TEST_SEED", "20261121"))


def test_reference_agent_is_perfect_on_a_fresh_seed(tmp_path: Path) -> None:
    params = {"eval_dates": "1975-07-01,2045-07-01", "cutoff": "2000-07-01"}
    res = api.run(
        ["span"], "reference", seed=SEED, params=params, run_dir=tmp_path / "r", progress=False
    )
    t = res.results["tasks"]["span"]
    m = t["metrics"]
    assert t["counts"]["answered"] == 2 * 1812 and m["overall"]["accuracy"]["value"] == 1.0
    assert set(m["by_eval_date"]) == {"1975-07-01", "2045-07-01"}
    assert len(m["by_direction"]) == 10 and len(m["by_calendar"]) == 5
    fm = m["failure_modes"]
    assert fm["past_accuracy"]["n"] == fm["future_accuracy"]["n"] == 1812
    assert fm["future_date_degradation"]["value"] == 0.0
    assert fm["calendar_asymmetry_bias"]["value"] == 0.0
    plots = sorted(p.name for p in (tmp_path / "r" / "plots").glob("span_fig*.png"))
    assert len(plots) == 4


def test_random_baseline_failure_modes_have_intervals(tmp_path: Path) -> None:
    res = api.run(
        ["span"],
        "random",
        n=400,
        seed=SEED,
        params={"eval_dates": "1960-07-01,2060-07-01"},
        run_dir=tmp_path / "rnd",
        progress=False,
        plots=False,
    )
    m = res.results["tasks"]["span"]["metrics"]
    acc = m["by_format"]["polar"]["accuracy"]["value"]
    assert 0.35 < acc < 0.65 and m["by_format"]["content"]["accuracy"]["value"] == 0.0
    cab = m["failure_modes"]["calendar_asymmetry_bias"]
    assert cab["ci95"][0] <= cab["value"] <= cab["ci95"][1]


def test_reference_agent_through_serve(serve, tmp_path: Path) -> None:
    server = serve("--model", "reference")
    kw = {
        "n": 120,
        "seed": SEED + 1,
        "params": {"eval_dates": "2010-07-01"},
        "progress": False,
        "plots": False,
    }
    remote = api.run(
        ["span"],
        "openai:reference/span",
        run_dir=tmp_path / "s",
        backend_options=BackendOptions(base_url=server.url),
        **kw,
    )
    t = remote.results["tasks"]["span"]
    assert t["counts"]["answered"] == 120 and t["metrics"]["overall"]["accuracy"]["value"] == 1.0


def test_binomial_bootstrap_matches_index_bootstrap() -> None:
    """The 0/1 shortcut gives the same interval as resampling indices (within Monte Carlo noise)."""
    import numpy as np

    from chronoeval.core.stats import bootstrap_ci
    from chronoeval.suites.span.metrics import binary_mean_metric

    x = (np.random.default_rng(1).random(500) < 0.3).astype(float)
    fast = binary_mean_metric(list(x))["ci95"]
    slow = bootstrap_ci(x)
    assert abs(fast[0] - slow[0]) < 0.015 and abs(fast[1] - slow[1]) < 0.015
