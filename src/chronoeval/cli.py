"""The ``chronoeval`` command line: list, generate, run, score, report, serve."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from chronoeval.cli_errors import exit_if_incomplete, last_resort
from chronoeval.cli_options import (
    lit,
    make_console,
    model_help,
    omit_fields,
    request_opts,
    version_callback,
)
from chronoeval.core.errors import ChronoevalError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    help="Measure how well (vision-)language models understand time.",
    pretty_exceptions_enable=False,
)
console: Console = make_console()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=version_callback, is_eager=True, help="print the version"
        ),
    ] = False,
) -> None:
    """Measure how well (vision-)language models understand time."""


def _params(values: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kv in values or []:
        key, sep, raw = kv.partition("=")
        if not sep:
            raise ChronoevalError(f"--param needs key=value, got {kv!r}")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
        except RecursionError:
            raise ChronoevalError(f"--param {key}: JSON nested too deeply") from None
    return out


@app.command("list")
def list_tasks() -> None:
    """List the registered tasks."""
    from chronoeval.core.registry import all_tasks

    table = Table(title="chronoeval tasks")
    for col in ("task", "suite", "reference agent", "default params", "description"):
        table.add_column(col, overflow="fold")
    for name, task in all_tasks().items():
        table.add_row(
            lit(name),
            lit(task.suite),
            "yes" if task.reference_agent() else "no",
            lit(json.dumps(task.default_params)),
            lit(task.description),
        )
    console.print(table)
    from chronoeval.report.synthetic import synthetic_note

    notes = [(name, synthetic_note(name)) for name in all_tasks()]
    if any(note for _, note in notes):
        console.print("Synthetic default sets (what they can and cannot measure):")
        for name, note in notes:
            if note:
                console.print(f"  {name}: {note}", markup=False, emoji=False)


@app.command()
def generate(
    task: Annotated[str, typer.Argument(help="task name, e.g. clockqa")],
    n: Annotated[int | None, typer.Option(help="number of items")] = None,
    seed: Annotated[int | None, typer.Option(help="generation seed")] = None,
    param: Annotated[list[str] | None, typer.Option(help="task parameter key=value")] = None,
    out: Annotated[Path | None, typer.Option(help="dataset directory (default: cache)")] = None,
    force: Annotated[bool, typer.Option(help="regenerate even if cached")] = False,
) -> None:
    """Generate a task's items into a dataset directory (manifest.json, items.jsonl, images/)."""
    from chronoeval import api

    ds = api.generate(task, n=n, seed=seed, params=_params(param), out=out, force=force)
    console.print(f"{len(ds.items)} items in {lit(ds.root)} (content hash {ds.content_hash[:16]}…)")


