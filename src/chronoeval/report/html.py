"""One self-contained HTML report over one or more scored runs.

Everything is inline — CSS, a small script, figures and thumbnails as data URIs — so the file opens
without a network. Every string that comes from a model, a prompt, a run or a task (answers,
prompts, golds, labels, metric names, errors) goes through :func:`html.escape`; the script only
shows and hides rows that were rendered here, it never builds markup from data.

Sections: runs, cross-suite temporal profile (one chart of every task's headline metric with its
chance level) and the headline table, paired tests (two or more runs), one section per suite and
task (counts, every metric with its 95% interval, the task's own figures from ``Task.plots``), and
a sample browser (thumbnails, prompt, raw answer, parsed answer, gold, scores), filterable by
outcome, run and task, 50 per page, at most ``max_samples`` samples per run and task.
"""

from __future__ import annotations

import base64
import html
import io
import json
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL.Image import DecompressionBombError

from chronoeval import __version__
from chronoeval.core.registry import get_task
from chronoeval.core.task import SampleRecord
from chronoeval.engine.records import prompt_text
from chronoeval.report.compare import Comparison, LeaderRow, leaderboard, series_names
from chronoeval.report.memo import (
    profile_png,
    schedule_call,
    schedule_thumbnails,
    task_figures,
    thumbnail,
)
from chronoeval.report.paper_tables import html_section as paper_tables_section
from chronoeval.report.runs import RunData
from chronoeval.report.synthetic import synthetic_html
from chronoeval.report.tables import (
    flatten_metrics,
    fmt_entry,
    fmt_pct_or_value,
    fmt_value,
    headline_is_percent,
)
from chronoeval.report.units import is_percent
from chronoeval.report.units import label as unit_label
from chronoeval.report.unparsed import unparsed_html

MAX_SAMPLES = 200
"""Default cap on browser samples per (run, task); the page says when it applies."""
SAMPLE_BUDGET = 4000
"""Default cap on browser samples in one report: spread over its (run, task) pairs, at least
``MIN_SAMPLES`` each, so a report over many tasks stays a few tens of MB at most."""
MIN_SAMPLES = 20


