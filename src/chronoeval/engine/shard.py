"""Sharded runs: ``--shard i/n`` runs a deterministic slice of the items in its own run directory;
:func:`merge_runs` combines the shard directories into one run.

Shard ``i`` of ``n`` (0-based, ``0 <= i < n``) takes the items at positions ``i, i+n, i+2n, …`` of
the dataset (whose order is fixed by its content hash), so shards are balanced to within one item
and need no coordination: each array job of a scheduler (Slurm ``--array=0-7``, a Kubernetes
indexed job) computes its own slice from its index. Each shard writes ``<run_dir>/shard-i-of-n/``.

Merging refuses shards that disagree on anything that changes an answer or the item set: the model,
each task's dataset content hash, item count and backend identity, the generation config, and the
shard count; it refuses a shard given twice, and shards missing from the set unless told to accept
a partial merge (their items are then reported ``missing``, never dropped).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from chronoeval.core.errors import ChronoevalError
from chronoeval.engine.store import RunStore

T = TypeVar("T")


@dataclass(frozen=True)
class Shard:
    index: int
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or not 0 <= self.index < self.count:
            raise ChronoevalError(
                f"shard {self.index}/{self.count}: need 0 <= index < count (0-based index)"
            )

    @classmethod
    def parse(cls, text: str) -> Shard:
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not m:
            raise ChronoevalError(f"--shard needs INDEX/COUNT, e.g. 0/4 (0-based), got {text!r}")
        return cls(int(m.group(1)), int(m.group(2)))

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Shard:
        return cls(int(obj["index"]), int(obj["count"]))

    def to_json(self) -> dict[str, int]:
        return {"index": self.index, "count": self.count}

    @property
    def dirname(self) -> str:
        return f"shard-{self.index}-of-{self.count}"

    def select(self, items: Sequence[T]) -> list[T]:
        """This shard's items, in dataset order."""
        return list(items[self.index :: self.count])


# What every shard of one run must agree on, per task.
_TASK_KEYS = ("content_hash", "n_items", "backend_identity", "seed", "params", "request_options")


def _read_config(run_dir: Path) -> dict[str, Any]:
    path = Path(run_dir) / "config.json"
    if not path.is_file():
        raise ChronoevalError(f"{run_dir}: not a run directory (no config.json)")
    return json.loads(path.read_text())


def check_compatible(configs: dict[Path, dict[str, Any]], *, allow_missing: bool) -> Shard | None:
    """Raise a ChronoevalError naming the first disagreement; returns the shard layout (or None
    when the runs are not shards: merging whole runs of the same items is allowed)."""
    dirs = list(configs)
    first_dir, first = dirs[0], configs[dirs[0]]
    for d in dirs[1:]:
        c = configs[d]
        if c["model"] != first["model"]:
            raise ChronoevalError(
                f"cannot merge: {d} ran model {c['model']!r}, {first_dir} ran {first['model']!r}"
            )
        if c["generation"] != first["generation"]:
            raise ChronoevalError(
                f"cannot merge: {d} used generation config {c['generation']}, "
                f"{first_dir} used {first['generation']}"
            )
        if set(c["tasks"]) != set(first["tasks"]):
            raise ChronoevalError(
                f"cannot merge: {d} has tasks {sorted(c['tasks'])}, "
                f"{first_dir} has {sorted(first['tasks'])}"
            )
        for name, t in c["tasks"].items():
            for key in _TASK_KEYS:
                if t.get(key) != first["tasks"][name].get(key):
                    what = "dataset hash" if key == "content_hash" else key
                    raise ChronoevalError(
                        f"cannot merge: task {name!r} has a different {what} in {d} "
                        f"({t.get(key)!r}) than in {first_dir} ({first['tasks'][name].get(key)!r})"
                        + (
                            ": the shards ran on different datasets"
                            if key == "content_hash"
                            else ""
                        )
                    )
    shards = {d: configs[d].get("shard") for d in dirs}
    if all(s is None for s in shards.values()):
        return None
    if any(s is None for s in shards.values()):
        plain = [str(d) for d, s in shards.items() if s is None]
        raise ChronoevalError(f"cannot merge shards with unsharded runs: {', '.join(plain)}")
    layouts = {d: Shard.from_json(s) for d, s in shards.items() if s is not None}
    counts = {s.count for s in layouts.values()}
    if len(counts) != 1:
        raise ChronoevalError(
            "cannot merge: shards split the items differently: "
            + ", ".join(f"{d}: {s.index}/{s.count}" for d, s in layouts.items())
        )
    count = counts.pop()
    seen: dict[int, Path] = {}
    for d, s in layouts.items():
        if s.index in seen:
            raise ChronoevalError(
                f"cannot merge: shard {s.index}/{count} given twice ({seen[s.index]}, {d})"
            )
        seen[s.index] = d
    missing = sorted(set(range(count)) - set(seen))
    if missing and not allow_missing:
        raise ChronoevalError(
            f"cannot merge: shard(s) {', '.join(f'{i}/{count}' for i in missing)} not given "
            "(pass --allow-missing to merge anyway; their items are then reported missing)"
        )
    return Shard(0, count)


