"""The environment checks: ChinaTravel's ~25 commonsense checks adapted to our world, plus
structure, capacity and grounding. Names are stable; ``docs/verification.md`` lists them all.

Groups and modules: structure + intercity (:mod:`~navworld.verify.check_plan`), inner-city
transport + space (:mod:`~navworld.verify.check_transport`), attractions + restaurants + hotels
(:mod:`~navworld.verify.check_pois`), time + capacity + grounding
(:mod:`~navworld.verify.check_time`).
"""

from __future__ import annotations

import logging

from navworld.verify import check_plan, check_pois, check_time, check_transport  # noqa: F401  (register)
from navworld.verify.context import CheckContext
from navworld.verify.registry import CHECKS, CheckSpec

__all__ = ["CHECKS", "CHECK_GROUPS", "CHECK_NAMES", "CheckSpec", "run_checks"]

log = logging.getLogger(__name__)

CHECK_NAMES: tuple[str, ...] = tuple(c.name for c in CHECKS)
"""Every check name, in report order."""

CHECK_GROUPS: dict[str, str] = {c.name: c.group for c in CHECKS}
"""Check name → group."""

_MAX_MESSAGES = 3


def run_checks(cx: CheckContext, counts: dict[str, int] | None = None) -> tuple[dict[str, bool], dict[str, str]]:
    """Run every check: ``({name: passed}, {name: reason of the failure})``.

    ``counts``, when given, receives the number of violations of each failed check. A check that
    raises is a bug: it fails (never credit for an exception) and is logged.
    """
    results: dict[str, bool] = {}
    reasons: dict[str, str] = {}
    for spec in CHECKS:
        try:
            messages = []
            count = 0
            for msg in spec.fn(cx):
                count += 1
                if len(messages) < _MAX_MESSAGES:
                    messages.append(msg)
        except Exception as exc:
            log.exception("check %s raised", spec.name)
            results[spec.name] = False
            reasons[spec.name] = f"internal error in check: {type(exc).__name__}: {exc}"
            if counts is not None:
                counts[spec.name] = max(1, count)
            continue
        results[spec.name] = count == 0
        if count and counts is not None:
            counts[spec.name] = count
        if count:
            reason = "; ".join(messages)
            if count > len(messages):
                reason += f"; … ({count - len(messages)} more)"
            reasons[spec.name] = reason
    return results, reasons
