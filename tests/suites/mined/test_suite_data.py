"""One released-layout folder serves several tasks in one run (``--suite mined --data DIR``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.core.errors import ChronoevalError
from suites.mined.mined_helpers import PEERS

FILES = {
    "mined_timestamp": "Dimension1_timestamp.json",
    "mined_future_unanswerable_date": "Dimension3_future_unanswerable_date.json",
}


@pytest.mark.skipif(not PEERS.is_dir(), reason=f"released MINED files not at {PEERS}")
def test_one_folder_serves_several_tasks(tmp_path: Path) -> None:
    data = tmp_path / "mined"
    data.mkdir()
    for name in FILES.values():  # the first five samples of two released files
        (data / name).write_text(json.dumps(json.loads((PEERS / name).read_text())[:5]))
    res = api.run(
        list(FILES),
        "constant:unknown",
        data=data,
        params={"allow_missing_images": True},
        run_dir=tmp_path / "run",
        progress=False,
    )
    tasks = res.results["tasks"]
    assert set(tasks) == set(FILES)
    assert all(t["counts"]["answered"] == 20 for t in tasks.values())  # 5 samples x 4 configs
    assert tasks["mined_future_unanswerable_date"]["metrics"]["overall"]["cem"]["value"] == 1.0


def test_a_chronoeval_dataset_still_serves_one_task(tmp_path: Path) -> None:
    ds = api.generate("clockqa", n=2, out=tmp_path / "ds")
    with pytest.raises(ChronoevalError, match="one task's chronoeval dataset"):
        api.run(["clockqa", "calendarqa"], "random", data=ds.root, run_dir=tmp_path / "r")
