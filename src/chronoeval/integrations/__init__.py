"""Bridges to other tools' formats and runners: the DateTimeQA layout, an Inspect task."""