def default_max_samples(runs: list[RunData]) -> int:
    pairs = sum(len(r.tasks) for r in runs)
    return max(MIN_SAMPLES, min(MAX_SAMPLES, SAMPLE_BUDGET // max(1, pairs)))


THUMB_PX = 160
PAGE_SIZE = 50
OUTCOMES = ("correct", "wrong", "graded", "no_answer", "error")
OUTCOME_LABELS = {
    "correct": "correct",
    "wrong": "wrong",
    "graded": "graded",
    "no_answer": "no answer",
    "error": "error",
}
PRIORITY = {"error": 0, "no_answer": 1, "wrong": 2, "graded": 3, "correct": 4}


def e(value: Any) -> str:
    """HTML-escape anything (quotes too, so it is safe inside attributes)."""
    return html.escape("" if value is None else str(value), quote=True)


def outcome(record: SampleRecord, score_key: str | None) -> str:
    """correct | wrong | graded | no_answer | error (error includes never-asked items).

    An answered sample is correct/wrong when the task's per-sample headline score is 1/0;
    otherwise (a graded score, or no headline score declared) it is ``graded``.
    """
    if record.status in ("error", "missing"):
        return "error"
    if record.status == "no_answer":
        return "no_answer"
    value = record.scores.get(score_key) if score_key else None
    if value == 1:
        return "correct"
    if value == 0:
        return "wrong"
    return "graded"


@dataclass
class _Ctx:
    thumbs: dict[str, tuple[str, str]]  # sha256 -> (css class, data URI)
    problems: list[str]
    later: dict[str, Any] = field(default_factory=dict)  # placeholder -> PNG bytes being drawn


def png_data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def thumbnail_uri(data: bytes, px: int = THUMB_PX) -> str:
    """A JPEG thumbnail (longest side ``px``) as a data URI."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        im = im.convert("RGB")
        im.thumbnail((px, px))
        buf = io.BytesIO()
        im.save(buf, format="JPEG", quality=75)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


# -- sections ----------------------------------------------------------------------------------
def _runs_section(runs: list[RunData]) -> str:
    rows = []
    for r in runs:
        backend = r.results.get("backend") or {}
        complete = r.results.get("complete", True)
        rows.append(
            "<tr>"
            f"<td>{e(r.label)}</td><td>{e(r.model)}</td><td><code>{e(r.run_dir)}</code></td>"
            f"<td>{backend_cell(r.config, backend)}</td>"
            f"<td>{e(', '.join(r.tasks))}</td>"
            f"<td>{'yes' if complete else '<b class=warn>no — errors or missing items</b>'}</td>"
            f"<td>{e(r.results.get('chronoeval_version', '?'))}</td>"
            "</tr>"
        )
    return (
        "<section id=runs><h2>Runs</h2><table><tr><th>run</th><th>model</th><th>directory</th>"
        "<th>backend</th><th>tasks</th><th>complete</th><th>chronoeval</th></tr>"
        + "".join(rows)
        + "</table></section>"
    )


def backend_cell(config: dict[str, Any], backend: dict[str, Any]) -> str:
    """Who answered, readably: each task's backend identity (tasks sharing one are listed
    together), then the backend's settings as ``key: value`` lines (no JSON)."""
    by_identity: dict[str, list[str]] = {}
    for task, tconf in (config.get("tasks") or {}).items():
        ident = str((tconf or {}).get("backend_identity") or backend.get("identity") or "?")
        by_identity.setdefault(ident, []).append(task)
    lines = [
        f"<code>{e(ident)}</code>"
        + (f" <small>({e(', '.join(tasks))})</small>" if len(by_identity) > 1 else "")
        for ident, tasks in by_identity.items()
    ]
    settings = [
        f"{e(k)}: {e(v if isinstance(v, str) else json.dumps(v, default=str))}"
        for k, v in sorted(backend.items())
        if k != "identity"
    ]
    if settings:
        lines.append("<small>" + "<br>".join(settings) + "</small>")
    return "<br>".join(lines) or "—"


def _headline_cell(row: LeaderRow | None, pct: bool = False) -> str:
    if row is None:
        return "<td>—</td>"
    text = e(fmt_entry(row.headline, pct=pct))
    if row.headline is not None:
        text += f"<br><small>n={row.headline.n}</small>"
    if not row.comparable:
        text += "<br><small class=warn>different items than the first run</small>"
    return f"<td>{text}</td>"


def _profile_section(runs: list[RunData], out_dir: Path, ctx: _Ctx) -> str:
    from chronoeval.report.figures import profile_chart

    board = leaderboard(runs)
    series = series_names(runs)
    chart_rows = []
    left_out = []
    board = dict(sorted(board.items(), key=lambda kv: (get_task(kv[0]).suite, kv[0])))
    for task, rows in board.items():
        suite = get_task(task).suite
        heads = [
            r.headline for r in rows if r.headline and isinstance(r.headline.value, int | float)
        ]
        outside = [
            f"{h.label} = {fmt_value(v)}"
            for h in heads
            for v in (h.value, h.chance)
            if v is not None and not 0 <= v <= 1
        ]
        if outside:  # the whole task, so that no model's bar is missing from it
            left_out.append(f"{task} ({', '.join(dict.fromkeys(outside))})")
            continue
        for row in rows:
            h = row.headline
            if h is None or not isinstance(h.value, int | float):
                continue
            chart_rows.append(
                (
                    suite,
                    task,
                    h.label,
                    series[row.run],
                    {"value": h.value, "ci95": h.ci95, "chance": h.chance},
                )
            )
    parts = ["<section id=profile><h2>Temporal profile</h2>"]
    if chart_rows:
        pending = schedule_call(profile_png, chart_rows)  # drawn in a worker while we go on
        if pending is not None:
            src = f"\x00profile-{len(ctx.later)}\x00"
            ctx.later[src] = pending
        else:
            src = png_data_uri(profile_chart(chart_rows, out_dir / "profile.png"))
        parts.append(
            f"<figure><img class=fig alt='temporal profile' src='{src}'>"
            "<figcaption>Each task's main metric, in percent, per model (per run where a model "
            "has several runs of one task), with its 95% bootstrap interval; the black tick "
            "marks what guessing would score on that task.</figcaption>"
            "</figure>"
        )
    elif not left_out:
        parts.append(
            "<p class='warn empty'>Nothing to chart: no task has a scored answer (every item "
            "errored or was never asked; see each task's counts below).</p>"
        )
    if left_out:
        parts.append(
            "<p class=note>Not on the chart (a main metric or chance value outside [0, 1]): "
            + e("; ".join(left_out))
            + "</p>"
        )
    tasks = list(board)
    pct = {t: headline_is_percent(t, runs) for t in tasks}
    head = "".join(
        f"<th>{e(get_task(t).suite)}<br>{e(t)}<br><small>"
        f"{e(next((r.headline.label for r in board[t] if r.headline), 'nothing scored'))}"
        f"{' (%)' if pct[t] else ''}</small></th>"
        for t in tasks
    )
    body = []
    for name in dict.fromkeys(series.values()):
        cells = "".join(
            _headline_cell(next((r for r in board[t] if series[r.run] == name), None), pct[t])
            for t in tasks
        )
        body.append(f"<tr><td>{e(name)}</td>{cells}</tr>")
    chance = "".join(
        "<td>"
        + e(
            fmt_pct_or_value(
                next((r.headline.chance for r in board[t] if r.headline), None), pct[t]
            )
        )
        + "</td>"
        for t in tasks
    )
    body.append(f"<tr class=chance><td>chance</td>{chance}</tr>")
    parts.append(
        "<h3>Headline metrics</h3><table class=board><tr><th>model / run</th>"
        + head
        + "</tr>"
        + "".join(body)
        + "</table><p class=note>Proportions in percent, other metrics in their own units; "
        "95% percentile-bootstrap intervals in brackets; rows keep the order the runs were "
        "given (no ranking).</p>"
        "</section>"
    )
    return "".join(parts)


def _paired_section(comparison: Comparison, runs: list[RunData] | None = None) -> str:
    if not comparison.tests and not comparison.refusals:
        return ""
    pct = {t.task: headline_is_percent(t.task, runs or []) for t in comparison.tests}
    parts = [
        "<section id=paired><h2>Paired tests</h2><p class=note>B − A on the items both runs "
        "scored: mean difference of the task's per-sample headline score with a percentile "
        "bootstrap 95% interval over items (in percentage points where the metric is a "
        "proportion); exact McNemar test where every score is 0 or 1.</p>"
    ]
    if comparison.tests:
        rows = []
        for t in comparison.tests:
            mc = t.mcnemar
            p = pct.get(t.task, False)
            ci = (
                "—"
                if t.ci95 is None
                else f"[{fmt_pct_or_value(t.ci95[0], p)}, {fmt_pct_or_value(t.ci95[1], p)}]"
            )
            excluded = ", ".join(f"{k}: {v}" for k, v in t.excluded.items()) or "0"
            discordant = "—" if mc is None else f"{mc['a_only']} / {mc['b_only']}"
            p_value = "—" if mc is None else e(fmt_value(mc["p"], 4))
            rows.append(
                "<tr class=paired>"
                f"<td>{e(t.task)}</td><td>{e(t.a)}</td><td>{e(t.b)}</td><td>{e(t.score_key)}</td>"
                f"<td>{t.n}</td><td>{e(fmt_pct_or_value(t.mean_a, p))}</td>"
                f"<td>{e(fmt_pct_or_value(t.mean_b, p))}</td>"
                f"<td><b>{e(fmt_pct_or_value(t.diff, p))}</b></td><td>{e(ci)}</td>"
                f"<td>{discordant}</td><td>{p_value}</td>"
                f"<td>{e(excluded)}</td></tr>"
            )
        parts.append(
            "<table><tr><th>task</th><th>A</th><th>B</th><th>score</th><th>n</th><th>mean A</th>"
            "<th>mean B</th><th>B − A</th><th>95% CI</th><th>A right only / B right only</th>"
            "<th>McNemar p (exact)</th><th>excluded</th></tr>" + "".join(rows) + "</table>"
        )
    for ref in comparison.refusals:
        parts.append(f"<p class='refused warn'>Paired test refused: {e(ref.reason)}</p>")
    parts.append("</section>")
    return "".join(parts)


def _metric_tables(task: str, having: list[RunData]) -> str:
    groups: list[str] = []
    for r in having:
        groups += [g for g in (r.task_entry(task).get("metrics") or {}) if g not in groups]
    groups.sort(key=lambda g: g != "overall")  # the overall metrics first, breakdowns folded
    heads = {}
    chance = None
    t = get_task(task)
    for r in having:
        metrics = r.task_entry(task).get("metrics") or {}
        got = t.headline(metrics) if metrics else None
        if got:
            heads[r.label] = got[1]
            chance = t.chance(metrics)
    header = "<tr><th>metric</th>" + "".join(f"<th>{e(r.label)}</th>" for r in having) + "</tr>"
    out = []
    for k, group in enumerate(groups):
        paths: list[str] = []
        entries: dict[str, dict[str, Any]] = {}
        for r in having:
            val = (r.task_entry(task).get("metrics") or {}).get(group)
            flat = list(flatten_metrics(val if isinstance(val, dict) else {"": val}))
            entries[r.label] = dict(flat)
            paths += [p for p, _ in flat if p not in paths]
        rows = []
        for p in paths:
            cells = []
            is_head = False
            found = [entries[r.label][p] for r in having if p in entries[r.label]]
            pct = bool(found) and all(is_percent(p or group, m) for m in found)
            for r in having:
                m = entries[r.label].get(p)
                is_head |= m is not None and m is heads.get(r.label)
                n = f" <small>n={m.get('n')}</small>" if m else ""
                cells.append(f"<td>{e(fmt_entry(m, pct=pct))}{n}</td>")
            name = e(unit_label(p or group, pct))
            if is_head:
                name = (
                    f"<b>{name}</b> <small>(main metric; chance "
                    f"{e(fmt_pct_or_value(chance, pct))})</small>"
                )
            rows.append(f"<tr><td>{name}</td>{''.join(cells)}</tr>")
        table = f"<table>{header}{''.join(rows)}</table>"
        if k == 0 or len(paths) == 1:
            out.append(f"<h4>{e(group)}</h4>{table}")
        else:
            out.append(
                f"<details><summary>{e(group)} ({len(paths)} metrics)</summary>{table}</details>"
            )
    return "".join(out)


def figure_caption(task: str, path: Path) -> str:
    """A plain caption from a figure's file name: ``clockqa_by_style.png`` -> ``by style``."""
    stem = path.stem
    if stem.startswith(task + "_"):
        stem = stem[len(task) + 1 :]
    words = stem.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:] if words else path.name


