"""Shared fixtures: the stand-in stack while collaborators have not landed (tests only)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

_NAME = "navworld_test_standins"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(_NAME, Path(__file__).resolve().parents[1] / "env" / "standins.py")
    assert _spec is not None and _spec.loader is not None
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)


@pytest.fixture(autouse=True)
def standin_stack(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Use the stand-ins for this test unless every real collaborator is ready."""
    return sys.modules[_NAME].activate(monkeypatch)
