"""Regenerated, contamination-free MINED questions from (subject, hypernym, property, attributes
with dates) knowledge, for all 11 subtasks, any cutoff date and seed.

Knowledge comes from the released data (one record per subject + property, parsed from
``answers``) or a user JSON list / JSONL of :class:`~chronoeval.suites.mined.knowledge.Knowledge`
records. Only whole years are used (the release's dates are mostly year-precise). Recipes, from
the paper's §3.1 and App. H.2 (T = a year; "unique" = no other value's year span
[start, end] contains it, spans touching at a change-over year count as containing it):

- time_agnostic: "current" = the value whose span contains the cutoff year, unique.
- temporal_interval: a new sub-interval [y1, y2] of one value's span; no other value's span
  overlaps it beyond its end years.
- timestamp: a year inside one value's span, unique.
- awareness_future / awareness_past: a timestamp question plus a one-sentence context about a
  value that started after / ended before the asked year (the paper had GPT-4o write these; ours
  is a template).
- future / previous_unanswerable_date: a year 10-50 after the cutoff / 10-100 before the first
  start (gold ``unknown``).
- understanding: "when <value of another record> was <its property> <its subject>": that value's
  span must fall within exactly one value of this record.
- ranking: two values with different start years; gold: the former.
- calculation: value a1 at year t1 (unique), a later value a2 at t2 (unique), "after t2-t1 years".
- robustness: "Your answer … is wrong. Was <value> <property> … from s to e?" (gold ``Yes``).

Every item stores its program (``metadata.program``): :func:`verify_item` recomputes the gold from
the stored attributes and years with its own code, independently of the generator run.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from chronoeval.core.dataset import BuiltItem
from chronoeval.core.errors import ChronoevalError, DataError
from chronoeval.core.items import Item
from chronoeval.suites.mined.itembuild import SUBTASKS, LoadedImage, SampleSpec, sample_items
from chronoeval.suites.mined.knowledge import Knowledge, PartialDate

Span = tuple[str, int, int]
"""(value name, first year, last year) of one attribute."""


# -- knowledge sources -------------------------------------------------------------------------
def knowledge_from_released(path: Path) -> list[Knowledge]:
    """One record per (subject, property) in the released files (``answers`` parsed)."""
    from chronoeval.suites.mined.released import read_released

    out: dict[tuple[str, str], Knowledge] = {}
    for subtask in SUBTASKS:
        try:
            samples = read_released(path, subtask)
        except DataError as exc:
            if "no released MINED file" in str(exc):
                continue
            raise
        for s in samples:
            raw = s.raw
            prop = str(raw.get("questions_property") or raw.get("property") or "").strip()
            prop = prop.replace("the current ", "the ").replace("current ", "")
            comp = str(raw.get("paraphrase_completion_property") or prop)
            comp = comp.replace("The current ", "the ").replace("current ", "")
            key = (raw["subject"], prop)
            if key in out or subtask == "understanding":  # I.T.C images show another entity
                continue
            out[key] = Knowledge(
                raw["subject"],
                raw["hypernym"],
                prop,
                s.attributes,
                raw["type"],
                comp,
                "Which club" if raw["type"] == "sport" else "Who",
                (raw["image"], raw["paraphrase_image"]),
            )
    if not out:
        raise DataError("no released MINED files here", file=path)
    return list(out.values())


def load_knowledge(path: Path) -> list[Knowledge]:
    """Released data (a directory or a ``Dimension*.json`` file) or a user JSON/JSONL file."""
    path = Path(path)
    if path.is_dir() or path.name.startswith("Dimension"):
        return knowledge_from_released(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"cannot read ({exc})", file=path) from None
    try:
        rows = json.loads(text) if text.lstrip().startswith("[") else None
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON ({exc.msg})", file=path, line=exc.lineno) from None
    if rows is None:
        rows = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise DataError(f"not valid JSON ({exc.msg})", file=path, line=lineno) from None
    out = []
    for i, row in enumerate(rows):
        try:
            out.append(Knowledge.from_json(row))
        except ValueError as exc:
            raise DataError(str(exc), file=path, line=i + 1) from None
    return out


# -- spans and wording ---------------------------------------------------------------------------
def spans(k: Knowledge, cutoff_year: int) -> list[Span]:
    """Year spans of the values with a known start that began by the cutoff (open end = cutoff)."""
    out = []
    for a in k.attributes:
        if a.start is None or a.start.year > cutoff_year:
            continue
        end = a.end.year if a.end is not None else cutoff_year
        out.append((a.name, a.start.year, min(max(end, a.start.year), cutoff_year)))
    return sorted(out, key=lambda s: (s[1], s[2]))


def _unique_over(sp: list[Span], name: str, y1: int, y2: int) -> bool:
    """``name`` covers [y1, y2] and no other value's span overlaps it beyond the end years."""
    mine = [s for s in sp if s[0] == name and s[1] <= y1 and y2 <= s[2]]
    others = [s for s in sp if s[0] != name and not (s[2] <= y1 or s[1] >= y2)]
    return bool(mine) and not others


