"""MINED's tables (paper Table 3 = CEM, Table 9 = F1, Table 5 with its w/o rows, Fig. 7 as a
table, CEM per prompt version, judge tables) as declarative specs for
:mod:`chronoeval.report.paper_tables`.

Every cell is the released file score (per sample, the mean over its non-empty prompt versions,
:func:`~chronoeval.suites.mined.metrics.sample_score`; then the mean over samples), resampled over
*samples*: the four prompt versions of one sample are one unit, never four. Avg. is the unweighted
mean of the eleven dimensions (as the paper's Avg. column), its interval from the dimensions'
replicates (different dimensions are different samples, resampled independently).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from chronoeval.report.paper_tables import (
    Across,
    Col,
    Combine,
    Mean,
    Records,
    TableSpec,
    average,
    difference,
)
from chronoeval.report.runs import RunData
from chronoeval.suites.mined.itembuild import CONFIG_LABELS, CONFIG_NAMES
from chronoeval.suites.mined.metrics import (
    by_sample,
    context_label,
    record_context_label,
    sample_score,
)
from chronoeval.suites.mined.scoring import item_score

DIMENSIONS = (
    ("Cog.", "T.A", "mined_time_agnostic"),
    ("Cog.", "T.I.A", "mined_temporal_interval"),
    ("Cog.", "T.S.A", "mined_timestamp"),
    ("Awa.", "F.M.C", "mined_awareness_future"),
    ("Awa.", "P.M.C", "mined_awareness_past"),
    ("Tru.", "P.U.D", "mined_previous_unanswerable_date"),
    ("Tru.", "F.U.D", "mined_future_unanswerable_date"),
    ("Und.", "I.T.C", "mined_understanding"),
    ("Rea.", "R.K", "mined_ranking"),
    ("Rea.", "C.A", "mined_calculation"),
    ("Rob.", "A.T.E", "mined_robustness"),
)


def _reduce(key: str):  # type: ignore[no-untyped-def]
    return lambda group: sample_score(group, key) / 100.0


def _table(name: str, title: str, key: str) -> TableSpec:
    cols = [
        Col(label, label, Mean(task, key, unit="sample", reduce=_reduce(key)), group)
        for group, label, task in DIMENSIONS
    ]
    cols.append(Col("avg", "Avg.", Combine(tuple(c.key for c in cols), average)))
    return TableSpec(name, title, tuple(cols))


def _share(label: str):  # type: ignore[no-untyped-def]
    def reduce(group: list) -> float | None:
        labels = [x for x in (record_context_label(r) for r in group) if x is not None]
        return labels.count(label) / len(labels) if labels else None

    return reduce


TABLE5 = TableSpec(
    "mined_table5",
    "Table 5: outputs under a misaligned context (%): Con. = the context's value, Oth. = another "
    "attribute value, Irr. = neither",
    tuple(
        Col(
            f"{task}_{lab}",
            name,
            Mean(task, "cem", unit="sample", reduce=_share(lab)),
            group,
            higher=False,
        )
        for group, task in (
            ("Future Misaligned Context", "mined_awareness_future"),
            ("Past Misaligned Context", "mined_awareness_past"),
        )
        for lab, name in (("context", "Con."), ("other", "Oth."), ("irrelevant", "Irr."))
    ),
    note="Per sample the share of its prompt versions' outputs in each class, then the mean over "
    "samples (resampled over samples). The paper's w/o-context rows: table "
    "mined_table5_without (the same questions from the timestamp task).",
)


def _nonempty_cem(group: list) -> float | None:
    """One configuration record's CEM; None for an empty output (the release leaves it out)."""
    vals = [float(r.scores.get("cem") or 0.0) for r in group if not r.scores.get("empty")]
    return sum(vals) / len(vals) if vals else None


