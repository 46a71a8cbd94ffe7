"""``chronoeval mined …``: the suite table over run directories, and export to the released layout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from chronoeval.core.errors import ChronoevalError

app = typer.Typer(
    help="MINED: suite table, export to the released output layout.", no_args_is_help=True
)


def suite_table(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per subtask CEM/F1 (fractions), per dimension (mean of its subtasks, paper Eq. 1) and the
    average over the subtasks present (Table 3's "Avg." when all 11 are there)."""
    from chronoeval.suites.mined.itembuild import DIMENSION, SUBTASKS

    subtasks: dict[str, dict[str, float]] = {}
    for res in results:
        for name, entry in res.get("tasks", {}).items():
            sub = name.removeprefix("mined_")
            if sub in DIMENSION and entry.get("metrics"):
                o = entry["metrics"]["overall"]
                subtasks[sub] = {"cem": o["cem"]["value"], "f1": o["f1"]["value"]}
    if not subtasks:
        raise ChronoevalError("no scored MINED tasks in these runs")
    dims: dict[str, dict[str, float]] = {}
    for d in dict.fromkeys(DIMENSION.values()):
        vals = [subtasks[s] for s in SUBTASKS if DIMENSION[s] == d and s in subtasks]
        if vals:
            dims[d] = {k: sum(v[k] for v in vals) / len(vals) for k in ("cem", "f1")}
    avg = {k: sum(v[k] for v in subtasks.values()) / len(subtasks) for k in ("cem", "f1")}
    order = [s for s in SUBTASKS if s in subtasks]
    return {"subtasks": {s: subtasks[s] for s in order}, "dimensions": dims, "average": avg,
            "complete": len(subtasks) == len(SUBTASKS)}  # fmt: skip


@app.command("table")
def table(
    runs: Annotated[list[Path], typer.Argument(help="run directories (one model)")],
    plot: Annotated[Path | None, typer.Option(help="write the per-dimension figure here")] = None,
) -> None:
    """Print the paper's Table 3 row (CEM and F1 × 100) for one model's MINED runs."""
    from chronoeval.suites.mined.itembuild import PAPER_ABBREV

    results = []
    for rd in runs:
        path = rd / "results.json"
        if not path.is_file():
            raise ChronoevalError(f"{rd}: no results.json")
        results.append(json.loads(path.read_text()))
    t = suite_table(results)
    for key in ("cem", "f1"):
        cells = [f"{PAPER_ABBREV[s]}={100 * v[key]:.2f}" for s, v in t["subtasks"].items()]
        dims = [f"{d}={100 * v[key]:.2f}" for d, v in t["dimensions"].items()]
        typer.echo(f"{key.upper()}: " + " ".join(cells) + f" | Avg={100 * t['average'][key]:.2f}")
        typer.echo(f"{key.upper()} by dimension: " + " ".join(dims))
    if not t["complete"]:
        typer.echo(f"(partial: {len(t['subtasks'])} of 11 subtasks)")
    if plot is not None:
        from chronoeval.suites.mined.plots import dimension_plot

        model = results[0].get("model", "model")
        dims = {d: {"value": v["cem"], "ci95": None, "n": 0} for d, v in t["dimensions"].items()}
        typer.echo(f"figure: {dimension_plot({model: dims}, plot)}")


@app.command("export")
def export(
    run_dir: Annotated[Path, typer.Argument(help="a scored MINED run directory")],
    out_dir: Annotated[Path, typer.Argument(help="where to write <subtask>/output_from_X.jsonl")],
    model_name: Annotated[str, typer.Option(help="X in output_from_X.jsonl")] = "model",
) -> None:
    """Write a run's outputs in the released layout (re-scorable with `score mined`)."""
    from chronoeval.suites.mined.predictions import export_run

    for path in export_run(run_dir, out_dir, model_name):
        typer.echo(str(path))


@app.command("edit")
def edit(
    model_dir: Annotated[Path, typer.Option(help="a local image-text-to-text model directory")],
    task: Annotated[str, typer.Option(help="MINED task whose items to edit and re-run")],
    data: Annotated[Path | None, typer.Option(help="released data (else generated)")] = None,
    param: Annotated[list[str] | None, typer.Option(help="load/generation key=value")] = None,
    method: Annotated[str, typer.Option(help="ike | ft_llm | ft_vis")] = "ft_llm",
    mode: Annotated[str, typer.Option(help="single | lifelong")] = "single",
    steps: Annotated[int, typer.Option()] = 40,
    lr: Annotated[float, typer.Option()] = 1e-4,
    k: Annotated[int, typer.Option(help="IKE demonstrations")] = 25,
    samples: Annotated[int | None, typer.Option(help="edit only the first N samples")] = None,
    max_new_tokens: Annotated[int, typer.Option(help="answer length (release: 10)")] = 10,
) -> None:
    """Edit each sample's gold into the model and re-run its MINED items (CEM after editing)."""
    from chronoeval import api
    from chronoeval.cli import _params
    from chronoeval.core.registry import get_task
    from chronoeval.train.editing import EditConfig, Editor

    t = get_task(task)
    params = _params(param)
    ds = (
        api.prepare_dataset(t, data=data, params=params)
        if data
        else api.prepare_dataset(t, params=params)
    )
    groups: dict[str, list[Any]] = {}
    for item in ds.items:
        groups.setdefault(str(item.metadata["sample"]), []).append(item)
    chosen = list(groups.values())[:samples] if samples else list(groups.values())
    editor = Editor(
        model_dir,
        EditConfig(
            method=method, mode=mode, steps=steps, lr=lr, k=k, max_new_tokens=max_new_tokens
        ),
    )
    results = editor.run(chosen, ds.root)
    scores = [r.score for r in results]
    typer.echo(
        f"{method} ({mode}) on {len(chosen)} samples of {task}: CEM after editing = "
        f"{sum(scores) / len(scores):.2f}"
    )
