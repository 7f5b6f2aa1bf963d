"""Scoring profiles: ``s2`` (the default, hardened) and ``seed`` (NAVWORLD seed §3 as written).

Both share parsing and fact extraction (the same reading of answers, tables, English, derived
amounts). ``seed`` reproduces the seed's formula: the score rewards grounded citations and
ignores the plan (its verification is only reported). ``s2`` adds what makes the score measure
planning: the strict trajectory rules (:mod:`navworld.scoring.trajectory`), required tools that
count only when relevant and used, date coverage, echo detection on normalised content,
completeness targets and minimum quantities taken from the request, the plan factor
(:mod:`navworld.scoring.plan_score`) and a judge summary of verified strings only.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_PROFILE", "PROFILES", "ScoringProfile", "get_profile"]


@dataclass(frozen=True, slots=True)
class ScoringProfile:
    """Which rules a scorer applies."""

    name: str
    trajectory: bool
    """Strict pairing, topic by results, dates, relevance (s2)."""
    plan_gate: bool
    """The plan factor multiplies the total (s2); else plan verification is only reported."""
    normalised_echo: bool
    """Echo detection on normalised content shingles rather than byte-identical lines."""
    request_targets: bool
    """Completeness targets and IC minimum quantities follow the task (pace, options asked)."""
    verified_summary: bool
    """The judge sees only tool-verified names (others become placeholders)."""
    description: str = ""


PROFILES: dict[str, ScoringProfile] = {
    "s2": ScoringProfile(
        "s2",
        trajectory=True,
        plan_gate=True,
        normalised_echo=True,
        request_targets=True,
        verified_summary=True,
        description="hardened default: rewards a feasible plan grounded in this episode's tool results",
    ),
    "seed": ScoringProfile(
        "seed",
        trajectory=False,
        plan_gate=False,
        normalised_echo=False,
        request_targets=False,
        verified_summary=False,
        description="NAVWORLD seed §3 formula (upstream bugs fixed), to reproduce NAVWORLD numbers",
    ),
}
DEFAULT_PROFILE = "s2"


def get_profile(name: str | ScoringProfile | None = None) -> ScoringProfile:
    """The profile called ``name`` (default ``s2``); ``ValueError`` naming the choices otherwise."""
    if isinstance(name, ScoringProfile):
        return name
    key = (name or DEFAULT_PROFILE).strip().lower()
    if key not in PROFILES:
        raise ValueError(f"unknown scoring profile {name!r}; choose one of: {', '.join(PROFILES)}")
    return PROFILES[key]
