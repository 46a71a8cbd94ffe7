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


def _results(rd: Path) -> dict[str, Any]:
    path = Path(rd) / "results.json"
    if not path.is_file():
        raise ChronoevalError(f"{rd}: no results.json (run or score it first)")
    return json.loads(path.read_text())


def runs_by_model(run_dirs: list[Path]) -> dict[str, list[Path]]:
    """Run directories grouped by the model each ran (results.json ``model``), in given order."""
    out: dict[str, list[Path]] = {}
    for rd in run_dirs:
        out.setdefault(str(_results(rd).get("model", "?")), []).append(Path(rd))
    return out


def task_metrics(run_dirs: list[Path]) -> dict[str, dict[str, Any]]:
    """Each task's metrics from one model's runs' results.json (a later run directory wins).
    Runs of different models are refused: a composite mixes nothing across models."""
    models = runs_by_model(run_dirs)
    if len(models) > 1:
        raise ChronoevalError(
            "these runs are of different models ("
            + "; ".join(f"{m}: {', '.join(str(r) for r in rs)}" for m, rs in models.items())
            + "); a composite is per model - use composites_by_model / `seeing_time composite` "
            "which scores each model on its own runs"
        )
    out: dict[str, dict[str, Any]] = {}
    for rd in run_dirs:
        for name, entry in _results(rd)["tasks"].items():
            if entry.get("metrics"):
                out[name] = entry["metrics"]
    return out


def composites_by_model(run_dirs: list[Path]) -> dict[str, dict[str, Any]]:
    """One composite per model, each from that model's runs only (missing tasks: an error that
    names the model)."""
    out: dict[str, dict[str, Any]] = {}
    for model, rds in runs_by_model(run_dirs).items():
        try:
            out[model] = composite_from_metrics(task_metrics(rds))
        except ChronoevalError as exc:
            raise ChronoevalError(f"model {model}: {exc}") from None
        out[model]["shortcut_accs"] = _shortcut_accs(task_metrics(rds))
    return out


def _shortcut_accs(m: dict[str, dict[str, Any]]) -> dict[str, float | None]:
    o = m.get("seeing_shortcut", {}).get("overall", {})
    return {k: (o.get(k) or {}).get("value") for k in ("acc_1", "acc_2")}


TABLE_III_COLUMNS = (
    "ACC_A", "50×(1+τ)", "ACC_B", "ACC_1", "ACC_2", "Δ_ACC", "ACC_Y", "MAE", "ACC_M", "Score",
    "Rank",
)  # fmt: skip
"""Seeing Time Table III's columns (percent except MAE in years; Rank 1 = highest Score)."""


def table_iii(composites: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in the paper's Table III layout, one per model, ranked by Score (ties share the
    better rank), then an ``Average`` row (Rank ``-``) as the paper's average rows.
    Kept here (not in the report) so cross-model tables can reuse it."""
    rows: list[dict[str, Any]] = []
    for model, c in composites.items():
        i = c["inputs"]
        a1, a2 = c.get("shortcut_accs", {}).get("acc_1"), c.get("shortcut_accs", {}).get("acc_2")
        rows.append(
            {
                "Model": model,
                "ACC_A": 100 * i["ACC_A"],
                "50×(1+τ)": 50 * (1 + i["tau"]),
                "ACC_B": 100 * i["ACC_B"],
                "ACC_1": None if a1 is None else 100 * a1,
                "ACC_2": None if a2 is None else 100 * a2,
                "Δ_ACC": 100 * i["delta"],
                "ACC_Y": 100 * i["ACC_Y"],
                "MAE": i["MAE"],
                "ACC_M": 100 * i["ACC_M"],
                "Score": 100 * c["S"],
            }
        )
    scores = sorted((r["Score"] for r in rows), reverse=True)
    for r in rows:
        r["Rank"] = scores.index(r["Score"]) + 1
    rows.sort(key=lambda r: (r["Rank"], r["Model"]))
    if len(rows) > 1:
        avg: dict[str, Any] = {"Model": "Average", "Rank": "-"}
        for col in TABLE_III_COLUMNS[:-1]:
            vals = [r[col] for r in rows if r[col] is not None]
            avg[col] = sum(vals) / len(vals) if vals else None
        rows.append(avg)
    return rows


def table_iii_text(rows: list[dict[str, Any]]) -> str:
    """Plain-text Table III (two decimals, as the paper prints)."""
    width = max([len("Model"), *(len(str(r["Model"])) for r in rows)])
    head = "Model".ljust(width) + "".join(f"{c:>10}" for c in TABLE_III_COLUMNS)
    lines = [head]
    for r in rows:
        cells = []
        for c in TABLE_III_COLUMNS:
            v = r[c]
            cells.append(f"{v:>10.2f}" if isinstance(v, float) else f"{v!s:>10}")
        lines.append(str(r["Model"]).ljust(width) + "".join(cells))
    return "\n".join(lines)


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
