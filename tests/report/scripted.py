"""A scripted fake model for report tests, on the hand-built clock dataset.

The scripted backend is a *fake model* for tests (it maps each image to the item's gold through
the dataset it is given), so runs have a known mix of correct, wrong, no-answer and error samples.
"""

from __future__ import annotations

from chronoeval.models.base import Backend, BackendError, Response
from chronoeval.models.registry import register_backend

EVIL = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> I cannot tell'
WRONG = "6:30:30"  # no gold of make_clock_dataset is 6:30 (hours i%12+1 with minutes 7i%60)

PATTERNS = {
    # per item index i % 4: c = correct, w = wrong, n = no answer (malicious text), e = error
    "a": "cwne",
    "b": "ccwn",
}


class Scripted(Backend):
    def __init__(self, pattern: str, golds: dict[str, tuple[int, str]]) -> None:
        self.identity = f"scripted/{pattern}"
        self.pattern, self.golds = pattern, golds

    async def generate(self, request) -> Response:  # type: ignore[no-untyped-def]
        index, gold = self.golds[request.messages[0].content[0].sha256]
        kind = self.pattern[index % len(self.pattern)]
        if kind == "e":
            raise BackendError("HTTP 500: scripted failure", retryable=False)
        text = {"c": f"The time is {gold}.", "w": WRONG, "n": EVIL}[kind]
        return Response(text=text, latency_s=0.01)


@register_backend("scripted")
def _scripted(arg, task, items, opts) -> Backend:  # type: ignore[no-untyped-def]
    golds = {it.images[0].sha256: (i, it.target) for i, it in enumerate(items)}
    return Scripted(PATTERNS[arg], golds)


def outcomes(pattern: str, n: int) -> list[str]:
    return [pattern[i % len(pattern)] for i in range(n)]
