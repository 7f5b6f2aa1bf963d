"""Per-episode tool-call budgets (DESIGN §5): direction 10, poi_search 10, around_search 6,
weather 3, transport unlimited. A call over budget returns an error result, never raises."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["DEFAULT_LIMITS", "ToolBudget"]

DEFAULT_LIMITS: dict[str, int | None] = {
    "poi_search": 10,
    "around_search": 6,
    "direction": 10,
    "weather": 3,
    "search_flights": None,
    "search_train_tickets": None,
}


class ToolBudget:
    """Counts the calls of one episode against per-tool limits (``None`` = unlimited)."""

    def __init__(self, limits: Mapping[str, int | None] | None = None) -> None:
        self.limits: dict[str, int | None] = dict(DEFAULT_LIMITS)
        if limits:
            self.limits.update(limits)
        self.counts: dict[str, int] = {}

    def limit(self, name: str) -> int | None:
        """The limit of ``name`` (``None`` = unlimited)."""
        return self.limits.get(name)

    def used(self, name: str) -> int:
        """How many calls of ``name`` were consumed."""
        return self.counts.get(name, 0)

    def remaining(self, name: str) -> int | None:
        """Calls of ``name`` still allowed (``None`` = unlimited)."""
        lim = self.limit(name)
        return None if lim is None else max(0, lim - self.used(name))

    def try_consume(self, name: str) -> bool:
        """Consume one call of ``name``; ``False`` (nothing consumed) when over budget."""
        lim = self.limit(name)
        if lim is not None and self.used(name) >= lim:
            return False
        self.counts[name] = self.used(name) + 1
        return True

    def exceeded_message(self, name: str) -> str:
        """The reason shown to the model when ``name`` is over budget (the limit is per task)."""
        return f"本任务 {name} 调用次数已达上限（{self.limit(name)} 次），请利用已有结果继续作答。"

    def reset(self) -> None:
        """Forget every consumed call."""
        self.counts.clear()

    def to_dict(self) -> dict[str, dict[str, int | None]]:
        """``{tool: {"used", "limit"}}`` for logs and results."""
        return {n: {"used": self.used(n), "limit": self.limit(n)} for n in self.limits}
