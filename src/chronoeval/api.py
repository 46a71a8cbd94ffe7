"""The CLI's verbs as Python functions: generate, load, run, score.

A *run* is one model on one or more tasks, in its own directory::

    <run_dir>/config.json     what was asked: tasks, datasets (path + content hash), backend, config
    <run_dir>/store.sqlite    every response as it arrived (the run store)
    <run_dir>/results.json    metrics with 95% intervals, counts, versions, seeds, dataset hashes
    <run_dir>/samples.jsonl   per-sample records (also samples.parquet)
    <run_dir>/plots/*.png     the tasks' figures

Running the same command again resumes: only requests with no stored answer are sent.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronoeval import __version__
from chronoeval.core import deferred_images
from chronoeval.core import sources as import_sources
from chronoeval.core.answers import CONTENT_FILTER, NoAnswer
from chronoeval.core.cache import cache_root
from chronoeval.core.dataset import Dataset, DatasetRaceError, load_dataset, write_dataset
from chronoeval.core.errors import ChronoevalError, DataError, NotApplicable
from chronoeval.core.items import Item, Message
from chronoeval.core.params import coerce_params
from chronoeval.core.redact import redact
from chronoeval.core.registry import get_task
from chronoeval.core.stats import N_BOOT
from chronoeval.core.task import SampleRecord, Task
from chronoeval.engine import event_loop
from chronoeval.engine.gc_policy import relaxing
from chronoeval.engine.identity import (
    check_counts,
    check_run_dir,
    default_root,
    identity_hash,
    prepare_run_dir,
    read_config,
    requested_identity,
    run_identity,
)
from chronoeval.engine.job_list import JobList
from chronoeval.engine.lock import RunLock
from chronoeval.engine.reasoning import split_reasoning
from chronoeval.engine.records import prompt_record
from chronoeval.engine.request import GenerationConfig, Request, with_system_prompt
from chronoeval.engine.runner import Job, RetryPolicy, RunSummary, ask_all
from chronoeval.engine.sample_lines import Encoded
from chronoeval.engine.shard import Shard, merge_runs
from chronoeval.engine.snapshot import copy_snapshots, dataset_for_scoring, snapshot_dataset
from chronoeval.engine.storage import fingerprint as store_fingerprint
from chronoeval.engine.storage import open_store, read_store, storage_errors
from chronoeval.engine.store import StoredResponse
from chronoeval.models.registry import BackendOptions, make_backend
from chronoeval.models.support import check_supported
from chronoeval.report.unparsed import no_answer_summary


def cache_dir() -> Path:
    """Where generated and imported datasets are cached (``$CHRONOEVAL_CACHE`` overrides)."""
    return cache_root()


def _digest(obj: Any) -> str:
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", text).strip("_") or "run"


# -- datasets ----------------------------------------------------------------------------------
def generate(
    task_name: str,
    *,
    n: int | None = None,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
    out: Path | None = None,
    force: bool = False,
) -> Dataset:
    """Generate a task's items (cached: the same task, parameters and seed are built once)."""
    task = get_task(task_name)
    given = dict(params or {})
    if n is not None:
        given["n"] = n
    unknown = set(given) - set(task.default_params)
    if unknown:
        raise ChronoevalError(
            f"task {task.name!r} has no parameter(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(task.default_params))}"
        )
    # only what the user gave is checked; the task's own defaults are its to choose
    merged = {**task.default_params, **coerce_params(given, task.default_params)}
    seed = task.default_seed if seed is None else seed
    ident = {"params": merged, "seed": seed, "version": task.version}
    root = Path(out) if out else cache_dir() / "datasets" / f"{task.name}-{_digest(ident)}"
    if not force and (root / "manifest.json").is_file():
        ds = load_dataset(root)
        m = ds.manifest
        if (m.task, m.params, m.seed, m.generator_version) == (
            task.name,
            merged,
            seed,
            task.version,
        ):
            return ds
    return write_dataset(
        root,
        task.build(merged, seed),
        suite=task.suite,
        task=task.name,
        generator_version=task.version,
        params=merged,
        seed=seed,
        source="generated",
    )


