"""Make the shared fake world of ``tests/verify`` importable from the DSL tests."""

from __future__ import annotations

import sys
from pathlib import Path

_VERIFY = str(Path(__file__).resolve().parent.parent / "verify")
if _VERIFY not in sys.path:
    sys.path.insert(0, _VERIFY)
