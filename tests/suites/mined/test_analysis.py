"""Aggregation per sample (released rules), agreement, Latest/Outdated/Irrelevant, yes/no leakage,
the LLM judge pass, the suite table, and regenerated questions checked by their stored programs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.answers import NoAnswer
from chronoeval.core.registry import get_task
from chronoeval.core.task import SampleRecord
from chronoeval.suites.mined.commands import suite_table
from chronoeval.suites.mined.itembuild import CONFIG_NAMES
from chronoeval.suites.mined.judge import parse_judge
from chronoeval.suites.mined.metrics import aggregate_mined, loi_label, record_scores
from suites.mined.mined_helpers import PEERS


def records(sample: str, gold: str, outputs: list[str], **meta) -> list[SampleRecord]:
    out = []
    for config, text in zip(CONFIG_NAMES, outputs, strict=True):
        scores = record_scores(text, gold)
        md = {"sample": sample, "config": config, "type": meta.get("type", "company"), **meta}
        out.append(SampleRecord(f"{sample}-{config}", "mined_x", md, gold, "answered", text,
                                scores=scores))  # fmt: skip
    return out


def test_aggregate_regroups_per_sample_like_the_release() -> None:
    recs = records("s1", "Tim Cook", ["Tim Cook", "tim cook.", "", "Steve Jobs"])
    recs += records("s2", "Tim Cook", ["", "", "", ""])
    recs += records("s3", "Yes", ["Yes", "No, yes", "Yes", "Yes"], type="sport")
    m = aggregate_mined(recs)
    # s1: (1 + 1 + 0) / 3; s2: all empty -> 0; s3: 4/4
    assert m["overall"]["cem"]["value"] == pytest.approx((2 / 3 + 0 + 1) / 3)
    assert m["by_type"]["company"]["cem"]["value"] == pytest.approx(1 / 3)
    assert m["by_config"]["image_mm_paraphrase_completion"]["n_empty"] == 2
    # agreement only over samples with four non-empty outputs: s3 (all right) -> 1 of 1
    assert m["agreement"]["agree"]["value"] == 1.0 and m["agreement"]["agree"]["n"] == 1
    # leakage: 1 of the 7 non-empty outputs (3 + 0 + 4) says both yes and no
    assert m["yes_no_leak"]["value"] == pytest.approx(1 / 7)
    assert m["counts"]["samples_all_empty"] == 1 and m["counts"]["empty"] == 5


def test_latest_outdated_irrelevant() -> None:
    names = ["Steve Jobs", "Tim Cook"]
    assert loi_label(["I think Tim Cook"], "Tim Cook", names) == "latest"
    assert loi_label(["Steve Jobs.", "no idea"], "Tim Cook", names) == "outdated"
    assert loi_label(["Bill Gates"], "Tim Cook", names) == "irrelevant"
    recs = records("t1", "Tim Cook", ["Steve Jobs", "Jobs", "", "x"], names=names,
                   subtask="time_agnostic")  # fmt: skip
    m = aggregate_mined(recs)
    assert m["loi"]["outdated"]["value"] == 1.0


def test_task_parse_empty_is_no_answer_and_judge_parser() -> None:
    task = get_task("mined_timestamp")
    assert isinstance(task.parse("  \n", None), NoAnswer)  # type: ignore[arg-type]
    assert task.parse(" Tim Cook ", None) == " Tim Cook "  # type: ignore[arg-type]
    assert parse_judge("0.85") == 0.85 and parse_judge("Score: 1.0") == 1.0
    assert isinstance(parse_judge("high"), NoAnswer) and isinstance(parse_judge("7"), NoAnswer)


def test_judge_pass_over_a_run_is_cached(tmp_path: Path) -> None:
    from suites.mined.mined_helpers import write_sample_file

    data = write_sample_file(tmp_path, "timestamp")
    run = api.run(["mined_timestamp"], "constant:Michael Scott", data=data, run_dir=tmp_path / "r",
                  params={"image_source": "name_card"}, progress=False, plots=False)  # fmt: skip
    assert run.results["tasks"]["mined_timestamp"]["metrics"]["overall"]["cem"]["value"] == 1.0
    judged = api.run(["mined_judge"], "constant:0.5", data=tmp_path / "r", run_dir=tmp_path / "j",
                     progress=False, plots=False)  # fmt: skip
    entry = judged.results["tasks"]["mined_judge"]
    assert entry["counts"]["answered"] == 4
    assert entry["metrics"]["overall"]["judge"]["value"] == 0.5
    again = api.run(["mined_judge"], "constant:0.5", data=tmp_path / "r", run_dir=tmp_path / "j",
                    progress=False, plots=False)  # fmt: skip
    assert again.summaries["mined_judge"].called == 0  # every judge reply came from the store
    table = suite_table([run.results])
    assert table["subtasks"]["timestamp"]["cem"] == 1.0 and not table["complete"]
    assert table["dimensions"]["cognition"]["cem"] == 1.0


@pytest.mark.skipif(not PEERS.is_dir(), reason="released MINED data not present")
@pytest.mark.parametrize("subtask", ["timestamp", "understanding", "ranking", "robustness"])
def test_regenerated_questions_verify_and_depend_on_seed(subtask: str) -> None:
    task = get_task(f"mined_{subtask}")
    params = {**task.default_params, "knowledge": str(PEERS), "n": 3, "cutoff": "2030-01-01"}
    a = [b.item for b in task.build(params, 1)]
    b = [x.item for x in task.build(params, 2)]
    assert len(a) == 12 and all(i.metadata["image_kind"] == "name_card" for i in a)
    for item in a:
        task.verify(item)  # the stored program gives the stored gold
    assert [i.messages[0].content[-1].text for i in a] != [
        i.messages[0].content[-1].text for i in b
    ]
    bad = a[0].__class__(**{**a[0].__dict__, "target": "Nobody"})
    with pytest.raises(Exception, match="program gives"):
        task.verify(bad)


def test_regenerated_from_user_knowledge_file(tmp_path: Path) -> None:
    kfile = tmp_path / "k.jsonl"
    kfile.write_text(json.dumps({
        "subject": "Zorbia", "hypernym": "country", "property": "the President of",
        "type": "country", "attributes": [
            {"name": "Ann Ames", "start": "1990", "end": "2000"},
            {"name": "Bo Bell", "start": "2000-05", "end": "2012"},
            "Cy Cole |S: +2012-00-00T00:00:00Z",
        ],
    }) + "\n")  # fmt: skip
    for sub, gold in [("time_agnostic", "Cy Cole"), ("previous_unanswerable_date", "unknown"),
                      ("future_unanswerable_date", "unknown")]:  # fmt: skip
        task = get_task(f"mined_{sub}")
        items = [b.item for b in task.build({**task.default_params, "knowledge": str(kfile)}, 0)]
        assert len(items) == 4 and {i.target for i in items} == {gold}
        task.verify(items[0])
    q = items[0].messages[0].content[-1].text
    assert "the President of the country in the image" in q