def _figures(task: str, having: list[RunData], out_dir: Path, ctx: _Ctx) -> str:
    scored = sum(
        r.task_entry(task).get("counts", {}).get(k, 0)
        for r in having
        for k in ("answered", "no_answer")
    )
    if not scored:
        return (
            "<p class='warn empty'>No figures: no item of this task was answered (every item "
            "errored or was never asked; re-run the same command to retry them).</p>"
        )
    runs = {r.label: (r.task_entry(task), r.task_records(task)) for r in having}
    fig_dir = out_dir / task
    fig_dir.mkdir(parents=True, exist_ok=True)
    try:
        paths = task_figures(task, runs, fig_dir)
    except Exception as exc:  # noqa: BLE001 - a failing figure is shown, the report still written
        msg = f"{task}: figures failed ({type(exc).__name__}: {exc})"
        ctx.problems.append(msg)
        return f"<p class=warn>{e(msg)}</p>"
    imgs = [
        f"<figure><img class=fig alt='{e(p.name)}' src='{png_data_uri(p)}'>"
        f"<figcaption>{e(figure_caption(task, p))} <small>({e(p.name)})</small></figcaption>"
        "</figure>"
        for p in paths
    ]
    return "<div class=figs>" + "".join(imgs) + "</div>" if imgs else "<p>(no figures)</p>"


