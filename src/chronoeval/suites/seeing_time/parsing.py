"""Answer extraction for the Seeing Time tasks (small named steps over core.parsing segments)."""

from __future__ import annotations

import json
import re

from chronoeval.core.answers import NoAnswer
from chronoeval.core.parsing import candidate_segments, extract_first, json_values, strip_markup

_LETTER = re.compile(r"^\W*\(?([A-Z])\s*(?:[.):\]]|$)")


def option_aliases(option: str) -> list[str]:
    """Ways a model may name an option: the text, and for ``唐(Tang Dynasty)`` also 唐, Tang."""
    out = [option]
    m = re.match(r"^(.*?)\((.*?)\)$", option)
    if m:
        out += [m[1].strip(), m[2].strip(), m[2].replace("Dynasty", "").strip()]
    return [a for a in dict.fromkeys(out) if a]


def parse_choice(text: str, options: list[str]) -> int | NoAnswer:
    """The chosen option's index: a leading letter (``B. 宋(...)``), else one named option.

    A letter whose option text disagrees with a named option, or two different named options,
    is ambiguous (NoAnswer). Source: ours; the released script compares the reply with the gold
    letter/dynasty (prompts.json, artifacts_localization).
    """
    letters = [chr(ord("A") + i) for i in range(len(options))]

    def named(seg: str) -> set[int]:
        found = set()
        for i, opt in enumerate(options):
            for alias in option_aliases(opt):
                pat = re.escape(alias)
                if alias.isascii():
                    pat = rf"\b{pat}\b"
                if re.search(pat, seg, flags=re.IGNORECASE if alias.isascii() else 0):
                    found.add(i)
                    break
        return found

    def extract(seg: str) -> int | NoAnswer | None:
        m = _LETTER.match(seg)
        names = named(seg)
        if m and m[1] in letters:
            idx = letters.index(m[1])
            if names and idx not in names:
                return NoAnswer(f"letter {m[1]} disagrees with the option named")
            return idx
        if len(names) == 1:
            return names.pop()
        if len(names) > 1:
            return NoAnswer("several options named")
        return None

    result = extract_first(candidate_segments(text), extract)
    return NoAnswer("no option found") if result is None else result


def parse_order(text: str, n: int) -> tuple[int, ...] | NoAnswer:
    """A permutation of the ``n`` image indices, oldest first.

    Read from the JSON ``ans`` value when there is one, else the whole text. 0-based
    (``0..n-1``) and 1-based (``1..n``) permutations are both unambiguous and both accepted (the
    release's prompt asks 0-based, its JSON example is 1-based); anything else is NoAnswer.
    """
    values = json_values(text, ("ans", "answer", "order"), include_other=False)
    # a JSON list value (``{"ans": [2, 0, 1]}``) arrives item by item: read them together too
    sources = [values[0], ", ".join(values)] if values else [text]
    nums: list[int] = []
    for source in sources:
        nums = [int(x) for x in _INTEGER.findall(strip_markup(source))]
        if sorted(nums) == list(range(n)):
            return tuple(nums)
        if sorted(nums) == list(range(1, n + 1)):
            return tuple(x - 1 for x in nums)
    return NoAnswer(f"not a permutation of {n} indices: {nums[:8]}")


_INTEGER = re.compile(r"(?<!\d)(?<!\d\.)\d+(?!\d|\.\d)")
"""A whole number, not part of a decimal ("2." ending a sentence is the number 2; "0.5" is not)."""

_ANSWER_RE = re.compile(r'"answer"\s*:\s*"?(\d)')
_RELEASED_ANSWER_RE = re.compile(r'"answer":\s*"(\d)"')


def released_shortcut_prediction(text: str) -> str:
    r"""The prediction string of the released ``shortcut_test.py`` (``query_vllm``), step for step.

    ``json.loads`` of the stripped reply; if that succeeds, ``str(parsed.get("answer", ""))``
    stripped, then ``"1"`` if it contains 1, elif ``"2"`` if it contains 2, else the answer string
    itself. A reply that parses to a non-object (a bare ``1``, a list) raises inside the release's
    ``try`` and becomes ``"Exception: ..."``. On a JSON error: the regex ``"answer":\s*"(\d)"``,
    else the raw reply. The release scores ``prediction == str(gold)``.
    """
    raw = (text or "").strip()
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError:
        match = _RELEASED_ANSWER_RE.search(raw)
        return match.group(1) if match else raw
    except Exception as exc:  # the release's outer ``except Exception``
        return f"Exception: {exc}"
    if not isinstance(parsed, dict):
        return f"Exception: {type(parsed).__name__!r} object has no attribute 'get'"
    final = str(parsed.get("answer", "")).strip()
    if "1" in final:
        return "1"
    if "2" in final:
        return "2"
    return final


def released_shortcut_cot_prediction(text: str) -> str:
    """The prediction string of the released ``shortcut_with_CoT.py`` (``query_vllm``).

    ``json.loads`` of the stripped reply, ``str(parsed.get("answer", "")).strip()``, then its first
    ``1`` or ``2`` character (``re.search(r'[12]')``), else the answer string; a JSON error is
    ``"Parse Fail"`` (no regex fallback, unlike the plain script); a non-object reply raises into
    the outer handler, ``"Exception"``. Scored ``prediction == str(gold)``.
    """
    raw = (text or "").strip()
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError:
        return "Parse Fail"
    except Exception:
        return "Exception"
    if not isinstance(parsed, dict):
        return "Exception"
    answer = str(parsed.get("answer", "")).strip()
    match = re.search(r"[12]", answer)
    return match.group(0) if match else answer