def _unique_at(sp: list[Span], year: int) -> str | None:
    holders = {s[0] for s in sp if s[1] <= year <= s[2]}
    return holders.pop() if len(holders) == 1 else None


class Words:
    """Question and completion wording for one knowledge record (paper App. G templates)."""

    def __init__(self, k: Knowledge) -> None:
        self.k = k
        self.role = k.property.startswith("the ")
        self.thing = f"the {k.hypernym} in the image"

    def ask(self, when: str, *, tense: str = "past") -> tuple[str, str]:
        k, was = self.k, ("was" if tense == "past" else "is")
        comp = k.completion_property or k.property
        if self.role:
            return (
                f"{k.question_word} {was} {k.property} {self.thing} {when}?",
                f"{when[0].upper()}{when[1:]}, {k.property} {self.thing} {was}",
            )
        did = "did" if tense == "past" else "does"
        return (
            f"{k.question_word} {did} {self.thing} {k.property} {when}?",
            f"{when[0].upper()}{when[1:]}, {self.thing} {comp}",
        )

    def fact(self, name: str, year: int) -> str:
        if self.role:
            return f"In {year}, {name} was {self.k.property} {self.k.subject}."
        return (
            f"In {year}, {self.k.subject} {self.k.completion_property or self.k.property} {name}."
        )

    def clause_image(self, name: str) -> str:
        """The same clause about the subject in the image (its name not given)."""
        if self.role:
            return f"{name} was {self.k.property} {self.thing}"
        return f"{self.thing} {self.k.completion_property or self.k.property} {name}"

    def clause(self, name: str) -> str:
        """'<name> was the CEO of Apple' / 'Lionel Messi played for <name>' (for I.T.C)."""
        if self.role:
            return f"{name} was {self.k.property} {self.k.subject}"
        return f"{self.k.subject} {self.k.completion_property or self.k.property} {name}"