def _task_sections(runs: list[RunData], out_dir: Path, ctx: _Ctx) -> str:
    tasks: list[str] = []
    for r in runs:
        tasks += [t for t in r.tasks if t not in tasks]
    by_suite: dict[str, list[str]] = {}
    for t in tasks:
        by_suite.setdefault(get_task(t).suite, []).append(t)
    parts = []
    for suite in sorted(by_suite):
        parts.append(f"<section class=suite id='suite-{e(suite)}'><h2>Suite {e(suite)}</h2>")
        for task in by_suite[suite]:
            t = get_task(task)
            having = [r for r in runs if task in r.results["tasks"]]
            counts = "".join(
                f"<tr><td>{e(r.label)}</td>"
                + "".join(
                    f"<td>{r.task_entry(task).get('counts', {}).get(k, 0)}</td>"
                    for k in ("answered", "no_answer", "error", "missing")
                )
                + "</tr>"
                for r in having
            )
            parts.append(
                f"<section class=task id='task-{e(task)}'><h3>{e(task)}</h3>"
                f"<p>{e(t.description)}</p>"
                + synthetic_html(task, [r.task_entry(task) for r in having])
                + "<table><tr><th>run</th><th>answered</th><th>no answer</th><th>error</th>"
                f"<th>missing</th></tr>{counts}</table>"
                + unparsed_html(task, having)
                + _metric_tables(task, having)
                + _figures(task, having, out_dir, ctx)
                + "</section>"
            )
        parts.append("</section>")
    return "".join(parts)