@app.command()
def run(
    task: Annotated[list[str] | None, typer.Option(help="task(s) to run (repeatable)")] = None,
    suite: Annotated[str | None, typer.Option(help="run every task of a suite")] = None,
    model: Annotated[
        list[str] | None,
        typer.Option(help=model_help()),
    ] = None,
    data: Annotated[
        Path | None, typer.Option(help="a dataset dir or published-layout data")
    ] = None,
    n: Annotated[
        int | None,
        typer.Option(
            help="number of items per task: the generator's n where it has one, "
            "else applied as --limit"
        ),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(help="only the first N items of each task, whatever the data source"),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="generation seed")] = None,
    param: Annotated[
        list[str] | None,
        typer.Option(help="task parameter key=value (lists: a,b,c or JSON)"),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="run directory (one model) or root")] = None,
    base_url: Annotated[
        list[str] | None,
        typer.Option(help="OpenAI-compatible base URL; repeat or comma-separate for replicas"),
    ] = None,
    api_key_env: Annotated[
        str, typer.Option(help="env var holding the API key")
    ] = "OPENAI_API_KEY",
    timeout: Annotated[float, typer.Option(help="per-request timeout, seconds")] = 120.0,
    concurrency: Annotated[int, typer.Option(help="requests in flight")] = 16,
    max_retries: Annotated[int, typer.Option(help="retries per request")] = 5,
    temperature: Annotated[float, typer.Option()] = 0.0,
    max_tokens: Annotated[int, typer.Option()] = 512,
    gen_seed: Annotated[int | None, typer.Option(help="sampling seed sent to the model")] = 0,
    stop: Annotated[list[str] | None, typer.Option(help="stop sequence (repeatable)")] = None,
    top_p: Annotated[float | None, typer.Option(help="nucleus sampling top_p")] = None,
    system_prompt: Annotated[
        str | None, typer.Option(help="system message put before every item's prompt")
    ] = None,
    request_opt: Annotated[
        list[str] | None,
        typer.Option(
            help="extra request body field key=value (JSON values), sent verbatim to "
            "OpenAI-compatible endpoints, e.g. max_completion_tokens=2048, "
            "reasoning_effort=low, chat_template_kwargs='{\"enable_thinking\": false}' "
            "(repeatable)"
        ),
    ] = None,
    omit: Annotated[
        list[str] | None,
        typer.Option(
            help="standard request field(s) not to send, e.g. max_tokens,temperature "
            "(for endpoints that reject them)"
        ),
    ] = None,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    progress_every: Annotated[
        float,
        typer.Option(help="when output is not a terminal: a progress line every N seconds"),
    ] = 10.0,
    model_opt: Annotated[
        list[str] | None,
        typer.Option(help="backend option key=value, e.g. dtype=bfloat16 (repeatable)"),
    ] = None,
    shard: Annotated[
        str | None,
        typer.Option(help="run only shard INDEX/COUNT (0-based) in <run dir>/shard-i-of-n"),
    ] = None,
    released_request_options: Annotated[
        bool,
        typer.Option(
            help="send each task's released request options (e.g. Seeing Time's "
            "response_format json_object) to OpenAI-compatible backends"
        ),
    ] = False,
    extract_with: Annotated[
        str | None,
        typer.Option(
            help="model spec that extracts answers from replies the rules could not read "
            "(reported beside the rule-based headline; off by default)"
        ),
    ] = None,
    track: Annotated[
        str | None,
        typer.Option(help="log each run to an experiment tracker: mlflow (the tracking extra)"),
    ] = None,
    track_uri: Annotated[
        str | None,
        typer.Option(help="tracking URI (default: $MLFLOW_TRACKING_URI, else ./mlruns, offline)"),
    ] = None,
    reuse: Annotated[
        bool,
        typer.Option(
            help="write into an --out that holds another configuration (its stored answers "
            "stay; config and results are replaced)"
        ),
    ] = False,
) -> None:
    """Run models on tasks (resumes by default), score, and write results.json and figures.

    With no arguments: the default job (Lost in Time on generated items, reference agents and the
    random baseline), written under runs/<tasks>-<hash of the configuration>/<model>.

    Exit status: 0 complete; 2 bad input or impossible set-up (nothing asked); 3 incomplete
    (errors or missing items remain: run again to resume); 4 storage failure; 5 run directory
    busy (another process writes it).
    """
    from chronoeval import api
    from chronoeval.core.registry import DEFAULT_JOB, suite_tasks
    from chronoeval.engine.identity import (
        check_counts,
        default_root,
        requested_identity,
    )
    from chronoeval.engine.request import GenerationConfig
    from chronoeval.engine.runner import RetryPolicy
    from chronoeval.engine.shard import Shard
    from chronoeval.models.registry import BackendOptions
    from chronoeval.report.figures import write_run_figures
    from chronoeval.report.summary import print_summary

    tasks = list(task or []) + (suite_tasks(suite) if suite else [])
    tasks = tasks or list(DEFAULT_JOB["tasks"])
    models = list(model or DEFAULT_JOB["models"])
    from chronoeval.models.agent_pool import shutdown as stop_workers
    from chronoeval.models.agent_pool import start as start_workers

    # worker processes (reference agents, figures) start while the datasets are prepared
    start_workers(tasks if "reference" in models else [])
    from chronoeval.engine.warm import prefetch

    # pyarrow, imported while the models are asked (samples.parquet no longer needs pandas)
    prefetch()
    check_counts(
        n=n,
        concurrency=concurrency,
        max_retries=max_retries,
        max_tokens=max_tokens,
        timeout=timeout,
    )
    gen_json = GenerationConfig(
        temperature=temperature, max_tokens=max_tokens, seed=gen_seed, stop=tuple(stop or ())
    ).to_json()
    ident = requested_identity(
        tasks, data=data, n=n, seed=seed, params=_params(param), generation=gen_json
    )
    root = out or default_root(tasks, ident)
    results: dict[str, dict[str, Any]] = {}
    records_by_model: dict[str, Any] = {}
    run_dirs: list[Path] = []
    loaded: list[Any] = []  # each run as its report reads it (report/runs.py RunData)
    from chronoeval.report import memo
    from chronoeval.report.figures import figures_in_background

    background = figures_in_background()  # each run's figures drawn while the job goes on
    background.__enter__()
    try:
        for m in models:
            run_dir = out if (out and len(models) == 1) else root / api.slug(m)
            res = api.run(
                tasks,
                m,
                data=data,
                n=n,
                limit=limit,
                seed=seed,
                params=_params(param),
                run_dir=run_dir,
                generation=GenerationConfig(
                    temperature=temperature,
                    max_tokens=max_tokens,
                    seed=gen_seed,
                    stop=tuple(stop or ()),
                    top_p=top_p,
                    extra_body=request_opts(request_opt),
                    system_prompt=system_prompt,
                    omit=omit_fields(omit),
                ),
                backend_options=BackendOptions(
                    base_url=",".join(base_url) if base_url else None,
                    api_key_env=api_key_env,
                    timeout_s=timeout,
                    extra=_params(model_opt),
                ),
                concurrency=concurrency,
                retry=RetryPolicy(max_retries=max_retries),
                progress=progress and sys.stderr.isatty(),
                shard=Shard.parse(shard) if shard else None,
                released_request_options=released_request_options,
                extract_with=extract_with,
                progress_every=progress_every if progress and not sys.stderr.isatty() else None,
                reuse=reuse,
            )
            results[m] = res.results
            records_by_model[m] = res.records
            run_dirs.append(res.run_dir)
            from chronoeval.report.html import prefetch_thumbnails
            from chronoeval.report.runs import run_from_memory

            loaded.append(run_from_memory(res.run_dir, res.results, res.records))
            # the report's thumbnails made in the workers while the job goes on
            prefetch_thumbnails(loaded[-1])
            for name, s in res.summaries.items():
                console.print(
                    f"[bold]{lit(name)}[/bold] · {lit(m)}: {s.total} items, {s.cached} already "
                    f"stored, {s.called} asked ({s.answered} answered, {s.errors} errors, "
                    f"{s.retries} retries) in {s.wall_s:.1f}s → {lit(res.run_dir)}"
                )
                for msg in s.error_messages:
                    console.print(f"  [red]error[/red] {lit(msg)}")
        if len(models) > 1:  # started now, drawn while the runs' reports are written
            write_run_figures(
                {m: (results[m], records_by_model[m]) for m in models}, root / "plots", wait=False
            )
        print_summary(results, console)
        reports = [
            api.report([r.run_dir], out=r.run_dir / "report.html", loaded=[r]).html for r in loaded
        ]
        memo.wait_all()  # every figure drawn in a worker is written before the job ends
        if track:
            from chronoeval.integrations.tracking import log_run

            for d in run_dirs:
                console.print(
                    f"{lit(track)} run {lit(log_run(d, track, uri=track_uri))} ← {lit(d)}"
                )
        if len(models) > 1:
            figs = write_run_figures(
                {m: (results[m], records_by_model[m]) for m in models}, root / "plots", wait=True
            )
            console.print(f"comparison figures: {lit(', '.join(str(f) for f in figs))}")
            reports.append(api.report(run_dirs, out=root / "report.html", loaded=loaded).html)
    finally:
        background.__exit__(None, None, None)
        # the workers belong to this run: a later run in the same process (the CLI invoked
        # in process, tests) forks its own, from where it stands then
        stop_workers()
    console.print(f"HTML reports: {lit(', '.join(str(p) for p in reports))}")
    exit_if_incomplete(results, console)


