"""MINED aggregation: configuration records regrouped per sample, as the released scorer does.

Per-record scores (``score``): ``cem`` (released VQAEval CEM, 0/1), ``cem_squad`` (released
fallback), ``f1`` (released SQuAD F1), ``empty`` (1 when the output is empty: the release leaves
such a configuration out of the sample's mean), ``yes_no_leak`` (1 when the output contains both
"yes" and "no").

Aggregates (values are fractions; × 100 gives the paper's numbers):

- ``overall``: the released file score — per sample, the mean over its non-empty configurations
  (0 when all are empty, :func:`~chronoeval.suites.mined.scoring.item_score`), then the mean over
  samples; with a bootstrap interval over samples.
- ``by_type``: the same per knowledge type (the released per-type lines).
- ``by_config``: per configuration (paper App. K), mean over that configuration's non-empty outputs.
- ``agreement`` (our definition, docs/suites/mined.md): over samples whose four outputs are all
  non-empty, the share whose four CEM verdicts agree; ``all4`` / ``any4``: the share correct in all
  four / in at least one.
- ``loi`` (time-agnostic only; paper Exp 3, Table 4): Latest / Outdated / Irrelevant shares.
- ``yes_no_leak``: share of non-empty outputs that contain both "yes" and "no".
- ``misaligned_context`` (awareness tasks, paper Exp 4 / Table 5): per sample the share of its
  outputs that are correct / follow the misaligned context (Con.) / name another attribute value
  (Oth.) / neither (Irr.), :func:`context_label`; the mean over samples.
- ``gold_majority``: the share of samples whose (VQA-normalised) gold is the most common gold
  (``gold``): the score of always answering it, the chance level where golds are unbalanced.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from chronoeval.core.stats import mean_metric
from chronoeval.core.task import SampleRecord
from chronoeval.suites.mined.itembuild import CONFIG_NAMES
from chronoeval.suites.mined.scoring import (
    cem_vqa,
    has_word,
    is_empty,
    item_score,
    vqa_normalize,
    yes_no_leak,
)

SCORE_KEYS = ("cem", "cem_squad", "f1")


def record_scores(prediction: str | None, gold: str) -> dict[str, float | None]:
    from chronoeval.suites.mined.scoring import cem_squad, f1

    if is_empty(prediction):
        return {"cem": 0.0, "cem_squad": 0.0, "f1": 0.0, "empty": 1.0, "yes_no_leak": 0.0}
    assert prediction is not None
    return {
        "cem": cem_vqa(prediction, gold),
        "cem_squad": cem_squad(prediction, gold),
        "f1": f1(prediction, gold),
        "empty": 0.0,
        "yes_no_leak": float(yes_no_leak(prediction)),
    }


def by_sample(records: list[SampleRecord]) -> dict[str, list[SampleRecord]]:
    groups: dict[str, list[SampleRecord]] = defaultdict(list)
    for r in records:
        groups[str(r.metadata.get("sample", r.item_id))].append(r)
    return dict(groups)


def sample_score(group: list[SampleRecord], key: str) -> float:
    """Released item score in [0, 100] for one sample's configuration records."""
    return item_score(
        [None if r.scores.get("empty") else float(r.scores.get(key) or 0.0) for r in group]
    )


def _sample_metrics(groups: dict[str, list[SampleRecord]], seed: int) -> dict[str, Any]:
    return {
        key: mean_metric([sample_score(g, key) / 100.0 for g in groups.values()], seed=seed)
        for key in SCORE_KEYS
    }


def loi_label(outputs: list[str], gold: str, names: list[str]) -> str:
    """Paper Exp 3: Latest if any output contains the latest value (the gold), else Outdated if any
    contains another value of the attribute list, else Irrelevant. "Contains" is CEM's test."""
    if any(cem_vqa(o, gold) for o in outputs):
        return "latest"
    others = [vqa_normalize(n) for n in names if vqa_normalize(n) != vqa_normalize(gold)]
    for o in outputs:
        norm = vqa_normalize(o)
        if any(n and has_word(norm, n) for n in others):
            return "outdated"
    return "irrelevant"


CONTEXT_LABELS = ("correct", "context", "other", "irrelevant")


