"""ChinaTravel's environment ("commonsense") checks, column by column, with their exact rules.

Re-implemented from their documented behaviour (``symbol_verification/commonsense_constraint.py``
of ChinaTravel ``main``; ``reference/chinatravel-compat.md`` §3): seven validators, 25 static
columns spelled as their evaluator spells them (typos included), plus two columns their code
creates the first time they fire. Each column is ``1`` when violated. What their code does is
kept on purpose, including:

* exact equality for intercity, hotel and restaurant prices; ``int()`` truncation for attractions;
* their meal windows (lunch starts before 14:00 and ends after 11:00, dinner 20:00 / 17:00;
  breakfast is checked only at a hotel: before 09:00 / after 06:00);
* per-leg comparison with ``goto`` and the walk/metro/walk or single walk/taxi shape;
* at least one hotel for a trip longer than a day; no capacity checks;
* the typo column ``Inccorrect cost information of Inner-City Transport`` is only ever set
  together with the other transport columns; a real cost error creates
  ``Incorrect cost information of Inner-City Transport`` instead (and a missing leg time
  ``Incorrect Duration Information of Inner-City Transport``); once such a column exists, a later
  "fail all three columns" in the same plan raises (their table has four columns by then);
* a validator that raises (their code does not catch it) stops the plan's remaining validators:
  :class:`Outcome.exception` holds the error and the columns not reached count as passed in
  micro EPR while the plan cannot pass (their evaluation wrapper swallows the exception).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from navworld.verify.chinatravel.columns import (
    ATTR,
    COLUMNS,
    DYNAMIC_COLUMNS,
    HOTEL,
    IC,
    REST,
    SPACE,
    STATIC_COLUMNS,
    T_COST,
    T_DURATION,
    TIME,
    TRANS,
    Table,
)
from navworld.verify.chinatravel.rules_entities import attractions, hotels, intercity, restaurants
from navworld.verify.chinatravel.rules_moves import space, time_order, transport

__all__ = [
    "ATTR", "COLUMNS", "DYNAMIC_COLUMNS", "HOTEL", "IC", "REST", "SPACE", "STATIC_COLUMNS", "TIME", "TRANS", "T_COST",
    "T_DURATION", "Outcome", "check_commonsense",
]

_VALIDATORS: tuple[Callable[[dict[str, Any], Any, Any], Table], ...] = (
    intercity, attractions, hotels, restaurants, transport, time_order, space,
)
_VALIDATOR_COLUMNS = (IC, ATTR, HOTEL, REST, TRANS, TIME, SPACE)
_NAMES = {"intercity": "intercity", "attractions": "attractions", "hotels": "hotels", "restaurants": "restaurants",
          "transport": "transport", "time_order": "time", "space": "space"}


@dataclass
class Outcome:
    """ChinaTravel's environment verdict on one plan.

    ``flags`` maps every column that was evaluated to 1 (violated) or 0, in their order
    (dynamic columns only when they fired); ``exception`` is the error that stopped the
    validators (``skipped`` lists the columns not reached, counted as passed in micro EPR).
    """

    flags: dict[str, int] = field(default_factory=dict)
    exception: str | None = None
    skipped: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Their commonsense pass: no exception and no flag set."""
        return self.exception is None and not any(self.flags.values())

    def columns(self) -> dict[str, bool]:
        """``{column: passed}`` for the static columns, the dynamic ones that fired, and skipped ones (passed)."""
        out = {c: True for c in STATIC_COLUMNS}
        for c, v in self.flags.items():
            out[c] = v == 0
        return out


def check_commonsense(query: dict[str, Any], plan: Any, world: Any) -> Outcome:
    """Run the seven validators on the raw plan JSON (``{}`` for a missing plan) against ``world``."""
    out = Outcome()
    for i, fn in enumerate(_VALIDATORS):
        try:
            table = fn(query, plan, world)
        except Exception as exc:  # their wrapper catches it: the rest of this plan is not evaluated
            out.exception = f"{_NAMES[fn.__name__]}: {type(exc).__name__}: {exc}"[:300]
            out.skipped = [c for cols in _VALIDATOR_COLUMNS[i:] for c in cols]
            break
        out.flags.update(table.flags)
    return out