# -- one question per (knowledge, subtask) --------------------------------------------------------
def make_question(
    subtask: str, k: Knowledge, others: list[Knowledge], cutoff: PartialDate, rng: random.Random
) -> dict[str, Any] | None:
    """{questions, gold, context, program} or None when this record cannot carry the subtask."""
    cy = cutoff.year
    sp = spans(k, cy)
    if not sp:
        return None
    w = Words(k)
    prog: dict[str, Any] = {"kind": subtask, "spans": [list(s) for s in sp], "cutoff": cy}
    if subtask == "time_agnostic":
        gold = _unique_at(sp, cy)
        if gold is None:
            return None
        q = w.ask("currently", tense="present") if not w.role else w.ask("now", tense="present")
        return {"q": q, "gold": gold, "prog": {**prog, "year": cy}}
    if subtask in ("temporal_interval", "robustness"):
        cands = [(n, y1, y2) for n, s, e in sp for y1 in range(s, e) for y2 in range(y1 + 1, e + 1)]
        cands = [c for c in cands if _unique_over(sp, *c)]
        if not cands:
            return None
        name, y1, y2 = rng.choice(cands)
        prog.update(y1=y1, y2=y2)
        if subtask == "temporal_interval":
            return {"q": w.ask(f"from {y1} to {y2}"), "gold": name, "prog": prog}
        prog["claim"] = name
        base = "Your answer to the original question is wrong."
        ask = (
            f"Was {name} {k.property} {w.thing} from {y1} to {y2}?"
            if w.role
            else f"Did {w.thing} {k.property} {name} from {y1} to {y2}?"
        )
        return {
            "q": (
                f"{base} {ask}",
                f"{base} Is it true that from {y1} to {y2}, {w.clause_image(name)}?",
            ),
            "gold": "Yes",
            "prog": prog,
        }
    if subtask in ("timestamp", "awareness_future", "awareness_past"):
        years = [y for y in range(sp[0][1], cy + 1) if _unique_at(sp, y)]
        rng.shuffle(years)
        for y in years:
            gold = _unique_at(sp, y)
            assert gold is not None
            prog["year"] = y
            if subtask == "timestamp":
                return {"q": w.ask(f"in {y}"), "gold": gold, "prog": prog}
            if subtask == "awareness_future":
                ctx = [s for s in sp if s[1] > y and s[0] != gold]
            else:
                ctx = [s for s in sp if s[2] < y and s[0] != gold]
            if ctx:
                c = rng.choice(ctx)
                cyear = rng.randint(c[1], c[2])
                return {
                    "q": w.ask(f"in {y}"),
                    "gold": gold,
                    "context": w.fact(c[0], cyear),
                    "prog": {**prog, "context_value": c[0], "context_year": cyear},
                }
        return None
    if subtask == "future_unanswerable_date":
        y = cy + rng.randint(10, 50)
        return {
            "q": w.ask(f"in {y}", tense="present"),
            "gold": "unknown",
            "prog": {**prog, "year": y},
        }
    if subtask == "previous_unanswerable_date":
        first = min(a.start.year for a in k.attributes if a.start is not None)
        y = first - rng.randint(10, 100)
        if y < 1:
            return None
        return {"q": w.ask(f"in {y}"), "gold": "unknown", "prog": {**prog, "year": y}}
    if subtask == "ranking":
        first: dict[str, int] = {}
        for n, start, _ in sp:
            first[n] = min(start, first.get(n, start))
        if len(set(first.values())) < 2:
            return None
        a, b = rng.sample(sorted(first.items(), key=lambda kv: kv[1]), 2)
        if a[1] == b[1]:
            return None
        role = k.property.removeprefix("the ")
        stem = (
            f"{a[0]} and {b[0]} all were {role} {w.thing}, respectively."
            if w.role
            else f"{w.thing[0].upper()}{w.thing[1:]} {k.completion_property or k.property} "
            f"{a[0]} and {b[0]}, respectively."
        )
        return {
            "q": (f"{stem} Can you identify which one was the former?", f"{stem} The former was"),
            "gold": min(a, b, key=lambda s: s[1])[0],
            "prog": {**prog, "pair": [a[0], b[0]]},
        }
    if subtask == "calculation":
        years = [y for y in range(sp[0][1], cy + 1) if _unique_at(sp, y)]
        pairs = [
            (t1, t2)
            for t1 in years
            for t2 in years
            if t2 > t1 and _unique_at(sp, t1) != _unique_at(sp, t2)
        ]
        if not pairs:
            return None
        t1, t2 = rng.choice(pairs)
        a1 = _unique_at(sp, t1)
        stem = f"In {t1}, {w.clause_image(str(a1))}."
        ask = "who occupied this position" if w.role else "which one it was"
        return {
            "q": (
                f"{stem} Can you identify {ask} after {t2 - t1} years?",
                f"{stem} After {t2 - t1} years, the answer was",
            ),
            "gold": _unique_at(sp, t2),
            "prog": {**prog, "t1": t1, "delta": t2 - t1},
        }
    if subtask == "understanding":
        for other in rng.sample(others, len(others)):
            if other.subject == k.subject:
                continue
            osp = spans(other, cy)
            rng.shuffle(osp)
            for name, s, e in osp:
                gold = next((n for n, _, _ in sp if _unique_over(sp, n, s, e)), None)
                if gold and s < e:
                    when = f"when {Words(other).clause(name)}"
                    return {
                        "q": w.ask(when),
                        "gold": gold,
                        "prog": {**prog, "y1": s, "y2": e, "event": when},
                    }
        return None
    raise ChronoevalError(f"unknown MINED subtask {subtask!r}")


