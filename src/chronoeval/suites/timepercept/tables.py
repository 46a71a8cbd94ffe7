"""TimePerceptBench's tables (paper Tables 1/2, 3, 4) as declarative specs for
:mod:`chronoeval.report.paper_tables`.

Table 1/2 layout: TOU (TAL, ISR (PNR), SOV, POV, TPL) and TIU (ICE, IPR (PNR), EII, PIC); a
fine-tuned model is its own row (Table 2 = the same layout over fine-tuned runs). TOU / TIU
aggregates (our addition, the paper reports none): the unweighted mean accuracy of the group's
accuracy tasks — PNR is a ratio on another scale and is left out of the mean. PNR = ΣP/ΣN
resampled over items.
"""

from __future__ import annotations

from chronoeval.report.paper_tables import Col, Combine, Mean, Ratio, TableSpec, average


def _acc(task: str, label: str, group: str) -> Col:
    return Col(label, label, Mean(task, "correct"), group, digits=1)


def _pnr(task: str, label: str, group: str) -> Col:
    return Col(label, f"{label} (PNR)", Ratio(task, "pos", "neg"), group, scale=1.0, digits=4)


TOU_ACC = ("TAL", "SOV", "POV", "TPL")
TIU_ACC = ("ICE", "EII", "PIC")

TABLE1 = TableSpec(
    "timepercept_table1",
    "Tables 1/2: TOU and TIU tasks (accuracy %, PNR as a ratio)",
    (
        _acc("tp_tal", "TAL", "TOU"),
        _pnr("tp_isr", "ISR", "TOU"),
        _acc("tp_sov", "SOV", "TOU"),
        _acc("tp_pov", "POV", "TOU"),
        _acc("tp_tpl", "TPL", "TOU"),
        _acc("tp_ice", "ICE", "TIU"),
        _pnr("tp_ipr", "IPR", "TIU"),
        _acc("tp_eii", "EII", "TIU"),
        _acc("tp_pic", "PIC", "TIU"),
        Col("TOU_avg", "TOU acc. avg", Combine(TOU_ACC, average), "Aggregate", digits=1),
        Col("TIU_avg", "TIU acc. avg", Combine(TIU_ACC, average), "Aggregate", digits=1),
    ),
    note="TOU/TIU acc. avg: mean accuracy of the group's accuracy tasks (PNR tasks left out).",
)

TABLE3 = TableSpec(
    "timepercept_table3",
    "Table 3: visual recognition control (accuracy %)",
    (Col("acc", "Accuracy", Mean("tp_recognition", "correct"), digits=1),),
)

TABLE4 = TableSpec(
    "timepercept_table4",
    "Table 4: TemporalVQA (accuracy %); Before/After = a base and a fine-tuned run as two rows",
    (
        Col(
            "tou",
            "TOU (order, consistent)",
            Mean(
                "tvqa_order",
                "correct",
                unit="row",
                reduce=lambda g: float(len(g) == 2 and all(r.scores.get("correct") for r in g)),
            ),
            digits=2,
        ),  # fmt: skip
        Col("tiu", "TIU (timelapse)", Mean("tvqa_timelapse", "correct"), digits=2),
    ),
    note="TOU: TemporalVQA's consistent accuracy, a row right only when both presentation orders "
    "are; resampled over rows.",
)

TABLES = [TABLE1, TABLE3, TABLE4]
