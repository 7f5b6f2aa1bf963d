"""The world: city catalog, deterministic sandbox, backends (sandbox, AMap, record/replay)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from navworld.core.errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from navworld.world.base import WorldBackend

__all__ = ["WORLD_ENV", "get_world"]

WORLD_ENV = "NAVWORLD_WORLD"


def get_world(spec: str | None = None, salt: str | None = None) -> WorldBackend:
    """Build the world backend named by ``spec`` (else ``NAVWORLD_WORLD``, else ``sandbox``).

    ``sandbox`` is the built-in offline world; ``amap``, ``record:DIR`` and ``replay:DIR`` are
    built by ``navworld.world.amap.make_world`` when that package is present (else ``ConfigError``);
    ``chinatravel:DIR`` loads ChinaTravel's own database (``navworld.world.chinatravel``).
    """
    text = (spec if spec is not None and spec != "" else os.environ.get(WORLD_ENV, "")).strip() or "sandbox"
    kind = text.split(":", 1)[0].lower()
    if kind == "sandbox":
        from navworld.world.sandbox import SandboxWorld

        return SandboxWorld(salt=salt)
    if kind in ("amap", "record", "replay"):
        if kind != "amap" and ":" not in text:
            raise ConfigError(f"world {text!r}: expected {kind}:DIR")
        try:
            from navworld.world.amap import make_world
        except ImportError:
            raise ConfigError(f"world backend {kind!r} is not available yet; use 'sandbox'") from None
        return make_world(text, salt)
    if kind == "chinatravel":
        from navworld.world.chinatravel import make_world as make_chinatravel

        return make_chinatravel(text, salt)
    raise ConfigError(f"unknown world {text!r}: expected sandbox, amap, record:DIR, replay:DIR or chinatravel:DIR")
