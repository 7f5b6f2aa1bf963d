"""navworld: evaluate and train LLM agents on planning trips in China with tools.

Public entry points are imported lazily so ``import navworld`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from navworld.core.versions import PACKAGE_VERSION as __version__

__all__ = ["Actor", "ProblemGenerator", "TravelScorer", "__version__"]

_LAZY = {
    "Actor": "navworld.env.actor",
    "ProblemGenerator": "navworld.tasks.generator",
    "TravelScorer": "navworld.scoring.scorer",
}

if TYPE_CHECKING:  # pragma: no cover
    from navworld.env.actor import Actor
    from navworld.scoring.scorer import TravelScorer
    from navworld.tasks.generator import ProblemGenerator


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'navworld' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(mod), name)
