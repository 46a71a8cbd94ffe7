"""The nine tasks and the recognition control on generated collections: golds re-derived here
from the stored timestamps by independent code, balance, verify, and the reference agent."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.registry import get_task, suite_tasks

NINE = ["tp_tal", "tp_isr", "tp_sov", "tp_pov", "tp_tpl", "tp_ice", "tp_pic", "tp_ipr", "tp_eii"]
SMALL = {"n_locations": 25}


def _days(item) -> list[int]:  # noqa: ANN001
    return [datetime.fromisoformat(t).date().toordinal() for t in item.metadata["facts"]["times"]]


def _independent_gold(task: str, item):  # noqa: ANN001, ANN202
    f = item.metadata["facts"]
    t, locs, d = f["times"], f["locations"], _days(item)
    if task == "tp_isr":
        return [str(i + 1) for i, _ in sorted(enumerate(t), key=lambda p: p[1])]
    if task in ("tp_sov", "tp_pov"):
        return t == sorted(t) and len(set(t)) == len(t)
    if task == "tp_tal":
        odd = [i for i, loc in enumerate(locs) if locs.count(loc) == 1]
        if odd:
            return odd[0] + 1
        for i in range(5):
            rest = t[:i] + t[i + 1 :]
            if rest == sorted(rest):
                return i + 1
    if task == "tp_tpl":
        return 2 if t[0] < t[3] < t[1] else 4
    spans = [abs(d[i + 1] - d[i]) for i in range(0, len(d), 2)]
    if task == "tp_ice":
        s = spans[0]
        return "A" if s <= 30 else "B" if s <= 90 else "C" if s <= 365 else "D" if s <= 730 else "E"
    if task == "tp_pic":
        return spans[0] > spans[1]
    if task == "tp_ipr":
        return [c for _, c in sorted(zip(spans, "ABC", strict=True))]
    if task == "tp_eii":
        return "ABCD"[spans.index(max(spans))]
    raise AssertionError(task)


@pytest.mark.parametrize("task", NINE)
def test_gold_matches_independent_derivation_and_verify(task: str) -> None:
    ds = api.generate(task, n=20, seed=1, params=SMALL)
    t = get_task(task)
    for item in ds.items:
        assert item.target == _independent_gold(task, item), item.id
        t.verify(item)
        assert len(item.images) == {
            "tp_pov": 2,
            "tp_ice": 2,
            "tp_tpl": 4,
            "tp_pic": 4,
            "tp_ipr": 6,
            "tp_eii": 8,
        }.get(task, 5)
        text = item.messages[0].text
        assert "Answer" in text  # every prompt states its answer format
        for secret in item.metadata["facts"]["times"]:
            assert secret[:10] not in text


def test_verify_catches_a_wrong_gold() -> None:
    from dataclasses import replace

    from chronoeval.core.errors import DataError

    item = api.generate("tp_pov", n=2, seed=1, params=SMALL).items[0]
    with pytest.raises(DataError, match="target"):
        get_task("tp_pov").verify(replace(item, target=not item.target))


def test_balance() -> None:
    ice = api.generate("tp_ice", n=20, seed=1, params=SMALL).items
    assert sorted(i.target for i in ice) == sorted("ABCDE" * 4)
    eii = api.generate("tp_eii", n=20, seed=1, params=SMALL).items
    assert sorted(i.target for i in eii) == sorted("ABCD" * 5)
    for task in ("tp_sov", "tp_pov", "tp_pic"):
        items = api.generate(task, n=20, seed=1, params=SMALL).items
        assert sum(i.target for i in items) == 10, task
    tal = api.generate("tp_tal", n=20, seed=1, params=SMALL).items
    assert {i.metadata["anomaly"] for i in tal} == {"temporal", "location"}


def test_train_and_test_splits_use_disjoint_locations() -> None:
    locs = {}
    for split in ("train", "test"):
        ds = api.generate("tp_isr", n=30, seed=1, params={**SMALL, "split": split})
        locs[split] = {loc for i in ds.items for loc in i.metadata["facts"]["locations"]}
    assert locs["train"] and locs["test"] and not locs["train"] & locs["test"]


def test_suite_lists_nine_tasks_and_the_control() -> None:
    assert sorted(suite_tasks("timepercept")) == sorted([*NINE, "tp_recognition"])


def test_reference_agent_beats_chance_random_does_not(tmp_path: Path) -> None:
    """The synthetic signal is real: the pixel-reading agent is far above chance on order tasks,
    the random baseline is near chance."""
    tasks = ["tp_pov", "tp_isr", "tp_eii", "tp_recognition"]
    ref = api.run(
        tasks,
        "reference",
        n=40,
        seed=2,
        params=SMALL,
        run_dir=tmp_path / "r",
        progress=False,
        plots=True,
    )
    m = {k: v["metrics"]["overall"] for k, v in ref.results["tasks"].items()}
    assert m["tp_pov"]["accuracy"]["value"] >= 0.75
    assert m["tp_isr"]["pnr"]["infinite"] or m["tp_isr"]["pnr"]["value"] > 3
    assert m["tp_eii"]["accuracy"]["value"] >= 0.4
    assert m["tp_recognition"]["accuracy"]["value"] >= 0.8
    assert (tmp_path / "r" / "plots" / "tp_isr_by_span.png").is_file()
    rnd = api.run(
        ["tp_isr"],
        "random",
        n=40,
        seed=2,
        params=SMALL,
        run_dir=tmp_path / "x",
        progress=False,
        plots=False,
    )
    pnr = rnd.results["tasks"]["tp_isr"]["metrics"]["overall"]["pnr"]
    assert pnr["ci95"][0] < 1.0 < pnr["ci95"][1]
    t = get_task("tp_isr")
    assert t.chance({}) == 1.0 and t.headline(rnd.results["tasks"]["tp_isr"]["metrics"])[0] == "PNR"
