"""Plans/DSL verification of the answer's JSON plan, reported beside (never inside) the total.

``navworld.verify`` and the sandbox world are imported lazily: while they are unavailable the
report carries ``plan_verification = None``. Verification failures are recorded, never raised.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

__all__ = ["verify_answer_plan"]

logger = logging.getLogger(__name__)


@lru_cache(maxsize=4)
def _world(salt: str) -> Any:
    from navworld.world.sandbox import SandboxWorld

    return SandboxWorld(salt)


def verify_answer_plan(answer: str, problem: Any, trace: object, salt: str) -> dict[str, Any] | None:
    """``verify_plan(plan, problem, world, trace).to_dict()``, a ``{"delivered": False, "error"}`` dict
    when the plan cannot be extracted, or ``None`` when the verify package is not importable."""
    try:
        from navworld.verify import verify_plan
        from navworld.verify.plan_parse import extract_plan
    except ImportError:
        return None
    try:
        plan = extract_plan(answer)
    except Exception as exc:  # PlanParseError carries the precise reason
        return {"delivered": False, "error": f"{type(exc).__name__}: {str(exc)[:300]}"}
    try:
        world = _world(salt)
    except ImportError:
        return None
    try:
        return dict(verify_plan(plan, problem, world, trace).to_dict())
    except Exception as exc:
        logger.warning("plan verification failed: %s", type(exc).__name__)
        return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
