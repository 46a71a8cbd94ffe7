"""``chronoeval timepercept …``: write a synthetic collection, inspect a collection's load report,
export the LoRA training set as chat JSONL."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(help="TimePerceptBench: synthetic collections, load reports, training export")


@app.command()
def synth(
    out: Annotated[Path, typer.Option(help="output folder (manifest + images/)")],
    seed: Annotated[int, typer.Option(help="collection seed")] = 0,
    locations: Annotated[int, typer.Option(help="number of locations")] = 20,
    clouds: Annotated[bool, typer.Option(help="render clouds")] = True,
    fmt: Annotated[str, typer.Option(help="csv or jsonl")] = "csv",
) -> None:
    """Render a synthetic time-lapse collection and write it in the plain manifest format."""
    from chronoeval.suites.timepercept.collection import synthetic_collection, write_manifest

    path = write_manifest(synthetic_collection(seed, locations, clouds), out, fmt)
    typer.echo(f"wrote {path}")


@app.command()
def inspect(
    path: Annotated[Path, typer.Argument(help="a manifest (.csv/.jsonl) or an fMoW folder")],
    fmow_splits: Annotated[str, typer.Option(help="comma-separated fMoW split folders")] = "",
) -> None:
    """Load a collection and print what was kept and what was dropped, by reason."""
    from chronoeval.suites.timepercept.collection import load_collection

    coll = load_collection(path, fmow_splits)
    typer.echo(coll.report.text())
    sizes = sorted(len(v) for v in coll.locations.values())
    typer.echo(
        f"{len(sizes)} locations; images per location min {sizes[0]}, max {sizes[-1]}; "
        f"categories: {', '.join(coll.categories)}"
    )


@app.command()
def split(
    out: Annotated[Path, typer.Option(help="split file to write (JSON)")],
    path: Annotated[
        Path | None, typer.Argument(help="a manifest or an fMoW folder (default: synthetic)")
    ] = None,
    split_seed: Annotated[int, typer.Option(help="split seed (independent of item seeds)")] = 0,
    test_fraction: Annotated[float, typer.Option(help="share of locations in test")] = 0.2,
    fmow_splits: Annotated[str, typer.Option(help="comma-separated fMoW split folders")] = "",
    seed: Annotated[int, typer.Option(help="synthetic collection seed")] = 0,
    locations: Annotated[int, typer.Option(help="synthetic: number of locations")] = 120,
) -> None:
    """Write the collection's one location split; tasks (--param split_file=PATH) and
    export-train read it, so no location is in train for one task and in test for another."""
    from chronoeval.suites.timepercept.collection import load_collection, synthetic_collection
    from chronoeval.suites.timepercept.splits import Split

    if path is None:
        coll = synthetic_collection(seed, locations, True)
    else:
        coll = load_collection(path, fmow_splits)
    plan = Split.compute(coll.locations, split_seed, test_fraction, source=coll.report.source)
    plan.write(out)
    typer.echo(f"wrote {out}: {len(plan.train)} train and {len(plan.test)} test locations")


@app.command("export-train")
def export_train(
    out: Annotated[Path, typer.Option(help="output folder")],
    n: Annotated[int, typer.Option(help="training items per task")] = 800,
    seed: Annotated[int, typer.Option(help="generation seed")] = 0,
    split_file: Annotated[
        Path | None, typer.Option(help="split file from `timepercept split` (default: hash rule)")
    ] = None,
    data: Annotated[
        Path | None, typer.Option(help="a manifest or fMoW folder (default: synthetic)")
    ] = None,
) -> None:
    """Export the union of the nine training splits as chat JSONL (LLaMA-Factory, ms-swift)."""
    from chronoeval.train.lora import export_chat_jsonl, training_examples

    params = {"split_file": str(split_file)} if split_file else {}
    examples = training_examples(n=n, seed=seed, params=params, data=data)
    path = export_chat_jsonl(examples, out)
    typer.echo(f"wrote {path}")


@app.command("tvqa-overall")
def tvqa_overall(
    run_dir: Annotated[Path, typer.Argument(help="a run with tvqa_order and tvqa_timelapse")],
) -> None:
    """TemporalVQA's pooled Overall accuracy (TimePerceptBench Table 4) from one model's run."""
    import json

    from chronoeval.core.errors import DataError
    from chronoeval.suites.timepercept.temporalvqa import pooled_overall

    path = run_dir / "results.json"
    try:
        tasks = json.loads(path.read_text(encoding="utf-8"))["tasks"]
        order = tasks["tvqa_order"]["metrics"]["overall"]["accuracy"]
        lapse = tasks["tvqa_timelapse"]["metrics"]["overall"]["accuracy"]
    except FileNotFoundError:
        raise DataError("no results.json in the run directory", file=path) from None
    except KeyError as exc:
        raise DataError(f"results lack {exc} (run both TemporalVQA tasks)", file=path) from None
    o = pooled_overall(order, lapse)
    pct = "n/a" if o["value"] is None else f"{100 * o['value']:.2f}%"
    typer.echo(
        f"TOU {100 * (order['value'] or 0):.2f}% (n={order['n']}), "
        f"TIU {100 * (lapse['value'] or 0):.2f}% (n={lapse['n']}), Overall {pct} (n={o['n']})"
    )
