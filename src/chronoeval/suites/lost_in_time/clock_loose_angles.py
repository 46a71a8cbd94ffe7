"""No stepping minute reading on a face whose angles the marks show to be loose (issue 19,
session 13, s13-19q; part of :mod:`chronoeval.suites.lost_in_time.clock_reader`, reader step 5).

The reader tries a stepping minute hand (one that jumps once a minute) beside the usual sweeping
one, and takes the stepping reading where the hand's dial angle sits within 0.04 min (0.24 deg)
of a whole minute and that fits at least 0.1 min better (``clock_reader._minute_reading``,
``clock_sweep``, ``clock_late_minute``). That claims the face's angles are known to a few
tenths of a degree. The dial's own hour marks say how well they are known: after the angle
mapper (a turn, or a curve for a tilt or a warp) each mark should land on its hour. Where they
land ``LOOSE_RMS`` deg rms or more off (numerals whose ink is not centred on their hour, a view
the curve does not follow), a hand's angle is that uncertain too, and a sweeping hand 0.1-0.3
min from its place lands on a whole minute by chance: the stepping reading won and the minute
came out one up with the seconds right (dev, main 3ebf8b4: 0:2158 roman 6:23:49 read 6:24:49,
marks 0.96 deg rms; on clean faces the marks sit 0.15-0.6 deg rms). On such faces the sweeping
reading, the common kind of clock, is kept. Faces without marks (nothing to judge by) are left
as they were. Pixels only: the marks the reader found and its own mapper.
"""

from __future__ import annotations

import math

import numpy as np

LOOSE_RMS = 0.7  # deg: hour marks this far (rms) from their hours after the mapper
MIN_MARKS = 6  # the rms is judged on at least this many hours' marks


def note_marks_fit(to_dial, marks: np.ndarray | None) -> None:  # noqa: ANN001
    """Attach to the angle mapper ``to_dial`` how far (rms, deg) the hour marks ``marks`` (seen
    angles, NaN where an hour has none) land from their hours through it."""
    if marks is None:
        return
    hours = np.nonzero(~np.isnan(marks))[0]
    if len(hours) < MIN_MARKS:
        return
    off = [(to_dial(float(marks[k])) - 30.0 * k + 180.0) % 360.0 - 180.0 for k in hours]
    to_dial.marks_rms = math.sqrt(sum(d * d for d in off) / len(off))


def loose(to_dial) -> bool:  # noqa: ANN001
    """The face's angles are too loose for a stepping reading (see the module's text)."""
    return getattr(to_dial, "marks_rms", 0.0) >= LOOSE_RMS
