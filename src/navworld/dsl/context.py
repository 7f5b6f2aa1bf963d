"""The context concept functions read: the world (through a cached lookup) and task facts.

One :class:`DSLContext` serves many runs; it converts a plan once into the plain read-only data
programs see (``plan`` is a dict shaped like the plan JSON) and remembers it, so running eight
constraints on one plan converts it once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from navworld.core.errors import DSLError
from navworld.core.plan import Plan
from navworld.dsl.limits import MAX_INT_BITS, MAX_STEPS
from navworld.dsl.world_view import WorldLookup, WorldView, lookup_for

if TYPE_CHECKING:  # pragma: no cover
    from navworld.core.problem import Problem

__all__ = ["DSLContext", "plan_to_data"]


def plan_to_data(plan: Plan | dict[str, Any]) -> dict[str, Any]:
    """The plain-data form of a plan that DSL programs see (``metro`` already read as ``transit``)."""
    if isinstance(plan, Plan):
        return plan.model_dump(mode="python")
    if isinstance(plan, dict):
        try:
            return Plan.model_validate(plan).model_dump(mode="python")
        except Exception as exc:
            raise DSLError(f"not a valid plan: {str(exc).splitlines()[0]}") from None
    raise DSLError(f"expected a plan, got {type(plan).__name__}")


def _container_ids(data: Any) -> frozenset[int]:
    ids: list[int] = []
    stack = [data]
    while stack:
        x = stack.pop()
        if type(x) is dict:
            ids.append(id(x))
            stack.extend(x.values())
        elif type(x) is list:
            ids.append(id(x))
            stack.extend(x)
        elif type(x) is int and x.bit_length() > MAX_INT_BITS:
            # Programs only ever see bounded integers (see navworld.dsl.limits), plan data included.
            raise DSLError(f"the plan holds an integer too large for constraint programs (more than {MAX_INT_BITS} bits)")
    return frozenset(ids)


class DSLContext:
    """What concept functions may consult: a world lookup and (optionally) the task's facts.

    ``people``/``origin``/``destination``/``travel_date``/``num_days`` come from the problem
    when known (see :meth:`for_problem`); concept functions fall back to the plan's own fields.
    """

    def __init__(
        self,
        world: WorldView | None = None,
        *,
        people: int | None = None,
        origin: str = "",
        destination: str = "",
        travel_date: str = "",
        num_days: int | None = None,
        step_limit: int = MAX_STEPS,
    ) -> None:
        self.world = world  # strong reference: the shared lookup only holds the world weakly
        self.lookup: WorldLookup = lookup_for(world)
        self.people = people
        self.origin = origin
        self.destination = destination
        self.travel_date = travel_date
        self.num_days = num_days
        self.step_limit = step_limit
        self._plan_obj: Any = None
        self._plan_data: dict[str, Any] | None = None
        self._frozen: frozenset[int] = frozenset()
        self.plan_cost = 1
        """Steps charged for a concept function that walks the whole plan (1 + activities + legs)."""
        self.memo: dict[Any, Any] = {}

    @classmethod
    def for_problem(cls, world: WorldView | None, problem: Problem, **kwargs: Any) -> DSLContext:
        """A context carrying the task facts of ``problem``."""
        return cls(
            world,
            people=problem.group_size,
            origin=problem.origin_city,
            destination=problem.destination_city,
            travel_date=problem.travel_date,
            num_days=problem.num_days,
            **kwargs,
        )

    def plan_data(self, plan: Plan | dict[str, Any]) -> tuple[dict[str, Any], frozenset[int]]:
        """The read-only data of ``plan`` and the ids of its containers (cached for the last plan)."""
        if plan is self._plan_obj and self._plan_data is not None:
            return self._plan_data, self._frozen
        data = plan_to_data(plan)
        self._plan_obj = plan
        self._plan_data = data
        self._frozen = _container_ids(data)
        self.plan_cost = 1 + len(self._frozen)
        self.memo.clear()
        return data, self._frozen

    @property
    def data(self) -> dict[str, Any]:
        """The data of the plan being evaluated (empty before the first run)."""
        return self._plan_data or {}

    def target_city(self) -> str:
        """The city POIs are looked up in: the task's destination, else the plan's target city."""
        if self.destination:
            return self.destination
        return str(self.data.get("target_city") or "")
