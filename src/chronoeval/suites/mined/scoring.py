"""MINED's scorers, bit for bit with the released ones.

Sources:

- **CEM** (paper Eq. 1, "Cover Exact Match", Xu et al. 2023): the released ``eval_code/cem_f1.py``
  calls ``VQAEval().evaluate(pred, [gold])`` from a ``tools.py`` (the LVLM-eHub/MMKE-Bench
  ``VQAEval``): both strings get VQAv2 punctuation processing and digit/article normalisation, then
  the whole gold phrase must occur in the prediction at word boundaries (``has_word``).
  :func:`cem_vqa` re-implements it, including its quirks (see docs/suites/mined.md).
- **CEM, SQuAD-substring variant** (:func:`cem_squad`): the fallback in the same released file,
  used when ``tools.py`` cannot be imported (it is not in the release): SQuAD normalisation, then
  plain substring containment.
- **F1** (paper App. C.1, Eqs. 2-4): the released ``compute_f1_score``, SQuAD token F1.
- **Item score**: the released ``evaluate_entry``: the mean over the configurations whose
  prediction is a non-empty string (after ``strip``), × 100; 0 when all are empty.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence

CONTRACTIONS = {
    "aint": "ain't", "arent": "aren't", "cant": "can't", "couldve": "could've",
    "couldnt": "couldn't", "couldn'tve": "couldn't've", "couldnt've": "couldn't've",
    "didnt": "didn't", "doesnt": "doesn't", "dont": "don't", "hadnt": "hadn't",
    "hadnt've": "hadn't've", "hadn'tve": "hadn't've", "hasnt": "hasn't", "havent": "haven't",
    "hed": "he'd", "hed've": "he'd've", "he'dve": "he'd've", "hes": "he's", "howd": "how'd",
    "howll": "how'll", "hows": "how's", "Id've": "I'd've", "I'dve": "I'd've", "Im": "I'm",
    "Ive": "I've", "isnt": "isn't", "itd": "it'd", "itd've": "it'd've", "it'dve": "it'd've",
    "itll": "it'll", "let's": "let's", "maam": "ma'am", "mightnt": "mightn't",
    "mightnt've": "mightn't've", "mightn'tve": "mightn't've", "mightve": "might've",
    "mustnt": "mustn't", "mustve": "must've", "neednt": "needn't", "notve": "not've",
    "oclock": "o'clock", "oughtnt": "oughtn't", "ow's'at": "'ow's'at", "'ows'at": "'ow's'at",
    "'ow'sat": "'ow's'at", "shant": "shan't", "shed've": "she'd've", "she'dve": "she'd've",
    "she's": "she's", "shouldve": "should've", "shouldnt": "shouldn't",
    "shouldnt've": "shouldn't've", "shouldn'tve": "shouldn't've", "somebody'd": "somebodyd",
    "somebodyd've": "somebody'd've", "somebody'dve": "somebody'd've",
    "somebodyll": "somebody'll", "somebodys": "somebody's", "someoned": "someone'd",
    "someoned've": "someone'd've", "someone'dve": "someone'd've", "someonell": "someone'll",
    "someones": "someone's", "somethingd": "something'd", "somethingd've": "something'd've",
    "something'dve": "something'd've", "somethingll": "something'll", "thats": "that's",
    "thered": "there'd", "thered've": "there'd've", "there'dve": "there'd've",
    "therere": "there're", "theres": "there's", "theyd": "they'd", "theyd've": "they'd've",
    "they'dve": "they'd've", "theyll": "they'll", "theyre": "they're", "theyve": "they've",
    "twas": "'twas", "wasnt": "wasn't", "wed've": "we'd've", "we'dve": "we'd've",
    "weve": "we've", "werent": "weren't", "whatll": "what'll", "whatre": "what're",
    "whats": "what's", "whatve": "what've", "whens": "when's", "whered": "where'd",
    "wheres": "where's", "whereve": "where've", "whod": "who'd", "whod've": "who'd've",
    "who'dve": "who'd've", "wholl": "who'll", "whos": "who's", "whove": "who've",
    "whyll": "why'll", "whyre": "why're", "whys": "why's", "wont": "won't",
    "wouldve": "would've", "wouldnt": "wouldn't", "wouldnt've": "wouldn't've",
    "wouldn'tve": "wouldn't've", "yall": "y'all", "yall'll": "y'all'll", "y'allll": "y'all'll",
    "yall'd've": "y'all'd've", "y'alld've": "y'all'd've", "y'all'dve": "y'all'd've",
    "youd": "you'd", "youd've": "you'd've", "you'dve": "you'd've", "youll": "you'll",
    "youre": "you're", "youve": "you've",
}  # fmt: skip
MANUAL_MAP = {
    "none": "0", "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
    "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
}  # fmt: skip
ARTICLES = ("a", "an", "the")
PUNCT = (";", "/", "[", "]", '"', "{", "}", "(", ")", "=", "+", "\\", "_", "-", ">", "<", "@",
         "`", ",", "?", "!")  # fmt: skip
# Verbatim from VQAEval: "(?!<=\d)" is a (mistyped) lookahead that never matches "<=digit", so
# every period not followed by a digit is stripped.
PERIOD_STRIP = re.compile(r"(?!<=\d)(\.)(?!\d)")
COMMA_STRIP = re.compile(r"(\d)(\,)(\d)")


def process_punctuation(text: str) -> str:
    """VQAEval.processPunctuation: a listed mark next to a space (or anywhere, when the text has a
    digit,digit group) is deleted, otherwise replaced by a space; then periods not followed by a
    digit are deleted — at most 32 of them, because the release passes ``re.UNICODE`` (= 32) as
    ``re.sub``'s positional ``count``."""
    out = text
    has_digit_comma = COMMA_STRIP.search(text) is not None
    for p in PUNCT:
        if (p + " " in text or " " + p in text) or has_digit_comma:
            out = out.replace(p, "")
        else:
            out = out.replace(p, " ")
    return PERIOD_STRIP.sub("", out, count=int(re.UNICODE))


