"""The attack registry: :class:`AttackSpec`, the ``@attack`` decorator and shared helpers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from navworld.agents.messages import assistant_message
from navworld.world.catalog import resolve_city

from .context import Attack, NotApplicable, TaskContext, results_of

__all__ = [
    "ATTACKS",
    "CLASSES",
    "POI_TOOLS",
    "TRANSPORT_TYPES",
    "AttackSpec",
    "NotApplicable",
    "attack",
    "build",
    "center",
    "honest_results",
    "honest_with",
]

POI_TOOLS = ("poi_search", "around_search")
TRANSPORT_TYPES = frozenset({"intercity", "hybrid", "business"})
CLASSES = (
    "fact list without plan",
    "raw tool output reformatted",
    "trivial calls",
    "another city",
    "wrong dates",
    "impossible plan",
    "padding and format",
    "vacuous plan",
    "prose/plan disagreement",
    "fabricated transfers",
    "fabricated facts",
    "unparsed numerals",
    "hidden text",
)
"""The attack classes, in the order of the issue's table (then the ones this suite added)."""


@dataclass(frozen=True)
class AttackSpec:
    """One attack: its name, the issue-table class it belongs to, its builder and the problem
    types on which the suite asserts it (``None``: every type; the report shows every type)."""

    name: str
    cls: str
    builder: Callable[[TaskContext], Attack]
    types: frozenset[str] | None = None

    def asserted_on(self, problem_type: str) -> bool:
        """Whether ``test_attacks.py`` asserts the ≤ 50 % bound on this problem type."""
        return self.types is None or problem_type in self.types

    @property
    def doc(self) -> str:
        """The first paragraph of the builder's docstring."""
        return " ".join((self.builder.__doc__ or "").strip().split("\n\n")[0].split())


ATTACKS: dict[str, AttackSpec] = {}


def attack(
    cls: str, types: frozenset[str] | None = None
) -> Callable[[Callable[[TaskContext], Attack]], Callable[[TaskContext], Attack]]:
    """Register an attack builder under its function name."""
    assert cls in CLASSES, cls

    def register(fn: Callable[[TaskContext], Attack]) -> Callable[[TaskContext], Attack]:
        ATTACKS[fn.__name__] = AttackSpec(fn.__name__, cls, fn, types)
        return fn

    return register


def build(name: str, ctx: TaskContext) -> Attack:
    """Build attack ``name`` on ``ctx`` (raises :class:`NotApplicable` when it has no form here)."""
    return ATTACKS[name].builder(ctx)


def honest_with(ctx: TaskContext, answer: str) -> Attack:
    """The honest transcript (real calls) closed by another answer."""
    return [*ctx.honest_trace[:-1], assistant_message(answer)], answer


def honest_results(ctx: TaskContext) -> list[tuple[str, dict[str, Any], str]]:
    """``(tool, arguments, text)`` of the honest run's calls."""
    return results_of(ctx.honest_trace)


def center(city: str) -> str:
    """The catalog centre of ``city`` as ``"lng,lat"``."""
    c = resolve_city(city)
    assert c is not None
    return f"{c.center[0]:.6f},{c.center[1]:.6f}"
