"""Task filters shared by ``navworld eval`` and ``navworld task list``: type, difficulty, limit.

A task's type and difficulty follow from its id alone (DESIGN §6: ``task_id % 7`` → type,
``(task_id // 7) % 3 + 1`` → difficulty), so filtering needs no problem generation. Filters keep
the order of the ``--tasks`` spec; ``--limit N`` keeps the first N ids that pass.

>>> select([0, 1, 7, 8, 14, 21], types="intercity", difficulty="1,3")
[0, 14]
"""

from __future__ import annotations

from navworld.core.errors import ConfigError
from navworld.core.problem import PROBLEM_TYPES

__all__ = ["describe", "difficulty_of", "parse_difficulties", "parse_types", "select", "type_of"]

DIFFICULTIES = (1, 2, 3)


def type_of(task_id: int) -> str:
    """The problem type of ``task_id``."""
    return PROBLEM_TYPES[task_id % len(PROBLEM_TYPES)]


def difficulty_of(task_id: int) -> int:
    """The difficulty (1–3) of ``task_id``."""
    return (task_id // len(PROBLEM_TYPES)) % 3 + 1


def parse_types(text: str | None) -> tuple[str, ...]:
    """``--types a,b`` → the problem types (validated; empty → no filter)."""
    names = tuple(t.strip().lower() for t in (text or "").split(",") if t.strip())
    unknown = [t for t in names if t not in PROBLEM_TYPES]
    if unknown:
        raise ConfigError(f"--types: unknown problem type {unknown[0]!r} (known: {', '.join(PROBLEM_TYPES)})")
    return tuple(dict.fromkeys(names))


def parse_difficulties(text: str | None) -> tuple[int, ...]:
    """``--difficulty 1,3`` → the difficulties (validated; empty → no filter)."""
    values: list[int] = []
    for item in (text or "").split(","):
        item = item.strip()
        if not item:
            continue
        if item not in {"1", "2", "3"}:
            raise ConfigError(f"--difficulty must list values among 1, 2, 3, got {item!r}")
        values.append(int(item))
    return tuple(dict.fromkeys(values))


def parse_limit(text: str | None) -> int | None:
    """``--limit N`` (a positive integer; empty → no limit)."""
    if text is None or not str(text).strip():
        return None
    try:
        value = int(str(text).strip())
    except ValueError:
        raise ConfigError(f"--limit must be an integer, got {text!r}") from None
    if value < 1:
        raise ConfigError(f"--limit must be >= 1, got {value}")
    return value


def select(
    task_ids: list[int],
    *,
    types: str | None = None,
    difficulty: str | None = None,
    limit: str | int | None = None,
) -> list[int]:
    """The ids of ``task_ids`` matching the filters (order kept); raises ConfigError on bad filters."""
    wanted_types = set(parse_types(types))
    wanted_levels = set(parse_difficulties(difficulty))
    cap = parse_limit(None if limit is None else str(limit))
    out: list[int] = []
    for task_id in task_ids:
        if wanted_types and type_of(task_id) not in wanted_types:
            continue
        if wanted_levels and difficulty_of(task_id) not in wanted_levels:
            continue
        out.append(task_id)
        if cap is not None and len(out) >= cap:
            break
    return out


def describe(*, types: str | None = None, difficulty: str | None = None, limit: str | int | None = None) -> str:
    """A canonical text of the filters (``""`` when none), recorded in the run configuration."""
    parts = []
    if t := parse_types(types):
        parts.append("types=" + ",".join(t))
    if d := parse_difficulties(difficulty):
        parts.append("difficulty=" + ",".join(map(str, d)))
    if (n := parse_limit(None if limit is None else str(limit))) is not None:
        parts.append(f"limit={n}")
    return " ".join(parts)
