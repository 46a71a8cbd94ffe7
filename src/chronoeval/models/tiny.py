"""Tiny randomly initialised vision-language models, built offline, for tests and benchmarks.

:func:`build_tiny_vlm` writes a model directory that ``AutoProcessor.from_pretrained(dir)`` and
``AutoModelForImageTextToText.from_pretrained(dir)`` load with no network: a config of the family's
real architecture shrunk to a few hundred thousand parameters, random weights from a fixed seed, a
byte-level BPE tokenizer trained here with the ``tokenizers`` library on a small built-in corpus,
the family's image processor (the PIL variants: torchvision is not needed) and a chat template in
the family's own format. The answers are noise; what is real is every code path a true checkpoint
of that family takes through ``transformers`` (processor, chat template, image tokens, generation,
LoRA).

Families: ``llava``, ``idefics3``, ``qwen2_vl``. Qwen2-VL needs :func:`register_processors` in the
loading process (its stock processor insists on a video processor, which needs torchvision).

torch, transformers and tokenizers are imported inside the functions: importing this module needs
none of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FAMILIES = ("llava", "idefics3", "qwen2_vl")

_CORPUS = (
    "What time is shown on the clock in the given image? Answer with the time in hh:mm:ss. "
    "The hour hand points between 3 and 4, the minute hand at 7, the second hand at 12. "
    "Which day of the week is 15 March 2024? Friday. January February March April May June July "
    "August September October November December Monday Tuesday Wednesday Thursday Saturday Sunday "
    "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 20 30 45 59 60 100 365 1999 2000 2024 "
    "The answer is 10:15:30. I think it is 7 o'clock. Final answer: 12:00:00. "
)

# One chat template per family, in the family's own format (the system prompt is optional and
# message content is either a string or a list of {"type": "text"|"image"} parts).
_LLAVA_TEMPLATE = (
    "{% for message in messages %}"
    "{% if message['role'] == 'system' %}{{ message['content'] if message['content'] is string "
    "else message['content'][0]['text'] }}\n"
    "{% else %}{{ message['role'].upper() }}: "
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<image>\n{% else %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %} {% endif %}"
    "{% endfor %}{% if add_generation_prompt %}ASSISTANT:{% endif %}"
)
_IDEFICS3_TEMPLATE = (
    "<|begin_of_text|>{% for message in messages %}"
    "{{ message['role'] | capitalize }}:"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<image>{% else %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<end_of_utterance>\n"
    "{% endfor %}{% if add_generation_prompt %}Assistant:{% endif %}"
)
_QWEN2_VL_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% else %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

_SPECIAL: dict[str, list[str]] = {
    "llava": ["<pad>", "<unk>", "<s>", "</s>", "<image>"],
    "idefics3": [
        "<pad>",
        "<unk>",
        "<|begin_of_text|>",
        "<|end_of_text|>",
        "<image>",
        "<fake_token_around_image>",
        "<global-img>",
        "<end_of_utterance>",
        *[f"<row_{i}_col_{j}>" for i in range(1, 7) for j in range(1, 7)],
    ],
    "qwen2_vl": [
        "<|endoftext|>",
        "<|im_start|>",
        "<|im_end|>",
        "<|vision_start|>",
        "<|vision_end|>",
        "<|image_pad|>",
        "<|video_pad|>",
    ],
}

_VOCAB = 400
_HIDDEN = 32
_HEADS = 2
_IMAGE_SIZE = 32


def _tokenizer(family: str) -> Any:
    """A byte-level BPE trained on the built-in corpus, wrapped as a fast HF tokenizer."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    special = _SPECIAL[family]
    tok = Tokenizer(models.BPE(unk_token=None))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=_VOCAB,
        special_tokens=special,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator([_CORPUS] * 4, trainer=trainer)
    if family == "llava":
        return PreTrainedTokenizerFast(
            tokenizer_object=tok,
            pad_token="<pad>",
            unk_token="<unk>",
            bos_token="<s>",
            eos_token="</s>",
            extra_special_tokens={"image_token": "<image>"},
        )
    if family == "idefics3":
        return PreTrainedTokenizerFast(
            tokenizer_object=tok,
            pad_token="<pad>",
            unk_token="<unk>",
            bos_token="<|begin_of_text|>",
            eos_token="<end_of_utterance>",
        )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        pad_token="<|endoftext|>",
        eos_token="<|im_end|>",
    )


