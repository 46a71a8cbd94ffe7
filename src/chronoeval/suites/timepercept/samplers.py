"""Sample the nine tasks (and the recognition control) from a collection.

Each sampler turns (collection, item index, rng) into a :class:`Spec`: the images to show, in the
order shown, the gold, and the facts the gold follows from (shown images' timestamps and
locations) — stored in the item's metadata so :func:`gold_from_facts` can re-derive the gold
independently of the sampler (``chronoeval verify``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations
from typing import Any

from chronoeval.core.errors import DataError
from chronoeval.suites.timepercept.classes import distractors
from chronoeval.suites.timepercept.collection import Collection, Observation

ICE_CATEGORIES = ("A", "B", "C", "D", "E")
ICE_LABELS = (
    "Days (1-30 days)",
    "1-3 Months (31-90 days)",
    "3-12 Months (91-365 days)",
    "1-2 Years (366-730 days)",
    "2+ Years (731 days or more)",
)
MAX_TRIES = 200


def span_days(a: Observation, b: Observation) -> int:
    """|Δt| in whole calendar days between the UTC dates of two images."""
    return abs((b.day - a.day).days)


def ice_category(days: int) -> str:
    """The paper's interval categories: A 1–30, B 31–90, C 91–365, D 366–730, E ≥ 731 days."""
    if days < 1:
        raise ValueError("interval categories start at 1 day")
    for letter, upper in zip(ICE_CATEGORIES, (30, 90, 365, 730), strict=False):
        if days <= upper:
            return letter
    return "E"


def span_bucket(days: int) -> str:
    """The time scale an item spans (its ICE category's label), for breakdowns."""
    return "same day" if days < 1 else ICE_LABELS[ICE_CATEGORIES.index(ice_category(days))]


@dataclass
class Spec:
    images: list[Observation]
    target: Any
    facts: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    options: list[str] = field(default_factory=list)  # option texts for choice questions
    groups: list[int] = field(default_factory=list)  # images per group (pair tasks)


def _facts(images: list[Observation]) -> dict[str, Any]:
    return {
        "times": [o.timestamp.isoformat() for o in images],
        "locations": [o.location for o in images],
    }


def _sorted_sample(rng: random.Random, obs: list[Observation], k: int) -> list[Observation] | None:
    """k images of one location with k distinct days, chronological."""
    by_day: dict[Any, Observation] = {}
    for o in obs:
        by_day.setdefault(o.day, o)
    if len(by_day) < k:
        return None
    days = sorted(rng.sample(sorted(by_day), k))
    return [by_day[d] for d in days]


def _locations(coll: Collection, k: int) -> list[str]:
    locs = sorted(loc for loc, obs in coll.locations.items() if len({o.day for o in obs}) >= k)
    if not locs:
        raise DataError(
            f"no location has {k} images on distinct days; cannot build this task\n"
            + coll.report.text(),
            file=coll.report.source,
        )
    return locs


def _overall_bucket(images: list[Observation]) -> str:
    lo = min(images, key=lambda o: o.timestamp)
    hi = max(images, key=lambda o: o.timestamp)
    return span_bucket(span_days(lo, hi))


# -- temporal order ---------------------------------------------------------------------------------
def removal_indices(times: list[datetime], locations: list[str]) -> list[int]:
    """Indices whose removal leaves one location in strictly increasing time order."""
    out = []
    for i in range(len(times)):
        rest_t = times[:i] + times[i + 1 :]
        rest_l = locations[:i] + locations[i + 1 :]
        if len(set(rest_l)) == 1 and all(a < b for a, b in zip(rest_t, rest_t[1:], strict=False)):
            out.append(i)
    return out


