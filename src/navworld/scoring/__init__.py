"""The NAVWORLD scorer: code score (IC + completeness + fabrication), hard constraints, LLM judge, total.

Entry points (imported lazily): :class:`~navworld.scoring.scorer.TravelScorer`,
:class:`~navworld.scoring.judge.LLMJudge`, :class:`~navworld.scoring.judge.JudgeModel`,
:class:`~navworld.core.score.ScoreReport`. Every constant lives in :mod:`navworld.scoring.config`,
every regular expression in :mod:`navworld.scoring.patterns`. See ``docs/scoring.md``.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["JudgeModel", "LLMJudge", "ScoreReport", "TravelScorer"]

_LAZY = {
    "TravelScorer": "navworld.scoring.scorer",
    "LLMJudge": "navworld.scoring.judge",
    "JudgeModel": "navworld.scoring.judge",
    "ScoreReport": "navworld.core.score",
}


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'navworld.scoring' has no attribute {name!r}")
    return getattr(importlib.import_module(mod), name)
