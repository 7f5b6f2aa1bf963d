"""The score report of one answer (NAVWORLD scorer output, seed §3.9).

``to_dict()`` is the debug view (seed §3.9.2 keys plus the path, hard-constraint details and
the plan verification); ``to_safe_dict()`` is the default view for RL consumers: bands and
Gaussian-noised aggregates. The noise is seeded by ``(task_id, salt)`` through
:func:`navworld.core.seeding.rng`, never the global RNG, so it is reproducible.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from navworld.core.seeding import rng

__all__ = ["BAND_EDGES", "NOISE_SIGMA", "SCORE_BANDS", "CodeScore", "LlmScore", "ScoreReport", "band"]

SCORE_BANDS: tuple[str, ...] = ("very_low", "low", "medium", "high", "very_high")
BAND_EDGES: tuple[float, ...] = (10.0, 20.0, 30.0, 40.0)
NOISE_SIGMA = 2.0


def band(value: float, edges: tuple[float, ...] = BAND_EDGES, names: tuple[str, ...] = SCORE_BANDS) -> str:
    """The band name of a 0–50 value (``edges`` are the exclusive upper bounds of all but the last)."""
    for edge, name in zip(edges, names, strict=False):
        if value < edge:
            return name
    return names[-1]


class CodeScore(BaseModel):
    """The algorithmic half (0–50)."""

    model_config = ConfigDict(frozen=True)
    info_consistency: float = 0.0
    completeness: float = 0.0
    fabrication_penalty: float = 0.0
    subtotal: float = 0.0
    coupled_subtotal: float = 0.0
    ic_categories: dict[str, Any] = Field(default_factory=dict)
    comp_subscores: dict[str, float] = Field(default_factory=dict)
    diversity_mult: float = 1.0
    echo_mult: float = 1.0
    local_fab_mult: float = 1.0
    defense_mult: float = 1.0
    ic_before_adjustments: float = 0.0
    fabrication: dict[str, Any] = Field(default_factory=dict)
    plan_factor: float = 1.0
    """Scorer s2: how much of the total the plan keeps (1.0 under the ``seed`` profile)."""


class LlmScore(BaseModel):
    """The judged half (0–50); zeros when no judge result is available."""

    model_config = ConfigDict(frozen=True)
    practicality: float = 0.0
    analysis_depth: float = 0.0
    logic: float = 0.0
    user_experience: float = 0.0
    factual_grounding: float = 0.0
    subtotal: float = 0.0
    coupled_subtotal: float = 0.0
    reasons: dict[str, str] = Field(default_factory=dict)


class ScoreReport(BaseModel):
    """The full result of scoring one answer; ``total`` is on 0–100."""

    model_config = ConfigDict(frozen=True)
    total: float
    task_id: int | None = None
    problem_type: str = ""
    salt: str = ""
    scorer_version: str = ""
    scoring_profile: str = ""
    """``s2`` (default) or ``seed``; see :mod:`navworld.scoring.profile`."""
    code_score: CodeScore = Field(default_factory=CodeScore)
    llm_score: LlmScore = Field(default_factory=LlmScore)
    hard_constraints: dict[str, bool] = Field(default_factory=dict)
    constraints: dict[str, Any] = Field(default_factory=dict)
    parse_success: bool = False
    llm_validation_success: bool = False
    llm_error: str | None = None
    judge: dict[str, Any] = Field(default_factory=dict)
    path: str = ""
    plan_verification: dict[str, Any] | None = None
    error: str | None = None

    @property
    def score(self) -> float:
        """``total / 100`` (the 0–1 reward)."""
        return round(self.total / 100.0, 4)

    @property
    def success(self) -> bool:
        """Whether the total reaches the pass mark (60)."""
        return self.total >= 60.0

    def to_dict(self) -> dict[str, Any]:
        """The debug view (seed §3.9.2 keys and more), JSON-safe."""
        return self.model_dump(mode="json")

    def to_safe_dict(self) -> dict[str, Any]:
        """The default external view: total, bands, hard constraints, seeded-noise aggregates."""
        r = rng("score-noise", self.task_id, self.salt)
        code = self.code_score.subtotal
        llm = self.llm_score.subtotal
        noisy_code = min(50.0, max(0.0, code + r.gauss(0.0, NOISE_SIGMA)))
        noisy_llm = (
            min(50.0, max(0.0, llm + r.gauss(0.0, NOISE_SIGMA))) if self.llm_validation_success else 0.0
        )
        return {
            "total": self.total,
            "code_band": band(code),
            "llm_band": band(llm) if self.llm_validation_success else "very_low",
            "hard_constraints": dict(self.hard_constraints),
            "noisy_code": round(noisy_code, 1),
            "noisy_llm": round(noisy_llm, 1),
            "llm_available": self.llm_validation_success,
            "path": self.path,
            "scoring_profile": self.scoring_profile,
        }