@app.command()
def merge(
    runs: Annotated[list[Path], typer.Argument(help="shard run directories")],
    out: Annotated[Path, typer.Option(help="the merged run directory")],
    allow_missing: Annotated[
        bool, typer.Option(help="merge even if some shards are absent (their items: missing)")
    ] = False,
) -> None:
    """Merge shard runs (`run --shard i/n`) into one run, then score it."""
    from chronoeval import api
    from chronoeval.report.summary import print_summary

    res = api.merge(runs, out, allow_missing=allow_missing)
    console.print(f"merged {len(runs)} run(s) into {lit(res.run_dir)}")
    print_summary({res.model: res.results}, console)


@app.command()
def score(
    run_dir: Annotated[
        Path, typer.Argument(help="a run directory (or, with --predictions, a scorer name)")
    ],
    predictions: Annotated[
        Path | None,
        typer.Option(help="score a predictions file in a paper's released output layout"),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option(help="prediction scorer option key=value")
    ] = None,
) -> None:
    """Re-parse and re-score a run's stored responses (never calls the model).

    ``chronoeval score mined --predictions out.jsonl`` instead re-scores a released-layout
    predictions file with that suite's released scorer."""
    if predictions is not None:
        from chronoeval.core.registry import get_prediction_scorer

        opts = {k: str(v) for k, v in _params(option).items()}
        console.print(lit(get_prediction_scorer(str(run_dir))(predictions, opts)), highlight=False)
        return
    from chronoeval import api
    from chronoeval.report.summary import print_summary

    results = api.score(run_dir)
    print_summary({results["model"]: results}, console)
    exit_if_incomplete({results["model"]: results}, console)


