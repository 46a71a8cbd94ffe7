"""SPAN (Miao, Fu, Wei; AAAI 2026, arXiv 2511.09993): cross-calendar temporal reasoning over six
calendars, with a reference agent and the TimeAgent backends. Importing registers the ``span``
task and the ``timeagent`` backend."""

from chronoeval.suites.span import task, timeagent

__all__ = ["task", "timeagent"]