def process_digit_article(text: str) -> str:
    """VQAEval.processDigitArticle: lower-case, words "none"/"zero".."ten" to digits, articles
    dropped, contractions restored, single spaces."""
    words = []
    for word in text.lower().split():
        word = MANUAL_MAP.get(word, word)
        if word not in ARTICLES:
            words.append(word)
    return " ".join(CONTRACTIONS.get(w, w) for w in words)


def vqa_normalize(text: str) -> str:
    text = text.replace("\n", " ").replace("\t", " ").strip()
    return process_digit_article(process_punctuation(text))


def has_word(sentence: str, word: str) -> bool:
    """VQAEval's ``has_word``: ``re.search(r"\\b" + re.escape(word) + r"\\b", sentence)``."""
    return re.search(r"\b" + re.escape(word) + r"\b", sentence) is not None


def cem_vqa(prediction: str, gold: str) -> float:
    """CEM as released: ``float(VQAEval().evaluate(str(pred or ""), [str(gold or "")]))``."""
    return (
        1.0
        if has_word(vqa_normalize(str(prediction or "")), vqa_normalize(str(gold or "")))
        else 0.0
    )


def squad_normalize(text: str) -> str:
    """The released ``normalize_answer`` (SQuAD v1.1): lower, drop punctuation, drop articles,
    single spaces."""
    text = (text or "").lower()
    exclude = set(string.punctuation)
    text = "".join(ch for ch in text if ch not in exclude)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def cem_squad(prediction: str, gold: str) -> float:
    """The released fallback ``compute_cem_score``: normalised gold is a substring of the
    normalised prediction (no word boundaries); 0 when either is empty."""
    if not gold or not prediction:
        return 0.0
    return 1.0 if squad_normalize(gold) in squad_normalize(prediction) else 0.0


def squad_tokens(text: str) -> list[str]:
    return squad_normalize(text).split() if text else []


def f1(prediction: str, gold: str) -> float:
    """The released ``compute_f1_score`` (SQuAD token F1 over multisets of normalised tokens)."""
    gold_tokens = squad_tokens(gold)
    pred_tokens = squad_tokens(prediction)
    if not gold_tokens or not pred_tokens:
        return float(gold_tokens == pred_tokens)
    common = Counter(gold_tokens) & Counter(pred_tokens)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision = same / len(pred_tokens)
    recall = same / len(gold_tokens)
    return (2 * precision * recall) / (precision + recall)


CEM_VARIANTS = {"vqa": cem_vqa, "squad": cem_squad}


def is_empty(prediction: object) -> bool:
    """The release scores a configuration only when its prediction is a non-empty string."""
    return not (isinstance(prediction, str) and prediction.strip() != "")


def item_score(values: Sequence[float | None]) -> float:
    """Released ``evaluate_entry`` + ``process_one_file``: mean over non-empty configurations
    (``None`` = empty) × 100; 0.0 when every configuration is empty."""
    present = [v for v in values if v is not None]
    return (sum(present) / len(present)) * 100.0 if present else 0.0


def yes_no_leak(prediction: str) -> bool:
    """An output that contains both "yes" and "no" as words (it hedges; CEM with gold "Yes" would
    still count it correct)."""
    words = set(squad_normalize(prediction).split())
    return "yes" in words and "no" in words
