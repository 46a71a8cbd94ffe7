"""Synthetic time-lapse scenes: top-down views of one location rendered at any timestamp.

Content changes at several time scales, so every TimePerceptBench task has an objective answer that
the pixels carry:

- **development that only grows** (years): roads, buildings, tanks, solar rows, parking lots and
  runways appear one project at a time; each project passes through construction phases (cleared
  soil for weeks, a grey frame for months, then its finished roof or surface) and never goes away;
- **a seasonal vegetation cycle** (months): vegetation greens towards mid-year and browns in winter;
- **day-to-day variation** (days): illumination gain, a colour tint and vehicles differ per date;
- **optional clouds**: a soft white field over part of the image, its cover recorded in percent.

Everything is a pure function of (location seed, timestamp): the same call gives the same pixels.
Images are 256×256 RGB (the paper resizes every image to 256×256), colour levels in steps of 4.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import numpy as np

SIZE = 256
CATEGORIES = (
    "residential",
    "factory_or_powerplant",
    "airport",
    "solar_farm",
    "shopping_mall",
)
"""Scene categories of the synthetic collection (fMoW-like names)."""

SOIL = np.array([158, 128, 92], dtype=np.float32)
FRAME = np.array([196, 196, 190], dtype=np.float32)
ASPHALT = np.array([72, 72, 78], dtype=np.float32)
LUSH = np.array([46, 118, 40], dtype=np.float32)
DORMANT = np.array([128, 112, 70], dtype=np.float32)
PEAK_DAY = 196
"""Day of year of the greenest vegetation (mid July)."""


@dataclass(frozen=True)
class Project:
    """One piece of development: a shape that appears at ``start`` (days since the epoch)."""

    kind: str  # building | tank | road | panels | parking | runway
    box: tuple[int, int, int, int]  # y0, x0, y1, x1 (exclusive)
    colour: tuple[int, int, int]
    start: float
    clear_days: float
    frame_days: float


def _smooth_noise(rng: np.random.Generator, cells: int) -> np.ndarray:
    """Low-frequency noise in [0, 1]: a random grid upsampled bilinearly to SIZE × SIZE."""
    grid = rng.random((cells + 1, cells + 1)).astype(np.float32)
    pos = np.linspace(0, cells, SIZE, dtype=np.float32)
    i = np.minimum(pos.astype(int), cells - 1)
    f = pos - i
    rows = grid[i] * (1 - f)[:, None] + grid[i + 1] * f[:, None]
    out = rows[:, i] * (1 - f)[None, :] + rows[:, i + 1] * f[None, :]
    return out


def epoch_days(when: datetime) -> float:
    return (when - datetime(2000, 1, 1, tzinfo=UTC)).total_seconds() / 86400.0


def season_greenness(when: datetime, hemisphere: int = 1) -> float:
    """0 (dormant) … 1 (lush): a cosine of the day of year peaking at PEAK_DAY (shifted half a
    year in the southern hemisphere)."""
    doy = when.timetuple().tm_yday + (0 if hemisphere > 0 else 182)
    return 0.5 + 0.5 * math.cos(2 * math.pi * (doy - PEAK_DAY) / 365.25)


class Scene:
    """One location: its terrain, its development plan and its render function."""

    def __init__(self, seed: int | str, category: str, start: date, span_days: int) -> None:
        if category not in CATEGORIES:
            raise ValueError(f"unknown scene category {category!r}; known: {CATEGORIES}")
        self.seed = seed
        self.category = category
        self.start = datetime(start.year, start.month, start.day, tzinfo=UTC)
        self.span_days = span_days
        rng = np.random.default_rng(random.Random(f"terrain:{seed}").getrandbits(64))
        self.hemisphere = 1 if rng.random() < 0.8 else -1
        self.vegetation = (0.55 * _smooth_noise(rng, 6) + 0.45 * _smooth_noise(rng, 24)).clip(0, 1)
        texture = _smooth_noise(rng, 48) - 0.5
        self.texture = (texture * 28).astype(np.float32)[..., None]
        self.projects = _plan(
            random.Random(f"plan:{seed}"), category, epoch_days(self.start), span_days
        )

    # -- rendering ------------------------------------------------------------------------------
    def render(self, when: datetime, *, clouds: bool = True) -> tuple[np.ndarray, float]:
        """(H×W×3 uint8 image, cloud cover in percent) at ``when`` (timezone-aware)."""
        t = epoch_days(when)
        day = when.date().isoformat()
        drng = np.random.default_rng(random.Random(f"day:{self.seed}:{day}").getrandbits(64))
        green = season_greenness(when, self.hemisphere)
        veg = self.vegetation[..., None]
        lush = green * (0.35 + 0.65 * veg)
        img = DORMANT * (1 - lush) + LUSH * lush + self.texture
        for p in self.projects:
            if p.start <= t:
                _paint(img, p, t - p.start, self.texture)
        # day-to-day variation: global gain and tint, vehicles on paved surfaces
        gain = 1.0 + drng.uniform(-0.07, 0.07)
        tint = drng.uniform(-6, 6, size=3).astype(np.float32)
        img = img * gain + tint
        for p in self.projects:
            if p.kind in ("road", "parking") and t - p.start > p.clear_days:
                y0, x0, y1, x1 = p.box
                k = int(drng.integers(0, 4))
                ys = drng.integers(y0, y1, size=k)
                xs = drng.integers(x0, x1, size=k)
                for y, x in zip(ys, xs, strict=True):
                    img[y : y + 2, x : x + 3] = drng.uniform(150, 240, size=3)
        cover = 0.0
        alpha = self.clouds(when) if clouds else None
        if alpha is not None:
            img = img * (1 - alpha[..., None]) + 238.0 * alpha[..., None]
            cover = cloud_cover(alpha)
        # 6-bit colour levels: halves the PNG size, invisible at this scale
        return (np.clip(img, 0, 255).astype(np.uint8) & 0xFC), round(cover, 1)

    def clouds(self, when: datetime) -> np.ndarray | None:
        """The cloud opacity field (H×W in [0, 1]) on ``when``'s date, or None on a clear day
        (30% of days are cloudy). Its own random stream, so cover is known without rendering."""
        crng = random.Random(f"cloud:{self.seed}:{when.date().isoformat()}")
        if crng.random() >= 0.3:
            return None
        field = _smooth_noise(np.random.default_rng(crng.getrandbits(64)), 5)
        thresh = crng.uniform(0.45, 0.85)
        return ((field - thresh) / 0.12).clip(0, 1)


def cloud_cover(alpha: np.ndarray | None) -> float:
    """Percent of pixels more than half covered."""
    return 0.0 if alpha is None else round(float((alpha > 0.5).mean() * 100), 1)


def _paint(img: np.ndarray, p: Project, age: float, texture: np.ndarray) -> None:
    y0, x0, y1, x1 = p.box
    region = img[y0:y1, x0:x1]
    if p.kind == "tank":
        yy, xx = np.mgrid[y0:y1, x0:x1]
        cy, cx, r = (y0 + y1 - 1) / 2, (x0 + x1 - 1) / 2, (y1 - y0) / 2
        mask = ((yy - cy) ** 2 + (xx - cx) ** 2) <= r * r
    else:
        mask = np.ones(region.shape[:2], dtype=bool)
    if age < p.clear_days:
        region[mask] = SOIL + texture[y0:y1, x0:x1][mask] * 0.5
        return
    if age < p.clear_days + p.frame_days and p.kind in ("building", "tank"):
        region[mask] = FRAME
        region[::4, :][mask[::4, :]] = FRAME * 0.7
        region[:, ::4][mask[:, ::4]] = FRAME * 0.7
        return
    colour = np.array(p.colour, dtype=np.float32)
    region[mask] = colour
    if p.kind == "building":
        region[-2:, :] = colour * 0.55  # shadow edge
        region[:, -2:] = colour * 0.55
    elif p.kind == "panels":
        region[::3, :] = colour * 1.8
    elif p.kind == "parking":
        region[:, ::5] = 225.0
    elif p.kind == "runway":
        cy = (y1 - y0) // 2
        region[cy - 1 : cy + 1, ::12] = 240.0
        region[cy - 1 : cy + 1, 1::12] = 240.0


def _plan(rng: random.Random, category: str, t0: float, span: int) -> list[Project]:
    """The location's development: projects on an 8×8 grid of 32-px cells, growing outwards
    from a seed corner, so the developed area grows steadily over the span (and a little exists
    before it starts)."""
    cell = 32
    n = SIZE // cell
    sy, sx = rng.choice([(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1), (n // 2, n // 2)])
    far = math.hypot(n, n)
    # the whole plan spreads over 1.4 × the observed span, starting a little before it
    t_begin = t0 - 0.15 * span
    length = 1.4 * span
    projects: list[Project] = []

    def when(cy: int, cx: int) -> float:
        d = math.hypot(cy - sy, cx - sx) / far
        return t_begin + length * min(1.0, max(0.0, d + rng.uniform(-0.12, 0.12)))

    def phases() -> tuple[float, float]:
        return rng.uniform(15, 60), rng.uniform(45, 150)

    if category == "airport":
        row = rng.randrange(1, n - 1)
        projects.append(
            Project(
                "runway",
                (row * cell + 8, 4, row * cell + 24, SIZE - 4),
                (60, 60, 66),
                t_begin - 30,
                40.0,
                0.0,
            )
        )
    roads = sorted(rng.sample(range(1, n), 3))
    for r in roads:
        start = when(r, r)
        projects.append(
            Project(
                "road", (r * cell - 3, 0, r * cell + 3, SIZE), tuple(ASPHALT), start - 60, 20.0, 0.0
            )
        )
    for cy in range(n):
        for cx in range(n):
            if category == "airport" and cy == row:
                continue
            if rng.random() < 0.12:
                continue  # stays green
            base = when(cy, cx)
            oy, ox = cy * cell + 4, cx * cell + 4
            inner = cell - 8
            projects += _cell_projects(rng, category, oy, ox, inner, base, phases)
    projects.sort(key=lambda p: p.start)
    return projects


def _cell_projects(rng, category, oy, ox, inner, base, phases) -> list[Project]:  # noqa: ANN001
    out: list[Project] = []
    if category == "residential":
        roof = rng.choice([(168, 72, 56), (150, 90, 70), (182, 104, 76), (120, 70, 60)])
        for dy in (0, inner // 2):
            for dx in (0, inner // 2):
                if rng.random() < 0.8:
                    s = rng.randrange(7, inner // 2 - 1)
                    c, f = phases()
                    out.append(
                        Project(
                            "building",
                            (oy + dy, ox + dx, oy + dy + s, ox + dx + s),
                            roof,
                            base + rng.uniform(0, 120),
                            c,
                            f,
                        )
                    )
    elif category == "factory_or_powerplant":
        if rng.random() < 0.35:
            s = rng.randrange(12, inner)
            c, f = phases()
            out.append(Project("tank", (oy, ox, oy + s, ox + s), (214, 214, 206), base, c, f))
        else:
            h, w = rng.randrange(12, inner + 1), rng.randrange(14, inner + 1)
            c, f = phases()
            colour = rng.choice([(222, 226, 230), (170, 190, 205), (200, 200, 196)])
            out.append(Project("building", (oy, ox, oy + h, ox + w), colour, base, c, f))
    elif category == "airport":
        h, w = rng.randrange(10, inner + 1), rng.randrange(14, inner + 1)
        c, f = phases()
        kind = "parking" if rng.random() < 0.4 else "building"
        colour = (150, 150, 150) if kind == "parking" else (205, 210, 215)
        out.append(Project(kind, (oy, ox, oy + h, ox + w), colour, base, c, f))
    elif category == "solar_farm":
        c, _ = phases()
        out.append(Project("panels", (oy, ox, oy + inner, ox + inner), (28, 38, 92), base, c, 0.0))
    elif category == "shopping_mall":
        c, f = phases()
        if rng.random() < 0.5:
            out.append(
                Project("parking", (oy, ox, oy + inner, ox + inner), (118, 118, 120), base, c, 0.0)
            )
        else:
            out.append(
                Project("building", (oy, ox, oy + inner, ox + inner), (208, 198, 184), base, c, f)
            )
    return out


# -- observation schedules ------------------------------------------------------------------------
def observation_times(rng: random.Random, start: datetime, span_days: int) -> list[datetime]:
    """Irregular acquisition dates over the span: visits spread over the years, each a cluster of
    2–3 images a few days to a few months apart, so the pairs of one location cover every interval
    category from days to years. Times of day vary (satellite overpasses)."""
    anchors = sorted(rng.uniform(0, span_days - 120) for _ in range(rng.randint(5, 7)))
    days: set[int] = set()
    for a in anchors:
        d = a
        days.add(int(d))
        for _ in range(rng.randint(1, 2)):
            d += math.exp(rng.uniform(math.log(2), math.log(100)))
            days.add(int(d))
    return [
        start + timedelta(days=d, hours=rng.uniform(9, 12))
        for d in sorted(days)
        if 0 <= d < span_days
    ]
