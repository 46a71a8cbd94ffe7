"""Every task end to end on synthetic scenes, in process and through `chronoeval serve`; the
grayscale shortcut logic shown with two pixel-only agents; user manifests build every task."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from chronoeval import api
from chronoeval.core.registry import get_task, suite_tasks
from chronoeval.models.registry import BackendOptions

SMALL = {
    "seeing_localization": {"n": 10},
    "seeing_sort": {"n_intra": 4, "n_cross": 4, "pool": 60},
    "seeing_shortcut": {"n_pairs": 8, "pool": 60},
    "seeing_shortcut_cot": {"n_pairs": 8, "pool": 60},
    "seeing_year": {"n": 10},
    "seeing_year_conf": {"n": 10},
    "seeing_alignment": {"n": 6, "pool": 160},
}
HEADLINE = {
    "seeing_localization": ("accuracy", 1.0),
    "seeing_sort": ("tau", 1.0),
    "seeing_shortcut": ("acc_b", 1.0),
    "seeing_shortcut_cot": ("acc_b", 1.0),
    "seeing_year": ("accuracy", 1.0),
    "seeing_year_conf": ("accuracy", 1.0),
    "seeing_alignment": ("accuracy", 1.0),
}


def test_every_task_through_serve(serve, tmp_path: Path) -> None:
    assert sorted(suite_tasks("seeing_time")) == sorted(SMALL)
    server = serve("--model", "reference")
    opts = BackendOptions(base_url=server.url)
    for task, params in SMALL.items():
        res = api.run(
            [task],
            f"openai:reference/{task}",
            params=params,
            run_dir=tmp_path / task,
            backend_options=opts,
            progress=False,
            plots=True,
        )
        t = res.results["tasks"][task]
        assert t["counts"]["error"] == 0 and t["counts"]["missing"] == 0, task
        key, want = HEADLINE[task]
        assert t["metrics"]["overall"][key]["value"] == want, (task, t["metrics"]["overall"])
        tk = get_task(task)
        label, entry = tk.headline(t["metrics"])
        assert entry["value"] == want and tk.chance(t["metrics"]) is not None
        assert list((tmp_path / task / "plots").glob("*.png")), task


def test_grayscale_removes_information_and_delta_exposes_the_shortcut(tmp_path: Path) -> None:
    params = {"n_pairs": 40, "pool": 120, "min_gap": 1}
    honest = api.run(
        ["seeing_shortcut"],
        "reference",
        params=params,
        run_dir=tmp_path / "h",
        progress=False,
        plots=False,
    ).results["tasks"]["seeing_shortcut"]["metrics"]
    biased = api.run(
        ["seeing_shortcut"],
        "grayprior",
        params=params,
        run_dir=tmp_path / "g",
        progress=False,
        plots=False,
    ).results["tasks"]["seeing_shortcut"]["metrics"]
    o = honest["overall"]
    # colour carries the year; a grey image only its era: the honest reader loses accuracy in
    # both grey conditions, symmetrically (no "grey = old" bias)
    assert o["acc_b"]["value"] == 1.0
    assert o["acc_1"]["value"] < 1.0 or o["acc_2"]["value"] < 1.0
    assert abs(o["delta"]["value"]) <= 0.1
    g = biased["overall"]
    assert g["acc_1"]["value"] == 1.0 and g["acc_2"]["value"] == 0.0 and g["delta"]["value"] == 1.0
    assert set(biased["by_domain"]) == {
        "sports",
        "politics",
        "electronics",
        "emergency",
        "diversity",
    }


def test_user_collection_manifest_builds_every_task(tmp_path: Path) -> None:
    from chronoeval.suites.seeing_time.collection import synthetic_collection, synthetic_events
    from chronoeval.suites.seeing_time.scenes import ARTIFACT, PHOTO

    (tmp_path / "img").mkdir()
    rows = []
    for e in synthetic_collection(PHOTO, 120, 7) + synthetic_collection(ARTIFACT, 60, 7):
        (tmp_path / "img" / f"{e.id}.png").write_bytes(e.image)
        row = {"image": f"img/{e.id}.png", "date": f"{e.year}-06-01", "category": e.category}
        if e.era:
            row["era"] = e.era
        rows.append(row)
    photos = [r for r in rows if "era" not in r]
    arts = [r for r in rows if "era" in r]
    (tmp_path / "photos.jsonl").write_text("".join(json.dumps(r) + "\n" for r in photos))
    (tmp_path / "arts.jsonl").write_text("".join(json.dumps(r) + "\n" for r in arts))
    ev = [
        {"year": e.year, "date": e.date, "description": e.description, "source": e.source}
        for e in synthetic_events(range(1946, 2026))
    ]
    (tmp_path / "events.json").write_text(json.dumps(ev))
    cases = {
        "seeing_localization": ("arts.jsonl", {}),
        "seeing_sort": ("arts.jsonl", {"n_intra": 3, "n_cross": 3}),
        "seeing_shortcut": ("photos.jsonl", {"n_pairs": 5}),
        "seeing_year": ("photos.jsonl", {}),
        "seeing_alignment": ("photos.jsonl", {"n": 5, "events": str(tmp_path / "events.json")}),
    }
    for task, (file, params) in cases.items():
        t = get_task(task)
        res = api.run(
            [task],
            "reference",
            data=tmp_path / file,
            params=params,
            run_dir=tmp_path / f"run-{task}",
            progress=False,
            plots=False,
        )
        m = res.results["tasks"][task]["metrics"]["overall"]
        assert t.headline(res.results["tasks"][task]["metrics"])[1]["value"] == 1.0, (task, m)
    # the composite command over those runs
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "chronoeval",
            "seeing_time",
            "composite",
            "--json",
            *[str(tmp_path / f"run-{t}") for t in cases],
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(out.stdout)["models"]["reference"]["S"] == 1.0
