"""Training recipes on top of chronoeval items: LoRA fine-tuning and knowledge editing.

Needs the `hf` extra and torch (installed separately, pinned). Nothing here is imported by the core.
"""
