"""``chronoeval seeing_time ...``: the composite score over several tasks' runs, and the trivial
baselines of a task's dataset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Seeing Time: composite score, trivial baselines, retrieval baseline.",
    no_args_is_help=True,
)


@app.command("composite")
def composite_cmd(
    runs: Annotated[list[Path], typer.Argument(help="run directories holding the five tasks")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """S = (S_A + S_S + S_N)/3 (paper Eq. 6–9) per model, each from its own runs only, in the
    paper's Table III layout with ranks; plus the CoT Δ reduction when both ran."""
    from chronoeval.suites.seeing_time.composite import (
        composites_by_model,
        table_iii,
        table_iii_text,
    )

    per_model = composites_by_model(runs)
    rows = table_iii(per_model)
    if as_json:
        typer.echo(json.dumps({"models": per_model, "table_iii": rows}, indent=2))
        return
    for model, out in per_model.items():
        typer.echo(f"== {model}")
        for k, val in out["inputs"].items():
            typer.echo(f"{k:>6} = {val:.4f}")
        for k in ("S_A", "S_S", "S_N", "S"):
            typer.echo(f"{k:>6} = {100 * out[k]:.2f}")
        if "cot_effect" in out:
            o = out["cot_effect"]["overall"]
            typer.echo(
                f"CoT: Δ {o['delta_plain']:.4f} -> {o['delta_cot']:.4f} (change {o['change']:+.4f})"
            )
    typer.echo("")
    typer.echo(table_iii_text(rows))


@app.command("baselines")
def baselines_cmd(
    task: Annotated[str, typer.Option(help="seeing_year or seeing_localization")],
    data: Annotated[
        Path | None, typer.Option(help="dataset dir, released files or manifest")
    ] = None,
    param: Annotated[
        list[str] | None, typer.Option(help="load/generation option key=value")
    ] = None,
) -> None:
    """Trivial constant baselines (paper Sec. VII-A) from a dataset's gold answers."""
    from chronoeval import api
    from chronoeval.cli import _params
    from chronoeval.core.registry import get_task
    from chronoeval.suites.seeing_time.metrics import (
        constant_label_baselines,
        constant_year_baselines,
    )

    ds = api.prepare_dataset(get_task(task), data=data, params=_params(param))
    golds = [it.target for it in ds.items]
    if all(isinstance(g, int) for g in golds):
        out = constant_year_baselines(golds)
    else:
        out = constant_label_baselines([str(g) for g in golds])
    typer.echo(json.dumps({"n": len(golds), "baselines": out}, indent=2, ensure_ascii=False))


@app.command("rag-baseline")
def rag_baseline_cmd(
    corpus: Annotated[Path, typer.Option(help="events file, .txt/.md file or folder of them")],
    task: Annotated[str, typer.Option(help="seeing_alignment or seeing_year")] = "seeing_alignment",
    k: Annotated[int, typer.Option(help="passages retrieved per item")] = 3,
    model: Annotated[
        str | None, typer.Option(help="sentence-transformers model path (default: bundled MiniLM)")
    ] = None,
    data: Annotated[
        Path | None, typer.Option(help="dataset dir, released files or manifest")
    ] = None,
    param: Annotated[
        list[str] | None, typer.Option(help="load/generation option key=value")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON with every item")] = False,
) -> None:
    """Year estimation from retrieved passages alone (paper Sec. VII-D, Algorithm 2 lines 1–15):
    the query is each item's question text with year/dynasty terms removed; the answer is the
    similarity-weighted year vote of the top-k passages."""
    from chronoeval import api
    from chronoeval.cli import _params
    from chronoeval.core.registry import get_task
    from chronoeval.suites.seeing_time.rag import rag_year_baseline

    ds = api.prepare_dataset(get_task(task), data=data, params=_params(param))
    out = rag_year_baseline(ds.items, corpus, k=k, model=model)
    if as_json:
        typer.echo(json.dumps(out, indent=2, ensure_ascii=False))
        return
    s = out["summary"]
    typer.echo(json.dumps({"n": out["n"], "k": k, "task": task, "summary": s}, indent=2))


@app.command("rag-pipeline")
def rag_pipeline_cmd(
    corpus: Annotated[Path, typer.Option(help="events file, .txt/.md file or folder of them")],
    describer: Annotated[str, typer.Option(help="backend spec that describes each image")],
    model: Annotated[str, typer.Option(help="backend spec that answers with the passages")],
    out: Annotated[
        Path, typer.Option(help="output folder (describe/, dataset/, rag/, zero-shot/)")
    ],
    task: Annotated[
        str, typer.Option(help="seeing_localization (dynasty RAG) or seeing_year (year RAG)")
    ] = "seeing_localization",
    k: Annotated[int, typer.Option(help="passages retrieved per item")] = 3,
    n: Annotated[int | None, typer.Option(help="number of items")] = None,
    data: Annotated[
        Path | None, typer.Option(help="dataset dir, released files or manifest")
    ] = None,
    param: Annotated[
        list[str] | None, typer.Option(help="load/generation option key=value")
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible base URL for openai: specs")
    ] = None,
    zero_shot: Annotated[
        bool, typer.Option(help="also run the plain items (Table VIII ZS)")
    ] = True,
) -> None:
    """The paper's RAG pipeline (Algorithm 2): a model describes each image, year/dynasty terms
    are removed, passages are retrieved and voted on, and the answering model gets the item with
    the passages. Prints the vote-only, RAG and zero-shot results side by side."""
    from chronoeval.cli import _params
    from chronoeval.models.registry import BackendOptions
    from chronoeval.suites.seeing_time.rag_pipeline import run_pipeline

    summary = run_pipeline(
        task,
        describer,
        model,
        corpus,
        out,
        data=data,
        n=n,
        params=_params(param),
        k=k,
        options=BackendOptions(base_url=base_url),
        zero_shot=zero_shot,
    )
    typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))