def import_data(task_name: str, path: Path, params: dict[str, Any] | None = None) -> Dataset:
    """Load external data in a published layout into a cached chronoeval dataset.

    ``params`` are the task's load options (:attr:`Task.load_params`), e.g. an images root."""
    task = get_task(task_name)
    path = Path(path)
    if not path.exists():
        raise DataError("no such file or directory", file=path)
    unknown = set(params or {}) - set(task.load_params)
    if unknown:
        raise ChronoevalError(
            f"task {task.name!r} has no load option(s) {', '.join(sorted(unknown))} for --data; "
            f"known: {', '.join(sorted(task.load_params)) or 'none'}"
        )
    given = {
        k: os.fspath(v) if isinstance(v, os.PathLike) else v for k, v in (params or {}).items()
    }
    options = {**task.load_params, **coerce_params(given, task.load_params)}
    files = sorted(p for p in ([path] if path.is_file() else path.rglob("*")) if p.is_file())
    stamp = [(str(p.resolve()), p.stat().st_size, p.stat().st_mtime_ns) for p in files]
    # the option paths as resolved: a relative images_root from another directory is another key
    key = [stamp, options, import_sources.option_roots(path, options)]
    root = cache_dir() / "datasets" / f"{task.name}-import-{_digest(key)}"
    # a file a load option names (images_root) changed since: imported again (core/sources.py)
    if (root / "manifest.json").is_file() and import_sources.unchanged(root):
        return load_dataset(root)
    with import_sources.recording(path, options) as read:
        try:
            return write_dataset(
                root,
                task.load(path, options),
                suite=task.suite,
                task=task.name,
                generator_version=task.version,
                params={"path": str(path.resolve()), **options},
                seed=None,
                source=f"loaded:{path.resolve()}",
                extra_files=lambda: {import_sources.SOURCES: import_sources.dumps(read())},
            )
        except DatasetRaceError:  # another run imported the same at once: what it left, if current
            if (root / "manifest.json").is_file() and import_sources.unchanged(root):
                return load_dataset(root)
            raise


def prepare_dataset(
    task: Task,
    *,
    data: Path | None = None,
    n: int | None = None,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
    limit: int | None = None,
) -> Dataset:
    """The dataset a run evaluates: a chronoeval dataset dir, external data, or generated items.

    ``limit``: only the first ``limit`` items, whatever the source. ``n`` sizes a generator that
    has an ``n`` parameter; for any other task (a released layout, a generator sized otherwise)
    it is applied as a limit."""
    from chronoeval.core.limits import split_n

    n, limit = split_n(task, n, limit, external=data is not None)
    if data is not None:
        is_dataset = (Path(data) / "manifest.json").is_file()
        if seed is not None or (params and is_dataset):
            what = "--seed and --param shape" if is_dataset else "--seed shapes"
            raise ChronoevalError(
                f"{what} generated items; it cannot apply to --data ({data}); drop it, or drop "
                "--data to generate (with external data, --param gives the task's load options)"
            )
        ds = load_dataset(data) if is_dataset else import_data(task.name, data, params)
    else:
        ds = generate(task.name, n=n, seed=seed, params=params)
    if limit is not None:
        ds = Dataset(ds.root, ds.manifest, ds.items[:limit])
    items_file = ds.root / "items.jsonl"
    for lineno, item in enumerate(ds.items, start=1):
        try:
            task.validate(item)
            if getattr(task, "verify_at_run", False):  # cheap gold re-derivation (SPAN)
                task.verify(item)
        except DataError as exc:
            raise exc.at(file=items_file, line=lineno) from None
    return ds


def verify(
    task_name: str,
    *,
    data: Path | None = None,
    n: int | None = None,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
    limit: int | None = None,
) -> tuple[int, list[str]]:
    """Re-run every item's stored gold program (:meth:`Task.verify`): (items checked, problems)."""
    task = get_task(task_name)
    ds = prepare_dataset(task, data=data, n=n, seed=seed, params=params, limit=limit)
    problems = []
    for lineno, item in enumerate(ds.items, start=1):
        try:
            task.verify(item)
        except DataError as exc:
            problems.append(str(exc.at(file=ds.root / "items.jsonl", line=lineno)))
    return len(ds.items), problems


# -- runs --------------------------------------------------------------------------------------
@dataclass
class RunResult:
    run_dir: Path
    model: str
    results: dict[str, Any]
    summaries: dict[str, RunSummary] = field(default_factory=dict)
    records: list[SampleRecord] = field(default_factory=list)


def item_messages(item: Item, generation: GenerationConfig) -> tuple[Message, ...]:
    """The messages an item is asked with (its own, after the generation's system prompt)."""
    return with_system_prompt(item.messages, generation.system_prompt)