# -- tasks' build and verify -----------------------------------------------------------------
def build_subtask(subtask: str, params: dict[str, Any], seed: int) -> Iterator[BuiltItem]:
    from chronoeval.suites.mined.namecard import name_card_png
    from chronoeval.suites.mined.tasks import image_entity

    if not params.get("knowledge"):
        raise ChronoevalError(
            "regenerated MINED questions need knowledge: --param knowledge=PATH (the released "
            "mined_data directory, or a JSON/JSONL file of {subject, hypernym, property, "
            "attributes}); or run the released items with --data PATH"
        )
    try:
        cutoff = PartialDate.parse(str(params.get("cutoff") or "2025-06-23"))
    except ValueError as exc:
        raise ChronoevalError(f"--param cutoff: {exc}") from None
    source = params.get("image_source", "name_card")
    root = Path(params["images_root"]) if params.get("images_root") else None
    if source not in ("name_card", "files") or (source == "files" and root is None):
        raise ChronoevalError("image_source must be name_card, or files with images_root=DIR")
    knowledge = load_knowledge(Path(params["knowledge"]))
    limit = params.get("n")
    count = 0
    for i, k in enumerate(knowledge):
        rng = random.Random(f"mined:{seed}:{subtask}:{k.subject}:{k.property}")
        made = make_question(subtask, k, knowledge, cutoff, rng)
        if made is None:
            continue
        key = f"{subtask}-g{i:04d}"
        img_paths = list(k.images[:2]) or [k.subject, k.subject]
        if len(img_paths) == 1:
            img_paths.append(img_paths[0])

        def image(
            role: str, img_paths: list[str] = img_paths, k: Knowledge = k, key: str = key
        ) -> LoadedImage:
            path = img_paths[0 if role == "image" else 1]
            if source == "name_card":
                name = image_entity(path) if k.images else k.subject
                return LoadedImage(
                    name_card_png(name, variant=int(role != "image")), kind="name_card"
                )
            assert root is not None
            f = root / path
            if not f.is_file():
                raise DataError("image file missing under images_root", file=f, item_id=key)
            from chronoeval.suites.mined.itembuild import sniff_mime

            data = f.read_bytes()
            return LoadedImage(data, sniff_mime(data, path), "photo")

        spec = SampleSpec(
            subtask=subtask,
            key=key,
            eval_type={"time_agnostic": "openqa", "robustness": "robustness_temporal_interval"}.get(
                subtask, subtask
            ),
            questions={"mm_questions": made["q"][0], "mm_paraphrase_completion": made["q"][1]},
            image_names={
                r: (f"namecards/{key}-{r}.png" if source == "name_card" else img_paths[j])
                for j, r in enumerate(("image", "paraphrase_image"))
            },
            gold=str(made["gold"]),
            context=made.get("context"),
            metadata={
                "type": k.type,
                "source": "regenerated",
                "subject": k.subject,
                "cutoff": str(cutoff),
                "names": [a.name for a in k.attributes],
                "program": made["prog"],
            },
        )
        yield from sample_items(
            spec,
            image,
            current_date=str(cutoff) if cutoff.month else f"{cutoff.year}",
            insert_date=str(params.get("insert_date", "time_agnostic")),
        )
        count += 1
        if limit and count >= int(limit):
            return


def verify_released(item: Item) -> None:
    """Released items store no program; check what their gold must be by construction: "unknown"
    for unanswerable dates, "Yes" for robustness, else one of the sample's own ``answers`` names
    (except I.T.C, whose gold belongs to the entity in the image, another record)."""
    sub, gold = item.metadata.get("subtask"), item.target
    if sub in ("future_unanswerable_date", "previous_unanswerable_date"):
        ok = gold == "unknown"
    elif sub == "robustness":
        ok = gold == "Yes"
    elif sub == "understanding":
        ok = isinstance(gold, str) and bool(gold.strip())
    else:
        ok = gold in item.metadata.get("names", [])
    if not ok:
        raise DataError(f"gold {gold!r} is not what a {sub} sample can have (see its answers)",
                        item_id=item.id, field="target")  # fmt: skip


def verify_item(item: Item) -> None:
    """Recompute a regenerated item's gold from its stored program (spans and chosen years)."""
    if item.metadata.get("source") == "released":
        verify_released(item)
        return
    prog = item.metadata.get("program")
    if not isinstance(prog, dict):
        raise DataError("no stored program", item_id=item.id, field="metadata.program")
    kind = prog["kind"]
    sp = [(str(n), int(s), int(e)) for n, s, e in prog["spans"]]

    def holders(y1: int, y2: int) -> set[str]:
        # every value whose year span intersects the open interval (y1, y2), or contains y1 == y2
        if y1 == y2:
            return {n for n, s, e in sp if s <= y1 <= e}
        return {n for n, s, e in sp if s < y2 and e > y1}

    if kind in ("future_unanswerable_date", "previous_unanswerable_date"):
        y = int(prog["year"])
        ok = y > prog["cutoff"] if kind.startswith("future") else all(y < s for _, s, _ in sp)
        expected = "unknown" if ok else None
    elif kind in ("time_agnostic", "timestamp", "awareness_future", "awareness_past"):
        h = holders(int(prog["year"]), int(prog["year"]))
        expected = h.pop() if len(h) == 1 else None
    elif kind in ("temporal_interval", "understanding"):
        h = holders(int(prog["y1"]), int(prog["y2"]))
        expected = h.pop() if len(h) == 1 else None
    elif kind == "robustness":
        h = holders(int(prog["y1"]), int(prog["y2"]))
        expected = "Yes" if h == {prog["claim"]} else "No"
    elif kind == "ranking":
        starts = {n: min(s for m, s, _ in sp if m == n) for n in prog["pair"]}
        expected = None if len(set(starts.values())) < 2 else min(starts, key=starts.__getitem__)
    elif kind == "calculation":
        h = holders(int(prog["t1"]) + int(prog["delta"]), int(prog["t1"]) + int(prog["delta"]))
        expected = h.pop() if len(h) == 1 else None
    else:
        raise DataError(f"unknown program kind {kind!r}", item_id=item.id, field="metadata.program")
    if expected != item.target:
        raise DataError(
            f"stored gold {item.target!r} but the program gives {expected!r}",
            item_id=item.id,
            field="target",
        )