def sample_tal(coll: Collection, i: int, rng: random.Random) -> Spec:
    """Four chronological images of one location plus one anomaly at a random position: from the
    same location but out of temporal order (even i), or from another location (odd i). Only
    sequences where exactly one removal restores a single-location chronology are kept."""
    locs = _locations(coll, 5)
    kind = "temporal" if i % 2 == 0 else "location"
    for _ in range(MAX_TRIES):
        loc = rng.choice(locs)
        four = _sorted_sample(rng, coll.locations[loc], 4)
        if four is None:
            continue
        pos = rng.randrange(5)
        if kind == "temporal":
            pool = [o for o in coll.locations[loc] if o.day not in {f.day for f in four}]
        else:
            others = [x for x in coll.locations if x != loc]
            if not others:
                raise DataError("TAL location anomalies need at least two locations")
            pool = coll.locations[rng.choice(others)]
        if not pool:
            continue
        odd = rng.choice(pool)
        shown = four[:pos] + [odd] + four[pos:]
        if removal_indices([o.timestamp for o in shown], [o.location for o in shown]) == [pos]:
            return Spec(
                shown,
                pos + 1,
                _facts(shown),
                {"anomaly": kind, "span_bucket": _overall_bucket(four)},
            )
    raise DataError(f"could not sample a TAL item ({kind}) in {MAX_TRIES} tries")


def _shuffled(rng: random.Random, n: int) -> list[int]:
    while True:
        p = list(range(n))
        rng.shuffle(p)
        if p != list(range(n)):
            return p


def sample_isr(coll: Collection, i: int, rng: random.Random, k: int = 5) -> Spec:
    """k images of one location shown shuffled (never in order); gold: the shown image numbers
    from earliest to latest."""
    for _ in range(MAX_TRIES):
        seq = _sorted_sample(rng, coll.locations[rng.choice(_locations(coll, k))], k)
        if seq is None:
            continue
        perm = _shuffled(rng, k)
        shown = [seq[j] for j in perm]
        gold = [str(perm.index(j) + 1) for j in range(k)]
        return Spec(shown, gold, _facts(shown), {"span_bucket": _overall_bucket(seq)})
    raise DataError("could not sample an ISR item")


def sample_sov(coll: Collection, i: int, rng: random.Random, k: int = 5) -> Spec:
    """k images of one location, in chronological order (even i: True) or shuffled (odd i)."""
    seq = None
    while seq is None:
        seq = _sorted_sample(rng, coll.locations[rng.choice(_locations(coll, k))], k)
    in_order = i % 2 == 0
    shown = seq if in_order else [seq[j] for j in _shuffled(rng, k)]
    return Spec(shown, in_order, _facts(shown), {"span_bucket": _overall_bucket(seq)})


def sample_pov(coll: Collection, i: int, rng: random.Random) -> Spec:
    """Two images of one location (distinct days), in order (even i: True) or reversed."""
    pair = None
    while pair is None:
        pair = _sorted_sample(rng, coll.locations[rng.choice(_locations(coll, 2))], 2)
    in_order = i % 2 == 0
    shown = pair if in_order else pair[::-1]
    return Spec(shown, in_order, _facts(shown), {"span_bucket": _overall_bucket(pair)})


def sample_tpl(coll: Collection, i: int, rng: random.Random) -> Spec:
    """Positions 1, 3, 5 of a five-image sequence, then the image at position 2 (even i) or 4.

    Of a few random five-image sequences of one location, the most evenly spaced one is kept
    (smallest ratio of longest to shortest gap); the ratio is recorded as ``spacing_ratio``."""
    loc = rng.choice(_locations(coll, 5))
    cands = [s for s in (_sorted_sample(rng, coll.locations[loc], 5) for _ in range(12)) if s]

    def ratio(seq: list[Observation]) -> float:
        gaps = [span_days(a, b) for a, b in zip(seq, seq[1:], strict=False)]
        return max(gaps) / max(1, min(gaps))

    seq = min(cands, key=ratio)
    target = 2 if i % 2 == 0 else 4
    shown = [seq[0], seq[2], seq[4], seq[target - 1]]
    return Spec(
        shown,
        target,
        _facts(shown),
        {"span_bucket": _overall_bucket(seq), "spacing_ratio": round(ratio(seq), 2)},
    )


