"""Deterministic seeding: every RNG is a ``random.Random`` seeded from a hash of named parts.

Python's built-in ``hash()`` is salted per process and is never used for data; the global
``random`` module is never used (ruff bans it). Use :func:`rng` with descriptive parts, e.g.
``rng("flights", salt, date, origin, destination)``.
"""

from __future__ import annotations

import hashlib
import os
import random
import time

__all__ = ["SALT_ENV", "current_salt", "rng", "stable_hash", "stable_int", "week_epoch"]

SALT_ENV = "NAVWORLD_SALT"
WEEK_SECONDS = 604800


def stable_hash(*parts: object) -> str:
    """Return the hex sha256 of the parts joined by ``|`` (each part converted with ``str``)."""
    text = "|".join(str(p) for p in parts)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stable_int(*parts: object, bits: int = 64) -> int:
    """Return a non-negative integer of ``bits`` bits derived from :func:`stable_hash`."""
    return int(stable_hash(*parts)[: bits // 4], 16)


def rng(*parts: object) -> random.Random:
    """Return a fresh ``random.Random`` seeded from the hash of ``parts``."""
    return random.Random(stable_int(*parts))


def week_epoch(now: float | None = None) -> int:
    """Return the UTC ISO-week epoch number ``unix_time // 604800``."""
    return int((time.time() if now is None else now) // WEEK_SECONDS)


def current_salt(salt: str | int | None = None) -> str:
    """Resolve the salt: the explicit value, else ``NAVWORLD_SALT``, else the week epoch.

    The result is the same in every process at the same moment (no random suffix).
    """
    if salt is not None and str(salt) != "":
        return str(salt)
    env = os.environ.get(SALT_ENV, "").strip()
    if env:
        return env
    return str(week_epoch())