def item_request(
    item: Item,
    generation: GenerationConfig,
    root: Path | None = None,
    request_options: dict[str, Any] | None = None,
) -> Request:
    """The request an item becomes; the one place both asking (run) and looking up (score) use.

    ``request_options``: the task's released extra body fields (``Task.request_options``, stored
    per task in config.json when the run asked for them), under the generation's own."""
    if request_options:
        generation = dataclasses.replace(
            generation, extra_body={**request_options, **generation.extra_body}
        )
    return Request(item_messages(item, generation), generation, image_root=root)


def default_run_dir(
    tasks: list[str], model: str, root: Path | None = None, requested: dict[str, Any] | None = None
) -> Path:
    """``runs/<tasks>-<hash of the requested configuration>/<model>`` (engine/identity.py)."""
    requested = requested or requested_identity(
        tasks, data=None, n=None, seed=None, params=None, generation=GenerationConfig().to_json()
    )
    return default_root(tasks, requested, root) / slug(model)


def _unsupported(model: str, tasks: list[str]) -> dict[str, str]:
    """Tasks ``model`` cannot answer at all (models/support.py): refused when every task is one
    of them (or a backend's extra is missing), else returned to be recorded as skipped."""
    skipped: dict[str, str] = {}
    for name in tasks:
        try:
            check_supported(model, [get_task(name)])
        except NotApplicable as exc:
            if len(tasks) == 1:
                raise
            skipped[name] = str(exc)
    if skipped and len(skipped) == len(tasks):
        raise ChronoevalError(
            f"--model {model} cannot answer any of the tasks: "
            + "; ".join(f"{k}: {v}" for k, v in skipped.items())
        )
    return skipped