# -- temporal intervals -----------------------------------------------------------------------------
class PairPool:
    """Every same-location pair on distinct days, bucketed by interval category; sampling is
    balanced over categories by resampling (round-robin category, then a random pair of it)."""

    def __init__(self, coll: Collection) -> None:
        self.by_cat: dict[str, list[tuple[Observation, Observation]]] = {
            c: [] for c in ICE_CATEGORIES
        }
        for loc in sorted(coll.locations):
            for a, b in combinations(coll.locations[loc], 2):
                d = span_days(a, b)
                if d >= 1:
                    self.by_cat[ice_category(d)].append((a, b))
        empty = [c for c, v in self.by_cat.items() if not v]
        if empty:
            raise DataError(
                "no same-location image pairs with interval categor"
                f"{'y' if len(empty) == 1 else 'ies'} {', '.join(empty)} "
                "(A 1-30 d, B 31-90 d, C 91-365 d, D 366-730 d, E 731+ d); cannot balance\n"
                + coll.report.text(),
                file=coll.report.source,
            )

    def pair(self, rng: random.Random, category: str | None = None) -> tuple[Observation, ...]:
        cat = category or rng.choice(ICE_CATEGORIES)
        a, b = rng.choice(self.by_cat[cat])
        return (a, b) if rng.random() < 0.5 else (b, a)


_POOLS: dict[int, PairPool] = {}


def pair_pool(coll: Collection) -> PairPool:
    key = id(coll)
    if key not in _POOLS:
        _POOLS.clear()
        _POOLS[key] = PairPool(coll)
    return _POOLS[key]


def sample_ice(coll: Collection, i: int, rng: random.Random) -> Spec:
    """A same-location pair whose category cycles A…E with the item index (balanced), shown in a
    random order. Gold: the category letter."""
    cat = ICE_CATEGORIES[i % 5]
    a, b = pair_pool(coll).pair(rng, cat)
    return Spec(
        [a, b],
        cat,
        _facts([a, b]),
        {"span_bucket": span_bucket(span_days(a, b)), "interval_days": span_days(a, b)},
        options=list(ICE_LABELS),
    )


def _distinct_pairs(
    coll: Collection, rng: random.Random, k: int, ok: Callable[[list[int]], bool]
) -> list[tuple[Observation, ...]]:
    """k pairs from k different locations (each pair's category drawn uniformly) whose spans
    satisfy ``ok``."""
    pool = pair_pool(coll)
    if len(coll.locations) < k:
        raise DataError(
            f"this task needs pairs from {k} different locations; "
            f"the collection has {len(coll.locations)}"
        )
    for _ in range(MAX_TRIES):
        pairs = [pool.pair(rng) for _ in range(k)]
        if len({p[0].location for p in pairs}) == k and ok([span_days(*p) for p in pairs]):
            return pairs
    raise DataError(f"could not sample {k} pairs with distinct spans in {MAX_TRIES} tries")


def sample_pic(coll: Collection, i: int, rng: random.Random) -> Spec:
    """Pairs (a, b) and (c, d) from two locations with different spans; gold: |tb−ta| > |td−tc|
    (True for even i: the pairs are swapped to make it so, balancing the answer)."""
    p, q = _distinct_pairs(coll, rng, 2, lambda s: s[0] != s[1])
    want = i % 2 == 0
    if (span_days(*p) > span_days(*q)) != want:
        p, q = q, p
    shown = [*p, *q]
    return Spec(
        shown, want, _facts(shown), {"span_bucket": span_bucket(span_days(*p))}, groups=[2, 2]
    )


def sample_ipr(coll: Collection, i: int, rng: random.Random) -> Spec:
    """Three pairs A, B, C from three locations with distinct spans; gold: the letters from the
    shortest span to the longest."""
    pairs = _distinct_pairs(coll, rng, 3, lambda s: len(set(s)) == 3)
    spans = [span_days(*p) for p in pairs]
    gold = [chr(65 + j) for j in sorted(range(3), key=lambda j: spans[j])]
    shown = [o for p in pairs for o in p]
    return Spec(
        shown, gold, _facts(shown), {"span_bucket": span_bucket(max(spans))}, groups=[2, 2, 2]
    )


