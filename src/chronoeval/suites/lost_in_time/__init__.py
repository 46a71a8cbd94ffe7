"""Lost in Time (Saxena, Gema, Minervini; ICLR 2025 workshop, arXiv 2502.05092): ClockQA and
CalendarQA. Importing this package registers both tasks."""

from chronoeval.suites.lost_in_time import calendar_task, clock_task

__all__ = ["calendar_task", "clock_task"]
