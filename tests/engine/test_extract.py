"""--extract-with: a model extracts answers only for replies the rules could not read; its replies
are cached in <run_dir>/extract.sqlite; the result is its own metric beside the unchanged
rule-based headline. The extractor is a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from chronoeval import api
from chronoeval.engine.runner import RetryPolicy
from chronoeval.models.registry import BackendOptions

REPLY = "The little hand sits just past the ten and the big hand rests on the two."


class _Extractor(BaseHTTPRequestHandler):
    bodies: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).bodies.append(body)
        out = json.dumps({"choices": [{"message": {"role": "assistant", "content": "1:00:00"}}]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(out.encode())

    def log_message(self, *args: Any) -> None:
        pass


def test_extract_with_is_its_own_cached_metric(clock_dataset, tmp_path: Path) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Extractor)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"

    def run() -> dict[str, Any]:
        return api.run(
            ["clockqa"],
            f"constant:{REPLY}",
            data=clock_dataset.root,
            run_dir=tmp_path / "run",
            backend_options=BackendOptions(base_url=url, timeout_s=30),
            retry=RetryPolicy(max_retries=0),
            progress=False,
            plots=False,
            extract_with="openai:extractor",
        ).results

    try:
        _Extractor.bodies = []
        results = run()
        first = list(_Extractor.bodies)
        results_again = run()  # cached: nothing asked twice
        assert len(_Extractor.bodies) == len(first)
    finally:
        server.shutdown()

    entry = results["tasks"]["clockqa"]
    assert entry["counts"]["no_answer"] == 12  # the rules read nothing
    extra = entry["with_extraction"]
    assert (extra["asked"], extra["recovered"], extra["errors"]) == (12, 12, 0)
    # the extractor's "1:00:00" is right for item c000 only (gold 1:00:00)
    name, metric = extra["headline"]["name"], extra["headline"]["metric"]
    assert abs(metric["value"] - 1 / 12) < 1e-9
    from chronoeval.core.registry import get_task

    rule_name, rule_metric = get_task("clockqa").headline(entry["metrics"])
    assert rule_name == name and rule_metric["value"] == 0.0  # headline unchanged
    assert results_again["tasks"]["clockqa"]["with_extraction"]["recovered"] == 12
    # the extractor saw the question text and the reply, never images or the gold
    assert len(first) == 12
    for body in first:
        text = json.dumps(body)
        assert REPLY in text and "What time is shown" in text
        assert "image_url" not in text
    assert not any("1:00:00" in json.dumps(b["messages"]) for b in first)  # c000's gold
    from rich.console import Console

    from chronoeval.report.summary import print_summary

    console = Console(record=True, width=200)
    print_summary({"m": results}, console)
    assert "with --extract-with openai:extractor: recovered 12/12" in console.export_text()
    assert (tmp_path / "run" / "extract.sqlite").is_file()
    on_disk = json.loads((tmp_path / "run" / "results.json").read_text())
    assert on_disk["tasks"]["clockqa"]["with_extraction"]["recovered"] == 12
