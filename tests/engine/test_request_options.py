"""Contract 1, task side: a task's released request options (Seeing Time shortcut's
``response_format: json_object``) go into the OpenAI-compatible body only when asked for, and the
run's request keys stay consistent between asking and scoring."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from chronoeval import api
from chronoeval.engine.request import GenerationConfig
from chronoeval.engine.runner import RetryPolicy
from chronoeval.models.registry import BackendOptions


class _Recorder(BaseHTTPRequestHandler):
    bodies: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).bodies.append(body)
        text = '{"thinking": "the grey photo looks old", "answer": "1"}'
        out = json.dumps({"choices": [{"message": {"role": "assistant", "content": text}}]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(out.encode())

    def log_message(self, *args: Any) -> None:
        pass


def test_generation_config_omits_empty_extra_body() -> None:
    assert "extra_body" not in GenerationConfig().to_json()
    cfg = GenerationConfig(extra_body={"response_format": {"type": "json_object"}})
    assert GenerationConfig.from_json(cfg.to_json()) == cfg
    assert GenerationConfig.from_json(GenerationConfig().to_json()) == GenerationConfig()


def test_released_response_format_is_an_option(tmp_path: Path) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        runs = {}
        for flag in (False, True):
            _Recorder.bodies = []
            res = api.run(
                ["seeing_shortcut"],
                "openai:scripted-vlm",
                params={"n_pairs": 1, "pool": 20},
                run_dir=tmp_path / f"run-{flag}",
                backend_options=BackendOptions(base_url=url, timeout_s=30),
                concurrency=1,
                retry=RetryPolicy(max_retries=0),
                progress=False,
                plots=False,
                released_request_options=flag,
            )
            runs[flag] = (res, list(_Recorder.bodies))
    finally:
        server.shutdown()
    plain, plain_bodies = runs[False]
    json_mode, json_bodies = runs[True]
    assert plain_bodies and all("response_format" not in b for b in plain_bodies)
    assert json_bodies and all(b["response_format"] == {"type": "json_object"} for b in json_bodies)
    for res in (plain, json_mode):  # scoring finds every stored answer under the same keys
        counts = res.results["tasks"]["seeing_shortcut"]["counts"]
        assert counts["missing"] == 0 and counts["answered"] == 3
    config = json.loads((tmp_path / "run-True" / "config.json").read_text())
    assert config["tasks"]["seeing_shortcut"]["request_options"] == {
        "response_format": {"type": "json_object"}
    }
    assert (
        "request_options"
        not in json.loads((tmp_path / "run-False" / "config.json").read_text())["tasks"][
            "seeing_shortcut"
        ]
    )
