"""Shared fixtures of the scoring tests."""

from __future__ import annotations

import pytest

from navworld.scoring.scorer import TravelScorer


@pytest.fixture(scope="session")
def scorer() -> TravelScorer:
    """A code-only scorer with a fixed salt (plan verification off: the handwritten POIs are not in the sandbox)."""
    return TravelScorer(salt="test-salt", verify_plans=False)