def _by_config() -> TableSpec:
    cols: list[Col] = []
    for config in CONFIG_NAMES:
        inputs = []
        for _, label, task in DIMENSIONS:
            key = f"{config}:{label}"
            where = (("config", config),)
            src = Mean(task, "cem", where, unit="sample", reduce=_nonempty_cem)
            cols.append(Col(key, label, src, hidden=True))
            inputs.append(key)
        cols.append(Col(config, CONFIG_LABELS[config], Combine(tuple(inputs), average)))
    return TableSpec(
        "mined_by_config",
        "CEM (%) per prompt version (App. K): the mean over the eleven dimensions",
        tuple(cols),
        note="Per dimension the mean over that version's non-empty outputs (the release's "
        "per-configuration score), then the unweighted mean over dimensions; resampled over "
        "samples within each dimension.",
    )


def judged_model(run: RunData, task: str) -> str:
    """A judge run's row: the model of the run it judged (its ``--data``, recorded as the task's
    ``params.path``), with the judge named; the judged run's path when its results are gone."""
    path = Path(
        str((run.config.get("tasks", {}).get(task) or {}).get("params", {}).get("path", ""))
    )
    try:
        judged = json.loads((path / "results.json").read_text(encoding="utf-8")).get("model")
    except (OSError, ValueError):
        judged = None
    return f"{judged or path} (judge {run.model})"


def _judge_sample(group: list) -> float | None:
    """Released item score of one sample's judge scores (non-empty predictions), in [0, 1]."""
    return (
        item_score([None if r.scores.get("empty") else r.scores.get("judge") for r in group]) / 100
    )


def _judge_tables() -> list[TableSpec]:
    subtask = {task: task.removeprefix("mined_") for _, _, task in DIMENSIONS}
    cols = [
        Col(
            label,
            label,
            Mean(
                "mined_judge",
                "judge",
                (("subtask", subtask[task]),),
                unit="sample",
                reduce=_judge_sample,
            ),
            group,
        )  # fmt: skip
        for group, label, task in DIMENSIONS
    ]
    cols.append(Col("avg", "Avg.", Combine(tuple(c.key for c in cols), average)))
    per_config = tuple(
        Col(
            config,
            CONFIG_LABELS[config],
            Mean(
                "mined_judge", "judge", (("config", config),), exclude=(("prediction_empty", True),)
            ),
        )  # fmt: skip
        for config in CONFIG_NAMES
    )
    return [
        TableSpec(
            "mined_table12",
            "Table 12: LLM-judge score (%) per dimension and Avg.",
            tuple(cols),
            note="Rows: the judged run's model (judge named). Per sample the released item score "
            "of the judge's scores over non-empty predictions; resampled over samples; Avg. = "
            "mean of the subtasks, so the one judge run supplies every column.",
            row_name=judged_model,
        ),
        TableSpec(
            "mined_judge_by_config",
            "LLM-judge score (%) per prompt version (non-empty predictions, all subtasks)",
            per_config,
            note="Judge runs resampled over judged outputs (each version has one output per "
            "sample, so outputs of one version are independent samples).",
            row_name=judged_model,
        ),
    ]


# -- with and without the misaligned context (Fig. 7; Table 5's w/o rows) -------------------------
TIMESTAMP = "mined_timestamp"
AWARENESS = (("Future", "mined_awareness_future"), ("Past", "mined_awareness_past"))


def question_key(group: Records) -> tuple[str, tuple[str, ...], str]:
    """What pairs an awareness sample with the timestamp (T.S.A.) samples that ask its question
    without the context: same subject, same attribute list, same gold. On the release this
    pairs exactly the samples whose question text is identical (236 of 236 future, 154 of 181
    past; docs/suites/mined.md)."""
    r = group[0]
    return (str(r.metadata.get("subject")), tuple(r.metadata.get("names") or ()), str(r.target))


def matched(aw: Records, ts: Records) -> list[tuple[Records, list[Records]]]:
    """(awareness sample, its timestamp samples) for every awareness sample with at least one,
    in the awareness records' order; the others are left out of the w/ vs w/o comparison."""
    by_key: dict[tuple[str, tuple[str, ...], str], list[Records]] = defaultdict(list)
    for g in by_sample(ts).values():
        by_key[question_key(g)].append(g)
    return [(g, by_key[k]) for g in by_sample(aw).values() if (k := question_key(g)) in by_key]


