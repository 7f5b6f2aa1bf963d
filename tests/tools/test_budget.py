"""ToolBudget limits."""

from __future__ import annotations

from navworld.tools.budget import DEFAULT_LIMITS, ToolBudget


def test_defaults() -> None:
    assert DEFAULT_LIMITS == {"poi_search": 10, "around_search": 6, "direction": 10, "weather": 3,
                              "search_flights": None, "search_train_tickets": None}


def test_consume_and_reset() -> None:
    b = ToolBudget({"weather": 1})
    assert b.try_consume("weather") and not b.try_consume("weather")
    assert b.remaining("weather") == 0 and b.used("weather") == 1
    assert "上限（1 次）" in b.exceeded_message("weather")
    assert all(b.try_consume("search_flights") for _ in range(100)) and b.remaining("search_flights") is None
    b.reset()
    assert b.try_consume("weather")