@app.command()
def verify(
    task: Annotated[str, typer.Option(help="task whose items to check")],
    data: Annotated[Path | None, typer.Option(help="dataset dir or external data")] = None,
    n: Annotated[int | None, typer.Option(help="number of items")] = None,
    seed: Annotated[int | None, typer.Option(help="generation seed")] = None,
    param: Annotated[list[str] | None, typer.Option(help="task parameter key=value")] = None,
    limit: Annotated[int | None, typer.Option(help="only the first N items")] = None,
) -> None:
    """Re-run each item's stored gold program and compare it with the stored gold answer."""
    from chronoeval import api

    checked, problems = api.verify(
        task, data=data, n=n, seed=seed, params=_params(param), limit=limit
    )
    for line in problems[:20]:
        console.print(f"[red]mismatch[/red] {lit(line)}", highlight=False)
    console.print(f"{checked} items checked, {len(problems)} mismatches")
    if problems:
        raise typer.Exit(1)


@app.command()
def report(
    runs: Annotated[list[Path], typer.Argument(help="scored run directories")],
    out: Annotated[
        Path | None,
        typer.Option(help="HTML file (default: RUN/report.html for one run, ./report.html)"),
    ] = None,
    markdown: Annotated[Path | None, typer.Option(help="also write Markdown tables")] = None,
    csv: Annotated[Path | None, typer.Option(help="also write every metric as CSV")] = None,
    max_samples: Annotated[
        int | None,
        typer.Option(
            help="sample browser: at most this many samples per run and task "
            "(default: 200, fewer when the report has more than 20 run-task pairs)"
        ),
    ] = None,
) -> None:
    """Write one self-contained HTML report of scored runs (metrics with 95% intervals, figures,
    temporal profile, paired tests, sample browser); print the summary and paired tests."""
    from chronoeval import api
    from chronoeval.report.build import print_comparison
    from chronoeval.report.summary import print_summary

    out = out or (runs[0] / "report.html" if len(runs) == 1 else Path("report.html"))
    rep = api.report(runs, out=out, markdown=markdown, csv=csv, max_samples=max_samples)
    print_summary({r.label: r.results for r in rep.runs}, console)
    print_comparison(rep.comparison, console)
    for path in (rep.html, rep.markdown, rep.csv):
        if path is not None:
            console.print(f"wrote {lit(path)}")


