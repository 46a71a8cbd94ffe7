"""Suite-independent answer-extraction steps (lm-evaluation-harness style).

A suite parser is a short pipeline of small, individually testable steps:

1. :func:`candidate_segments` cuts a raw response into :class:`Segment` objects in priority order:
   JSON answer values, ``\\boxed{}`` contents, the final-answer segment, other JSON string values,
   and finally the whole (markup-stripped) text.
2. A suite *extractor* (``segment -> value | NoAnswer | None``) finds every mention of an answer in
   one segment (as :class:`Mention` objects) and lets :func:`pick_last_mention` choose the last
   one (models restate the question first and conclude at the end).
3. :func:`extract_first` runs the extractor over the segments: the first segment that yields a
   value or a :class:`NoAnswer` decides. An explicit answer segment that holds a refusal decides
   too (``NoAnswer("refusal")``), so the parser never falls back to a guess from the reasoning.

``None`` always means "nothing here, try the next segment"; :class:`NoAnswer` means "the model did
answer here, but the answer is unusable" (out of range, ambiguous, refusal) and stops the search.
"""

from __future__ import annotations

import ast
import functools
import html
import json
import re
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from chronoeval.core.answers import NoAnswer

T = TypeVar("T")

__all__ = [
    "PREFERRED_JSON_KEYS",
    "JsonNumber",
    "Mention",
    "Segment",
    "boxed_contents",
    "candidate_segments",
    "drop_enumerations",
    "drop_overlaps",
    "extract_first",
    "final_answer_segment",
    "in_brackets",
    "is_approximate",
    "is_negated",
    "is_refusal",
    "marker_segment",
    "json_objects",
    "json_values",
    "normalize_unicode",
    "pick_last_mention",
    "strip_markup",
]

PREFERRED_JSON_KEYS: tuple[str, ...] = (
    "final_answer",
    "answer",
    "time",
    "weekday",
    "day_of_week",
    "day",
    "result",
    "prediction",
    "output",
)
"""JSON keys whose values are answers, most explicit first (keys are compared case-insensitively,
with spaces and dashes read as underscores)."""

# --------------------------------------------------------------------------------------------------
# Step: strip markup
# --------------------------------------------------------------------------------------------------

_CHAR_MAP = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\u2236": ":",
        "\u00a0": " ",
        "\u200b": "",
        "\u200c": "",
        "\u200d": "",
        "\ufeff": "",
    }
)