def _text_config(tok: Any, **extra: Any) -> dict[str, Any]:
    return {
        "vocab_size": len(tok),
        "hidden_size": _HIDDEN,
        "intermediate_size": 2 * _HIDDEN,
        "num_hidden_layers": 2,
        "num_attention_heads": _HEADS,
        "num_key_value_heads": _HEADS,
        "max_position_embeddings": 512,
        "pad_token_id": tok.pad_token_id,
        "bos_token_id": tok.bos_token_id,
        "eos_token_id": tok.eos_token_id,
        "tie_word_embeddings": False,
        **extra,
    }


def _build_llava(tok: Any) -> tuple[Any, Any, Any]:
    from transformers import (
        CLIPImageProcessorPil,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaProcessor,
    )

    patch = 8
    # 32x32 pixels, patch 8 -> 16 patches; CLIP adds a CLS token that "default" strategy drops.
    n_image_tokens = (_IMAGE_SIZE // patch) ** 2
    config = LlavaConfig(
        vision_config={
            "model_type": "clip_vision_model",
            "hidden_size": _HIDDEN,
            "intermediate_size": 2 * _HIDDEN,
            "num_hidden_layers": 1,
            "num_attention_heads": _HEADS,
            "image_size": _IMAGE_SIZE,
            "patch_size": patch,
            "projection_dim": _HIDDEN,
        },
        text_config={"model_type": "llama", **_text_config(tok, head_dim=_HIDDEN // _HEADS)},
        image_token_index=tok.convert_tokens_to_ids("<image>"),
        image_seq_length=n_image_tokens,
        vision_feature_layer=-1,
        vision_feature_select_strategy="default",
        projector_hidden_act="gelu",
    )
    image_processor = CLIPImageProcessorPil(
        size={"shortest_edge": _IMAGE_SIZE},
        crop_size={"height": _IMAGE_SIZE, "width": _IMAGE_SIZE},
    )
    processor = LlavaProcessor(
        image_processor=image_processor,
        tokenizer=tok,
        patch_size=patch,
        vision_feature_select_strategy="default",
        chat_template=_LLAVA_TEMPLATE,
        image_token="<image>",
        num_additional_image_tokens=1,
    )
    return config, LlavaForConditionalGeneration, processor


def _build_idefics3(tok: Any) -> tuple[Any, Any, Any]:
    from transformers import (
        Idefics3Config,
        Idefics3ForConditionalGeneration,
        Idefics3ImageProcessorPil,
        Idefics3Processor,
    )

    patch, scale = 8, 2
    image_seq_len = (_IMAGE_SIZE // patch) ** 2 // scale**2
    config = Idefics3Config(
        vision_config={
            "hidden_size": _HIDDEN,
            "intermediate_size": 2 * _HIDDEN,
            "num_hidden_layers": 1,
            "num_attention_heads": _HEADS,
            "image_size": _IMAGE_SIZE,
            "patch_size": patch,
        },
        text_config={"model_type": "llama", **_text_config(tok, head_dim=_HIDDEN // _HEADS)},
        image_token_id=tok.convert_tokens_to_ids("<image>"),
        scale_factor=scale,
        tie_word_embeddings=False,
        pad_token_id=tok.pad_token_id,
    )
    image_processor = Idefics3ImageProcessorPil(
        do_image_splitting=False,
        size={"longest_edge": _IMAGE_SIZE},
        max_image_size={"longest_edge": _IMAGE_SIZE},
    )
    processor = Idefics3Processor(
        image_processor=image_processor,
        tokenizer=tok,
        image_seq_len=image_seq_len,
        chat_template=_IDEFICS3_TEMPLATE,
    )
    return config, Idefics3ForConditionalGeneration, processor


def _build_qwen2_vl(tok: Any) -> tuple[Any, Any, Any]:
    from transformers import (
        Qwen2VLConfig,
        Qwen2VLForConditionalGeneration,
        Qwen2VLImageProcessorPil,
    )

    head_dim = _HIDDEN // _HEADS
    config = Qwen2VLConfig(
        text_config={
            **_text_config(tok),
            "rope_parameters": {
                "rope_type": "default",
                "rope_theta": 10000.0,
                "mrope_section": [2, 3, 3],  # sums to head_dim / 2
            },
        },
        vision_config={
            "depth": 1,
            "embed_dim": _HIDDEN,
            "hidden_size": _HIDDEN,
            "num_heads": _HEADS,
            "mlp_ratio": 2,
            "patch_size": 8,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "in_channels": 3,
        },
        image_token_id=tok.convert_tokens_to_ids("<|image_pad|>"),
        video_token_id=tok.convert_tokens_to_ids("<|video_pad|>"),
        vision_start_token_id=tok.convert_tokens_to_ids("<|vision_start|>"),
        vision_end_token_id=tok.convert_tokens_to_ids("<|vision_end|>"),
        tie_word_embeddings=False,
    )
    assert sum(config.text_config.rope_parameters["mrope_section"]) == head_dim // 2
    image_processor = Qwen2VLImageProcessorPil(
        min_pixels=_IMAGE_SIZE * _IMAGE_SIZE,
        max_pixels=_IMAGE_SIZE * _IMAGE_SIZE,
        patch_size=8,
        merge_size=2,
        temporal_patch_size=2,
    )
    processor_cls = image_only_qwen2_vl_processor()
    processor = processor_cls(
        image_processor=image_processor, tokenizer=tok, chat_template=_QWEN2_VL_TEMPLATE
    )
    return config, Qwen2VLForConditionalGeneration, processor


_BUILDERS = {"llava": _build_llava, "idefics3": _build_idefics3, "qwen2_vl": _build_qwen2_vl}


def build_tiny_vlm(family: str, out_dir: Path, seed: int = 0) -> Path:
    """Write a tiny random ``family`` model with its processor to ``out_dir``; returns it.

    Deterministic for ``seed`` (weights from ``torch.manual_seed(seed)``; the tokenizer is trained
    on a fixed corpus). Offline: nothing is downloaded.
    """
    if family not in _BUILDERS:
        raise ValueError(f"unknown tiny VLM family {family!r}; known: {', '.join(FAMILIES)}")
    import torch

    register_processors()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tok = _tokenizer(family)
    config, model_cls, processor = _BUILDERS[family](tok)
    torch.manual_seed(seed)
    model = model_cls(config).eval()
    model.generation_config.pad_token_id = tok.pad_token_id
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.do_sample = False
    model.save_pretrained(out_dir)
    processor.save_pretrained(out_dir)
    (out_dir / "chronoeval_tiny.json").write_text(
        json.dumps({"family": family, "seed": seed}, indent=2) + "\n"
    )
    return out_dir


# -- processor registration --------------------------------------------------------------------
_IMAGE_ONLY_QWEN2_VL: Any = None


def image_only_qwen2_vl_processor() -> Any:
    """A Qwen2-VL processor class that takes no video processor (which would need torchvision).

    Images go through exactly the stock code path; only videos are unsupported.
    """
    global _IMAGE_ONLY_QWEN2_VL
    if _IMAGE_ONLY_QWEN2_VL is not None:
        return _IMAGE_ONLY_QWEN2_VL
    from transformers import Qwen2VLProcessor
    from transformers.processing_utils import ProcessorMixin

    class Qwen2VLImageOnlyProcessor(Qwen2VLProcessor):
        def __init__(self, image_processor=None, tokenizer=None, chat_template=None, **kwargs):  # type: ignore[no-untyped-def]
            self.image_token = getattr(tokenizer, "image_token", None) or "<|image_pad|>"
            self.video_token = getattr(tokenizer, "video_token", None) or "<|video_pad|>"
            self.image_token_id = tokenizer.convert_tokens_to_ids(self.image_token)
            self.video_token_id = tokenizer.convert_tokens_to_ids(self.video_token)
            ProcessorMixin.__init__(self, image_processor, tokenizer, chat_template=chat_template)

    _IMAGE_ONLY_QWEN2_VL = Qwen2VLImageOnlyProcessor
    return _IMAGE_ONLY_QWEN2_VL


def torchvision_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("torchvision") is not None


def register_processors(*, force: bool = False) -> None:
    """Make ``AutoProcessor`` build an image-only processor for Qwen2-VL checkpoints.

    Needed where torchvision is absent (without it ``AutoProcessor.from_pretrained`` silently
    returns only the tokenizer for Qwen2-VL). Where torchvision is installed the stock processor
    works and is left in place unless ``force``. The registration lives in the current process
    only: call it before loading (the ``hf`` backend does).
    """
    if torchvision_available() and not force:
        return
    from transformers import AutoProcessor, Qwen2VLConfig

    AutoProcessor.register(Qwen2VLConfig, image_only_qwen2_vl_processor(), exist_ok=True)
