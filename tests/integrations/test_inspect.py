"""The Inspect entry point runs a chronoeval task end to end (skipped without inspect-ai).

The model is Inspect's mockllm with a callable that runs the ClockQA reference agent on the
messages Inspect sends: a perfect score shows the images reach the model intact, and the scorer is
the task's own.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (optional extra: inspect)")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import ContentImage, ContentText, ModelOutput, ModelUsage, get_model  # noqa: E402

from chronoeval.core.items import ImagePart, Message, TextPart  # noqa: E402
from chronoeval.core.registry import get_task  # noqa: E402
from chronoeval.integrations import inspect_eval as entry  # noqa: E402


def _agent_model(answer=None):  # type: ignore[no-untyped-def]
    agent = get_task("clockqa").reference_agent()

    def respond(messages, tools, tool_choice, config) -> ModelOutput:  # type: ignore[no-untyped-def]
        images: dict[str, bytes] = {}
        parts = []
        for c in messages[-1].content:
            if isinstance(c, ContentImage):
                name = f"img{len(images)}"
                images[name] = base64.b64decode(c.image.split(",", 1)[1])
                parts.append(ImagePart(name, "0" * 64))
            elif isinstance(c, ContentText):
                parts.append(TextPart(c.text))
        text = answer or agent([Message("user", tuple(parts))], images.__getitem__)
        out = ModelOutput.from_content(model="mockllm", content=text)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    return get_model("mockllm/model", custom_outputs=respond)


@pytest.mark.parametrize(("answer", "expected"), [(None, 1.0), ("I cannot tell.", 0.0)])
def test_inspect_eval_runs_a_chronoeval_task(answer, expected, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # classic faces: the reference reader reads them exactly (realistic faces ~94%, issue 19);
    # this test is about the Inspect path, not the reader
    task = entry.chronoeval(task="clockqa", n=6, seed=2, look="classic")
    [log] = inspect_eval(
        task, model=_agent_model(answer), log_dir=str(tmp_path), display="none", log_format="json"
    )
    assert log.status == "success", log.error
    assert len(log.samples) == 6
    metrics = log.results.scores[0].metrics
    assert metrics["mean"].value == pytest.approx(expected)
    for sample in log.samples:
        score = next(iter(sample.scores.values()))
        assert score.metadata["no_answer"] is (answer is not None)
        assert set(score.metadata["scores"]) >= {"em", "hm_em"}


def test_every_registered_task_has_an_entry() -> None:
    from chronoeval.core.registry import all_tasks

    for name in all_tasks():
        assert callable(getattr(entry, name))