def _prompt_text(item: Any) -> str:
    if item is None:
        return "(dataset not available)"
    msgs = item.messages
    if len(msgs) == 1 and msgs[0].role == "user":
        return msgs[0].text
    return "\n\n".join(f"[{m.role}]\n{m.text}" for m in msgs)


def _json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def select_samples(
    records: list[SampleRecord], score_key: str | None, cap: int
) -> tuple[list[tuple[SampleRecord, str]], int]:
    """At most ``cap`` (record, outcome) pairs, in item order, chosen errors first, then no
    answer, wrong, graded, correct; also returns how many were left out."""
    tagged = [(r, outcome(r, score_key)) for r in records]
    if len(tagged) <= cap:
        return tagged, 0
    order = sorted(range(len(tagged)), key=lambda i: (PRIORITY[tagged[i][1]], i))[:cap]
    return [tagged[i] for i in sorted(order)], len(tagged) - cap


def _thumbs(run: RunData, task: str, record: SampleRecord, ctx: _Ctx) -> str:
    items = run.items(task)
    item = items.get(record.item_id) if items else None
    if item is None:
        return ""
    root = run.dataset_root(task)
    out = []
    for part in item.images:
        if part.sha256 not in ctx.thumbs:
            try:
                path = root / part.path  # type: ignore[operator]
                uri = thumbnail(part.sha256, path.read_bytes, thumbnail_uri)
            except (OSError, ValueError, DecompressionBombError) as exc:
                ctx.problems.append(f"{run.label}: image {part.path} of {record.item_id}: {exc}")
                uri = ""
            ctx.thumbs[part.sha256] = (f"im{len(ctx.thumbs)}", uri)
        cls, uri = ctx.thumbs[part.sha256]
        if uri:
            out.append(f"<span class='th {cls}' title='{e(part.path)}'></span>")
    return "".join(out)


def prefetch_thumbnails(run: RunData) -> None:
    """Start making the thumbnails that a report of ``run`` alone shows (the same selection as
    its sample browser) in the worker processes (report/memo.py ``schedule_thumbnails``), so
    that they are ready when the report is written. Reads ``run``'s datasets on its own copy of
    the run (the report's own copy, and the problems it records, are untouched)."""
    from chronoeval.report.runs import run_from_memory

    mine = run_from_memory(run.run_dir, run.results, run.records)
    cap = default_max_samples([mine])
    jobs = []
    for task in mine.tasks:
        items = mine.items(task)
        root = mine.dataset_root(task)
        if not items or root is None:
            continue
        chosen, _ = select_samples(mine.task_records(task), get_task(task).headline_score, cap)
        for rec, _oc in chosen:
            item = items.get(rec.item_id)
            for part in item.images if item is not None else ():
                jobs.append((part.sha256, str(root / part.path)))  # type: ignore[operator]
    schedule_thumbnails(jobs, thumbnail_uri)