@relaxing  # the collector relaxed while the run asks and scores (engine/gc_policy.py)
def run(
    tasks: list[str],
    model: str,
    *,
    data: Path | None = None,
    n: int | None = None,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
    run_dir: Path | None = None,
    generation: GenerationConfig | None = None,
    backend_options: BackendOptions | None = None,
    concurrency: int = 16,
    retry: RetryPolicy | None = None,
    progress: bool = True,
    plots: bool = True,
    shard: Shard | None = None,
    released_request_options: bool = False,
    extract_with: str | None = None,
    limit: int | None = None,
    progress_every: float | None = None,
    reuse: bool = False,
) -> RunResult:
    """Run one model on tasks (resuming whatever the run directory already holds), then score.

    With ``shard``, only that slice of each task's items, in ``<run_dir>/shard-i-of-n``. With
    ``released_request_options``, each task's ``request_options`` (the release's extra body
    fields, e.g. Seeing Time's ``response_format: json_object``) go with its requests. With
    ``extract_with`` (a model spec), that model extracts answers from the replies the rules could
    not read; reported as ``with_extraction`` beside each headline (engine/extract.py).
    With ``limit``, only each task's first ``limit`` items (recorded in config.json).
    A run directory holding another configuration is refused unless ``reuse``; a directory
    another process is writing is refused (engine/lock.py). A task the model cannot answer at all
    is refused when it is the only one, and recorded under ``skipped`` in a multi-task run.
    """
    event_loop.loop_name()  # a bad CHRONOEVAL_EVENT_LOOP refused before anything is written
    if data is not None and len(tasks) != 1 and (Path(data) / "manifest.json").is_file():
        raise ChronoevalError(
            f"{data} is one task's chronoeval dataset: give exactly one --task with it "
            "(external data in a published layout may serve several tasks, e.g. --suite mined)"
        )
    generation = generation or GenerationConfig()
    options = backend_options or BackendOptions()
    check_counts(n=n, concurrency=concurrency, limit=limit)
    skipped = _unsupported(model, tasks)  # impossible set-ups: refused, or skipped in a suite
    requested = requested_identity(
        tasks, data=data, n=n, seed=seed, params=params, generation=generation.to_json()
    )
    if limit is not None or released_request_options:
        requested["limit"] = limit
        requested["released_request_options"] = released_request_options
    run_dir = Path(run_dir) if run_dir else default_run_dir(tasks, model, requested=requested)
    if shard is not None:
        run_dir = run_dir / shard.dirname
    # every dataset's items checked before anything is written or asked; an image a verify-once
    # stamp vouches for is looked at when its item is asked (core/deferred_images.py): a changed
    # image that fails then stops the run part-way, with the answers before it kept
    with deferred_images.collecting() as deferral:
        datasets = {
            name: prepare_dataset(
                get_task(name), data=data, n=n, seed=seed, params=params, limit=limit
            )
            for name in tasks
            if name not in skipped
        }
    config: dict[str, Any] = {
        "chronoeval_version": __version__,
        "model": model,
        "model_options": redact(options.extra),
        "generation": generation.to_json(),
        "tasks": {},
    }
    if shard is not None:
        config["shard"] = shard.to_json()
    if limit is not None:
        config["limit"] = limit
    for name, ds in datasets.items():
        config["tasks"][name] = {
            "content_hash": ds.content_hash,
            "n_items": len(ds.items),
            "seed": ds.manifest.seed,
            "params": ds.manifest.params,
        }
        if released_request_options and get_task(name).request_options:
            config["tasks"][name]["request_options"] = dict(get_task(name).request_options)
    config["identity"] = run_identity(config)
    config["identity_hash"] = identity_hash(config["identity"])
    identity_tasks = config["tasks"]
    config["tasks"] = {}
    if skipped:
        config["skipped"] = dict(skipped)  # recorded, not an error
    prepare_run_dir(run_dir)
    summaries: dict[str, RunSummary] = {}
    items_by_key: dict[tuple[str, str], Item] = {}
    from chronoeval.engine.scoring_memo import ScoreMemo

    memo = ScoreMemo()  # scored while asking; scoring takes what matches the store
    memo.system_prompt = generation.system_prompt  # the prompts attached while asking hold it
    from chronoeval.engine.warm import prefetch

    prefetch()  # pyarrow for samples.parquet, imported while the models are being asked
    with RunLock(run_dir), open_store(run_dir) as store:
        check_run_dir(run_dir, config["identity"], reuse=reuse)
        for name in datasets:
            task = get_task(name)
            ds = datasets[name]
            try:
                backend = make_backend(model, task, ds.items, options)
            except NotApplicable as exc:
                if len(tasks) == 1:
                    raise
                config.setdefault("skipped", {})[name] = str(exc)  # recorded, not an error
                _write_json(run_dir / "config.json", redact(config))
                continue
            snapshot_dataset(ds, run_dir, name)
            config["backend"] = backend.describe()
            config["tasks"][name] = {
                "dataset": str(ds.root.resolve()),
                "content_hash": ds.content_hash,
                "n_items": len(ds.items),
                "seed": ds.manifest.seed,
                "params": ds.manifest.params,
                "source": ds.manifest.source,
                "backend_identity": backend.identity,
            }
            if "request_options" in identity_tasks[name]:
                config["tasks"][name]["request_options"] = identity_tasks[name]["request_options"]
            _write_json(run_dir / "config.json", redact(config))
            items_by_key.update({(name, it.id): it for it in ds.items})
            memo.datasets[name] = ds

            request_options = config["tasks"][name].get("request_options")

            def make_job(
                item: Item,
                name: str = name,
                root: Path = ds.root,
                identity: str = backend.identity,
                options: Any = request_options,
                keys: dict[tuple[str, str], str] = memo.keys,
            ) -> Job:
                deferral.check(item)  # its images, before its request is made (a DataError)
                req = item_request(item, generation, root, options)
                key = keys[(name, item.id)] = req.key(identity)
                return Job(key, item.id, name, req)

            # each job made when a worker takes it: the first requests go out at once
            jobs = JobList(shard.select(ds.items) if shard else ds.items, make_job)

            def score_now(
                job: Job,
                resp: StoredResponse,
                task: Task = task,
                idle: bool = backend.idle_while_asking,
            ) -> None:
                item = items_by_key[(job.task, job.item_id)]
                memo.offer(task, item, resp, _record, job.request.messages, encode=idle)

            summaries[name] = ask_all(
                jobs,
                backend,
                store,
                concurrency=concurrency,
                retry=retry,
                progress=progress,
                description=f"{name} · {model}",
                progress_every=progress_every,
                on_stored=score_now,
            )
        deferral.record()  # images checked in full while asking (fresh or touched): stamped
        memo.fingerprint = store_fingerprint(store.conn)  # the store as asking left it
        if not config["tasks"] and config.get("skipped"):  # every backend refused its task
            raise NotApplicable(
                f"--model {model} cannot answer any of the tasks: "
                + "; ".join(f"{k}: {v}" for k, v in config["skipped"].items())
            )
        # scoring's read (integrity check, fingerprint) before the close, which then waits for
        # the disk (WAL checkpoint) on another thread while scoring works; joined before the
        # results are written, the run directory locked until then (engine/store.py)
        stored = read_store(run_dir, memo)
        closing = store.close_in_background()
        held = RunLock(run_dir)
        held.acquire()  # re-entrant (this block holds it): kept until the close is joined
    try:
        results, records = score_records(
            run_dir, plots=plots, memo=memo, stored=stored, closing=closing
        )
    finally:
        try:
            closing.join()
        finally:
            held.release()
    if extract_with:
        from chronoeval.engine.extract import extract_and_score

        extract_and_score(
            run_dir, results, records, items_by_key, extract_with, options, retry=retry
        )
        _write_json(run_dir / "results.json", results)
    return RunResult(run_dir, model, results, summaries, records)


