"""MINED (Jiang et al. 2025, arXiv 2510.19457): multimodal time-sensitive knowledge, 6 dimensions,
11 subtasks, released data + regenerated questions, the released CEM/F1 scorers, an LLM judge,
and knowledge editing (chronoeval.train.editing). Importing this package registers the tasks and
the ``mined`` prediction scorer."""

from chronoeval.suites.mined import judge, predictions, tasks

__all__ = ["judge", "predictions", "tasks"]
