"""Knowledge editing on a tiny random LLaVA built offline, on the CPU: the edited fact comes out
after editing; single mode restores the weights; FT-VIS touches only the projector; IKE builds
its context from retrieved demonstrations."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from chronoeval.core.dataset import write_dataset  # noqa: E402
from chronoeval.suites.mined.itembuild import LoadedImage, SampleSpec, sample_items  # noqa: E402
from chronoeval.train.editing import EditConfig, Editor, trainable_parameters  # noqa: E402
from suites.mined.mined_helpers import placeholder_png  # noqa: E402

torch.set_num_threads(1)  # the CPU is shared: one thread is faster than oversubscribing it
FACTS = [("Google", "Sundar Pichai"), ("Intel", "Lip-Bu Tan")]
# Answers whose tokens never repeat back to back: a 2-layer random model whose only trainable
# part is the last MLP maps two identical adjacent tokens to the same next token ("Tim Cook"
# comes out "Tim Cok"), a capacity limit of the tiny model, not of the method.


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[list]]:
    from chronoeval.models.tiny import build_tiny_vlm

    base = tmp_path_factory.mktemp("edit")
    model_dir = build_tiny_vlm("llava", base / "llava", seed=0)

    def built():
        for i, (subject, gold) in enumerate(FACTS):
            spec = SampleSpec(
                subtask="time_agnostic",
                key=f"time_agnostic-{i:04d}",
                eval_type="openqa",
                questions={
                    "mm_questions": "Who is the current CEO of the company in the image?",
                    "mm_paraphrase_completion": "The current CEO of the company in the image is",
                },
                image_names={"image": f"{subject}_1.png", "paraphrase_image": f"{subject}_2.png"},
                gold=gold,
                context=None,
                metadata={"type": "company", "names": [gold]},
            )
            yield from sample_items(
                spec,
                lambda role, i=i: LoadedImage(placeholder_png(10 * i + (role == "image"))),
                current_date="2025-06-23",
                insert_date="time_agnostic",
            )

    ds = write_dataset(base / "ds", built(), suite="mined", task="mined_time_agnostic",
                       generator_version="test", params={}, seed=None, source="test")  # fmt: skip
    samples = [ds.items[0:4], ds.items[4:8]]
    return model_dir, ds.root, samples


def _all_params(editor: Editor) -> dict[str, torch.Tensor]:
    return {n: p.detach().clone() for n, p in editor.loaded.model.named_parameters()}


def test_ft_llm_single_edits_then_restores(tiny) -> None:
    model_dir, root, samples = tiny
    editor = Editor(model_dir, EditConfig(method="ft_llm", mode="single", steps=40, lr=1e-3))
    before = _all_params(editor)
    first = samples[0][0]
    assert "Sundar Pichai" not in editor.answer(first, root)  # a random model does not know it
    results = editor.run(samples, root)
    # the edited configuration itself produces the new fact after editing
    for res, s in zip(results, samples, strict=True):
        assert res.cem[s[0].id] == 1.0, res.outputs
    after = _all_params(editor)
    assert all(torch.equal(before[n], after[n]) for n in before)  # single mode restored them


def test_ft_vis_changes_only_the_projector_in_lifelong_mode(tiny) -> None:
    model_dir, root, samples = tiny
    editor = Editor(model_dir, EditConfig(method="ft_vis", mode="lifelong", steps=3, lr=1e-2))
    before = _all_params(editor)
    editor.run(samples[:1], root)
    after = _all_params(editor)
    changed = {n for n in before if not torch.equal(before[n], after[n])}
    projector = set(trainable_parameters(editor.loaded.model, "ft_vis"))
    assert changed and changed <= projector


def test_ike_prefix_retrieves_similar_demos(tiny) -> None:
    model_dir, root, samples = tiny
    editor = Editor(model_dir, EditConfig(method="ike", k=1))
    editor.memory = [
        ("Who is the current CEO of the company in the image?", "Tim Cook"),
        ("Which club does the person in the image play for?", "Inter Miami"),
        ("Who was the CEO of the company in the image in 1979?", "Michael Scott"),
    ]
    prefix = editor.ike_prefix("Who was the CEO of the company in the image in 1980?", "X")
    assert prefix.count("New Fact:") == 2
    assert "Michael Scott" in prefix and "Inter Miami" not in prefix
    before = _all_params(editor)
    res = editor.run(samples[:1], root)
    assert len(res[0].outputs) == 4
    assert all(torch.equal(before[n], p) for n, p in _all_params(editor).items())
