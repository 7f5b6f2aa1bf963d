"""The live AMap backend, its disk cache, and record/replay snapshots.

``make_world(spec, salt)`` builds the backends named ``amap``, ``record:DIR`` and
``replay:DIR``; :func:`navworld.world.get_world` dispatches those specs here. See
``docs/amap.md`` for configuration (``AMAP_MAPS_API_KEY``, ``NAVWORLD_AMAP_BASE_URL`` …).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from navworld.core.errors import ConfigError

if TYPE_CHECKING:
    from navworld.world.base import WorldBackend

__all__ = ["AMAP_SPECS", "is_amap_spec", "make_world"]

AMAP_SPECS = ("amap", "record:", "replay:")


def is_amap_spec(spec: str) -> bool:
    """Whether ``spec`` names a backend built by :func:`make_world`."""
    s = spec.strip().lower()
    return s == "amap" or s.startswith(("record:", "replay:"))


def make_world(spec: str, salt: str | None = None) -> WorldBackend:
    """Build ``amap``, ``record:DIR`` (live AMap, recorded) or ``replay:DIR`` (snapshot only).

    Raises :class:`~navworld.core.errors.ConfigError` for an unknown spec, an empty directory
    name, a missing API key (``amap``/``record``) or a missing snapshot (``replay``).
    """
    s = spec.strip()
    kind, sep, directory = s.partition(":")
    kind = kind.lower()
    if kind == "amap" and not sep:
        from navworld.world.amap.backend import AmapWorld

        return AmapWorld.from_env(salt)
    if sep and kind in ("record", "replay"):
        directory = directory.strip()
        if not directory:
            raise ConfigError(f"--world {kind}:DIR needs a directory, e.g. {kind}:snapshots/run1")
        if kind == "record":
            from navworld.world.amap.backend import AmapWorld
            from navworld.world.amap.snapshot import RecordingWorld

            return RecordingWorld(AmapWorld.from_env(salt), directory)
        from navworld.world.amap.snapshot import ReplayWorld

        return ReplayWorld(directory, salt)
    raise ConfigError(f"unknown world {spec!r}: expected sandbox, amap, record:DIR or replay:DIR")
