"""Run identity: a run directory belongs to exactly one configuration.

The identity of a run is what decides its answers and its denominators: per task the dataset's
content hash, item count, parameters and seed; the model spec and its options; the generation
config; the shard. ``config.json`` records it (``identity`` and ``identity_hash``).

- The default location separates configurations: ``runs/<tasks>-<hash>/<model>``, the hash taken
  over what was asked (tasks and their generator versions, data path, n, seed, params, generation),
  so ``--n 50`` and ``--n 20`` never share a directory.
- A directory that already holds another configuration is refused, naming the differing fields;
  ``reuse=True`` (``--reuse``) writes there anyway (stored answers stay: request keys are content
  addressed; config.json and results.json are replaced).
"""

from __future__ import annotations

import errno
import hashlib
import json
from pathlib import Path
from typing import Any

from chronoeval.core.errors import ChronoevalError, StorageError

MAX_LABEL = 60
"""Longest readable task label in a default path (a long task combination is abbreviated; the
hash keeps it unique)."""


def _hash(obj: Any) -> str:
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def task_label(tasks: list[str]) -> str:
    """``clockqa+calendarqa``; abbreviated when long (``tp_tal+9more``)."""
    label = "+".join(tasks)
    if len(label) <= MAX_LABEL:
        return label
    return f"{tasks[0][: MAX_LABEL - 12]}+{len(tasks) - 1}more"


def requested_identity(
    tasks: list[str],
    *,
    data: Path | None,
    n: int | None,
    seed: int | None,
    params: dict[str, Any] | None,
    generation: dict[str, Any],
) -> dict[str, Any]:
    """What was asked, before any dataset is prepared (the default directory's hash)."""
    from chronoeval.core.registry import get_task

    return {
        "tasks": {name: get_task(name).version for name in tasks},
        "data": str(Path(data).resolve()) if data is not None else None,
        "n": n,
        "seed": seed,
        "params": params or {},
        "generation": generation,
    }


def default_root(tasks: list[str], requested: dict[str, Any], base: Path | None = None) -> Path:
    """``runs/<tasks>-<8 hex of the requested identity>``: one root per configuration; each model
    gets ``<root>/<model>``."""
    return Path(base or "runs") / f"{task_label(tasks)}-{_hash(requested)[:8]}"


def run_identity(config: dict[str, Any]) -> dict[str, Any]:
    """The identity fields of a run's ``config.json`` (also of one written before identities)."""
    return {
        "model": config.get("model"),
        "model_options": config.get("model_options") or {},
        "generation": config.get("generation"),
        "shard": config.get("shard"),
        "tasks": {
            name: {
                k: t.get(k)
                for k in ("content_hash", "n_items", "params", "seed", "request_options")
            }
            for name, t in (config.get("tasks") or {}).items()
        },
    }


def identity_hash(identity: dict[str, Any]) -> str:
    return _hash(identity)[:16]


def _flatten(obj: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(obj, dict) and obj:
        out: dict[str, Any] = {}
        for k, v in obj.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: obj}


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 24 else text[:20] + "…"


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """``field: old → new`` for every field that differs (dotted paths)."""
    a, b = _flatten(old), _flatten(new)
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key, "(absent)") != b.get(key, "(absent)"):
            out.append(
                f"{key}: {_short(a.get(key, '(absent)'))} → {_short(b.get(key, '(absent)'))}"
            )
    return out


def read_config(run_dir: Path) -> dict[str, Any] | None:
    """A run directory's config.json; None when there is none; a clear error when it is corrupt."""
    path = Path(run_dir) / "config.json"
    if not path.exists():
        return None
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ChronoevalError(
            f"{path}: corrupt run configuration ({type(exc).__name__}: {str(exc)[:80]}); "
            "move the directory away or give another --out"
        ) from None
    if not isinstance(config, dict) or not isinstance(config.get("tasks", {}), dict):
        raise ChronoevalError(
            f"{path}: corrupt run configuration (not a JSON object with 'tasks'); "
            "move the directory away or give another --out"
        )
    return config


def prepare_run_dir(run_dir: Path) -> None:
    """Create the run directory, or say in one line why it cannot be."""
    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise ChronoevalError(
            f"{run_dir} is a file, not a run directory; give a directory to --out"
        )
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise ChronoevalError(
                f"run directory path is too long ({len(str(run_dir))} characters): give a "
                "shorter --out"
            ) from None
        if exc.errno in (errno.ENOTDIR, errno.EEXIST):
            raise ChronoevalError(
                f"{run_dir}: a parent of the run directory is a file; give another --out"
            ) from None
        raise StorageError(
            f"{run_dir}: cannot create the run directory ({exc.strerror}); nothing was written"
        ) from None


def check_run_dir(run_dir: Path, identity: dict[str, Any], *, reuse: bool = False) -> None:
    """Refuse a run directory that holds another configuration (unless ``reuse``)."""
    config = read_config(run_dir)
    if config is None or reuse:
        return
    old = config.get("identity") or run_identity(config)
    diffs = differences(old, identity)
    if diffs:
        shown = "; ".join(diffs[:6]) + (f"; and {len(diffs) - 6} more" if len(diffs) > 6 else "")
        raise ChronoevalError(
            f"{run_dir} holds a run of another configuration ({shown}); give another --out, or "
            "--reuse to write this configuration there (stored answers stay, results are replaced)"
        )


def check_counts(**counts: int | float | None) -> None:
    """Refuse counts that cannot mean anything (``--n -3``, ``--concurrency 0`` …)."""
    minimum = {"n": 1, "concurrency": 1, "max_retries": 0, "max_tokens": 1}
    for name, value in counts.items():
        if value is None:
            continue
        if name == "timeout":
            if not value > 0:
                raise ChronoevalError(
                    f"--timeout must be a positive number of seconds, got {value}"
                )
            continue
        low = minimum.get(name, 0)
        if value < low:
            raise ChronoevalError(f"--{name.replace('_', '-')} must be at least {low}, got {value}")
