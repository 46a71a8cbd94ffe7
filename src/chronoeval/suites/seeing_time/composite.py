"""The composite score S = (S_A + S_S + S_N)/3 (paper Eq. 6–9) from the results of several tasks,
and the CoT Δ reduction (paper Table VII) from the two shortcut tasks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chronoeval.core.errors import ChronoevalError
from chronoeval.suites.seeing_time.metrics import composite, cot_effect

NEEDED = {
    "seeing_localization": "ACC_A",
    "seeing_sort": "tau",
    "seeing_shortcut": "ACC_B and Δ",
    "seeing_year": "ACC_Y and MAE",
    "seeing_alignment": "ACC_M",
}


def task_metrics(run_dirs: list[Path]) -> dict[str, dict[str, Any]]:
    """Each task's metrics from the runs' results.json (a later run directory wins)."""
    out: dict[str, dict[str, Any]] = {}
    for rd in run_dirs:
        path = Path(rd) / "results.json"
        if not path.is_file():
            raise ChronoevalError(f"{rd}: no results.json (run or score it first)")
        for name, entry in json.loads(path.read_text())["tasks"].items():
            if entry.get("metrics"):
                out[name] = entry["metrics"]
    return out


def composite_from_metrics(m: dict[str, dict[str, Any]]) -> dict[str, Any]:
    missing = [f"{t} ({what})" for t, what in NEEDED.items() if t not in m]
    if missing:
        raise ChronoevalError("the composite needs results for: " + ", ".join(missing))

    def v(task: str, key: str) -> float:
        val = m[task]["overall"][key]["value"]
        if val is None:
            raise ChronoevalError(f"{task}: {key} has no value")
        return float(val)

    inputs = {
        "ACC_A": v("seeing_localization", "accuracy"),
        "tau": v("seeing_sort", "tau"),
        "ACC_B": v("seeing_shortcut", "acc_b"),
        "delta": v("seeing_shortcut", "delta"),
        "ACC_Y": v("seeing_year", "accuracy"),
        "MAE": v("seeing_year", "mae"),
        "ACC_M": v("seeing_alignment", "accuracy"),
    }
    out: dict[str, Any] = {"inputs": inputs}
    out.update(
        composite(
            inputs["ACC_A"],
            inputs["tau"],
            inputs["ACC_B"],
            inputs["delta"],
            inputs["ACC_Y"],
            inputs["MAE"],
            inputs["ACC_M"],
        )
    )
    if "seeing_shortcut_cot" in m:
        out["cot_effect"] = cot_effect(m["seeing_shortcut"], m["seeing_shortcut_cot"])
    return out