def sample_eii(coll: Collection, i: int, rng: random.Random) -> Spec:
    """Four pairs A–D from four locations with a unique longest span, placed at letter i mod 4
    (balanced); gold: that letter."""
    pairs = _distinct_pairs(coll, rng, 4, lambda s: sorted(s)[-1] > sorted(s)[-2])
    longest = max(range(4), key=lambda j: span_days(*pairs[j]))
    goal = i % 4
    pairs[goal], pairs[longest] = pairs[longest], pairs[goal]
    shown = [o for p in pairs for o in p]
    return Spec(
        shown,
        chr(65 + goal),
        _facts(shown),
        {"span_bucket": span_bucket(span_days(*pairs[goal]))},
        groups=[2, 2, 2, 2],
    )


# -- recognition control ------------------------------------------------------------------------
def sample_recognition(coll: Collection, i: int, rng: random.Random) -> Spec:
    """One image; its own category and up to four distractors from *the collection's own* class
    list, none a near-synonym of the gold or of each other (:mod:`.classes`), in random order.
    Gold: the letter of its own. Fewer than five options when the collection has fewer unrelated
    classes; fewer than two is an error."""
    labelled = sorted(loc for loc, obs in coll.locations.items() if obs[0].category)
    if not labelled:
        raise DataError("no location has a category label", file=coll.report.source)
    obs = rng.choice(coll.locations[rng.choice(labelled)])
    others = distractors(obs.category, coll.categories, 4, rng)
    if not others:
        raise DataError(
            f"recognition needs at least two unrelated categories; the collection has "
            f"{', '.join(coll.categories)}",
            file=coll.report.source,
            field="category",
        )
    options = [obs.category, *others]
    rng.shuffle(options)
    gold = chr(65 + options.index(obs.category))
    return Spec(
        [obs],
        gold,
        {**_facts([obs]), "categories": [obs.category], "options": options},
        {"category": obs.category, "n_options": len(options)},
        options=[o.replace("_", " ") for o in options],
    )


# -- gold from stored facts (independent re-derivation) ----------------------------------------------
def _days(times: list[str]) -> list[int]:
    return [datetime.fromisoformat(t).toordinal() for t in times]


def gold_from_facts(task: str, facts: dict[str, Any]) -> Any:
    """Re-derive a gold answer from the shown images' stored timestamps/locations/categories."""
    if task == "recognition":
        return chr(65 + facts["options"].index(facts["categories"][0]))
    times = [datetime.fromisoformat(t) for t in facts["times"]]
    days = _days(facts["times"])
    if task == "tal":
        idx = removal_indices(times, facts["locations"])
        if len(idx) != 1:
            raise ValueError(f"{len(idx)} images could be the anomaly")
        return idx[0] + 1
    if task == "isr":
        return [str(j + 1) for j in sorted(range(len(times)), key=lambda j: times[j])]
    if task in ("sov", "pov"):
        return all(a < b for a, b in zip(times, times[1:], strict=False))
    if task == "tpl":
        t1, t3, t5, x = times
        return 2 if t1 < x < t3 else 4 if t3 < x < t5 else None
    spans = [abs(days[j + 1] - days[j]) for j in range(0, len(days), 2)]
    if task == "ice":
        return ice_category(spans[0])
    if task == "pic":
        return spans[0] > spans[1]
    if task == "ipr":
        return [chr(65 + j) for j in sorted(range(3), key=lambda j: spans[j])]
    if task == "eii":
        return chr(65 + max(range(4), key=lambda j: spans[j]))
    raise ValueError(f"no gold rule for task {task!r}")


SAMPLERS: dict[str, Callable[[Collection, int, random.Random], Spec]] = {
    "tal": sample_tal,
    "isr": sample_isr,
    "sov": sample_sov,
    "pov": sample_pov,
    "tpl": sample_tpl,
    "ice": sample_ice,
    "pic": sample_pic,
    "ipr": sample_ipr,
    "eii": sample_eii,
    "recognition": sample_recognition,
}
MIN_IMAGES = {"tal": 5, "isr": 5, "sov": 5, "tpl": 5, "recognition": 1}
"""Images per location a task needs (others: 2); recognition needs one (UCM has one per place)."""
