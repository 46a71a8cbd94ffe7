"""A run's jobs, each made when a worker first takes it, so the first requests go out while the
rest are still being made.

Making a job (its request and the request key, a sha256 over the messages and the generation
configuration) costs a few microseconds per item, about 12 ms for 2,000 items, all of it before
the first request was sent when the jobs were made in a list up front. :class:`JobList` is that
list, made lazily: ``len`` is known at once (the items are known), a job is made the first time
it is read, in order, and kept. Nothing about what is asked changes: the same jobs in the same
order, each made once; every item was loaded and validated before (``api.prepare_dataset``).
Making a job can fail in one way: in ``api.run``, an image a verify-once stamp vouched for is
looked at when its item's job is made (core/deferred_images.py), and a changed image that fails
its check raises the load's DataError there; the runner then stops every worker
(engine/runner.py) and the answers in hand are committed.

The runner reads the jobs one by one as workers take them when the store holds no answer yet
(a fresh run); a resumed run filters them by key first, which makes them all up front, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, overload

J = TypeVar("J")


class JobList(Sequence[J]):
    """``[make(item) for item in items]``, each element made when first read."""

    def __init__(self, items: Sequence[Any], make: Callable[[Any], J]) -> None:
        self._items = items
        self._make = make
        self._made: list[J] = []

    def __len__(self) -> int:
        return len(self._items)

    def _upto(self, stop: int) -> None:
        made, items, make = self._made, self._items, self._make
        while len(made) < stop:
            made.append(make(items[len(made)]))

    @overload
    def __getitem__(self, index: int) -> J: ...

    @overload
    def __getitem__(self, index: slice) -> list[J]: ...

    def __getitem__(self, index: int | slice) -> J | list[J]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("job index out of range")
        self._upto(index + 1)
        return self._made[index]

    def __iter__(self) -> Iterator[J]:
        made, items, make = self._made, self._items, self._make
        for i in range(len(items)):
            if i == len(made):  # the next one not made yet (made in order, never skipped)
                made.append(make(items[i]))
            yield made[i]
