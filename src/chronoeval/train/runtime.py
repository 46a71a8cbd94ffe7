"""Where and how a fine-tuning run computes: device, dtype, gradient checkpointing.

Shared by the LoRA recipe (train/lora.py) and its CLI (``chronoeval train lora``). ``auto``
device picks CUDA when torch sees a GPU, else the CPU; ``bfloat16`` loads the base model's weights
in bf16 (the LoRA weights train in the same dtype; on the CPU bf16 works but is slower than fp32);
``float16`` is refused on the CPU (no fp16 matmul kernels there). Gradient checkpointing uses the
non-reentrant implementation, which needs no input-gradient hook under PEFT.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chronoeval.core.errors import ChronoevalError

DTYPES = ("float32", "bfloat16", "float16")
DEVICES = ("auto", "cpu", "cuda")


@dataclass(frozen=True)
class Runtime:
    device: str = "cpu"
    dtype: str = "float32"
    gradient_checkpointing: bool = False
    trust_remote_code: bool = False

    def check(self) -> None:
        if self.dtype not in DTYPES:
            raise ChronoevalError(f"train: dtype must be one of {', '.join(DTYPES)}")
        base = self.device.split(":", 1)[0]
        if base not in DEVICES:
            raise ChronoevalError(
                f"train: device must be auto, cpu, cuda or cuda:<index>, got {self.device!r}"
            )

    def resolve(self) -> tuple[Any, Any]:
        """(torch.device, torch dtype), checking that the device exists."""
        import torch

        self.check()
        device = self.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        if device.startswith("cuda") and not torch.cuda.is_available():
            raise ChronoevalError(
                f"train: device {self.device} asked for, but torch sees no CUDA GPU "
                f"(torch {torch.__version__}); use --device cpu"
            )
        if device == "cpu" and self.dtype == "float16":
            raise ChronoevalError("train: float16 needs a GPU; use bfloat16 or float32 on the CPU")
        return torch.device(device), getattr(torch, self.dtype)


def to_device(batch: dict[str, Any], device: Any, dtype: Any) -> dict[str, Any]:
    """Move a processor batch to the device; floating tensors (pixel values) to the dtype."""
    out = {}
    for k, v in batch.items():
        if hasattr(v, "to"):
            v = v.to(device=device, dtype=dtype) if v.is_floating_point() else v.to(device)
        out[k] = v
    return out


def enable_checkpointing(model: Any) -> None:
    """Gradient checkpointing on the base model (before PEFT wraps it)."""
    if not getattr(model, "supports_gradient_checkpointing", False):
        raise ChronoevalError(
            f"train: {type(model).__name__} does not support gradient checkpointing"
        )
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if hasattr(model, "config"):
        model.config.use_cache = False