def parse_earlier_cot(text: str) -> int | NoAnswer:
    """Headline of the CoT variant: the released CoT script's rule exactly
    (:func:`released_shortcut_cot_prediction`)."""
    prediction = released_shortcut_cot_prediction(text)
    if prediction in ("1", "2"):
        return int(prediction)
    return NoAnswer(f"released rule: prediction {prediction[:40]!r} is not 1 or 2")


def parse_earlier(text: str) -> int | NoAnswer:
    """Headline: the released rule exactly (:func:`released_shortcut_prediction`); 1 or 2 when
    the release's prediction is ``"1"``/``"2"``, else NoAnswer with the release's prediction."""
    prediction = released_shortcut_prediction(text)
    if prediction in ("1", "2"):
        return int(prediction)
    return NoAnswer(f"released rule: prediction {prediction[:40]!r} is not 1 or 2")


def parse_earlier_lenient(text: str) -> int | NoAnswer:
    """Ours, lenient (never the headline): 1 or 2 from the JSON ``answer`` value (any key case,
    fenced or Python-style JSON, integer values), else the regex ``"answer": "d"``, else a reply
    that is just the digit or "Image N". An answer holding both 1 and 2 is ambiguous."""
    values = json_values(text, ("answer",), include_other=False)
    if values:
        v = values[0]
        has1, has2 = "1" in v, "2" in v
        if has1 and has2:
            return NoAnswer("answer names both images")
        if has1 or has2:
            return 1 if has1 else 2
        return NoAnswer(f"answer {v!r} is neither 1 nor 2")
    m = _ANSWER_RE.search(text)
    if m and m[1] in "12":
        return int(m[1])
    m = re.fullmatch(r"\W*(?:image\s*)?([12])\W*", strip_markup(text), flags=re.IGNORECASE)
    if m:
        return int(m[1])
    return NoAnswer("no answer 1 or 2")


def parse_year(text: str, lo: int, hi: int) -> int | NoAnswer:
    r"""The released rule: the first 4-digit number in the reply that lies in ``[lo, hi]``.

    Source: released ``get_acc_news.py`` ``extract_year_from_model_answer``: ``re.findall(r'(\d{4})')``
    over the raw reply (non-overlapping 4-digit chunks, no word boundaries, so "19521953" gives
    1952 and "12345" gives 1234), the first chunk in range wins (docs: decision Y1). Python's
    ``\d`` also matches full-width digits, as in the release.
    """
    if not isinstance(text, str):
        return NoAnswer("reply is not text")
    for chunk in re.findall(r"(\d{4})", text):  # the release's regex, on the raw reply
        y = int(chunk)
        if lo <= y <= hi:
            return y
    return NoAnswer(f"no 4-digit year in [{lo}, {hi}]")


_CONFIDENCE_RE = re.compile(
    r"confidence\W{0,4}(\d{1,3}(?:\.\d+)?|\.\d+)(?!\d|\.\d)\s*(%|percent)?", re.IGNORECASE
)


def parse_confidence(text: str) -> int | None:
    """The 0–100 confidence: JSON ``confidence``, else ``confidence: 85``; None when absent.

    A value with a fractional part in [0, 1] without a percent sign is a fraction ("Confidence:
    0.85." -> 85); ``85%``, ``85`` and ``85.0`` are percentages. Out of range -> None.
    """
    values = json_values(text, ("confidence",), include_other=False)
    raw = values[0].strip().rstrip("%").strip() if values else None
    percent = bool(values) and values[0].strip().endswith("%")
    if raw is None:
        m = _CONFIDENCE_RE.search(strip_markup(text or ""))
        raw, percent = (m[1], bool(m[2])) if m else (None, False)
    try:
        value = float(raw) if raw is not None else None
    except ValueError:
        return None
    if value is None:
        return None
    if "." in str(raw) and value <= 1.0 and not percent:
        value *= 100
    c = round(value)
    return c if 0 <= c <= 100 else None


def parse_image_strict(text: str, n: int = 4) -> int | NoAnswer:
    """Ours (headline): exactly one distinct image number 1..n in the answer segment.

    ``"3"``, ``"Image 3"``, ``{"answer": 3}`` -> 3; ``"1 or 2"`` -> NoAnswer (ambiguous).
    """

    def extract(seg: str) -> int | NoAnswer | None:
        found = {int(d) for d in re.findall(rf"(?<!\d)(?<!\d[.,])[1-{n}](?!\d|[.,]\d)", seg)}
        if len(found) == 1:
            return found.pop()
        if len(found) > 1:
            return NoAnswer(f"several images named: {sorted(found)}")
        return None

    result = extract_first(candidate_segments(text), extract)
    return NoAnswer("no image number") if result is None else result


def released_substring_correct(text: str, correct: int) -> bool:
    """The released News-Multimodal scorer: ``str(correct_answer) in reply`` (lenient)."""
    return str(correct) in (text or "")
