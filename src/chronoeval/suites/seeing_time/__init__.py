"""Seeing Time (Zhou et al., arXiv 2606.05702; LuoRenqiang/ChronoVision): artefact dating and
sorting, the grayscale shortcut test, news-year estimation and event alignment. Importing this
package registers its tasks and the ``grayprior`` backend."""

from chronoeval.suites.seeing_time import artifact_tasks, backends, news_tasks, shortcut_task

__all__ = ["artifact_tasks", "backends", "news_tasks", "shortcut_task"]
