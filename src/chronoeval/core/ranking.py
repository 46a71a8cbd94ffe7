"""Agreement between a predicted and a true ordering: concordant/discordant pairs and Kendall's τ.

Source: Kendall (1938), τ = (C − D) / C(k, 2) for two permutations of the same k elements without
ties, where a pair (a, b) is concordant when both orderings put a and b the same way round
(the product of rank differences is > 0) and discordant when they disagree (< 0). Suites build
their paper metrics on these counts (TimePerceptBench's PNR = C / D; Seeing Time's τ, paper Eq. 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any


def pair_counts(pred_order: Sequence[Any], true_order: Sequence[Any]) -> tuple[int, int]:
    """(concordant, discordant) pairs between two orderings of the same elements.

    Both are sequences of element labels, ranks are positions. Raises ValueError when the
    predicted order is not a permutation of the true one (missing, extra or repeated elements).
    """
    if sorted(map(str, pred_order)) != sorted(map(str, true_order)) or len(set(pred_order)) != len(
        pred_order
    ):
        raise ValueError(f"{list(pred_order)} is not a permutation of {list(true_order)}")
    rp = {e: i for i, e in enumerate(pred_order)}
    rt = {e: i for i, e in enumerate(true_order)}
    pos = neg = 0
    for a, b in combinations(list(true_order), 2):
        prod = (rp[a] - rp[b]) * (rt[a] - rt[b])
        if prod > 0:
            pos += 1
        elif prod < 0:
            neg += 1
    return pos, neg


def kendall_tau(pred_order: Sequence[Any], true_order: Sequence[Any]) -> float:
    """Kendall's τ = (C − D) / C(k, 2) of two permutations (k ≥ 2); ValueError otherwise."""
    k = len(true_order)
    if k < 2:
        raise ValueError("Kendall's tau needs at least two elements")
    pos, neg = pair_counts(pred_order, true_order)
    return 2 * (pos - neg) / (k * (k - 1))
