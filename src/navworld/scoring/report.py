"""The score report (re-exported from :mod:`navworld.core.score`, where the model lives so every layer can read it).

``ScoreReport.total`` (0–100), ``.to_dict()`` (debug view, seed §3.9.2 keys: total, code_score,
llm_score, hard_constraints, parse_success, llm_validation_success, plus path, constraints,
judge, plan_verification) and ``.to_safe_dict()`` (bands and seeded noise, seed §3.9.1).
"""

from __future__ import annotations

from navworld.core.score import BAND_EDGES, NOISE_SIGMA, SCORE_BANDS, CodeScore, LlmScore, ScoreReport, band

__all__ = ["BAND_EDGES", "NOISE_SIGMA", "SCORE_BANDS", "CodeScore", "LlmScore", "ScoreReport", "band"]