def context_label(output: str | None, gold: str, context_value: str, names: list[str]) -> str:
    """Paper Exp 4 / Table 5 (misaligned context): an output is ``correct`` when CEM finds the
    gold, else ``context`` (Con.) when it contains the misaligned context's value, else ``other``
    (Oth.) when it contains another value of the attribute list, else ``irrelevant`` (Irr.).
    "Contains" is CEM's test; an empty output is irrelevant. The four shares sum to 1 (the paper's
    Con. + Oth. + Irr. + CEM rows sum to 100)."""
    if is_empty(output):
        return "irrelevant"
    assert output is not None
    if cem_vqa(output, gold):
        return "correct"
    norm = vqa_normalize(output)
    ctx = vqa_normalize(context_value)
    if ctx and has_word(norm, ctx):
        return "context"
    others = {vqa_normalize(n) for n in names} - {vqa_normalize(gold), ctx}
    if any(n and has_word(norm, n) for n in others):
        return "other"
    return "irrelevant"


def record_context_label(r: SampleRecord) -> str | None:
    """:func:`context_label` of one scored configuration record (None without a context value or
    for an unscored record)."""
    ctx = r.metadata.get("context_value")
    if not ctx or r.status in ("error", "missing"):
        return None
    return context_label(r.response, str(r.target), str(ctx), list(r.metadata.get("names", [])))


def aggregate_mined(records: list[SampleRecord], *, seed: int = 0) -> dict[str, Any]:
    groups = by_sample(records)
    out: dict[str, Any] = {"overall": _sample_metrics(groups, seed)}
    types: dict[str, dict[str, list[SampleRecord]]] = defaultdict(dict)
    for key, g in groups.items():
        types[str(g[0].metadata.get("type", "unknown"))][key] = g
    out["by_type"] = {t: _sample_metrics(gs, seed) for t, gs in sorted(types.items())}
    by_config = {}
    for config in CONFIG_NAMES:
        rs = [r for r in records if r.metadata.get("config") == config]
        if not rs:
            continue
        answered = [r for r in rs if not r.scores.get("empty")]
        entry = {
            k: mean_metric([float(r.scores[k]) for r in answered], seed=seed) for k in SCORE_KEYS
        }
        entry["n_empty"] = len(rs) - len(answered)
        by_config[config] = entry
    out["by_config"] = by_config

    full = [g for g in groups.values() if len(g) == 4 and not any(r.scores.get("empty") for r in g)]
    verdicts = [[float(r.scores["cem"]) for r in g] for g in full]
    out["agreement"] = {
        "agree": mean_metric([float(len(set(v)) == 1) for v in verdicts], seed=seed),
        "all4": mean_metric([float(all(v)) for v in verdicts], seed=seed),
        "any4": mean_metric([float(any(v)) for v in verdicts], seed=seed),
    }
    answered = [r for r in records if not r.scores.get("empty")]
    out["yes_no_leak"] = mean_metric([float(r.scores.get("yes_no_leak") or 0) for r in answered])
    if any(r.metadata.get("subtask") == "time_agnostic" for r in records):
        labels = []
        for g in groups.values():
            outs = [r.response or "" for r in g if not r.scores.get("empty")]
            labels.append(loi_label(outs, str(g[0].target), list(g[0].metadata.get("names", []))))
        out["loi"] = {
            lab: mean_metric([float(x == lab) for x in labels], seed=seed)
            for lab in ("latest", "outdated", "irrelevant")
        }
    if any(r.metadata.get("context_value") for r in records):
        shares: dict[str, list[float]] = {lab: [] for lab in CONTEXT_LABELS}
        for g in groups.values():
            labels = [x for x in (record_context_label(r) for r in g) if x is not None]
            if labels:
                for lab in CONTEXT_LABELS:
                    shares[lab].append(labels.count(lab) / len(labels))
        out["misaligned_context"] = {lab: mean_metric(v, seed=seed) for lab, v in shares.items()}
    golds = [vqa_normalize(str(g[0].target)) for g in groups.values()]
    if golds:
        top = max(set(golds), key=golds.count)
        out["gold_majority"] = {
            "value": golds.count(top) / len(golds),
            "ci95": None,
            "n": len(golds),
            "gold": top,
        }
    out["counts"] = {
        "samples": len(groups),
        "configurations": len(records),
        "empty": sum(1 for r in records if r.scores.get("empty")),
        "samples_all_empty": sum(
            1 for g in groups.values() if all(r.scores.get("empty") for r in g)
        ),
        "text_only": sum(1 for r in records if r.metadata.get("text_only")),
        "name_card": sum(1 for r in records if r.metadata.get("image_kind") == "name_card"),
    }
    return out
