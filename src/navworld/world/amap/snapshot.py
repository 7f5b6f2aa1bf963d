"""Record and replay world snapshots (``--world record:DIR`` / ``--world replay:DIR``).

``record:DIR`` wraps a live backend: every answer of the six backend methods is written to
``DIR/<method>/<hash>.json`` keyed by the normalised request (method, coordinates with six
decimals, catalog city names, radius, mode, waypoints, date). Answers the agent caused
(:class:`~navworld.core.errors.ToolInputError`, e.g. "no route") are recorded as errors too, so
a replay reproduces them; infrastructure failures (:class:`WorldError`) are not recorded.

``replay:DIR`` serves only from the directory - no network, no key - so a run made with a live
key can be re-run and re-scored anywhere with byte-identical tool results. A request that is
not in the snapshot is a clear tool error (:class:`SnapshotMiss`). ``DIR/manifest.json`` keeps
the salt of the recording, which the replay adopts.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from navworld.core.errors import ConfigError, ToolInputError, WorldError
from navworld.core.geo import LngLat, format_lnglat
from navworld.core.models import City
from navworld.core.seeding import current_salt
from navworld.core.versions import WORLD_VERSION
from navworld.world.base import WorldBackend

__all__ = ["MANIFEST", "RecordingWorld", "ReplayWorld", "SnapshotMiss", "snapshot_request"]

logger = logging.getLogger(__name__)

MANIFEST = "manifest.json"
FORMAT = "navworld-snapshot/1"


_Call = Callable[[WorldBackend], Awaitable[dict[str, Any]]]
"""The wrapped backend call of one request (used by the recorder; ignored by the replayer)."""


class SnapshotMiss(ToolInputError):
    """A replayed request that the snapshot does not contain."""


def _city(city: City | None) -> str | None:
    return None if city is None else city.name


def snapshot_request(method: str, **args: Any) -> dict[str, Any]:
    """The normalised request of one backend call (JSON-safe, stable)."""
    out: dict[str, Any] = {"method": method}
    for name in sorted(args):
        value = args[name]
        if isinstance(value, City):
            value = value.name
        elif name in ("location", "origin", "destination"):
            value = format_lnglat(value)
        elif name == "waypoints":
            value = [format_lnglat(w) for w in value]
        elif isinstance(value, str):
            value = value.strip()
        out[name] = value
    return out


def _key(request: dict[str, Any]) -> str:
    canon = json.dumps(request, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()[:32]


def _path(root: Path, request: dict[str, Any]) -> Path:
    return root / str(request["method"]) / f"{_key(request)}.json"


def _write_json(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(obj, fh, ensure_ascii=False, indent=1)  # key order kept: it is part of the data
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _SnapshotBase:
    """The six backend methods expressed through :meth:`_serve`."""

    async def _serve(self, request: dict[str, Any], call: _Call) -> dict[str, Any]:
        raise NotImplementedError

    async def poi_search(self, keywords: str, city: City | None) -> dict[str, Any]:
        """Keyword POI search."""
        req = snapshot_request("poi_search", keywords=keywords, city=_city(city))
        return await self._serve(req, lambda w: w.poi_search(keywords, city))

    async def around_search(
        self, location: LngLat, radius: int, keyword: str | None, city: City | None
    ) -> dict[str, Any]:
        """Nearby POI search."""
        req = snapshot_request(
            "around_search", location=location, radius=int(radius), keyword=keyword or "", city=_city(city)
        )
        return await self._serve(req, lambda w: w.around_search(location, radius, keyword, city))

    async def direction(
        self, origin: LngLat, destination: LngLat, mode: str, waypoints: list[LngLat]
    ) -> dict[str, Any]:
        """Route planning."""
        req = snapshot_request(
            "direction", origin=origin, destination=destination, mode=mode, waypoints=list(waypoints)
        )
        return await self._serve(req, lambda w: w.direction(origin, destination, mode, waypoints))

    async def weather(self, city: City, date: str | None) -> dict[str, Any]:
        """Weather forecast."""
        req = snapshot_request("weather", city=_city(city), date=date or "")
        return await self._serve(req, lambda w: w.weather(city, date))

    async def flights(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """Flights."""
        req = snapshot_request("flights", date=date, from_city=_city(from_city), to_city=_city(to_city))
        return await self._serve(req, lambda w: w.flights(date, from_city, to_city))

    async def trains(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """Trains."""
        req = snapshot_request("trains", date=date, from_city=_city(from_city), to_city=_city(to_city))
        return await self._serve(req, lambda w: w.trains(date, from_city, to_city))


class RecordingWorld(_SnapshotBase):
    """Wraps a live backend and writes each answer to the snapshot directory."""

    def __init__(self, inner: WorldBackend, directory: Path | str) -> None:
        self.inner = inner
        self.directory = Path(directory)
        self.name = f"record:{self.directory}"
        self.salt = inner.salt
        self.recorded = 0
        self._manifest_written = False
        self._check_manifest()

    def _check_manifest(self) -> None:
        """Refuse a directory recorded with another salt (read-only: nothing is written yet)."""
        path = self.directory / MANIFEST
        if not path.exists():
            return
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            old = {}
        if isinstance(old, dict) and old.get("salt") not in (None, self.salt):
            raise ConfigError(
                f"snapshot {self.directory} was recorded with salt {old.get('salt')!r}, not {self.salt!r}; "
                "record into a new directory"
            )

    def _write(self, request: dict[str, Any], entry: dict[str, Any]) -> None:
        if not self._manifest_written:
            manifest = {
                "format": FORMAT,
                "backend": self.inner.name,
                "salt": self.salt,
                "world_version": WORLD_VERSION,
            }
            _write_json(self.directory / MANIFEST, manifest)
            self._manifest_written = True
        _write_json(_path(self.directory, request), {"request": request, **entry})
        self.recorded += 1

    async def _serve(self, request: dict[str, Any], call: _Call) -> dict[str, Any]:
        try:
            data = await call(self.inner)
        except WorldError:
            raise  # infrastructure failures are never recorded
        except ToolInputError as exc:
            self._write(request, {"error": str(exc)})
            raise
        self._write(request, {"data": data})
        return data

    async def aclose(self) -> None:
        """Close the wrapped backend."""
        await self.inner.aclose()


class ReplayWorld(_SnapshotBase):
    """Serves only from a snapshot directory; a miss is a :class:`SnapshotMiss` tool error."""

    def __init__(self, directory: Path | str, salt: str | None = None) -> None:
        self.directory = Path(directory)
        self.name = f"replay:{self.directory}"
        if not self.directory.is_dir():
            raise ConfigError(f"replay snapshot directory {self.directory} does not exist")
        manifest: dict[str, Any] = {}
        path = self.directory / MANIFEST
        if path.exists():
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise ConfigError(f"unreadable snapshot manifest {path}: {exc}") from None
            manifest = loaded if isinstance(loaded, dict) else {}
        recorded = manifest.get("salt")
        if recorded and salt and str(salt) != str(recorded):
            logger.warning("replay: using the snapshot's salt %r instead of %r", recorded, salt)
        self.salt = str(recorded) if recorded else current_salt(salt)
        self.manifest = manifest
        self.served = 0

    async def _serve(self, request: dict[str, Any], call: _Call) -> dict[str, Any]:
        path = _path(self.directory, request)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            shown = ", ".join(
                f"{k}={v}" for k, v in request.items() if k != "method" and v not in ("", None, [])
            )
            raise SnapshotMiss(
                f"回放快照中没有这次请求的记录（{request['method']}: {shown}）；replay 模式只能重放录制过的请求"
            ) from None
        except (OSError, json.JSONDecodeError) as exc:
            raise WorldError(f"snapshot file {path.name} is unreadable: {exc}") from None
        if not isinstance(entry, dict) or entry.get("request") != request:
            raise WorldError(f"snapshot file {path.name} does not match the request")
        self.served += 1
        if "error" in entry:
            raise ToolInputError(str(entry["error"]))
        data = entry.get("data")
        if not isinstance(data, dict):
            raise WorldError(f"snapshot file {path.name} has no data")
        return data

    async def aclose(self) -> None:
        """Nothing to release."""
