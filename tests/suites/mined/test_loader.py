"""Loading the released MINED files: every file and sample, tolerant answers, images root,
missing images, text-only runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval.core.errors import DataError
from chronoeval.core.registry import get_task, suite_tasks
from chronoeval.suites.mined.knowledge import PartialDate, parse_attribute
from chronoeval.suites.mined.released import SUBTASK_FILES
from suites.mined.mined_helpers import PEERS, placeholder_images, write_sample_file

needs_release = pytest.mark.skipif(not PEERS.is_dir(), reason="released MINED data not present")


def test_answers_parser_tolerant() -> None:
    a = parse_attribute("Tim Cook |S: +2011-00-00T00:00:00Z")
    assert (a.name, a.start, a.end) == ("Tim Cook", PartialDate(2011), None)
    a = parse_attribute("Grêmio |S:+2003-00-00T00:00:00Z |E:+2003-12-31T00:00:00Z")
    assert a.start == PartialDate(2003) and a.end == PartialDate(2003, 12, 31)
    a = parse_attribute("Scuderia Toro Rosso |S: +2019-08-12T00:00:00Z |E +2023-00-00T00:00:00Z")
    assert a.start == PartialDate(2019, 8, 12) and a.end == PartialDate(2023)
    a = parse_attribute("Felipe Calderón |E: +2012-12-01T00:00:00Z")
    assert a.start is None and a.end == PartialDate(2012, 12, 1)
    a = parse_attribute("Portugal |S: +2003-00-00T00:00:00Z |P: +2021-06-27T00:00:00Z")
    assert a.start == PartialDate(2003) and a.end == PartialDate(2021, 6, 27)
    a = parse_attribute("Jacques Nasser |S:  +1999-01-00T00:00:00Z  |E: +2001-10-00T00:00:00Z ")
    assert a.start == PartialDate(1999, 1) and str(a.end) == "2001-10"
    for bad in ("", " |S: +2011-00-00T00:00:00Z", "X |Q: +2011-00-00T00:00:00Z", "X |S: soon"):
        with pytest.raises(ValueError):
            parse_attribute(bad)


@needs_release
def test_every_released_file_and_sample_loads(tmp_path: Path) -> None:
    total_items, samples = 0, set()
    opts = {"images_root": str(tmp_path), "allow_missing_images": True}
    for name in suite_tasks("mined"):
        task = get_task(name)
        items = list(task.load(PEERS, opts))
        raw = json.loads((PEERS / SUBTASK_FILES[task.subtask]).read_text())
        assert len(items) == 4 * len(raw)
        total_items += len(items)
        samples |= {(name, b.item.metadata["sample"]) for b in items}
        for b in items[:8]:
            task.validate(b.item)
            assert b.item.metadata["text_only"] and not b.item.images
    assert total_items == 4 * 2104 and len(samples) == 2104


@needs_release
def test_name_cards_replace_missing_photos() -> None:
    items = list(get_task("mined_ranking").load(PEERS, {"image_source": "name_card"}))
    assert all(b.item.metadata["image_kind"] == "name_card" and b.item.images for b in items)
    assert items[0].images  # the card's PNG bytes travel with the item
    task = get_task("mined_ranking")
    for b in items:
        task.verify(b.item)  # released gold is one of the sample's own answers
    wrong = b.item.__class__(**{**b.item.__dict__, "target": "Somebody Else"})
    with pytest.raises(DataError, match="not what a ranking sample"):
        task.verify(wrong)


@needs_release
def test_missing_images_one_error_then_text_only(tmp_path: Path) -> None:
    task = get_task("mined_ranking")
    with pytest.raises(DataError) as err:
        list(task.load(PEERS, {"images_root": str(tmp_path)}))
    msg = str(err.value)
    n_refs = len(
        {
            x[k]
            for x in json.loads((PEERS / SUBTASK_FILES["ranking"]).read_text())
            for k in ("image", "paraphrase_image")
        }
    )
    assert f"{n_refs} of {n_refs} images" in msg and "Dimension5_ranking.json" in msg
    items = list(task.load(PEERS, {"images_root": str(tmp_path), "allow_missing_images": "true"}))
    assert all(b.item.metadata["text_only"] and not b.item.images for b in items)


@needs_release
def test_images_root_with_placeholders(tmp_path: Path) -> None:
    task = get_task("mined_calculation")
    root = placeholder_images(tmp_path / "imgs", [SUBTASK_FILES["calculation"]])
    items = list(task.load(PEERS, {"images_root": str(root)}))
    first = items[0].item
    assert (
        first.images[0].path
        == "images/"
        + first.metadata["subject"].replace(" ", "_")
        + "/"
        + (json.loads((PEERS / SUBTASK_FILES["calculation"]).read_text())[0]["image"].split("/")[1])
    )
    assert not any(b.item.metadata["text_only"] for b in items)
    # image first, then the released prompt text
    assert first.messages[0].content[1].text.startswith("System Prompt: You are a knowledgeable")


def test_bad_sample_names_file_item_field(tmp_path: Path) -> None:
    path = write_sample_file(tmp_path, "timestamp", answers=["Tim Cook |S: +20x1-00-00"])
    with pytest.raises(DataError) as err:
        list(get_task("mined_timestamp").load(path, {"allow_missing_images": True}))
    assert "answers[0]" in str(err.value) and path.name in str(err.value)
    path = write_sample_file(tmp_path, "timestamp", drop="current_answer")
    with pytest.raises(DataError, match="current_answer"):
        list(get_task("mined_timestamp").load(path, {"allow_missing_images": True}))
    path = write_sample_file(tmp_path, "timestamp", eval_type="ranking")
    with pytest.raises(DataError, match="eval_type"):
        list(get_task("mined_timestamp").load(path, {"allow_missing_images": True}))