def _samples_section(runs: list[RunData], max_samples: int, ctx: _Ctx) -> str:
    cards = []
    notes = []
    totals = dict.fromkeys(OUTCOMES, 0)
    tasks: list[str] = []
    for ri, run in enumerate(runs):
        for task in run.tasks:
            if task not in tasks:
                tasks.append(task)
            t = get_task(task)
            records = run.task_records(task)
            chosen, left = select_samples(records, t.headline_score, max_samples)
            if left:
                notes.append(
                    f"{run.label} · {task}: {len(chosen)} of {len(records)} samples shown "
                    f"(cap {max_samples}; errors, no answers and wrong answers first)"
                )
            items = run.items(task) or {}
            for rec, oc in chosen:
                totals[oc] += 1
                item = items.get(rec.item_id)
                raw = rec.response if rec.status not in ("error", "missing") else rec.error
                status = rec.status if rec.status != "missing" else "missing (never answered)"
                turns = ""
                if rec.turns:
                    turns = (
                        f"<details><summary>turns ({len(rec.turns)})</summary><pre>"
                        f"{e(json.dumps(rec.turns, indent=1, ensure_ascii=False, default=str))}"
                        "</pre></details>"
                    )
                meta = json.dumps(rec.metadata, ensure_ascii=False, default=str, sort_keys=True)
                cards.append(
                    f"<div class='sample {oc}' data-outcome='{oc}' data-run='{ri}' "
                    f"data-task='{e(task)}'>"
                    f"<div class=thumbs>{_thumbs(run, task, rec, ctx)}</div><div class=sbody>"
                    f"<div class=shead><span class='badge {oc}'>{e(OUTCOME_LABELS[oc])}</span> "
                    f"<b>{e(rec.item_id)}</b> · {e(task)} · {e(run.label)} · <small>{e(status)}"
                    f"</small></div>"
                    f"<div class=k>prompt</div><pre class=prompt>"
                    f"{e(prompt_text(rec.prompt) if rec.prompt else _prompt_text(item))}</pre>"
                    + (
                        f"<details><summary>reasoning</summary><pre class=reasoning>"
                        f"{e(rec.reasoning)}</pre></details>"
                        if rec.reasoning
                        else ""
                    )
                    + f"<div class=k>raw answer</div><pre class=raw>{e(raw)}</pre>"
                    f"<div class=kv><span class=k>parsed</span> <code class=parsed>"
                    f"{e(_json(rec.answer))}</code> <span class=k>gold</span> <code class=gold>"
                    f"{e(_json(rec.target))}</code> <span class=k>scores</span> <code>"
                    f"{e(json.dumps(rec.scores))}</code></div>"
                    f"<div class=kv><span class=k>metadata</span> <code>{e(meta)}</code></div>"
                    f"{turns}</div></div>"
                )
    buttons = "<button class='flt on' data-outcome='all'>all</button>" + "".join(
        f"<button class=flt data-outcome='{oc}'>{e(OUTCOME_LABELS[oc])} ({totals[oc]})</button>"
        for oc in OUTCOMES
        if totals[oc] or oc != "graded"
    )
    run_opts = "".join(f"<option value='{i}'>{e(r.label)}</option>" for i, r in enumerate(runs))
    task_opts = "".join(f"<option value='{e(t)}'>{e(t)}</option>" for t in tasks)
    note = "".join(f"<li>{e(n)}</li>" for n in notes)
    return (
        "<section id=samples><h2>Samples</h2>"
        + (f"<ul class=note>{note}</ul>" if note else "")
        + f"<div class=controls>{buttons} <select id=frun><option value=''>all runs</option>"
        f"{run_opts}</select> <select id=ftask><option value=''>all tasks</option>{task_opts}"
        "</select> <button id=prev>&larr;</button> <span id=pageinfo></span> "
        "<button id=next>&rarr;</button></div>"
        f"<div id=samplelist>{''.join(cards)}</div></section>"
    )


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:1200px;
padding:1em 2em;color:#222}
h1{margin-bottom:.2em}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:3px 7px;font-size:13px;text-align:left;vertical-align:top}
th{background:#f3f3f3}tr.chance td{color:#666;font-style:italic}
.note{color:#555;font-size:13px}.warn{color:#b00}
.figs{display:flex;flex-wrap:wrap;gap:12px}img.fig{max-width:100%;border:1px solid #ddd}
figure{margin:0}figcaption{font-size:12px;color:#666}
.controls{position:sticky;top:0;background:#fff;padding:6px 0;border-bottom:1px solid #ddd;z-index:1}
button.flt.on{background:#335;color:#fff}
.sample{display:flex;gap:10px;border:1px solid #ddd;border-left:6px solid #999;margin:6px 0;
padding:6px}
.sample.correct{border-left-color:#2a2}.sample.wrong{border-left-color:#d22}
.sample.no_answer{border-left-color:#e90}.sample.error{border-left-color:#707}
.th{display:inline-block;width:160px;height:160px;background-size:contain;background-repeat:no-repeat;
background-position:center;border:1px solid #eee}
.sbody{flex:1;min-width:0}pre{white-space:pre-wrap;word-break:break-word;margin:2px 0 6px;
background:#f8f8f8;padding:4px;font-size:12px;max-height:14em;overflow:auto}
.k{font-size:11px;color:#666;text-transform:uppercase}
.badge{padding:1px 6px;border-radius:8px;color:#fff;font-size:12px;background:#999}
.badge.correct{background:#2a2}.badge.wrong{background:#d22}.badge.no_answer{background:#e90}
.badge.error{background:#707}
"""

JS = """
(function(){
  var PAGE = %d, page = 0, outcome = 'all';
  var cards = Array.prototype.slice.call(document.querySelectorAll('#samplelist .sample'));
  var frun = document.getElementById('frun'), ftask = document.getElementById('ftask');
  function matching(){
    return cards.filter(function(c){
      return (outcome === 'all' || c.dataset.outcome === outcome) &&
        (!frun.value || c.dataset.run === frun.value) &&
        (!ftask.value || c.dataset.task === ftask.value);
    });
  }
  function show(){
    var m = matching(), pages = Math.max(1, Math.ceil(m.length / PAGE));
    if (page >= pages) { page = pages - 1; }
    cards.forEach(function(c){ c.style.display = 'none'; });
    m.slice(page * PAGE, (page + 1) * PAGE).forEach(function(c){ c.style.display = ''; });
    document.getElementById('pageinfo').textContent = m.length ?
      ('samples ' + (page * PAGE + 1) + '–' + Math.min(m.length, (page + 1) * PAGE) +
       ' of ' + m.length + ' (page ' + (page + 1) + '/' + pages + ')') : 'no samples match';
  }
  Array.prototype.forEach.call(document.querySelectorAll('button.flt'), function(b){
    b.addEventListener('click', function(){
      outcome = b.dataset.outcome; page = 0;
      Array.prototype.forEach.call(document.querySelectorAll('button.flt'), function(x){
        x.classList.toggle('on', x === b); });
      show();
    });
  });
  frun.addEventListener('change', function(){ page = 0; show(); });
  ftask.addEventListener('change', function(){ page = 0; show(); });
  document.getElementById('prev').addEventListener('click', function(){
    if (page > 0) { page -= 1; show(); } });
  document.getElementById('next').addEventListener('click', function(){
    if ((page + 1) * PAGE < matching().length) { page += 1; show(); } });
  show();
})();
"""


def render_html(
    runs: list[RunData],
    comparison: Comparison,
    *,
    max_samples: int | None = None,
    title: str = "chronoeval report",
) -> str:
    """The report page; ``max_samples`` per (run, task) defaults to :func:`default_max_samples`."""
    if max_samples is None:
        max_samples = default_max_samples(runs)
    ctx = _Ctx({}, [])
    with tempfile.TemporaryDirectory(prefix="chronoeval-report-") as tmp:
        out_dir = Path(tmp)
        profile = _profile_section(runs, out_dir, ctx)
        tasks = _task_sections(runs, out_dir, ctx)
    samples = _samples_section(runs, max_samples, ctx)
    paper = paper_tables_section(runs, ctx.problems)
    problems = [p for r in runs for p in r.problems] + ctx.problems
    thumbs_css = "".join(
        f'.{cls}{{background-image:url("{uri}")}}' for cls, uri in ctx.thumbs.values() if uri
    )
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    problem_html = (
        "<section id=problems><h2 class=warn>Problems</h2><ul>"
        + "".join(f"<li>{e(p)}</li>" for p in _unique(problems))
        + "</ul></section>"
        if problems
        else ""
    )
    nav = (
        "<nav><a href='#runs'>runs</a> · <a href='#profile'>profile</a>"
        + (
            " · <a href='#paired'>paired tests</a>"
            if comparison.tests or comparison.refusals
            else ""
        )
        + " · <a href='#samples'>samples</a></nav>"
    )
    page = (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        f"<title>{e(title)}</title><style>{CSS}{thumbs_css}</style></head><body>"
        f"<h1>{e(title)}</h1><p class=note>chronoeval {e(__version__)} · generated {e(stamp)} · "
        f"{len(runs)} run(s)</p>{nav}"
        + problem_html
        + _runs_section(runs)
        + profile
        + _paired_section(comparison, runs)
        + paper
        + tasks
        + samples
        + f"<script>{JS % PAGE_SIZE}</script></body></html>"
    )
    for placeholder, pending in ctx.later.items():
        uri = "data:image/png;base64," + base64.b64encode(pending.result()).decode("ascii")
        page = page.replace(placeholder, uri)
    return page


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))