def merge(
    sources: list[Path], out: Path, *, allow_missing: bool = False, plots: bool = True
) -> RunResult:
    """Merge shard run directories into one run at ``out`` (refusing shards that disagree on
    dataset hash or generation config), then score it like any run."""
    prepare_run_dir(out)
    with RunLock(out):
        merge_runs(sources, out, allow_missing=allow_missing)
        copy_snapshots(sources, out)
    results, records = score_records(out, plots=plots)
    return RunResult(Path(out), results["model"], results, {}, records)


def score(run_dir: Path, *, plots: bool = True, bootstrap_seed: int = 0) -> dict[str, Any]:
    """Re-parse and re-score the stored responses of a run; never calls a model."""
    return score_records(run_dir, plots=plots, bootstrap_seed=bootstrap_seed)[0]


def score_records(
    run_dir: Path,
    *,
    plots: bool = True,
    bootstrap_seed: int = 0,
    memo: Any = None,
    stored: dict[str, StoredResponse] | None = None,
    closing: Any = None,
) -> tuple[dict[str, Any], list[SampleRecord]]:
    """:func:`score`, also returning the per-sample records it wrote. ``memo``: what ``run``
    already holds (engine/scoring_memo.py), used where it matches the store. ``stored``: what
    ``read_store(run_dir, memo)`` gave ``run`` before it began closing the store; ``closing``:
    that close (engine/store.py ``Closing``), joined before anything is written."""
    run_dir = Path(run_dir)
    config = read_config(run_dir) if run_dir.is_dir() else None
    if config is None:
        raise ChronoevalError(f"{run_dir} is not a run directory (no config.json)")
    try:
        generation = GenerationConfig.from_json(config["generation"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ChronoevalError(
            f"{run_dir / 'config.json'}: corrupt run configuration (generation: {exc})"
        ) from None
    if stored is None:
        stored = read_store(run_dir, memo)  # from memo where it holds exactly the store's rows
    results: dict[str, Any] = {
        "chronoeval_version": __version__,
        "python": platform.python_version(),
        "model": config["model"],
        "backend": config.get("backend", {}),
        "generation": config["generation"],
        "bootstrap": {"method": "percentile", "n_boot": N_BOOT, "seed": bootstrap_seed},
        "tasks": {},
    }
    all_records: list[SampleRecord] = []
    all_texts: list[Encoded | None] = []  # each record's sample texts, where made while asking
    complete = True
    for name, tconf in config["tasks"].items():
        task = get_task(name)
        ds = memo.dataset(name, tconf["content_hash"]) if memo is not None else None
        ds = ds or dataset_for_scoring(run_dir, name, tconf)
        items = ds.items[: tconf["n_items"]]
        if config.get("shard"):
            items = Shard.from_json(config["shard"]).select(items)
        records = []
        for item in items:
            key = memo.keys.get((name, item.id)) if memo is not None else None
            messages = None
            if key is None:
                req = item_request(item, generation, None, tconf.get("request_options"))
                key, messages = req.key(tconf["backend_identity"]), req.messages
            resp = stored.get(key)
            text = None
            if memo is not None:  # with the prompt (and texts) made while asking, where they hold
                rec, prompted, text = memo.take(task, item, resp, _record, generation.system_prompt)
            else:
                rec, prompted = _record(task, item, resp), False
            if not prompted:  # with a known key: the messages item_request would give
                rec.prompt = prompt_record(
                    messages if messages is not None else item_messages(item, generation)
                )
            records.append(rec)
            all_texts.append(text)
        tally = Counter(r.status for r in records)  # one pass
        counts = {s: tally[s] for s in ("answered", "no_answer", "error", "missing")}
        scored = [r for r in records if r.status in ("answered", "no_answer")]
        complete &= counts["error"] == 0 and counts["missing"] == 0 and bool(records)
        results["tasks"][name] = {
            "suite": task.suite,
            "dataset": {
                k: tconf[k] for k in ("content_hash", "n_items", "seed", "params", "source")
            },
            "counts": counts,
            "no_answer": no_answer_summary(records),  # issue 14: unparsed replies visible
            "metrics": task.aggregate(scored, seed=bootstrap_seed) if scored else {},
        }
        all_records.extend(records)
    results["complete"] = complete and bool(config["tasks"])
    if config.get("skipped"):
        results["skipped"] = config["skipped"]
    results = redact(results)
    with RunLock(run_dir):
        # written beside their places while the store closes (its disk wait, the WAL
        # checkpoint, overlaps the writing); moved in only once the close has ended, so a
        # store that failed to close leaves the results as they were, as before
        with _staging() as staged:
            with storage_errors(run_dir, "writing the scored results"):
                _stage_json(run_dir / "results.json", results, staged)
                stage_samples(run_dir, all_records, all_texts, staged)
            if closing is not None:
                closing.join()
            with storage_errors(run_dir, "writing the scored results"):
                _publish(staged)
        with storage_errors(run_dir, "writing the scored results"):
            if plots:
                from chronoeval.report.figures import write_run_figures

                write_run_figures({config["model"]: (results, all_records)}, run_dir / "plots")
    return results, all_records


def _record(task: Task, item: Item, resp: StoredResponse | None) -> SampleRecord:
    rec = SampleRecord(item.id, task.name, item.metadata, item.target, status="missing")
    if resp is None:
        return rec
    rec.latency_s, rec.usage, rec.turns = resp.latency_s, resp.usage, resp.turns
    if not resp.ok:
        rec.status, rec.error = "error", resp.error
        return rec
    rec.reasoning, rec.response = split_reasoning(resp.text)
    answer = (
        NoAnswer(CONTENT_FILTER)  # withheld by the provider's filter: no text to parse
        if resp.finish_reason == "content_filter" and not rec.response.strip()
        else task.parse(rec.response, item)
    )
    rec.status = "no_answer" if isinstance(answer, NoAnswer) else "answered"
    rec.answer = str(answer) if isinstance(answer, NoAnswer) else task.answer_to_json(answer)
    rec.scores = task.score_reply(answer, rec.response, item)
    return rec


def write_samples(
    run_dir: Path, records: list[SampleRecord], texts: list[Encoded | None] | None = None
) -> None:
    """samples.jsonl and samples.parquet of ``records``. ``texts``: beside each record, its line
    and JSON-text columns made from the finished record (engine/sample_lines.py ``encode_row``,
    while asking: engine/scoring_memo.py), or None to encode it here."""
    with _staging() as staged:
        stage_samples(run_dir, records, texts, staged)
        _publish(staged)


def _staged(path: Path) -> Path:
    return path.with_suffix(path.suffix + ".tmp")


@contextmanager
def _staging() -> Iterator[list[tuple[Path, Path]]]:
    """A list of files written beside their places (``(tmp, place)``); what is still on it when
    the block ends (a failure before or while moving them in) is removed."""
    staged: list[tuple[Path, Path]] = []
    try:
        yield staged
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)


def _publish(staged: list[tuple[Path, Path]]) -> None:
    """Move staged files to their places, in order (a moved one's name is gone, so the cleanup
    of :func:`_staging` finds nothing to remove there)."""
    for tmp, path in staged:
        os.replace(tmp, path)


def _stage_json(path: Path, obj: Any, staged: list[tuple[Path, Path]]) -> None:
    """:func:`_write_json`'s file written beside ``path`` (``.tmp``, added to ``staged``)."""
    staged.append((_staged(path), path))
    _staged(path).write_text(json.dumps(obj, indent=2, sort_keys=True, default=str) + "\n")


def stage_samples(
    run_dir: Path,
    records: list[SampleRecord],
    texts: list[Encoded | None] | None,
    staged: list[tuple[Path, Path]],
) -> None:
    """:func:`write_samples`' two files written beside their places (``.tmp``), nothing moved in
    (the caller does, :func:`_publish`). Each file is added to ``staged`` with its place as soon
    as it is begun, so after a failure the caller still knows what to remove."""
    # one encoder per set of options (json.dumps with options builds a new one per call); the
    # same bytes as json.dumps with those options
    line = json.JSONEncoder(ensure_ascii=False, default=str).encode
    as_str = json.JSONEncoder(default=str).encode
    plain = json.JSONEncoder().encode
    unicode = json.JSONEncoder(ensure_ascii=False).encode
    from chronoeval.engine.sample_lines import encode as encode_once

    if texts is None or len(texts) != len(records):
        texts = [None] * len(records)
    # a record's row only where its texts are not known yet (the general way: every row)
    rows = [r.to_json() if t is None else None for r, t in zip(records, texts, strict=True)]
    once = encode_once(rows, texts)  # the same lines and columns, each value encoded once
    if once is None:
        rows = [r.to_json() for r in records]
    jsonl = run_dir / "samples.jsonl"
    with open(_staged(jsonl), "w", encoding="utf-8") as fh:
        staged.append((_staged(jsonl), jsonl))
        if once is not None:
            fh.write("".join([text + "\n" for text in once[0]]))
        else:
            fh.write("".join([line(row) + "\n" for row in rows]))
    import pyarrow.parquet as pq

    from chronoeval.engine.arrow_columns import table as arrow_table

    cols = once[1] if once is not None else {}
    table = arrow_table(  # pa.table's result without pyarrow importing pandas
        {
            "item_id": [r.item_id for r in records],  # to_json's fields as they are
            "task": [r.task for r in records],
            "status": [r.status for r in records],
            "target": cols.get("target") or [as_str(r["target"]) for r in rows],
            "response": [r.response for r in records],
            "answer": cols.get("answer") or [as_str(r["answer"]) for r in rows],
            "error": [r.error for r in records],
            "scores": cols.get("scores") or [plain(r["scores"]) for r in rows],
            "latency_s": [r.latency_s for r in records],
            "metadata": cols.get("metadata") or [as_str(r["metadata"]) for r in rows],
            "reasoning": [r.reasoning or None for r in records],  # to_json keeps only a truthy one
            "prompt": cols.get("prompt") or [unicode(r.get("prompt")) for r in rows],
            "usage": cols.get("usage") or [plain(r.get("usage") or {}) for r in rows],
        }
    )
    parquet = run_dir / "samples.parquet"
    staged.append((_staged(parquet), parquet))
    pq.write_table(table, _staged(parquet))


def _write_json(path: Path, obj: Any) -> None:
    with _staging() as staged:
        _stage_json(path, obj, staged)
        _publish(staged)


def read_records(run_dir: Path) -> list[SampleRecord]:
    """The per-sample records of a scored run (its samples.jsonl; a bad line names file and line)."""
    from chronoeval.report.runs import read_samples

    return read_samples(Path(run_dir) / "samples.jsonl")


# -- reports and exports -----------------------------------------------------------------------
def report(
    run_dirs: list[Path],
    *,
    out: Path | None = None,
    markdown: Path | None = None,
    csv: Path | None = None,
    max_samples: int | None = None,
    loaded: list[Any] | None = None,
) -> Any:
    """One self-contained HTML report over scored runs (``out``), and Markdown / CSV tables;
    paired tests between runs on the same items. Returns a :class:`chronoeval.report.build.Report`.
    """
    from chronoeval.report.build import write_report

    return write_report(
        run_dirs, out=out, markdown=markdown, csv=csv, max_samples=max_samples, loaded=loaded
    )


def export(
    out: Path,
    *,
    layout: str = "hf",
    task: str | None = None,
    data: Path | None = None,
    n: int | None = None,
    seed: int | None = None,
    params: dict[str, Any] | None = None,
) -> list[Path]:
    """Write a dataset in another layout (``hf``: a Hugging Face ``datasets`` Parquet dataset with
    the images embedded; or a published layout such as ``datetimeqa``). The dataset is a dataset
    directory (``data``), or the task's items as ``run`` would prepare them."""
    from chronoeval.report.export import export_dataset

    if task is None:
        if data is None:
            raise ChronoevalError("name a --task to generate, or a dataset directory with --data")
        ds = load_dataset(Path(data))
    else:
        ds = prepare_dataset(get_task(task), data=data, n=n, seed=seed, params=params)
    return export_dataset(ds, Path(out), layout=layout)