@app.command()
def export(
    out: Annotated[Path, typer.Option(help="output directory (new or empty)")],
    task: Annotated[str | None, typer.Option(help="task whose items to export")] = None,
    data: Annotated[
        Path | None, typer.Option(help="a dataset dir (or published-layout data with --task)")
    ] = None,
    layout: Annotated[
        str, typer.Option(help="hf (Hugging Face Parquet, images embedded) or datetimeqa")
    ] = "hf",
    n: Annotated[int | None, typer.Option(help="number of items")] = None,
    seed: Annotated[int | None, typer.Option(help="generation seed")] = None,
    param: Annotated[list[str] | None, typer.Option(help="task parameter key=value")] = None,
) -> None:
    """Export a generated (or loaded) dataset as a Hugging Face Parquet dataset or a published
    layout, images embedded."""
    from chronoeval import api

    files = api.export(
        out, layout=layout, task=task, data=data, n=n, seed=seed, params=_params(param)
    )
    for path in files:
        console.print(f"wrote {lit(path)}")


@app.command()
def serve(
    model: Annotated[list[str], typer.Option(help="backend spec(s) to serve, e.g. reference")],
    task: Annotated[str | None, typer.Option(help="task for bare model ids")] = None,
    host: Annotated[str, typer.Option(help="bind address")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port (0 = any free port)")] = 8000,
    faults: Annotated[str | None, typer.Option(help='inject faults, e.g. "500@2,429:1@3"')] = None,
    latency: Annotated[
        float, typer.Option(help="latency per request, seconds, counted from its arrival")
    ] = 0.0,
    request_log: Annotated[Path | None, typer.Option(help="append a JSON line per request")] = None,
    ready_file: Annotated[Path | None, typer.Option(help="write the base URL here when up")] = None,
    api_key: Annotated[
        str | None,
        typer.Option(
            help="require Authorization: Bearer <key> on every request",
            envvar="CHRONOEVAL_SERVE_API_KEY",
            show_envvar=True,
        ),
    ] = None,
) -> None:
    """Serve backends (reference agents, baselines) as an OpenAI-compatible API."""
    from chronoeval.server.app import serve as serve_app

    serve_app(
        model,
        task=task,
        host=host,
        port=port,
        faults=faults,
        latency_s=latency,
        request_log=request_log,
        ready_file=ready_file,
        api_key=api_key,
    )


@app.command()
def tables(
    suite: Annotated[str, typer.Argument(help="suite whose paper tables to build")],
    runs: Annotated[
        list[Path], typer.Argument(help="scored run directories (or a job root above them)")
    ],
    out: Annotated[Path, typer.Option(help="output directory")] = Path("tables"),
    group: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=MODEL,MODEL: a group of models with its own average row in tables that "
            "have an Average row (e.g. closed- vs open-source); repeat for several groups"
        ),
    ] = None,
) -> None:
    """The suite's paper tables across models (rows = models, the paper's columns, 95% intervals,
    best per column marked) as Markdown, LaTeX (booktabs) and CSV."""
    from chronoeval.report.paper_tables import parse_groups, write_tables

    groups = parse_groups(group or [])
    for path in write_tables(suite, runs, out, groups or None).values():
        console.print(f"wrote {path}")


def _mount_suite_commands() -> None:
    from chronoeval.core.registry import suite_command_apps

    for name, sub in suite_command_apps().items():
        app.add_typer(sub, name=name)


def _may_name_suite_command(argv: list[str]) -> bool:
    """False when the command line names one of the core commands (``run``, ``serve``, ...):
    then the suites' sub-commands are not mounted, and their packages (all five suites) are not
    imported at start-up. Help, no command, and any other word mount them as before."""
    first = next((a for a in argv if not a.startswith("-")), None)
    core = {
        c.name or c.callback.__name__.replace("_", "-")
        for c in app.registered_commands
        if c.callback
    }
    return first is None or first not in core


def main() -> None:
    try:
        if _may_name_suite_command(sys.argv[1:]):
            _mount_suite_commands()
        from chronoeval.train.commands import app as train_app

        app.add_typer(train_app, name="train")
        app()
    except ChronoevalError as exc:
        console.print(f"[bold red]error:[/bold red] {lit(exc)}", highlight=False, emoji=False)
        sys.exit(exc.exit_code)
    except BaseException as exc:  # noqa: BLE001 - the last resort for the known non-typed cases
        code = last_resort(exc, console)
        if code is None:
            raise
        sys.exit(code)


if __name__ == "__main__":
    main()