_HTML_TAG_RE = re.compile(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")
_HTML_BREAK_RE = re.compile(r"<br\s*/?>|</?(?:p|div|li|tr)\b[^<>]*>", re.IGNORECASE)
_FENCE_RE = re.compile(r"^[ \t]*(?:```|~~~)[^\n]*$", re.MULTILINE)
_LATEX_WRAPPER_RE = re.compile(
    r"\\(?:boxed|fbox|text|textbf|textit|textrm|texttt|mathrm|mathbf|mathit|mathtt|operatorname"
    r"|mbox|emph|underline)\s*\{"
)
_LATEX_SPACING_RE = re.compile(r"\\[,;!>]|\\quad\b|\\qquad\b|\\ ")
_LATEX_DELIM_RE = re.compile(r"\\[()\[\]]")
_DOLLAR_MATH_RE = re.compile(r"(\${1,2})(?=\S)(.+?)(?<=\S)\1", re.DOTALL)
_HEADER_RE = re.compile(r"^[ \t]*#{1,6}[ \t]*", re.MULTILINE)
_BLOCKQUOTE_RE = re.compile(r"^[ \t]*>+[ \t]?", re.MULTILINE)
_BULLET_RE = re.compile(r"^[ \t]*[-+*][ \t]+", re.MULTILINE)
_EMPHASIS_UNDERSCORE_RE = re.compile(r"(?<![\w\\])(_{1,3})(?=\S)(.+?)(?<=\S)\1(?!\w)")
_HSPACE_RE = re.compile(r"[ \t\f\v]+")


def _brace_pairs(text: str) -> dict[int, int]:
    """Map the index of every unescaped ``{`` to the index of its closing ``}`` (one pass)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for index, char in enumerate(text):
        if char not in "{}" or (index and text[index - 1] == "\\"):
            continue
        if char == "{":
            stack.append(index)
        elif stack:
            pairs[stack.pop()] = index
    return pairs


def _unwrap_latex(text: str) -> str:
    """Replace ``\\cmd{contents}`` by ``contents`` for the wrapper commands, braces balanced.

    An unbalanced wrapper loses just its command and opening brace.
    """
    matches = list(_LATEX_WRAPPER_RE.finditer(text))
    if not matches:
        return text
    pairs = _brace_pairs(text)
    cuts: list[tuple[int, int]] = []
    for match in matches:
        cuts.append((match.start(), match.end()))
        close = pairs.get(match.end() - 1)
        if close is not None:
            cuts.append((close, close + 1))
    pieces: list[str] = []
    position = 0
    for start, end in sorted(cuts):
        pieces.append(text[position:start])
        position = max(position, end)
    pieces.append(text[position:])
    return "".join(pieces)


def normalize_unicode(text: str) -> str:
    """NFKC-normalise and map curly quotes, primes, dashes, ratio colons and odd spaces to ASCII."""
    return unicodedata.normalize("NFKC", text).translate(_CHAR_MAP)


def strip_markup(text: str) -> str:
    """Remove presentation markup and keep the words.

    Handles: unicode (NFKC, curly quotes, dashes, no-break spaces), HTML entities and tags
    (``<answer>x</answer>`` -> ``x``), code fences and inline backticks, LaTeX wrappers
    (``\\boxed{}``, ``\\text{}``, ``\\mathrm{}``... keep their contents), math delimiters
    (``\\(..\\)``, ``\\[..\\]``, paired ``$..$``; a lone ``$10.50`` stays), LaTeX spacing
    (``10\\!:\\!10`` and ``10{:}10`` -> ``10:10``), markdown headers, blockquotes, bullets,
    ``**bold**``/``*italic*``/``__bold__``/``~~strike~~`` markers. Horizontal whitespace collapses
    to one space, each line is trimmed, blank lines are dropped.
    """
    if text.isascii() and not _MARKUP_CHARS.intersection(text):
        # Plain ASCII with no markup character: every step below but the line clean-up is the
        # identity (NFKC and the character map touch only non-ASCII; each pattern needs one of
        # _MARKUP_CHARS), so only that is done. Tested against the full path.
        return _clean_lines(text)
    return _strip_markup_steps(text)


def _strip_markup_steps(text: str) -> str:
    """Every step of :func:`strip_markup`, without its plain-text shortcut."""
    text = normalize_unicode(text)
    text = html.unescape(text).translate(_CHAR_MAP)
    text = _HTML_BREAK_RE.sub("\n", text)
    text = _HTML_TAG_RE.sub(" ", text)
    text = _FENCE_RE.sub("", text)
    text = text.replace("`", "")
    text = _unwrap_latex(text)
    text = text.replace("{:}", ":")
    text = _LATEX_SPACING_RE.sub("", text)
    text = _LATEX_DELIM_RE.sub("", text)
    text = _DOLLAR_MATH_RE.sub(r"\2", text)
    text = _HEADER_RE.sub("", text)
    text = _BLOCKQUOTE_RE.sub("", text)
    text = _BULLET_RE.sub("", text)
    text = text.replace("*", "").replace("~~", "")
    text = _EMPHASIS_UNDERSCORE_RE.sub(r"\2", text)
    return _clean_lines(text)


_MARKUP_CHARS = frozenset("<>&`\\{}$#*_~-+;")
"""ASCII characters that some step of :func:`strip_markup` before the line clean-up acts on."""


def _clean_lines(text: str) -> str:
    """Horizontal whitespace collapsed to one space, each line trimmed, blank lines dropped."""
    lines = (_HSPACE_RE.sub(" ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


# --------------------------------------------------------------------------------------------------
# Step: JSON answers
# --------------------------------------------------------------------------------------------------


_MAX_JSON_CHUNK = 50_000
_MAX_JSON_ATTEMPTS = 64
_MAX_JSON_DEPTH = 32


def _bracket_spans(text: str) -> dict[int, int]:
    """Map each ``{``/``[`` index to the end (exclusive) of its matching bracket, in one pass.

    Quote-aware inside brackets: ``"`` always opens a string, ``'`` only right after ``{ [ : ,``
    (Python-style dicts; apostrophes in prose stay apostrophes). Strings end at a newline, as JSON
    strings cannot hold one, so a stray quote cannot swallow the rest of the response.
    """
    spans: dict[int, int] = {}
    stack: list[tuple[int, str]] = []
    quote: str | None = None
    escaped = False
    previous = ""
    for index, char in enumerate(text):
        if quote is not None:
            if char == "\n":
                quote = None
            elif escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
            continue
        if stack and (char == '"' or (char == "'" and previous in "{[:,")):
            quote = char
        elif char in "{[":
            stack.append((index, char))
        elif char in "}]" and stack and stack[-1][1] == ("{" if char == "}" else "["):
            spans[stack.pop()[0]] = index + 1
        if not char.isspace():
            previous = char
    return spans


def json_objects(text: str) -> list[Any]:
    """Every top-level JSON object or array found in ``text``, in order.

    Finds fenced ```` ```json ```` blocks and bare ``{...}``/``[...]`` alike (a bracket that does
    not parse is skipped and the brackets inside it are tried). Numbers keep their source spelling
    as :class:`JsonNumber` strings (``{"time": 10.10}`` gives ``"10.10"``, not the float 10.1).
    Python-style dicts with single quotes are accepted through :func:`ast.literal_eval`. Work is
    bounded: chunks over 50,000 characters or nested deeper than 32, and attempts beyond the
    64th, are skipped.
    """
    source = normalize_unicode(text)
    found: list[Any] = []
    resume = 0
    attempts = 0
    for start, end in sorted(_bracket_spans(source).items()):
        if start < resume or end - start > _MAX_JSON_CHUNK:
            continue
        if attempts >= _MAX_JSON_ATTEMPTS:
            break
        attempts += 1
        value = _load_json_chunk(source[start:end])
        if value is None or (isinstance(value, list) and not value):
            continue
        found.append(value)
        resume = end
    return found


class JsonNumber(str):
    """A JSON number kept as its source text (``10.10`` stays ``"10.10"``)."""

    __slots__ = ()


def _nesting_depth(chunk: str) -> int:
    """Deepest bracket nesting of a chunk (quotes ignored: an upper bound is enough here)."""
    depth = deepest = 0
    for char in chunk:
        if char in "{[":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "}]":
            depth -= 1
    return deepest


def _load_json_chunk(chunk: str) -> Any:
    """Parse one bracketed chunk as JSON, then as a Python literal; None when neither works."""
    if _nesting_depth(chunk) > _MAX_JSON_DEPTH:
        return None
    try:
        return json.loads(chunk, parse_float=JsonNumber, parse_int=JsonNumber)
    except (ValueError, RecursionError):
        pass
    if chunk.startswith("{") and "'" in chunk:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = ast.literal_eval(chunk)
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            return None
        if isinstance(value, dict):
            return _stringify_numbers(value)
    return None


def _stringify_numbers(value: Any) -> Any:
    """Numbers -> strings recursively (so literal_eval output looks like our JSON output)."""
    if isinstance(value, dict):
        return {str(k): _stringify_numbers(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_stringify_numbers(v) for v in value]
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return JsonNumber(value)
    return value


@functools.lru_cache(maxsize=4096)
def _normalize_key(key: str) -> str:
    """``"Final Answer"`` / ``"final-answer"`` -> ``"final_answer"``."""
    return re.sub(r"[\s\-]+", "_", key.strip().lower())


def _walk_pairs(value: Any, key: str | None = None) -> Iterable[tuple[str | None, Any]]:
    """Yield ``(key, scalar)`` pairs depth-first, document order; list items inherit their key."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk_pairs(v, _normalize_key(str(k)))
    elif isinstance(value, list):
        for item in value:
            yield from _walk_pairs(item, key)
    else:
        yield key, value


def _ranked_json_values(text: str, keys: Sequence[str]) -> tuple[list[str], list[str]]:
    """``(answer values ranked by key, string values under other keys)`` of the JSON in text."""
    ranked: list[tuple[int, int, str]] = []
    other: list[str] = []
    order = 0
    rank_of = {_normalize_key(k): rank for rank, k in enumerate(keys)}
    for obj in json_objects(text):
        for key, value in _walk_pairs(obj):
            if value is None or isinstance(value, bool):
                continue
            value_text = str(value).strip()
            if not value_text:
                continue
            if key is None:
                ranked.append((len(keys), order, value_text))
            elif key in rank_of:
                ranked.append((rank_of[key], order, value_text))
            elif isinstance(value, str) and not isinstance(value, JsonNumber):
                other.append(value_text)
            order += 1
    return [value for _, _, value in sorted(ranked)], other


def json_values(
    text: str, keys: Sequence[str] = PREFERRED_JSON_KEYS, *, include_other: bool = True
) -> list[str]:
    """String and number values of the JSON found in ``text``, answer keys first.

    Values under ``keys`` come first, ordered by the key's rank in ``keys`` (then document order);
    with ``include_other`` the *string* values under any other key follow in document order
    (numbers under other keys, e.g. ``"confidence": 0.15``, are never answers and are skipped).
    Top-level arrays count as answers (``["Monday"]``). Booleans and nulls are skipped.
    """
    preferred, other = _ranked_json_values(text, keys)
    return preferred + other if include_other else preferred


# --------------------------------------------------------------------------------------------------
# Step: boxed answers and the final-answer segment
# --------------------------------------------------------------------------------------------------

_BOXED_RE = re.compile(r"\\(?:boxed|fbox)\s*\{")


def boxed_contents(text: str) -> list[str]:
    """Contents of every ``\\boxed{...}`` / ``\\fbox{...}`` in order (nested braces balanced)."""
    matches = list(_BOXED_RE.finditer(text))
    if not matches:
        return []
    pairs = _brace_pairs(text)
    contents: list[str] = []
    for match in matches:
        close = pairs.get(match.end() - 1)
        if close is not None:
            contents.append(text[match.end() : close])
    return contents


_STRONG_MARKERS = re.compile(
    r"""
      \bfinal\s+answer\b(?:\s*(?:is|would\s+be|will\s+be))?\s*[:=\-]?
    | \b(?:the\s+)?(?:correct\s+|right\s+)?answer\s+(?:is|would\s+be|will\s+be)\b\s*:?
    | \banswer\s*[:=]
    | ^[ \t]*(?:final\s+)?answer[ \t]*$
    """,
    re.IGNORECASE | re.MULTILINE | re.VERBOSE,
)
_WEAK_MARKERS = re.compile(
    r"\b(?:therefore|thus|hence|in\s+conclusion|in\s+summary|to\s+summari[sz]e)\b\s*,?",
    re.IGNORECASE,
)


_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_CORRECTION_START_RE = re.compile(
    r"(?:^\s*|[.!?]\s+|\n\s*)(?:wait|actually|correction|on\s+second\s+thought|hold\s+on"
    r"|I\s+made\s+a\s+mistake|let\s+me\s+re-?(?:check|examine|consider|verify))\b",
    re.IGNORECASE,
)


def final_answer_segment(text: str) -> str | None:
    """The answer the model announced last, or None when it announced none.

    ``\\boxed{}`` is the most explicit marker: when present, the last boxed contents are returned
    (markup stripped). Otherwise the text is markup-stripped and the last *strong* marker is
    located ("final answer:", "answer:", "the answer is", a line reading just "Answer" such as a
    ``**Answer**`` heading); without one, the last *weak* marker ("Therefore,", "Thus", "Hence",
    "In conclusion"). The segment is the first sentence of the first non-empty line after the
    marker (a sentence ends at ``.``/``!``/``?`` followed by a space and a capital letter, so
    "Approx. 3:45" and "10.10" stay whole): the explanation that follows is not part of the
    answer. Returns None if there is no marker or nothing after it, or when a sentence after the
    answer starts a self-correction ("Wait, …", "Actually, …", "Let me re-check …"): the model
    took its answer back, so the last mention of the whole text decides.
    """
    boxed = boxed_contents(normalize_unicode(text))
    if boxed:
        segment = strip_markup(boxed[-1])
        return segment or None
    stripped = strip_markup(text)
    for markers in (_STRONG_MARKERS, _WEAK_MARKERS):
        matches = list(markers.finditer(stripped))
        if matches:
            last = max(matches, key=lambda m: (m.start(), m.end()))
            rest = stripped[last.end() :].lstrip(" \t\n:=-,")
            line = rest.split("\n", 1)[0]
            line = _SENTENCE_END_RE.split(line, maxsplit=1)[0].strip()
            if _CORRECTION_START_RE.search(rest[len(line) :]):
                return (
                    None  # corrected afterwards ("Answer: 3:10. Wait, ..."): last mention decides
                )
            return line or None
    return None


# --------------------------------------------------------------------------------------------------
# Step: refusals
# --------------------------------------------------------------------------------------------------

_REFUSAL_RE = re.compile(
    r"""
      \b(?:can\s*not|can't|cant|could\s*not|couldn't|won't|unable\s+to|not\s+able\s+to)\s+
        (?:\w+\s+)?(?:determine|tell|read|see|identify|make\s+out|discern|figure\s+out|
           provide|answer|say|know|decide|infer|assess|view|access|process|interpret|
           be\s+(?:determined|read|identified|seen|told))\b
    | \bunable\s+to\b
    | \b(?:not|isn't|is\s+not)\s+(?:possible|feasible)\s+to\b
    | \bimpossible\s+to\b
    | \bsorry\b
    | \bapolog(?:ise|ize|ies)\b
    | \bI\s+(?:do\s+not|don't)\s+know\b
    | \bno\s+idea\b | \bno\s+way\s+to\b
    | \bnot\s+(?:visible|legible|readable|clear\s+enough|enough\s+information)\b
    | \b(?:too\s+(?:blurry|small|low|unclear)|illegible|unreadable|indeterminate|undeterminable)\b
    | \binsufficient\s+(?:information|detail|resolution)\b
    | \bas\s+an\s+ai\b
    | ^\s*(?:n/?a|none|unknown|unclear|null|-+|\?+)\s*[.!]?\s*$
    """,
    re.IGNORECASE | re.VERBOSE,
)


def is_refusal(text: str) -> bool:
    """True for empty/whitespace text or text containing refusal language.

    Refusal language: "can't/cannot/unable to/not able to determine|tell|read|see|...",
    "not possible to", "impossible to", "sorry", "apologize", "I don't know", "not visible/legible",
    "too blurry", "illegible", "insufficient information", "as an AI", or a bare "N/A"/"unknown"/
    "none". Parsers consult it only when no answer was extracted (to name the NoAnswer reason) or
    when an explicit answer segment (JSON answer, boxed, final answer) holds no answer.
    """
    if not text or not text.strip():
        return True
    return _REFUSAL_RE.search(strip_markup(text)) is not None


# --------------------------------------------------------------------------------------------------
# Step: candidate segments
# --------------------------------------------------------------------------------------------------


class Segment(NamedTuple):
    """A piece of a response to search for an answer; ``explicit`` marks a declared answer."""

    text: str
    source: str
    """One of ``json``, ``boxed``, ``final_answer``, ``json_other``, ``full_text``."""
    explicit: bool


def candidate_segments(text: str) -> list[Segment]:
    """Segments of ``text`` in priority order, each markup-stripped, empty ones dropped.

    1. JSON values under answer keys (:data:`PREFERRED_JSON_KEYS`) and top-level arrays;
    2. ``\\boxed{}`` contents, last first;
    3. the :func:`final_answer_segment` (boxed already covered, so only the marker segment);
    4. string values under other JSON keys;
    5. the whole text.

    Segments 1-3 are ``explicit``: a refusal there is a refusal of the whole response.
    """
    preferred, other = _ranked_json_values(text, PREFERRED_JSON_KEYS)
    boxed = boxed_contents(normalize_unicode(text))
    segments = [Segment(strip_markup(value), "json", True) for value in preferred]
    segments += [Segment(strip_markup(content), "boxed", True) for content in reversed(boxed)]
    final = None if boxed else final_answer_segment(text)
    if final is not None:
        segments.append(Segment(final, "final_answer", True))
    segments += [Segment(strip_markup(value), "json_other", False) for value in other]
    segments.append(Segment(strip_markup(text), "full_text", False))
    return [segment for segment in segments if segment.text]


# --------------------------------------------------------------------------------------------------
# Step: choosing among mentions inside one segment
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mention(Generic[T]):
    """One answer-shaped span of a segment: ``text[start:end]`` read as ``value``.

    ``value`` is a :class:`NoAnswer` when the span has an answer's shape but an invalid value
    (e.g. ``13:75:00``).
    """

    start: int
    end: int
    value: T | NoAnswer


def drop_overlaps(mentions: Iterable[Mention[T]]) -> list[Mention[T]]:
    """Keep non-overlapping mentions: earliest start first, the longest span wins a tie."""
    kept: list[Mention[T]] = []
    for mention in sorted(mentions, key=lambda m: (m.start, -(m.end - m.start))):
        if kept and mention.start < kept[-1].end:
            continue
        kept.append(mention)
    return kept


_NEGATION_RE = re.compile(
    r"(?:\bnot|\bnever|n't|\brather\s+than|\binstead\s+of|\bexcept)"
    r"(?:\s+(?:on|at|a|an|the|be|been|exactly|actually|really|quite))*\s*$",
    re.IGNORECASE,
)


def is_negated(text: str, start: int) -> bool:
    """True when the words just before ``start`` negate the mention ("not 2:50", "isn't Monday",
    "rather than Tuesday", "not on a Friday")."""
    return _NEGATION_RE.search(text[max(0, start - 40) : start]) is not None


_APPROXIMATE_RE = re.compile(
    r"\b(?:almost|nearly|near|towards?|approaching|close\s+to|about\s+to\s+(?:be|strike|reach)"
    r"|(?:slightly|just|a\s+(?:little|bit)|shortly)\s+(?:before|after|past|under|over)"
    r"|not\s+quite|roughly|around|about|approximately|approx\.?|circa|~)\s*(?:at\s+|the\s+)?$",
    re.IGNORECASE,
)


def is_approximate(text: str, start: int) -> bool:
    """True when the words just before ``start`` mark the mention as an approximation ("almost 3
    o'clock", "slightly before 12", "around 1950"): a stated reading beats such a remark."""
    return _APPROXIMATE_RE.search(text[max(0, start - 40) : start]) is not None


def marker_segment(
    text: str, marker: re.Pattern[str], correction: re.Pattern[str] | None = None
) -> str | None:
    """The first sentence after the LAST match of ``marker`` in the markup-stripped ``text``.

    A suite's own answer statement ("The time shown on the clock is 2:59:14."): its sentence is
    the answer even if later reasoning mentions other values. When ``correction`` matches anywhere
    after that sentence (the model corrected itself: "Wait, actually ..."), returns None so that
    the last mention of the whole text decides. None when there is no marker or nothing after it.
    """
    stripped = strip_markup(text)
    matches = list(marker.finditer(stripped))
    if not matches:
        return None
    rest = stripped[matches[-1].end() :].lstrip(" \t\n:=-,")
    line = rest.split("\n", 1)[0]
    sentence = _SENTENCE_END_RE.split(line, maxsplit=1)[0].strip()
    if correction is not None and correction.search(rest[len(sentence) :]):
        return None
    return sentence or None


def in_brackets(text: str, start: int) -> bool:
    """True when ``start`` lies inside an unclosed ``(`` or ``[`` on the same text."""
    depth = 0
    for char in text[:start]:
        if char in "([":
            depth += 1
        elif char in ")]" and depth:
            depth -= 1
    return depth > 0


def _bracketed_starts(text: str, starts: Sequence[int]) -> set[int]:
    """The subset of ``starts`` (sorted) that :func:`in_brackets` would accept, in one pass."""
    inside: set[int] = set()
    depth = 0
    position = 0
    for start in starts:
        for char in text[position:start]:
            if char in "([":
                depth += 1
            elif char in ")]" and depth:
                depth -= 1
        position = max(position, start)
        if depth:
            inside.add(start)
    return inside


_ENUM_SEPARATOR_RE = re.compile(r"^[\s,;|/&\-]*(?:(?:and|or|to|through|thru)\b[\s,;|/&\-]*)?$")


def drop_enumerations(
    text: str, mentions: Sequence[Mention[T]], min_run: int = 3
) -> list[Mention[T]]:
    """Drop runs of ``min_run`` or more mentions separated only by punctuation/"and"/"or".

    Such runs are listings (a calendar header "Mon Tue Wed Thu Fri Sat Sun", "Monday, Tuesday and
    Wednesday"), not answers. Mentions must be sorted and non-overlapping.
    """
    kept: list[Mention[T]] = []
    run: list[Mention[T]] = []
    for mention in mentions:
        if run and _ENUM_SEPARATOR_RE.match(text[run[-1].end : mention.start]):
            run.append(mention)
            continue
        if len(run) < min_run:
            kept.extend(run)
        run = [mention]
    if len(run) < min_run:
        kept.extend(run)
    return kept


_ALTERNATIVE_RE = re.compile(r"^\s*,?\s*(?:or|/|or\s+(?:maybe|possibly|perhaps|rather))\s*$", re.I)
_BETWEEN_RE = re.compile(r"\bbetween\s*$", re.IGNORECASE)
_AND_RE = re.compile(r"^\s*(?:and|&|-)\s*$", re.IGNORECASE)


def pick_last_mention(text: str, mentions: Iterable[Mention[T]]) -> T | NoAnswer | None:
    """Choose the answer among the mentions of one segment; None when there are none.

    Steps: drop overlaps; drop negated mentions (:func:`is_negated`); prefer mentions outside
    brackets (``Wednesday (Jan 1 is a Monday)``) when there are any, then mentions that are not
    approximations (:func:`is_approximate`: "it reads 2:59:14, almost 3 o'clock" -> 2:59:14);
    take the last one. If the
    mention just before it offers an alternative with a different value ("10:10 or 2:50",
    "Monday/Tuesday", "between 10:10 and 10:15") the model hedged: ``NoAnswer("ambiguous: ...")``.
    """
    kept = [m for m in drop_overlaps(mentions) if not is_negated(text, m.start)]
    if not kept:
        return None
    bracketed = _bracketed_starts(text, [m.start for m in kept])
    outside = [m for m in kept if m.start not in bracketed]
    pool = outside or kept
    pool = [m for m in pool if not is_approximate(text, m.start)] or pool
    last = pool[-1]
    if len(pool) >= 2:
        previous = pool[-2]
        between = text[previous.end : last.start]
        hedged = _ALTERNATIVE_RE.match(between) or (
            _AND_RE.match(between) and _BETWEEN_RE.search(text[: previous.start])
        )
        if hedged and previous.value != last.value:
            return NoAnswer(
                f"ambiguous: {text[previous.start : previous.end]!r} or "
                f"{text[last.start : last.end]!r}"
            )
    return last.value


# --------------------------------------------------------------------------------------------------
# Pipeline
# --------------------------------------------------------------------------------------------------


def extract_first(
    segments: Iterable[Segment], extractor: Callable[[str], T | NoAnswer | None]
) -> T | NoAnswer | None:
    """Run ``extractor`` over ``segments``; the first that yields a value or NoAnswer wins.

    An explicit segment (JSON answer, boxed, final answer) that yields nothing but reads as a
    refusal ends the search with ``NoAnswer("refusal")``: the model declared it has no answer, so
    earlier reasoning must not be mined for one. Returns None when no segment yields anything.
    """
    for segment in segments:
        result = extractor(segment.text)
        if result is not None:
            return result
        if segment.explicit and is_refusal(segment.text):
            return NoAnswer(f"refusal ({segment.source})")
    return None
