"""Scene class names and synonym-free distractors for the recognition control.

The control asks for a single image's scene category among options drawn from *the collection's
own class list* (never another dataset's names: the old sampler mixed fMoW names into UCM). A
distractor must not be a near-synonym of the gold or of another option: a "wrong" option that is
arguably right ("airport" vs "airport terminal", "dense residential" vs "medium residential")
measures nothing. Two names are near-synonyms when (after lower-casing and dropping generic head
nouns such as "station", "facility", "site")

- a word of one (≥ 4 letters) occurs inside the other ("airport" / "airport_hangar",
  "residential" / "denseresidential"),
- their letters share a run of ≥ 8 characters ("mediumresidential" / "denseresidential"), or
- both are in one hand-written :data:`RELATED` group (different words, same scene: "runway" /
  "airport", "harbor" / "port").

Class lists: fMoW's 62 from the fMoW baseline's ``code/params.py`` (``category_names``, less
``false_detection``), UCM's 21 folder names.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

FMOW_CLASSES = (
    "airport", "airport_hangar", "airport_terminal", "amusement_park", "aquaculture",
    "archaeological_site", "barn", "border_checkpoint", "burial_site", "car_dealership",
    "construction_site", "crop_field", "dam", "debris_or_rubble", "educational_institution",
    "electric_substation", "factory_or_powerplant", "fire_station", "flooded_road", "fountain",
    "gas_station", "golf_course", "ground_transportation_station", "helipad", "hospital",
    "interchange", "lake_or_pond", "lighthouse", "military_facility", "multi-unit_residential",
    "nuclear_powerplant", "office_building", "oil_or_gas_facility", "park",
    "parking_lot_or_garage", "place_of_worship", "police_station", "port", "prison",
    "race_track", "railway_bridge", "recreational_facility", "impoverished_settlement",
    "road_bridge", "runway", "shipyard", "shopping_mall", "single-unit_residential", "smokestack",
    "solar_farm", "space_facility", "stadium", "storage_tank", "surface_mine", "swimming_pool",
    "toll_booth", "tower", "tunnel_opening", "waste_disposal", "water_treatment_facility",
    "wind_farm", "zoo",
)  # fmt: skip
UCM_CLASSES = (
    "agricultural", "airplane", "baseballdiamond", "beach", "buildings", "chaparral",
    "denseresidential", "forest", "freeway", "golfcourse", "harbor", "intersection",
    "mediumresidential", "mobilehomepark", "overpass", "parkinglot", "river", "runway",
    "sparseresidential", "storagetanks", "tenniscourt",
)  # fmt: skip

GENERIC = frozenset(
    {"or", "and", "of", "the", "site", "station", "facility", "building", "unit", "multi"}
)
RELATED: tuple[frozenset[str], ...] = tuple(
    frozenset(g)
    for g in (
        {"airport", "runway", "helipad", "airplane", "airport_hangar", "airport_terminal"},
        {"port", "shipyard", "harbor"},
        {"factory_or_powerplant", "nuclear_powerplant", "smokestack", "oil_or_gas_facility"},
        {"storage_tank", "storagetanks", "oil_or_gas_facility"},
        {"road_bridge", "railway_bridge", "overpass", "interchange", "freeway", "intersection"},
        {"lake_or_pond", "river", "aquaculture", "dam", "beach"},
        {"park", "recreational_facility", "amusement_park", "golf_course", "golfcourse"},
        {"stadium", "race_track", "baseballdiamond", "tenniscourt", "recreational_facility"},
        {"parking_lot_or_garage", "parkinglot", "car_dealership"},
        {"crop_field", "agricultural", "barn"},
        {"chaparral", "forest"},
        {
            "residential",
            "single-unit_residential",
            "multi-unit_residential",
            "impoverished_settlement",
            "buildings",
            "mobilehomepark",
            "denseresidential",
            "mediumresidential",
            "sparseresidential",
        },
    )
)


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[^a-z]+", name.lower()) if w and w not in GENERIC]


def _common_run(a: str, b: str) -> int:
    best = 0
    prev = [0] * (len(b) + 1)
    for ca in a:
        cur = [0] * (len(b) + 1)
        for j, cb in enumerate(b, start=1):
            if ca == cb:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


def near_synonyms(a: str, b: str) -> bool:
    """Whether two class names are too close to serve as each other's wrong option."""
    if a == b:
        return True
    wa, wb = _words(a), _words(b)
    ja, jb = "".join(wa), "".join(wb)
    if any(len(w) >= 4 and w in jb for w in wa) or any(len(w) >= 4 and w in ja for w in wb):
        return True
    if _common_run(ja, jb) >= 8:
        return True
    key_a, key_b = a.lower(), b.lower()
    return any(key_a in g and key_b in g for g in RELATED)


def distractors(gold: str, pool: Iterable[str], k: int, rng: random.Random) -> list[str]:
    """Up to ``k`` names from ``pool`` (the collection's classes), none a near-synonym of the
    gold or of each other, chosen at random."""
    candidates = sorted(set(pool) - {gold})
    rng.shuffle(candidates)
    chosen: list[str] = []
    for c in candidates:
        if len(chosen) == k:
            break
        if near_synonyms(c, gold) or any(near_synonyms(c, d) for d in chosen):
            continue
        chosen.append(c)
    return chosen
