"""The ``chinatravel:DIR`` world: ChinaTravel's own 10-city database (downloaded separately).

``make_world("chinatravel:DIR", salt)`` loads the database at ``DIR`` (the ``database`` folder
of ChinaTravel's ``chinatravel/environment/``, or a folder above it) and returns a
:class:`ChinaTravelWorld`; :func:`navworld.world.get_world` dispatches the spec here. See
``docs/chinatravel.md``.
"""

from __future__ import annotations

from navworld.core.errors import ConfigError
from navworld.world.chinatravel.database import Database, load_database
from navworld.world.chinatravel.layout import CITIES, city_by_name
from navworld.world.chinatravel.tables import DataFileError
from navworld.world.chinatravel.world import ChinaTravelWorld

__all__ = ["CITIES", "ChinaTravelWorld", "DataFileError", "Database", "city_by_name", "is_chinatravel", "load_database", "make_world"]

SPEC_PREFIX = "chinatravel:"


def is_chinatravel(world: object) -> bool:
    """Whether ``world`` is a ChinaTravel database world."""
    return isinstance(world, ChinaTravelWorld)


def make_world(spec: str, salt: str | None = None) -> ChinaTravelWorld:
    """Build the world of ``chinatravel:DIR`` (:class:`ConfigError` for a bad spec or an unusable database)."""
    kind, sep, directory = spec.strip().partition(":")
    if kind.lower() != "chinatravel" or not sep or not directory.strip():
        raise ConfigError("--world chinatravel:DIR needs the database directory, e.g. chinatravel:ChinaTravel/chinatravel/environment/database")
    from navworld.world.chinatravel.goto import _WGS84

    if _WGS84 is None:
        raise ConfigError("the chinatravel world needs geographiclib: pip install 'navworld[chinatravel]'")
    return ChinaTravelWorld(directory.strip(), salt=salt)