def _cem_with(aw: Records, others: dict[str, Records]) -> list[float]:
    return [sample_score(g, "cem") / 100 for g, _ in matched(aw, others[TIMESTAMP])]


def _cem_without(aw: Records, others: dict[str, Records]) -> list[float]:
    return [
        sum(sample_score(t, "cem") / 100 for t in ts) / len(ts)
        for _, ts in matched(aw, others[TIMESTAMP])
    ]


def _label_pairs(aw: Records, ts: Records, label: str) -> list[tuple[float, float]]:
    """Per matched awareness sample with a context value: the share of outputs in class
    ``label`` (Table 5's classes, with the awareness sample's context value) among its own
    outputs (w/) and among those of its timestamp samples (w/o); a sample with no scored output
    on either side is left out of both, so the two lists pair unit by unit."""
    out = []
    for g, tss in matched(aw, ts):
        ctx = g[0].metadata.get("context_value")
        if not ctx:
            continue
        shares = []
        for recs in (g, [r for t in tss for r in t]):
            labels = [
                context_label(
                    r.response, str(r.target), str(ctx), list(r.metadata.get("names") or ())
                )
                for r in recs
                if r.status not in ("error", "missing")
            ]
            shares.append(labels.count(label) / len(labels) if labels else None)
        if shares[0] is not None and shares[1] is not None:
            out.append((shares[0], shares[1]))
    return out


def _labels_share(label: str, without: bool):  # type: ignore[no-untyped-def]
    def fn(aw: Records, others: dict[str, Records]) -> list[float]:
        return [p[1] if without else p[0] for p in _label_pairs(aw, others[TIMESTAMP], label)]

    return fn


def _context_effect() -> list[TableSpec]:
    fig7: list[Col] = []
    t5: list[Col] = []
    for group, task in AWARENESS:
        fig7 += [
            Col(f"{task}_with", "CEM w/", Across(task, (TIMESTAMP,), _cem_with), group),
            Col(f"{task}_without", "CEM w/o", Across(task, (TIMESTAMP,), _cem_without), group),
            Col(f"{task}_delta", "Δ (w/o − w/)",
                Combine((f"{task}_with", f"{task}_without"), difference), group, higher=None),
        ]  # fmt: skip
        for lab, name in (("context", "Con."), ("other", "Oth."), ("irrelevant", "Irr.")):
            k = f"{task}_{lab}"
            t5 += [
                Col(f"{k}_with", name, Across(task, (TIMESTAMP,), _labels_share(lab, False)),
                    group, hidden=True),
                Col(f"{k}_without", name, Across(task, (TIMESTAMP,), _labels_share(lab, True)),
                    group, higher=False),
                Col(f"{k}_delta", f"({name} Δ)",
                    Combine((f"{k}_with", f"{k}_without"), difference), group, higher=None),
            ]  # fmt: skip
    note = (
        "Awareness samples paired with the timestamp (T.S.A.) samples of the same question "
        "(same subject, attribute list and gold); only paired samples count, per sample the "
        "released score, resampled over awareness samples (w/ and w/o together). Δ = w/o − w/."
    )
    return [
        TableSpec(
            "mined_fig7",
            "Fig. 7: CEM (%) of the awareness questions with and without the misaligned context",
            tuple(fig7),
            note=note,
        ),
        TableSpec(
            "mined_table5_without",
            "Table 5 (w/o misaligned context): the same questions asked without the context (%), "
            "and the change from the paired w/ outputs",
            tuple(t5),
            note=note + " Classes with the awareness sample's context value.",
        ),
    ]


TABLES = [
    _table("mined_table3", "Table 3: CEM (%) per dimension and Avg.", "cem"),
    _table("mined_table9", "Table 9: F1 (%) per dimension and Avg.", "f1"),
    TABLE5,
    *_context_effect(),
    _by_config(),
    *_judge_tables(),
]
