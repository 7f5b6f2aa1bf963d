"""Shared helpers of the AMap backend tests (a uniquely named module, unlike ``conftest``)."""

from __future__ import annotations

from typing import Any

__all__ = ["KEYS", "shape"]

KEYS = ("key-one", "key-two", "key-three")
"""The key pool the tests configure (never real keys)."""


def shape(x: Any) -> Any:
    """The structure of a data dict: key order and value types, list items merged."""
    if isinstance(x, dict):
        return [(k, shape(v)) for k, v in x.items()]
    if isinstance(x, list):
        return sorted({repr(shape(v)) for v in x})
    return type(x).__name__
