"""Fixtures of the runner tests: a scripted OpenAI-compatible model served on 127.0.0.1."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest


def _has_reference() -> bool:
    """Whether the reference agent package exists in this tree (a broken one is *not* skipped)."""
    spec = importlib.util.find_spec("navworld.agents.reference")
    return spec is not None and spec.origin not in (None, "namespace")


HAS_REFERENCE = _has_reference()
requires_reference = pytest.mark.skipif(
    not HAS_REFERENCE, reason="the reference agent (navworld.agents.reference) is not in this tree yet"
)

FAKE_MODEL = "fake-planner"
SECRET = "sk-test-SECRET-value-1234567890"


@pytest.fixture(scope="session")
def fake_model() -> Iterator[Any]:
    """A real HTTP endpoint serving the scripted GroundedPlanner as model ``fake-planner``."""
    from navworld.agents.fake import GroundedPlanner
    from navworld.agents.fake_server import start_fake_server

    with start_fake_server({FAKE_MODEL: GroundedPlanner()}) as server:
        yield server


@pytest.fixture
def model_args(fake_model: Any) -> list[str]:
    """CLI arguments selecting the fake model."""
    return ["--model", FAKE_MODEL, "--base-url", fake_model.base_url]
