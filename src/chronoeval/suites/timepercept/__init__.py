"""TimePerceptBench (Ertai E): temporal order and interval tasks over timestamped image sequences
of one location, with a synthetic time-lapse generator, fMoW and manifest loaders, a recognition
control, TemporalVQA and a LoRA recipe. Importing this package registers its tasks."""

from chronoeval.suites.timepercept import tasks, temporalvqa

__all__ = ["tasks", "temporalvqa"]
