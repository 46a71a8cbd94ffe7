"""SPAN generator: sizes, balance, determinism, stored programs (verify), the Islamic variant,
disputed days, and gold answers recomputed through independent libraries."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter

import pytest

from chronoeval import api
from chronoeval.core.errors import DataError
from chronoeval.core.registry import get_task
from chronoeval.suites.span.questions import SWEEP, questions_for_date

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # convertdate.hebrew

TASK = get_task("span")


def test_sizes_and_balance_for_one_date() -> None:
    qs = list(questions_for_date(dt.date(2000, 7, 1), seed=3))
    assert len(qs) == 1812
    meta = [q.metadata for q in qs]
    assert len({m["direction"] for m in meta}) == 10
    assert Counter(m["format"] for m in meta) == {"content": 906, "polar": 906}
    assert Counter(m["type"] for m in meta) == {"date": 1000, "festival": 812}
    polar = Counter(
        (q.metadata["direction"], q.metadata["type"], q.target)
        for q in qs
        if q.target in ("yes", "no")
    )
    for (d, t, _label), n in polar.items():
        assert abs(n - polar[(d, t, "yes" if _label == "no" else "no")]) <= 1, (d, t)
    kinds = Counter(q.metadata["candidate_kind"] for q in qs if q.target == "no")
    assert {"day+1", "day-1", "month+1", "month-1", "year+1", "year-1", "islamic_variant"} <= set(
        kinds
    )
    assert len({q.id for q in qs}) == len(qs)
    assert len(SWEEP) == 21 and SWEEP[0] == "1960-07-01" and SWEEP[-1] == "2060-07-01"


def test_deterministic_per_seed_and_verify_every_item() -> None:
    a = api.generate("span", params={"eval_dates": "1990-07-01"}, seed=5)
    b = api.generate("span", params={"eval_dates": "1990-07-01"}, seed=5, force=True)
    c = api.generate("span", params={"eval_dates": "1990-07-01"}, seed=6, force=True)
    assert a.content_hash == b.content_hash != c.content_hash
    for item in a.items:
        TASK.verify(item)
        assert item.metadata["program"]["op"] in ("convert", "equals")
        if "islamic" in item.metadata["direction"]:
            assert item.metadata["islamic_variant"] == "umm_al_qura"
    tampered = dataclasses.replace(a.items[0], target="chinese:1990-01-01")
    with pytest.raises(DataError, match="program gives"):
        TASK.verify(tampered)


def test_islamic_variant_switch_and_range() -> None:
    qs = list(
        questions_for_date(dt.date(1920, 7, 1), seed=0, types=("date",), formats=("content",))
    )
    # per item: Umm al-Qura wherever all its dates lie in its range (1924-08-01..), else tabular
    back = [q for q in qs if q.metadata["direction"] == "islamic->gregorian"]
    assert back and {q.metadata["islamic_variant"] for q in back} == {"tabular"}
    fwd = {
        q.metadata["islamic_variant"] for q in qs if q.metadata["direction"] == "gregorian->islamic"
    }
    assert fwd == {"tabular", "umm_al_qura"}
    with pytest.raises(DataError, match="islamic_variant"):
        list(questions_for_date(dt.date(1920, 7, 1), seed=0, islamic_variant="umm_al_qura"))
    tab = list(
        questions_for_date(
            dt.date(2000, 7, 1), seed=0, islamic_variant="tabular", formats=("content",)
        )
    )
    assert all("Islamic (tabular)" in q.text for q in tab if "islamic" in q.metadata["direction"])


def test_disputed_chinese_days_are_left_out_unless_asked() -> None:
    kw = {"seed": 0, "formats": ("content",)}
    plain = list(questions_for_date(dt.date(2057, 10, 20), **kw))
    full = list(questions_for_date(dt.date(2057, 10, 20), include_disputed=True, **kw))
    dropped = {q.id for q in full} - {q.id for q in plain}
    assert dropped and all("chinese" in i for i in dropped)
    assert any("days+3" in i for i in dropped)  # 2057-10-23 lies in the disputed window
    # none of the paper's 21 dates reaches the window
    for d in ("2055-07-01", "2060-07-01"):
        day = dt.date.fromisoformat(d)
        assert len(list(questions_for_date(day, **kw))) == 906


def test_gold_against_independent_libraries() -> None:
    """Day/week-offset content items to and from Hebrew, Persian, Shaka, tabular Islamic and
    Chinese, recomputed with convertdate / lunar_python instead of the backends."""
    from convertdate import hebrew, indian_civil, islamic, persian
    from lunar_python import Solar

    libs = {"hebrew": hebrew, "persian": persian, "shaka": indian_civil, "islamic": islamic}
    qs = questions_for_date(
        dt.date(2030, 7, 1),
        seed=0,
        types=("date",),
        formats=("content",),
        islamic_variant="tabular",
    )
    checked = Counter()
    for q in qs:
        m = q.metadata
        if m["unit"] == "years" or (m["source"] == "chinese" and checked["chinese"] >= 8):
            continue
        days = m["n"] * (7 if m["unit"] == "weeks" else 1)
        day = dt.date(2030, 7, 1) + dt.timedelta(days=days)
        other = m["calendar"]
        if m["target"] == "gregorian":
            want = f"gregorian:{day.isoformat()}"
        elif other == "chinese":
            lunar = Solar.fromYmd(day.year, day.month, day.day).getLunar()
            mm = lunar.getMonth()
            want = f"chinese:{lunar.getYear():04d}-{'L' if mm < 0 else ''}{abs(mm):02d}-{lunar.getDay():02d}"
        else:
            y, mo, d = libs[other].from_gregorian(day.year, day.month, day.day)
            want = f"{'islamic_tabular' if other == 'islamic' else other}:{y:04d}-{mo:02d}-{d:02d}"
        assert q.target == want, q.id
        checked[other] += 1
    assert set(checked) == set(libs) | {"chinese"}
