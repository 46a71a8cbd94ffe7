"""The Ray Data backends: HTTP through a local Ray (2 CPUs) against a real `chronoeval serve`,
a Ray worker killed mid-dataset, per-row errors; the vLLM engine processor as configuration."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the Ray Data backend needs the `ray` extra")

from chronoeval import api  # noqa: E402
from chronoeval.engine.request import GenerationConfig, Request  # noqa: E402
from chronoeval.engine.runner import RetryPolicy  # noqa: E402
from chronoeval.models.openai import OpenAIBackend  # noqa: E402
from chronoeval.models.ray_data import (  # noqa: E402
    HTTPWorker,
    vllm_postprocess,
    vllm_preprocess,
    vllm_processor_config,
)
from chronoeval.models.registry import BackendOptions  # noqa: E402

MODEL = "constant:10:10:00"
FAST = RetryPolicy(max_retries=3, base_delay_s=0.01, max_delay_s=0.05)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAY_AUTH_MODE", "disabled")  # no auth token written under $HOME
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        yield
        ray.shutdown()


def _run(
    ds_root: Path,
    run_dir: Path,
    url: str,
    model: str = f"ray:{MODEL}",
    reuse: bool = False,
    **extra,
):  # type: ignore[no-untyped-def]
    return api.run(
        ["clockqa"],
        model,
        data=ds_root,
        run_dir=run_dir,
        backend_options=BackendOptions(base_url=url, timeout_s=10, extra=extra),
        concurrency=64,
        retry=FAST,
        progress=False,
        plots=False,
        reuse=reuse,
    )


def test_ray_http_survives_a_killed_worker_and_writes_the_openai_records(
    local_ray, serve, clock_dataset, tmp_path: Path
) -> None:
    server = serve("--model", MODEL, "--task", "clockqa")
    crash = tmp_path / "crash-once"
    crash.write_text("x")
    res = _run(
        clock_dataset.root,
        tmp_path / "run",
        server.url,
        batch_size=3,
        num_workers=2,
        fault_crash_file=str(crash),
    )
    assert not crash.exists()  # a worker did die mid-dataset (it removes the file, then exits)
    s = res.summaries["clockqa"]
    assert (s.answered, s.errors) == (12, 0) and res.results["complete"]
    assert res.results["backend"]["engine"] == "ray-data-http"
    rows = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert sorted(r["item_id"] for r in rows) == sorted(it.id for it in clock_dataset.items)
    assert {r["response"] for r in rows} == {"10:10:00"}
    # the same model asked the same thing: the openai backend finds every answer already stored
    # (another backend is another configuration: written into the same directory only with reuse)
    again = _run(
        clock_dataset.root, tmp_path / "run", server.url, model=f"openai:{MODEL}", reuse=True
    )
    assert again.summaries["clockqa"].cached == 12 and again.summaries["clockqa"].called == 0


def test_vllm_engine_processor_configuration(clock_dataset) -> None:
    cfg = vllm_processor_config(
        "/models/qwen2-vl", batch_size=8, concurrency=2, engine_kwargs={"max_model_len": 4096}
    )
    dumped = cfg.model_dump()
    assert dumped["model_source"] == "/models/qwen2-vl"
    assert dumped["engine_kwargs"]["max_model_len"] == 4096
    assert dumped["prepare_multimodal_stage"]["enabled"] is True
    assert dumped["should_continue_on_error"] is True
    assert (dumped["batch_size"], dumped["concurrency"]) == (8, 2)
    with pytest.raises(Exception, match="unknown_field|Extra inputs"):
        type(cfg)(model_source="m", unknown_field=1)

    item = clock_dataset.items[0]
    req = Request(item.messages, GenerationConfig(max_tokens=32, stop=("\n",)), clock_dataset.root)
    body = OpenAIBackend("http://unused.invalid/v1", "m").body(req)
    row = vllm_preprocess({"idx": 5, "payload": json.dumps(body)})
    assert row["idx"] == 5
    assert row["sampling_params"] == {
        "temperature": 0.0,
        "max_tokens": 32,
        "seed": 0,
        "stop": ["\n"],
    }
    parts = row["messages"][0]["content"]
    assert parts[0]["type"] == "image_url"
    assert parts[0]["image_url"]["url"].startswith("data:image/png;base64,")
    out = vllm_postprocess(
        {"idx": 5, "generated_text": "10:10:00", "num_input_tokens": 40, "num_generated_tokens": 4}
    )
    assert (out["idx"], out["text"], out["error"]) == (5, "10:10:00", "")
    assert json.loads(out["usage"]) == {"prompt_tokens": 40, "completion_tokens": 4}


def test_http_worker_reports_each_failure_on_its_own_row(serve, clock_dataset) -> None:
    """The actor's batch function, called directly: a 500 and a 400 are rows, not exceptions."""
    server = serve("--model", MODEL, "--task", "clockqa", "--faults", "500@2")
    worker = HTTPWorker([server.url], MODEL, "OPENAI_API_KEY", 10.0, None, 4)
    client = OpenAIBackend(server.url, MODEL)
    bodies = [
        client.body(Request(it.messages, GenerationConfig(), clock_dataset.root))
        for it in clock_dataset.items[:3]
    ]
    bodies[2]["model"] = "no-such-model"
    worker.concurrency = 1  # in order, so the 2nd request is the one that gets the 500
    out = worker(
        {"idx": [7, 8, 9], "payload": [json.dumps(b) for b in bodies], "key": ["a", "b", "c"]}
    )
    assert out["idx"] == [7, 8, 9]
    assert out["text"][0] == "10:10:00" and out["error"][0] == ""
    assert "HTTP 500" in out["error"][1] and out["retryable"][1] is True
    assert "HTTP 404" in out["error"][2] and out["retryable"][2] is False