def merge_stores(sources: Sequence[Path], out_dir: Path) -> int:
    """Copy every stored response of the source run dirs into ``out_dir``'s store; returns rows.

    Uses the store's own rule: an answer is never overwritten by an error.
    """
    n = 0
    with RunStore.in_dir(out_dir) as dest:
        for src in sources:
            path = Path(src) / RunStore.FILENAME
            if not path.is_file():
                raise ChronoevalError(f"{src}: no run store ({RunStore.FILENAME})")
            # read-only: a shard that is still running is never written to
            with RunStore.read_only(path) as source:
                rows = list(source.all().values())
            for row in rows:
                dest.put(
                    row.key,
                    item_id=row.item_id,
                    task=row.task,
                    backend=row.backend,
                    text=row.text,
                    error=row.error,
                    latency_s=row.latency_s,
                    usage=row.usage,
                    finish_reason=row.finish_reason,
                    attempts=row.attempts,
                    turns=row.turns,
                )
                n += 1
    return n


def merge_config(configs: dict[Path, dict[str, Any]]) -> dict[str, Any]:
    """The merged run's config.json: the shards' shared config, without the shard, with sources."""
    first = dict(next(iter(configs.values())))
    first.pop("shard", None)
    first["merged_from"] = [
        {"run_dir": str(Path(d).resolve()), "shard": c.get("shard")} for d, c in configs.items()
    ]
    return first


def merge_runs(sources: Sequence[Path], out_dir: Path, *, allow_missing: bool = False) -> int:
    """Check the shard run dirs agree, then write ``out_dir`` (config.json + store); returns the
    number of stored responses copied. Scoring the merged run is the caller's next step."""
    if not sources:
        raise ChronoevalError("merge needs at least one run directory")
    out_dir = Path(out_dir)
    resolved = {Path(s).resolve() for s in sources}
    if out_dir.resolve() in resolved:
        raise ChronoevalError(f"--out {out_dir} is one of the runs being merged")
    configs = {Path(s): _read_config(Path(s)) for s in sources}
    check_compatible(configs, allow_missing=allow_missing)
    merged = merge_config(configs)
    existing = out_dir / "config.json"
    if existing.is_file():
        old = json.loads(existing.read_text())
        fields = ("model", "generation")
        if any(old.get(f) != merged.get(f) for f in fields) or {
            k: {x: v.get(x) for x in _TASK_KEYS} for k, v in old.get("tasks", {}).items()
        } != {k: {x: v.get(x) for x in _TASK_KEYS} for k, v in merged["tasks"].items()}:
            raise ChronoevalError(
                f"{out_dir} already holds a different run; merge into a new directory"
            )
    out_dir.mkdir(parents=True, exist_ok=True)
    n = merge_stores(list(configs), out_dir)
    tmp = existing.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(merged, indent=2, sort_keys=True, default=str) + "\n")
    tmp.replace(existing)
    return n
