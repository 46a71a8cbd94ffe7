"""The headline metrics equal the seeds' RELEASED scorers on the same replies.

The released code is run itself, read in place from /work/shared/peers (never copied): ChronoVision's
``shortcut_test.py`` (its ``process_category`` posts to the scripted OpenAI-compatible server of
tests/openai_stub.py on 127.0.0.1 and writes its result files) + ``get_acc_shortcut.py``; ``get_acc_news.py`` on year result
files in its own layout; MINED's ``eval_code/cem_f1.py`` with the released ``tools.py`` VQAEval.
chronoeval's task ``parse``/``score``/``aggregate`` (or prediction-file scorer) runs on the same
replies; the numbers must agree within 0.01 (counts exactly).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from chronoeval.core.items import Item
from chronoeval.core.registry import get_task
from chronoeval.core.task import SampleRecord
from openai_stub import chat_reply, openai_stub

PEERS = Path("/work/shared/peers")
CV_CODE = PEERS / "chronovision" / "released_code" / "code"
MINED_CODE = PEERS / "mined" / "released_code" / "eval_code"
CORPUS = Path(__file__).parents[1] / "reply_corpus"

pytestmark = pytest.mark.skipif(
    not CV_CODE.is_dir() or not MINED_CODE.is_dir(), reason="released code not present"
)


def _needs_released_script_deps() -> None:
    """The released ChronoVision scripts import requests and tqdm (installed here through the
    ray/hf extras that CI installs)."""
    pytest.importorskip("requests", reason="the released script imports requests")
    pytest.importorskip("tqdm", reason="the released script imports tqdm")


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _corpus(task: str) -> list[str]:
    lines = (CORPUS / f"{task}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["reply"] for line in lines if line.strip()]


# Replies shaped like Qwen/GPT/Gemini answers to the release's shortcut prompt (JSON mode or not).
SHORTCUT_EXTRA = [
    '{\n  "thinking": "Image 1 is black and white with film grain; Image 2 shows a flat-screen '
    'TV.",\n  "answer": "1"\n}',
    '{"thinking": "Both are grayscale; the car in Image 2 has tail fins (1950s).", "answer": "2"}',
    'Here is my analysis:\n```json\n{"thinking": "The uniforms...", "answer": "2"}\n```',
    '{"thinking": "Image 1 shows a smartphone.", "answer": "Image 2"}',
    '{"thinking": "...", "answer": "2"} The second photo is older.',
    "Image 2 appeared earlier: the clothing is from the 1920s.",
    '{"answer": "1", "thinking": "colour photo is newer"}',
    '{"thinking": "hard to say", "answer": ""}',
    '{"thinking": "...", "answer": null}',
    '[{"answer": "1"}]',
]


def _tiny_image(path: Path, shade: int) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (32, 32), (shade, shade, shade)).save(path)


def test_shortcut_headline_equals_released_script(tmp_path: Path) -> None:
    _needs_released_script_deps()
    replies = _corpus("seeing_shortcut") + _corpus("seeing_shortcut_cot") + SHORTCUT_EXTRA
    golds = [1 + (i * 7 % 3 == 0) for i in range(len(replies))]  # a mix of 1s and 2s
    base = tmp_path / "images"
    cat = base / "sports_images"
    answers, mapping = {}, {}
    for i, gold in enumerate(golds):
        test_id = f"test{i + 1}"
        answers[test_id] = gold
        for year, name in ((1950, "a"), (1990, "b")):
            mapping[f"{test_id}/{name}_{year}.jpg"] = f"{name}{i}.png"
            _tiny_image(cat / "subtask1" / test_id / f"{name}{i}.png", year % 200)
    (cat / "ans.json").write_text(json.dumps(answers))
    (cat / "test.json").write_text(json.dumps(mapping))

    # the released script sorts tests by number and asks them one by one
    order = sorted(answers, key=lambda t: int(re.search(r"\d+", t).group()))  # type: ignore[union-attr]
    with openai_stub([chat_reply(replies[int(t[4:]) - 1]) for t in order]) as stub:
        released = _load(CV_CODE / "shortcut" / "shortcut_test.py", "released_shortcut_test")
        released.API_URL = f"{stub.url}/chat/completions"
        with contextlib.redirect_stderr(io.StringIO()):
            released.process_category(cat)
    assert len(stub.bodies) == len(replies)
    assert stub.bodies[0]["response_format"] == {"type": "json_object"}

    acc = _load(CV_CODE / "shortcut" / "get_acc_shortcut.py", "released_get_acc_shortcut")
    acc.BASE_DIR = str(base)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        acc.main()
    m = re.search(r"\(Overall\)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*([\d.]+)%", out.getvalue())
    assert m, out.getvalue()
    total, correct, percent = int(m[1]), int(m[2]), float(m[3])
    assert total == len(replies)

    task = get_task("seeing_shortcut")
    ours = []
    for reply, gold in zip(replies, golds, strict=True):
        item = Item("x", task.suite, task.name, (), gold)
        ours.append(task.score(task.parse(reply, item), item)["correct"])
    assert sum(ours) == correct
    assert abs(100 * sum(ours) / len(ours) - percent) < 0.01 * 100
    # the lenient reading differs on this set (so it is a different metric, not the headline)
    lenient = [
        float(task_lenient == gold)
        for task_lenient, gold in zip((_lenient(r) for r in replies), golds, strict=True)
    ]
    assert sum(lenient) != sum(ours)


def test_shortcut_cot_headline_equals_released_script(tmp_path: Path) -> None:
    """``shortcut_with_CoT.py`` has its own rule (first 1/2 of the answer, no regex fallback)."""
    _needs_released_script_deps()
    replies = _corpus("seeing_shortcut_cot") + _corpus("seeing_shortcut") + SHORTCUT_EXTRA
    golds = [1 + (i * 5 % 3 == 0) for i in range(len(replies))]
    cat = tmp_path / "images" / "politics_images"
    answers, mapping = {}, {}
    for i, gold in enumerate(golds):
        test_id = f"test{i + 1}"
        answers[test_id] = gold
        for year, name in ((1950, "a"), (1990, "b")):
            mapping[f"{test_id}/{name}_{year}.jpg"] = f"{name}{i}.png"
            _tiny_image(cat / "subtask1" / test_id / f"{name}{i}.png", year % 200)
    (cat / "ans.json").write_text(json.dumps(answers))
    (cat / "test.json").write_text(json.dumps(mapping))
    order = sorted(answers, key=lambda t: int(t[4:]))
    with openai_stub([chat_reply(replies[int(t[4:]) - 1]) for t in order]) as stub:
        released = _load(CV_CODE / "shortcut_with_CoT" / "shortcut_with_CoT.py", "released_cot")
        released.API_URL = f"{stub.url}/chat/completions"
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            released.process_category(cat)
    summary = json.loads((cat / "subtask1" / "politics_subtask1_result.json").read_text())
    assert summary["summary"]["total"] == len(replies)

    task = get_task("seeing_shortcut_cot")
    ours = []
    for reply, gold in zip(replies, golds, strict=True):
        item = Item("x", task.suite, task.name, (), gold)
        ours.append(task.score(task.parse(reply, item), item)["correct"])
    assert sum(ours) == summary["summary"]["correct"]
    released_acc = float(summary["summary"]["accuracy"].rstrip("%"))
    assert abs(100 * sum(ours) / len(ours) - released_acc) < 0.01 * 100
    # the plain script's rule gives a different count on the same replies
    plain = get_task("seeing_shortcut")
    plain_correct = sum(
        plain.score(plain.parse(r, Item("x", "s", "t", (), g)), Item("x", "s", "t", (), g))[
            "correct"
        ]
        for r, g in zip(replies, golds, strict=True)
    )
    assert plain_correct != sum(ours)


def _lenient(reply: str) -> int | None:
    from chronoeval.core.answers import NoAnswer
    from chronoeval.suites.seeing_time.parsing import parse_earlier_lenient

    got = parse_earlier_lenient(reply)
    return None if isinstance(got, NoAnswer) else got


YEAR_EXTRA = [
    "1968",
    "The photograph appears to be from 1972.",
    "Around the late 1950s; I'd say 1958.",
    "2015\n\nThe smartphone design suggests the mid-2010s.",
    "This image likely first appeared in **1989**.",
    "Year: 2003",
    "Between 1930 and 1940.",
    "I'm unable to determine the year.",
    "１９８４",
    "1899",
    "c.1925",
    "20052006",
]


def test_news_year_headline_equals_released_script(tmp_path: Path) -> None:
    replies = _corpus("seeing_year") + YEAR_EXTRA
    golds = [1950 + (i * 13) % 70 for i in range(len(replies))]
    golds[0], golds[1], golds[2] = 1987, 1987, 1987  # some exact hits
    golds[YEAR_EXTRA.index("1968") + len(replies) - len(YEAR_EXTRA)] = 1968
    years = tmp_path / "images" / "politics_images" / "years"
    years.mkdir(parents=True)
    results = [{"image_id": f"{i}.jpg", "model_answer": r} for i, r in enumerate(replies)]
    names = {f"{i}.jpg": f"photo_{g}_x.jpg" for i, g in enumerate(golds)}
    (years / "politics_years_result.json").write_text(json.dumps(results), encoding="utf-8")
    (years / "year_name.json").write_text(json.dumps(names), encoding="utf-8")

    released = _load(CV_CODE / "news" / "get_acc_news.py", "released_get_acc_news")
    released.ROOT_DIR = str(tmp_path / "images")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        released.analyze_results_detailed()
    text = out.getvalue()
    acc = re.search(r"Overall Acc = ([\d.]+)% \((\d+)/(\d+)\)", text)
    mae = re.search(r"Overall MAE = ([\d.]+) \(number: (\d+)", text)
    assert acc and mae, text

    task = get_task("seeing_year")
    records = []
    for i, (reply, gold) in enumerate(zip(replies, golds, strict=True)):
        item = Item(str(i), task.suite, task.name, (), gold, None, {"category": "politics"})
        answer = task.parse(reply, item)
        records.append(
            SampleRecord(str(i), task.name, item.metadata, gold, "answered", reply, answer,
                         scores=task.score(answer, item))
        )  # fmt: skip
    overall = task.aggregate(records)["overall"]
    assert overall["n"] == int(acc[3])
    assert abs(100 * overall["accuracy"]["value"] - float(acc[1])) < 0.01 * 100
    assert round(overall["accuracy"]["value"] * len(records)) == int(acc[2])
    assert overall["mae"]["value"] == pytest.approx(float(mae[1]), abs=0.01)
    assert len(records) - overall["invalid"] == int(mae[2])


# Replies to the release's "Respond ONLY with the digit" prompt, as models write them.
ALIGNMENT_EXTRA = [
    "3",
    "  4\n",
    "1 or 2",
    "Image 3 was taken in 2008.",
    "The answer is 2. Image 4 looks older.",
    "I cannot determine this from the images.",
    "",
    "**1**",
]


def test_news_multimodal_headline_equals_released_script(tmp_path: Path) -> None:
    """``multimodal_subtask_test.py`` asks a scripted server on 127.0.0.1 and marks each reply by
    ``str(correct_answer) in model_ans``; ``seeing_alignment``'s headline per-sample score is
    equal on every reply, so its accuracy is too (M1 in docs/suites/seeing_time.md)."""
    _needs_released_script_deps()
    from PIL import Image, ImageFile

    replies = _corpus("seeing_alignment") + ALIGNMENT_EXTRA
    golds = [1 + (i * 3) % 4 for i in range(len(replies))]
    base = tmp_path / "images" / "sports_images"
    tests = []
    for i, gold in enumerate(golds):
        test_id = f"t{i:03d}"
        tests.append({"test_id": test_id, "news": {"description": f"event {i}"},
                      "correct_answer": gold})  # fmt: skip
        for k in range(1, 5):
            _tiny_image(base / "MMT-test" / test_id / f"{k}.jpg", 40 * k)
    (base / "sports-MMT-test-information.json").write_text(json.dumps(tests), encoding="utf-8")
    pil = (Image.MAX_IMAGE_PIXELS, ImageFile.LOAD_TRUNCATED_IMAGES)  # the script changes both
    try:
        with openai_stub([chat_reply(r) for r in replies]) as stub:
            released = _load(CV_CODE / "news" / "multimodal_subtask_test.py", "released_mmt")
            released.API_URL = f"{stub.url}/chat/completions"
            released.ROOT_DIR = str(tmp_path / "images")
            with (
                contextlib.redirect_stderr(io.StringIO()),
                contextlib.redirect_stdout(io.StringIO()),
            ):
                released.run_mmt_test_aggregated()
    finally:
        Image.MAX_IMAGE_PIXELS, ImageFile.LOAD_TRUNCATED_IMAGES = pil
    rows = json.loads((base / "MMT-test" / "sports_MMT_result.json").read_text(encoding="utf-8"))
    assert [r["model_response"] for r in rows] == [r.strip() for r in replies]

    task = get_task("seeing_alignment")
    records = []
    for i, (reply, gold) in enumerate(zip(replies, golds, strict=True)):
        item = Item(str(i), task.suite, task.name, (), gold, None, {"domain": "sports"})
        answer = task.parse(reply, item)
        records.append(
            SampleRecord(str(i), task.name, item.metadata, gold, "answered", reply, answer,
                         scores=task.score_reply(answer, reply, item))
        )  # fmt: skip
    assert [r.scores["correct"] for r in records] == [float(r["is_correct"]) for r in rows]
    overall = task.aggregate(records)["overall"]
    released_acc = sum(r["is_correct"] for r in rows) / len(rows)
    assert abs(overall["accuracy"]["value"] - released_acc) < 0.01
    assert task.headline(task.aggregate(records))[1] == overall["accuracy"]
    # the strict reading (ours, reported beside) differs on these replies ("1 or 2", "2008")
    assert overall["accuracy_strict"]["value"] != overall["accuracy"]["value"]


MINED_REPLIES = [
    ("Michael Scott", "Michael Scott"),
    ("**Michael Scott**.", "Michael Scott"),
    ("The CEO of Apple in 1979 was Michael Scott.", "Michael Scott"),
    ("In 1979, the CEO of Apple was Mike Markkula.", "Michael Scott"),
    ("Tim Cook", "Tim Cook"),
    ("tim cook, who took over from Steve Jobs in 2011", "Tim Cook"),
    ("I'm not sure who held that position.", "Tim Cook"),
    ("", "Satya Nadella"),
    ("   ", "Satya Nadella"),
    ("Satya Nadella (since 2014)", "Satya Nadella"),
    ("The answer is: Sundar Pichai", "Sundar Pichai"),
    ("2019", "2019"),
    ("It happened in the year two thousand nineteen.", "2019"),
    ("Emmanuel Macron.", "Emmanuel Macron"),
    ("Macron", "Emmanuel Macron"),
    ("The U.S. president is Joe Biden", "Joe Biden"),
]


def test_mined_cem_equals_released_vqaeval(tmp_path: Path) -> None:
    from chronoeval.suites.mined.predictions import PRED_FIELDS, score_file

    rows = []
    for i in range(0, len(MINED_REPLIES), 2):
        chunk = MINED_REPLIES[i : i + 2]
        row: dict[str, Any] = {"id": i, "type": "company" if i % 4 else "person"}
        row["current_answer"] = chunk[0][1]
        for j, field in enumerate(PRED_FIELDS):
            reply, gold = chunk[j % len(chunk)]
            row[field] = reply if gold == row["current_answer"] else chunk[0][0]
        rows.append(row)
    path = tmp_path / "output_from_model.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")

    released = _load(MINED_CODE / "cem_f1.py", "released_cem_f1")
    released.TOOLS_DIRS = [str(MINED_CODE)]
    sys.modules.pop("tools", None)
    compute_cem = released.build_cem_evaluator()
    assert compute_cem.__name__ == "cem_with_vqaeval"  # the released VQAEval, not the fallback
    with contextlib.redirect_stdout(io.StringIO()):
        out_jsonl, out_txt = released.process_one_file(str(path), compute_cem)
    sys.modules.pop("tools", None)
    theirs = [json.loads(line) for line in Path(out_jsonl).read_text().splitlines()]
    summary = Path(out_txt).read_text()
    m = re.search(r"CEM=([\d.]+), F1=([\d.]+)", summary)
    assert m

    ours = score_file(path)
    assert ours.cem == pytest.approx(float(m[1]), abs=0.01)
    assert ours.f1 == pytest.approx(float(m[2]), abs=0.01)
    for mine, their in zip(ours.items, theirs, strict=True):
        assert mine["cem_list"] == their["cem_list"]
        assert mine["cem"] == pytest.approx(their["cem"], abs=1e-9)
    assert 0 < ours.cem < 100  # the set has both hits and misses


SEEDS = Path("/work/shared/seeds")


@pytest.mark.skipif(not (SEEDS / "mined_time_sensitive_knowledge.md").is_file(), reason="no seed")
def test_mined_paper_judge_examples_parse() -> None:
    """The paper's App. J "Quantitative Example" judge replies, read in place from the seed."""
    from chronoeval.suites.mined.judge import parse_judge

    text = (SEEDS / "mined_time_sensitive_knowledge.md").read_text(encoding="utf-8")
    start = text.index("Your Answer:\n\nQuantitative Example")
    block = text[start:][:1000]
    examples = re.findall(
        r"Standard Answer: (.+?)\n\s*\nPrediction: (.+?)\n\s*\nYour Answer: (\S+)", block
    )
    assert len(examples) == 3, block
    for _gold, _pred, reply in examples:
        assert parse_judge(reply) == float(reply)
