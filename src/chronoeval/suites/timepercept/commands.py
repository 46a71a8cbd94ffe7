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


@app.command("export-train")
def export_train(
    out: Annotated[Path, typer.Option(help="output folder")],
    n: Annotated[int, typer.Option(help="training items per task")] = 800,
    seed: Annotated[int, typer.Option(help="generation seed")] = 0,
) -> None:
    """Export the union of the nine training splits as chat JSONL (LLaMA-Factory, ms-swift)."""
    from chronoeval.train.lora import export_chat_jsonl, training_examples

    path = export_chat_jsonl(training_examples(n=n, seed=seed), out)
    typer.echo(f"wrote {path}")
