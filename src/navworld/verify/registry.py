"""The registry of environment checks: stable names, groups, one-line meanings.

A check is a function of a :class:`~navworld.verify.context.CheckContext` that yields one
message per violation (nothing when the plan passes). Checks skip what another check owns: an
unknown POI fails ``*_exists`` only, not its opening-hours or price checks, so every mutation of
a valid plan fails exactly the check it targets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from navworld.verify.context import CheckContext

__all__ = ["CHECKS", "GROUP_ORDER", "CheckFn", "CheckSpec", "check"]

GROUP_ORDER: tuple[str, ...] = (
    "structure",
    "intercity",
    "transport",
    "attractions",
    "restaurants",
    "hotels",
    "time",
    "space",
    "capacity",
    "grounding",
)
"""Report order of the check groups."""

CheckFn = Callable[[CheckContext], Iterable[str]]


@dataclass(frozen=True)
class CheckSpec:
    """A registered check."""

    name: str
    group: str
    description: str
    fn: CheckFn


CHECKS: list[CheckSpec] = []
"""Every check in report order (registered by the ``check_*`` modules)."""


def check(name: str, group: str, description: str) -> Callable[[CheckFn], CheckFn]:
    """Register ``fn`` as the check ``name`` of ``group``."""

    def deco(fn: CheckFn) -> CheckFn:
        if any(c.name == name for c in CHECKS):
            raise ValueError(f"duplicate check name {name!r}")
        if group not in GROUP_ORDER:
            raise ValueError(f"unknown check group {group!r}")
        CHECKS.append(CheckSpec(name, group, description, fn))
        CHECKS.sort(key=lambda c: GROUP_ORDER.index(c.group))  # stable: keeps order within a group
        return fn

    return deco
