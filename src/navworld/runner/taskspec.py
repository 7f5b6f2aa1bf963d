"""Parse ``--tasks`` specifications into an ordered list of task ids.

Grammar (whitespace around items is ignored)::

    spec    := item ("," item)*  |  "@" path  |  path
    item    := INT  |  INT ":" INT          # A:B is half-open: A, A+1, ..., B-1

A file holds the same items separated by commas, whitespace or newlines; ``#`` starts a comment.
Duplicates are dropped (first occurrence wins), the order is kept.

>>> parse_task_spec("0:3,7,10:12")
[0, 1, 2, 7, 10, 11]
"""

from __future__ import annotations

import re
from pathlib import Path

from navworld.core.errors import ConfigError

__all__ = ["MAX_TASKS", "parse_task_spec"]

MAX_TASKS = 1_000_000
"""Upper bound on the number of task ids one spec may name (guards ``0:10**12``)."""

_ITEM = re.compile(r"^\s*(\d+)\s*(?::\s*(\d+)\s*)?$")
_SPEC = re.compile(r"^[\d\s:,]+$")


def _parse_items(text: str, origin: str) -> list[int]:
    """Parse comma/whitespace separated items; ``origin`` names the source in errors."""
    ids: list[int] = []
    seen: set[int] = set()
    tokens = [t for t in re.split(r"[,\s]+", re.sub(r"\s*:\s*", ":", text)) if t]
    if not tokens:
        raise ConfigError(f"--tasks {origin}: no task ids")
    for token in tokens:
        m = _ITEM.match(token)
        if m is None:
            raise ConfigError(f"--tasks {origin}: bad item {token!r} (expected N or A:B with integers >= 0)")
        start = int(m.group(1))
        stop = int(m.group(2)) if m.group(2) is not None else start + 1
        if stop <= start:
            raise ConfigError(f"--tasks {origin}: empty range {token!r} (A:B is half-open and needs B > A)")
        if len(ids) + (stop - start) > MAX_TASKS:
            raise ConfigError(f"--tasks {origin}: more than {MAX_TASKS} task ids")
        for task_id in range(start, stop):
            if task_id not in seen:
                seen.add(task_id)
                ids.append(task_id)
    return ids


def _read_file(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"--tasks: cannot read {str(path)!r}: {exc.__class__.__name__}") from None
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def parse_task_spec(spec: str) -> list[int]:
    """Return the task ids named by ``spec`` (see the module docstring).

    Raises:
        ConfigError: the spec is empty, malformed, names a missing file, or is too large.
    """
    spec = (spec or "").strip()
    if not spec:
        raise ConfigError("--tasks is required (e.g. 0:70, 1,5,9:12 or @ids.txt)")
    if spec.startswith("@"):
        path = Path(spec[1:])
        return _parse_items(_read_file(path), repr(spec))
    if _SPEC.match(spec):
        return _parse_items(spec, repr(spec))
    path = Path(spec)
    if path.is_file():
        return _parse_items(_read_file(path), repr(spec))
    raise ConfigError(f"--tasks {spec!r}: not a task spec (A:B, comma list) and not a file")
