"""MINED Fig. 7 and Table 5's w/o rows: awareness samples (with a misaligned context) against the
timestamp samples that ask the same question without it. Runs on the first 10 samples of the
released files; the pairing is checked by hand against the released files' question text (the
past file's samples pair with *different* timestamp indices, so a pairing by position fails), the
values against per-sample CEM means from samples.jsonl. Models: two constants (they ignore the
context: Δ = 0) and an echo model behind a scripted OpenAI-compatible server (it repeats the
prompt, so it names the context's value only when there is a context)."""

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
from chronoeval.suites.mined.metrics import context_label
from chronoeval.suites.mined.tables import TABLES
from suites.mined.mined_helpers import PEERS

pytestmark = pytest.mark.skipif(not PEERS.is_dir(), reason=f"released MINED files not at {PEERS}")
N = 10
FILES = {
    "mined_timestamp": "Dimension1_timestamp.json",
    "mined_awareness_future": "Dimension2_awareness_future.json",
    "mined_awareness_past": "Dimension2_awareness_past.json",
}
FIG7 = next(t for t in TABLES if t.name == "mined_fig7")
T5WO = next(t for t in TABLES if t.name == "mined_table5_without")


class _Echo(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        text = " ".join(
            p.get("text", "") if isinstance(p, dict) else str(p)
            for m in body["messages"]
            for p in (m["content"] if isinstance(m["content"], list) else [m["content"]])
        )
        data = json.dumps({"id": "x", "object": "chat.completion", "model": "echo",
                           "choices": [{"index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": text}}],
                           "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                     "total_tokens": 2}}).encode()  # fmt: skip
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def echo_url() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


MODELS = ("constant:Mike Markkula", "constant:Michael Scott", "openai:echo")


@pytest.fixture(scope="module")
def runs(echo_url: str, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("mined_ctx")
    data = root / "data"
    data.mkdir()
    for f in FILES.values():
        (data / f).write_text(json.dumps(json.loads((PEERS / f).read_text())[:N]))
    out = []
    for m in MODELS:
        d = root / api.slug(m)
        opts = BackendOptions(base_url=echo_url, api_key_env="NO_SUCH_KEY_ENV")
        api.run(list(FILES), m, data=data, params={"allow_missing_images": True}, run_dir=d,
                backend_options=opts, progress=False, plots=False)  # fmt: skip
        out.append(d)
    return out


def _pairs(task: str) -> list[tuple[int, list[int]]]:
    """By hand from the released files: awareness index -> timestamp indices, same question."""
    ts = json.loads((PEERS / FILES["mined_timestamp"]).read_text())[:N]
    aw = json.loads((PEERS / FILES[task]).read_text())[:N]
    out = []
    for i, x in enumerate(aw):
        js = [
            j
            for j, t in enumerate(ts)
            if (t["subject"], t["questions"]) == (x["subject"], x["questions"])
        ]
        if js:
            out.append((i, js))
    return out


def _by_index(d: Path, task: str) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {}
    for line in (d / "samples.jsonl").read_text().splitlines():
        r = json.loads(line)
        if r["task"] == task:
            out.setdefault(r["metadata"]["source_index"], []).append(r)
    return out


def _cem(recs: list[dict]) -> float:
    return sum(r["scores"]["cem"] for r in recs) / len(recs)  # no empty outputs here


def test_pairs_are_the_same_question_not_the_same_position() -> None:
    past = _pairs("mined_awareness_past")
    assert any(i != js[0] for i, js in past) and len(past) < N


def test_fig7_and_table5_without_by_hand(runs: list[Path]) -> None:
    loaded = [load_run(d) for d in runs]
    fig7 = pt.build_table(FIG7, loaded)
    t5 = pt.build_table(T5WO, loaded)
    assert [r.model for r in fig7.rows] == list(MODELS)
    raw = {t: json.loads((PEERS / f).read_text())[:N] for t, f in FILES.items()}
    for d, row, row5 in zip(runs, fig7.rows, t5.rows, strict=True):
        ts = _by_index(d, "mined_timestamp")
        for task in ("mined_awareness_future", "mined_awareness_past"):
            aw = _by_index(d, task)
            pairs = _pairs(task)
            with_ = [_cem(aw[i]) for i, _ in pairs]
            without = [sum(_cem(ts[j]) for j in js) / len(js) for _, js in pairs]
            assert row.cells[f"{task}_with"].n == len(pairs)
            assert row.cells[f"{task}_with"].value == pytest.approx(100 * sum(with_) / len(pairs))
            assert row.cells[f"{task}_without"].value == pytest.approx(
                100 * sum(without) / len(pairs)
            )
            delta = row.cells[f"{task}_delta"].value
            assert delta == pytest.approx(100 * (sum(without) - sum(with_)) / len(pairs))
            if row.model.startswith("constant:"):
                assert delta == pytest.approx(0.0)  # a model that ignores the context
            for lab in ("context", "other", "irrelevant"):
                shares_w, shares_wo = [], []
                for i, js in pairs:
                    ctx = raw[task][i]["context_subject"]

                    def share(recs: list[dict], ctx: str = ctx, lab: str = lab) -> float:
                        got = [context_label(r["response"], r["target"], ctx, r["metadata"]["names"])
                               for r in recs]  # fmt: skip
                        return got.count(lab) / len(got)

                    shares_w.append(share(aw[i]))
                    shares_wo.append(share([r for j in js for r in ts[j]]))
                cell = row5.cells[f"{task}_{lab}_without"]
                assert cell.value == pytest.approx(100 * sum(shares_wo) / len(pairs))
                assert row5.cells[f"{task}_{lab}_delta"].value == pytest.approx(
                    100 * (sum(shares_wo) - sum(shares_w)) / len(pairs)
                )
    echo5 = t5.rows[2].cells
    # the echo names the context's value only when the prompt has one: Con. falls without it
    assert echo5["mined_awareness_future_context_without"].value == pytest.approx(0.0)
    assert echo5["mined_awareness_future_context_delta"].value < -50
