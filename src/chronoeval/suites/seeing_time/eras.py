"""Era labels: the five dynasties of the CHA dataset (Seeing Time, Table I) and ordering of any labels.

The dynasty year ranges are conventional historical dates (Tang 618–907, Song 960–1279, Yuan
1271–1368, Ming 1368–1644, Qing 1644–1912); the synthetic generator draws years inside them and
keeps 10 years away from each boundary (Song and Yuan overlap 1271–1279).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dynasty:
    key: str
    option: str
    """The option text of the released localization prompt, e.g. ``唐(Tang Dynasty)``."""
    chinese: str
    start: int
    end: int


DYNASTIES: tuple[Dynasty, ...] = (
    Dynasty("Tang", "唐(Tang Dynasty)", "唐", 618, 907),
    Dynasty("Song", "宋(Song Dynasty)", "宋", 960, 1279),
    Dynasty("Yuan", "元(Yuan Dynasty)", "元", 1271, 1368),
    Dynasty("Ming", "明(Ming Dynasty)", "明", 1368, 1644),
    Dynasty("Qing", "清(Qing Dynasty)", "清", 1644, 1912),
)
DYNASTY_BY_KEY = {d.key: d for d in DYNASTIES}
DYNASTY_ORDER = {d.key: i for i, d in enumerate(DYNASTIES)}


def dynasty_option(label: str) -> str:
    """The option text for an era label: the release's bilingual form for the five dynasties."""
    d = DYNASTY_BY_KEY.get(label)
    return d.option if d else label


def dynasty_of_year(year: float) -> str | None:
    """The dynasty whose range holds ``year`` (the later one inside the Song/Yuan overlap)."""
    found = None
    for d in DYNASTIES:
        if d.start <= year <= d.end:
            found = d.key
    return found


def order_eras(labels: dict[str, list[int]]) -> list[str]:
    """Era labels oldest first: the five dynasties in their order, others by their median year."""

    def key(label: str) -> tuple[float, str]:
        if label in DYNASTY_ORDER:
            return (DYNASTY_BY_KEY[label].start, label)
        years = sorted(labels[label])
        return (years[len(years) // 2] if years else 0.0, label)

    return sorted(labels, key=key)
