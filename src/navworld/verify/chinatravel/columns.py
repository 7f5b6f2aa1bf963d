"""ChinaTravel's commonsense column names (spelled as their evaluator spells them) and the row table."""

from __future__ import annotations

from typing import Any

__all__ = [
    "ATTR",
    "COLUMNS",
    "DYNAMIC_COLUMNS",
    "HOTEL",
    "IC",
    "REST",
    "SPACE",
    "STATIC_COLUMNS",
    "TIME",
    "TRANS",
    "T_COST",
    "T_DURATION",
    "Table",
    "earlier_eq",
    "minutes",
    "real_minutes",
]

IC = (
    "Intercity transportation events must occur",
    "Invalid Trains or Airplanes, given TrainID/FlightID, origin and destination",
    "Incorrect Information of Intercity Transport on price or duration",
    "Incorrect Cost on Intercity Transportation",
)
ATTR = (
    "Unavailable attractions",
    "Visiting attraction in their closed time",
    "Repeated attraction Choices",
    "Incorrect price Information of attraction",
    "Incorrect cost Information of attraction",
)
HOTEL = (
    "Unavailable Accommodation",
    "Incorrect Information of Accommodation on price or room type",
    "Incorrect cost Information of Accommodation",
    "Accomondation is necessary for trips longer than one day",
)
REST = (
    "Unavailable Restruants",
    "Visiting Restruants in their closed time",
    "Repeated Restruants Choices",
    "Incorrect price Information of Restruants",
    "Incorrect cost Information of Restruants",
    "Inappropriate Meal Times",
)
TRANS = (
    "Unavailable Inner-City Transport",
    "Incorrect Information of Inner-City Transporton on price, distance, and duration",
    "Inccorrect cost information of Inner-City Transport",
)
TIME = ("Invalid duration information of each activity", "Does not follow Chronological Order")
SPACE = ("Invalid Transport information across positions",)
T_COST = "Incorrect cost information of Inner-City Transport"
T_DURATION = "Incorrect Duration Information of Inner-City Transport"

STATIC_COLUMNS: tuple[str, ...] = IC + ATTR + HOTEL + REST + TRANS + TIME + SPACE
"""The 25 columns every plan is scored on, in their evaluator's order."""
DYNAMIC_COLUMNS: tuple[str, ...] = (T_COST, T_DURATION)
"""Columns their code creates the first time they fire (so their number depends on the batch)."""
COLUMNS: tuple[str, ...] = STATIC_COLUMNS + DYNAMIC_COLUMNS


class Table:
    """One validator's flags (a one-row table that gains a column when an unknown one is set)."""

    def __init__(self, columns: tuple[str, ...]) -> None:
        self.flags: dict[str, int] = dict.fromkeys(columns, 0)

    def set(self, column: str) -> None:
        """Flag ``column`` (creating it when the table does not have it, as pandas does)."""
        self.flags[column] = 1

    def fill(self, *values: int) -> None:
        """Set the whole row; like pandas, a row of the wrong length raises ``ValueError``."""
        if len(values) != len(self.flags):
            raise ValueError(f"cannot set a row with mismatched columns ({len(values)} values, {len(self.flags)} columns)")
        for k, v in zip(list(self.flags), values, strict=True):
            self.flags[k] = v


def minutes(text: Any) -> float:
    """Minutes of ``H:MM`` the way their ``time_compare_if_earlier_equal`` reads it (raises on junk)."""
    return float(text.split(":")[0]) * 60 + float(text.split(":")[1])


def earlier_eq(a: Any, b: Any) -> bool:
    """Their ``time_compare_if_earlier_equal``: ``a <= b`` in minutes."""
    return minutes(a) <= minutes(b)


def real_minutes(text: Any) -> float:
    """Their ``time2real``: minutes of a time, ignoring a ``次日`` prefix."""
    return minutes(text.split("次日")[-1])


