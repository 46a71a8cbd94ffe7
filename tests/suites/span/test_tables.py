"""SPAN paper tables: accuracy by calendar/direction, accuracy on the dates where the Umm al-Qura
implementations agree, and output tokens from the usage the run store keeps per sample — through a
small scripted OpenAI-compatible server on 127.0.0.1 that reports usage like a real endpoint."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from chronoeval import api
from chronoeval.models.registry import BackendOptions
from chronoeval.report import paper_tables as pt
from chronoeval.report.runs import load_run
from chronoeval.suites.span.tables import ACCURACY, AGREEMENT

REPLY = "Let me think. The converted date falls on that day, so the answer is yes.\nAnswer: yes"
TOKENS = 17


SEEN: list[dict] = []


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        SEEN.append(json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0)))))
        body = json.dumps(
            {
                "id": "x",
                "object": "chat.completion",
                "model": "scripted",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": REPLY},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 50, "completion_tokens": TOKENS, "total_tokens": 67},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()


@pytest.fixture(scope="module")
def runs(server: str, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("span")
    params = {"eval_dates": "1960-07-01,2060-07-01", "n": 40}
    out = []
    for model, opts in (
        ("openai:yes-sayer", BackendOptions(base_url=server, api_key_env="NO_SUCH_KEY_ENV")),
        ("reference", None),
        ("random", None),
    ):
        d = root / api.slug(model)
        api.run(["span"], model, params=params, seed=1, run_dir=d, progress=False, plots=False,
                **({"backend_options": opts} if opts else {}))  # fmt: skip
        out.append(d)
    return out


def _samples(d: Path) -> list[dict]:
    return [json.loads(x) for x in (d / "samples.jsonl").read_text().splitlines()]


def test_tokens_and_agreed_dates_by_hand(runs: list[Path]) -> None:
    loaded = [load_run(d) for d in runs]
    table = pt.build_table(AGREEMENT, loaded)
    for d, row in zip(runs, table.rows, strict=True):
        rows = [r for r in _samples(d) if r["scores"].get("correct") is not None]
        agreed = [r for r in rows if r["metadata"].get("uq_outside_agreed_window") is not True]
        assert len(agreed) < len(rows)  # the 1960/2060 dates leave the agreed window
        want = 100 * sum(r["scores"]["correct"] for r in agreed) / len(agreed)
        assert row.cells["agreed"].value == pytest.approx(want)
        assert row.cells["agreed"].n == len(agreed)
    yes = table.rows[0].cells
    assert yes["tokens"].value == pytest.approx(TOKENS)  # usage kept per sample by the store
    assert table.rows[1].cells["tokens"].value is None  # in-process agents report no usage


def test_accuracy_by_group_by_hand(runs: list[Path]) -> None:
    table = pt.build_table(ACCURACY, [load_run(d) for d in runs])
    yes = table.rows[0].cells
    rows = _samples(runs[0])
    polar = [r for r in rows if r["metadata"]["format"] == "polar"]
    want = 100 * sum(r["scores"]["correct"] for r in polar) / len(polar)
    assert yes["polar"].value == pytest.approx(want)
    assert yes["content"].value == 0.0  # "yes" is no date
    assert table.rows[1].cells["all"].value == pytest.approx(100.0)  # the reference agent
    assert table.rows[1].cells["all"].best


def test_cot_baseline_sends_the_cot_prompt_and_pairs_with_the_plain_model(
    server: str, runs: list[Path], tmp_path: Path
) -> None:
    from chronoeval.report.compare import paired_test
    from chronoeval.suites.span.baselines import COT_SYSTEM

    SEEN.clear()
    d = tmp_path / "cot"
    api.run(["span"], "timeagent:cot:openai:yes-sayer",
            params={"eval_dates": "1960-07-01,2060-07-01", "n": 40}, seed=1, run_dir=d,
            backend_options=BackendOptions(base_url=server, api_key_env="NO_SUCH_KEY_ENV"),
            progress=False, plots=False)  # fmt: skip
    assert len(SEEN) == 40
    assert all(b["messages"][0] == {"role": "system", "content": COT_SYSTEM} for b in SEEN)
    assert all(b["messages"][1]["role"] == "user" for b in SEEN)
    cot, plain = load_run(d), load_run(runs[0])
    test = paired_test(plain, cot, "span")  # same items, same replies: no difference
    assert test.n == 40 and test.diff == 0.0
    cells = {r.model: r.cells for r in pt.build_table(AGREEMENT, [plain, cot]).rows}
    assert cells["timeagent:cot:openai:yes-sayer"]["tokens"].value == pytest.approx(TOKENS)
