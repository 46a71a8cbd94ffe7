"""Calendar backends against the issue's fixture and, day by day 1900–2100, against independent
implementations (lunar_python, convertdate.hebrew, convertdate.persian, the official Shaka rule,
the tabular-Islamic formula). Known disagreements are asserted exactly, so they cannot grow or
hide (they are listed in docs/suites/span.md)."""

from __future__ import annotations

import calendar as stdcal
import datetime as dt
import math

import pytest

from chronoeval.suites.span.calendars import (
    CalDate,
    CalendarError,
    festival_date,
    festival_in_gregorian_year,
    get_calendar,
    get_festival,
    search_calendar,
    shift_years,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # convertdate.hebrew

# The issue's fixture, verbatim: July 1st -> Chinese (L = leap month), Islamic Umm al-Qura /
# tabular, Hebrew (Nisan = 1), Persian, Shaka.
FIXTURE = """
1960-07-01 → 1960-6-8, 1380-1-7 / 1380-1-6, 5720-4-6, 1339-4-10, 1882-4-10
1990-07-01 → 1990-5-9 L, 1410-12-9 / 1410-12-7, 5750-4-8, 1369-4-10, 1912-4-10
2000-07-01 → 2000-5-30, 1421-3-29 / 1421-3-28, 5760-3-28, 1379-4-11, 1922-4-10
2030-07-01 → 2030-6-1, 1452-2-30 / 1452-2-29, 5790-3-30, 1409-4-10, 1952-4-10
2060-07-01 → 2060-6-4, 1483-2-3 / 1483-2-2, 5820-4-3, 1439-4-11, 1982-4-10
"""


def _fixture_rows() -> list[tuple[str, str, CalDate]]:
    rows = []
    for line in FIXTURE.strip().splitlines():
        g, rest = line.split(" → ")
        chinese, islamic, hebrew, persian, shaka = (s.strip() for s in rest.split(","))
        uq, tab = (s.strip() for s in islamic.split("/"))
        leap = chinese.endswith(" L")
        for cal, text in (
            ("chinese", chinese.removesuffix(" L")),
            ("islamic_umalqura", uq),
            ("islamic_tabular", tab),
            ("hebrew", hebrew),
            ("persian", persian),
            ("shaka", shaka),
        ):
            y, m, d = (int(x) for x in text.split("-"))
            rows.append((g, cal, CalDate(cal, y, m, d, leap and cal == "chinese")))
    return rows


@pytest.mark.parametrize(("greg", "cal", "expected"), _fixture_rows())
def test_issue_fixture(greg: str, cal: str, expected: CalDate) -> None:
    assert search_calendar("gregorian", cal, date=greg) == expected.iso()
    assert search_calendar(cal, "gregorian", date=expected.iso()) == greg


# -- independent implementations, as tables of month starts -------------------------------------
G0, G1 = dt.date(1900, 1, 1).toordinal(), dt.date(2100, 12, 31).toordinal()
JD_OFFSET = 1721424.5  # ordinal = jd - JD_OFFSET (jd at midnight)

Months = list[tuple[int, int, int, bool, int]]  # (first ordinal, year, month, leap, length)


def chinese_months() -> Months:
    from lunar_python import LunarYear

    out = []
    for y in range(1899, 2102):
        for m in LunarYear.fromYear(y).getMonths():
            if m.getYear() == y:
                start = int(m.getFirstJulianDay()) - 1721425  # JD at noon
                out.append((start, y, abs(m.getMonth()), m.isLeap(), m.getDayCount()))
    return out


def hebrew_months() -> Months:
    from convertdate import hebrew

    out = []
    for y in range(5659, 5863):
        order = [*range(7, hebrew.year_months(y) + 1), *range(1, 7)]
        for m in order:
            start = int(hebrew.to_jd(y, m, 1) - JD_OFFSET)
            out.append((start, y, m, False, hebrew.month_length(y, m)))
    return out


def _jalali_march_day(jy: int) -> tuple[bool, int]:
    """Borkowski's algorithm (as in jalaali-js): (leap?, day of March of 1 Farvardin). Matches the
    astronomical calendar over 1800–2256; independent of jdatetime's 33-year rule."""
    breaks = [-61, 9, 38, 199, 426, 686, 756, 818, 1111, 1181, 1210, 1635, 2060, 2097, 2192,
              2262, 2324, 2394, 2456, 3178]  # fmt: skip

    def div(a: int, b: int) -> int:
        return int(a / b)

    def mod(a: int, b: int) -> int:
        return a - div(a, b) * b

    gy, leap_j, jp, jump = jy + 621, -14, breaks[0], 0
    for jm in breaks[1:]:
        jump = jm - jp
        if jy < jm:
            break
        leap_j += div(jump, 33) * 8 + div(mod(jump, 33), 4)
        jp = jm
    n = jy - jp
    leap_j += div(n, 33) * 8 + div(mod(n, 33) + 3, 4)
    if mod(jump, 33) == 4 and jump - n == 4:
        leap_j += 1
    leap_g = div(gy, 4) - div((div(gy, 100) + 1) * 3, 4) - 150
    march = 20 + leap_j - leap_g
    if jump - n < 6:
        n = n - jump + div(jump + 4, 33) * 33
    leap = mod(mod(n + 1, 33) - 1, 4)
    return leap in (0,), march


def persian_months() -> Months:
    out = []
    for y in range(1278, 1481):
        leap, march = _jalali_march_day(y)
        start = dt.date(y + 621, 3, march).toordinal()
        for m in range(1, 13):
            n = 31 if m <= 6 else 30 if m <= 11 else (30 if leap else 29)
            out.append((start, y, m, False, n))
            start += n
    return out


def shaka_months() -> Months:
    """The official rule (Calendar Reform Committee, 1957): Saka year Y starts on 22 March of
    Gregorian year Y + 78 (21 March in a Gregorian leap year); Chaitra 30 days (31 in a leap
    year), Vaishakha..Bhadra 31, Ashvin..Phalguna 30."""
    out = []
    for y in range(1820, 2024):
        gy = y + 78
        start = dt.date(gy, 3, 21 if stdcal.isleap(gy) else 22).toordinal()
        for m in range(1, 13):
            n = (31 if stdcal.isleap(gy) else 30) if m == 1 else (31 if m <= 6 else 30)
            out.append((start, y, m, False, n))
            start += n
    return out


def tabular_months() -> Months:
    """Tabular Islamic calendar, civil epoch (16 July 622 Julian = JD 1948439.5), leap years
    where (14 + 11 y) mod 30 < 11 (Reingold & Dershowitz, Calendrical Calculations)."""
    out = []
    for y in range(1317, 1525):
        for m in range(1, 13):
            jd = (
                1948439.5
                + (y - 1) * 354
                + math.floor((3 + 11 * y) / 30)
                + math.ceil(29.5 * (m - 1))
            )
            n = 30 if m % 2 == 1 or (m == 12 and (14 + 11 * y) % 30 < 11) else 29
            out.append((int(jd - JD_OFFSET), y, m, False, n))
    return out


def day_table(months: Months) -> dict[int, tuple[int, int, int, bool]]:
    return {
        start + d: (y, m, d + 1, leap)
        for start, y, m, leap, n in months
        for d in range(n)
        if G0 <= start + d <= G1
    }


def disagreements(name: str, months: Months, lo: int = G0, hi: int = G1) -> list[int]:
    cal = get_calendar(name)
    table = day_table(months)
    bad = []
    for o in range(lo, hi + 1):
        d = cal.from_ordinal(o)
        if table.get(o) != (d.year, d.month, d.day, d.leap):
            bad.append(o)
    return bad


def iso(o: int) -> str:
    return dt.date.fromordinal(o).isoformat()


def test_chinese_day_by_day_vs_lunar_python() -> None:
    bad = disagreements("chinese", chinese_months())
    # the one known window: sxtwl starts month 9 of 2057 on 09-28, lunar_python on 09-29 … and
    # month 10 likewise one day apart (documented; generation excludes these days)
    assert (iso(bad[0]), iso(bad[-1]), len(bad)) == ("2057-09-28", "2057-10-27", 30)


def test_hebrew_day_by_day_vs_convertdate() -> None:
    assert disagreements("hebrew", hebrew_months()) == []


def test_persian_day_by_day_vs_borkowski() -> None:
    bad = disagreements("persian", persian_months())
    # convertdate.persian (astronomical equinox) also agreed with jdatetime on every day
    # 1900–2100 when measured once (66 s; too slow to keep here): see docs/suites/span.md
    assert bad == []


def test_shaka_day_by_day_vs_official_rule() -> None:
    assert disagreements("shaka", shaka_months()) == []


def test_tabular_islamic_day_by_day_vs_formula() -> None:
    assert disagreements("islamic_tabular", tabular_months()) == []


def test_umm_al_qura_within_range_is_sane() -> None:
    """No second Umm al-Qura implementation is installed: check hijridate's table for structure
    (29/30-day months, within 3 days of the tabular calendar) on every day of its range."""
    uq, tab = get_calendar("islamic_umalqura"), get_calendar("islamic_tabular")
    lo, hi = dt.date(1924, 8, 1).toordinal(), dt.date(2077, 11, 16).toordinal()
    for o in range(lo, hi + 1):
        d = uq.from_ordinal(o)
        t = tab.to_ordinal(CalDate("islamic_tabular", d.year, d.month, min(d.day, 29)))
        assert abs(t - (o if d.day <= 29 else o - 1)) <= 3, iso(o)
    odd = [
        (y, m, uq.month_length(y, m))
        for y in range(1343, 1501)
        for m in range(1, 13)
        if uq.month_length(y, m) not in (29, 30)
    ]
    # the historical Umm al-Qura tables (1343–1364 AH, 1924–1945) have 28- and 31-day months
    assert odd == KNOWN_IRREGULAR_UQ_MONTHS


KNOWN_IRREGULAR_UQ_MONTHS = [
    (1343, 9, 28),
    (1345, 5, 31),
    (1345, 8, 28),
    (1348, 11, 31),
    (1348, 12, 28),
    (1349, 10, 28),
    (1349, 11, 31),
    (1364, 8, 28),
]


def test_round_trip_every_day() -> None:
    for name in ("gregorian", "chinese", "hebrew", "persian", "shaka", "islamic_tabular"):
        cal = get_calendar(name)
        for o in range(G0, G1 + 1, 7):
            assert cal.to_ordinal(cal.from_ordinal(o)) == o, (name, iso(o))


# -- edge cases the issue names ----------------------------------------------------------------
def test_chinese_new_years_eve_on_29th_in_41_of_101_years() -> None:
    cal = get_calendar("chinese")
    eves = [
        festival_date(get_festival("Chinese New Year's Eve"), y, "chinese")
        for y in range(1960, 2061)
    ]
    assert sum(e.day == 29 for e in eves) == 41
    for e in eves:  # the eve is always the day before the next Spring Festival
        nxt = festival_date(get_festival("Spring Festival"), e.year + 1, "chinese")
        assert cal.to_ordinal(nxt) - cal.to_ordinal(e) == 1


def test_2033_has_leap_month_11() -> None:
    cal = get_calendar("chinese")
    assert cal.leap_month(2033) == 11
    assert search_calendar("chinese", "gregorian", date="2033-L11-01") == "2033-12-22"
    assert search_calendar("gregorian", "chinese", date="2033-12-22") == "2033-L11-01"


@pytest.mark.parametrize("year", [1968, 2000, 2033])
def test_two_eids_in_one_gregorian_year(year: int) -> None:
    days = festival_in_gregorian_year(get_festival("Eid al-Fitr"), year, "islamic_umalqura")
    assert len(days) == 2 and days[1].year == days[0].year + 1
    assert len(festival_in_gregorian_year(get_festival("Eid al-Fitr"), year + 1, "islamic")) == 1


def test_year_shift_edges() -> None:
    leap = CalDate("chinese", 1990, 5, 9, True)
    assert shift_years(leap, 1) == (CalDate("chinese", 1991, 5, 9), ["leap_month_to_regular"])
    d30 = CalDate("chinese", 2000, 5, 30)  # 2002's 5th month has 29 days
    assert get_calendar("chinese").month_length(2002, 5) == 29
    assert shift_years(d30, 2) == (CalDate("chinese", 2002, 5, 29), ["clamped_day"])
    uq = get_calendar("islamic_umalqura")
    n = next(k for k in range(1, 10) if uq.month_length(1452 + k, 2) == 29)
    assert shift_years(CalDate("islamic_umalqura", 1452, 2, 30), n) == (
        CalDate("islamic_umalqura", 1452 + n, 2, 29),
        ["clamped_day"],
    )
    assert shift_years(CalDate("hebrew", 5783, 12, 14), 1) == (
        CalDate("hebrew", 5784, 13, 14),
        ["adar"],
    )
    assert shift_years(CalDate("hebrew", 5784, 13, 14), 1) == (
        CalDate("hebrew", 5785, 12, 14),
        ["adar"],
    )
    assert shift_years(CalDate("gregorian", 2000, 2, 29), 1)[0] == CalDate("gregorian", 2001, 2, 28)


def test_purim_in_adar_ii_of_leap_years_and_shaka_national_days() -> None:
    assert festival_date(get_festival("Purim"), 5784, "hebrew") == CalDate("hebrew", 5784, 13, 14)
    assert search_calendar("hebrew", "gregorian", festival="Purim", year=5784) == "2024-03-24"
    for y in range(1900, 2000):  # the gazette's Saka dates fall on the same Gregorian day yearly
        assert (
            search_calendar("shaka", "gregorian", festival="Republic Day", year=y)[4:] == "-01-26"
        )
        assert (
            search_calendar("shaka", "gregorian", festival="Independence Day", year=y)[4:]
            == "-08-15"
        )
        assert (
            search_calendar("shaka", "gregorian", festival="Gandhi Jayanti", year=y)[4:] == "-10-02"
        )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"source": "gregorian", "target": "hebrew", "date": "2001-02-30"},
            "has 28 days, not day 30",
        ),
        ({"source": "hebrew", "target": "gregorian", "date": "5760-14-01"}, "has no month 14"),
        ({"source": "hebrew", "target": "gregorian", "date": "5783-13-01"}, "has no month 13"),
        ({"source": "islamic", "target": "gregorian", "date": "1520-01-01"}, "outside"),
        ({"source": "gregorian", "target": "islamic", "date": "1900-01-01"}, "outside"),
        ({"source": "gregorian", "target": "chinese", "date": "2150-01-01"}, "outside"),
        ({"source": "chinese", "target": "gregorian", "date": "2000-L04-01"}, "no leap month 4"),
        ({"source": "chinese", "target": "gregorian", "date": "2000-12-30"}, "not day 30"),
        ({"source": "mayan", "target": "gregorian", "date": "2001-01-01"}, "unknown calendar"),
        (
            {"source": "hebrew", "target": "gregorian", "festival": "Diwali", "year": 5760},
            "unknown festival",
        ),
        (
            {"source": "hebrew", "target": "gregorian", "festival": "Nowruz", "year": 5760},
            "persian festival",
        ),
        ({"source": "hebrew", "target": "gregorian", "festival": "Purim"}, "needs year"),
        ({"source": "hebrew", "target": "gregorian", "date": "5760/03/28"}, "YYYY-MM-DD"),
    ],
)
def test_bad_input_is_a_clear_error(kwargs: dict, message: str) -> None:
    with pytest.raises(CalendarError, match=message):
        search_calendar(**kwargs)
