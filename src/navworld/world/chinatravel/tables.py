"""Reading ChinaTravel's data files into plain records, with errors that name file, line and column.

A file that cannot be used at all (missing, not UTF-8, not JSON, a CSV without a required
column) raises :class:`DataFileError`; the database then drops what depends on it (one city, or
the flights) and keeps the rest. A single bad row (a price that is not a number, a time that is
not ``HH:MM``) is skipped and reported as a :class:`RowProblem`; the rest of the file loads.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from navworld.core.errors import ConfigError
from navworld.world.chinatravel.layout import COLUMN_ALIASES, REQUIRED_COLUMNS

__all__ = [
    "AttractionRow",
    "DataFileError",
    "HotelRow",
    "RestaurantRow",
    "RowProblem",
    "StationRow",
    "TimetableRow",
    "read_attractions",
    "read_hotels",
    "read_poi_positions",
    "read_restaurants",
    "read_subways",
    "read_timetable",
]

_TIME_RE = re.compile(r"^(\d{1,2}):(\d{2})$")
CLOSED_WORDS = frozenset({"不营业", "closed"})
"""Restaurant ``opentime``/``endtime`` values meaning "closed"."""


class DataFileError(ConfigError):
    """A data file of the ChinaTravel database cannot be used (the message names file and reason)."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


@dataclass(frozen=True)
class RowProblem:
    """A row that was skipped: file, 1-based line, column and reason."""

    path: str
    line: int
    column: str
    reason: str

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", column {self.column!r}" if self.column else "")
        return f"{self.path} {where}: {self.reason} (row skipped)"


@dataclass(frozen=True)
class AttractionRow:
    """One row of ``attractions.csv``."""

    name: str
    type: str
    lat: float
    lon: float
    opentime: str
    endtime: str
    price: float
    recommendmintime: float
    recommendmaxtime: float | None = None
    id: str = ""


@dataclass(frozen=True)
class RestaurantRow:
    """One row of ``restaurants_{city}.csv`` (``closed`` when its hours say 不营业)."""

    name: str
    lat: float
    lon: float
    price: float
    cuisine: str
    opentime: str
    endtime: str
    recommendedfood: str = ""
    id: str = ""

    @property
    def closed(self) -> bool:
        """Whether the restaurant does not open (``不营业``)."""
        return self.opentime in CLOSED_WORDS or self.endtime in CLOSED_WORDS


@dataclass(frozen=True)
class HotelRow:
    """One row of ``accommodations.csv``."""

    name: str
    featurehoteltype: str
    lat: float
    lon: float
    price: float
    numbed: int
    id: str = ""


@dataclass(frozen=True)
class StationRow:
    """One metro station of ``subways.json`` (``lat``/``lon`` WGS-84)."""

    name: str
    line: str
    lat: float
    lon: float


@dataclass(frozen=True)
class TimetableRow:
    """One train or flight (ChinaTravel's timetables have no dates)."""

    id: str
    origin: str
    destination: str
    begin: str
    end: str
    duration_h: float
    cost: float
    train_type: str = ""


@dataclass
class _Reader:
    path: Path
    label: str
    problems: list[RowProblem] = field(default_factory=list)

    def skip(self, line: int, column: str, reason: str) -> None:
        self.problems.append(RowProblem(self.label, line, column, reason))


def _text(path: Path, label: str) -> str:
    if not path.is_file():
        raise DataFileError(label, "file not found")
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise DataFileError(label, "not UTF-8 text") from None
    except OSError as exc:
        raise DataFileError(label, f"cannot be read ({exc.strerror or exc})") from None


def _json(path: Path, label: str) -> Any:
    text = _text(path, label)
    try:
        return json.loads(text)
    except ValueError as exc:
        raise DataFileError(label, f"not valid JSON ({exc})") from None


class _BadValue(ValueError):
    def __init__(self, column: str, reason: str) -> None:
        super().__init__(reason)
        self.column = column


def _number(row: dict[str, str], col: str) -> float:
    raw = (row.get(col) or "").strip()
    try:
        value = float(raw)
    except ValueError:
        raise _BadValue(col, f"expected a number, got {raw[:30]!r}" if raw else "empty value") from None
    if not math.isfinite(value):
        raise _BadValue(col, f"expected a finite number, got {raw!r}")
    return value


def _time(row: dict[str, str], col: str, closed_ok: bool = False) -> str:
    raw = (row.get(col) or "").strip()
    if closed_ok and raw in CLOSED_WORDS:
        return raw
    m = _TIME_RE.match(raw)
    if m is None or int(m.group(2)) > 59 or int(m.group(1)) > 48:
        raise _BadValue(col, f"expected HH:MM, got {raw[:30]!r}" if raw else "empty value")
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def _required(row: dict[str, str], col: str) -> str:
    raw = (row.get(col) or "").strip()
    if not raw:
        raise _BadValue(col, "empty value")
    return raw


def _coord(row: dict[str, str], col: str, lo: float, hi: float) -> float:
    v = _number(row, col)
    if not lo <= v <= hi:
        raise _BadValue(col, f"coordinate {v} out of range")
    return v


def _csv_rows(path: Path, label: str, kind: str) -> Iterator[tuple[int, dict[str, str]]]:
    text = _text(path, label)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise DataFileError(label, "empty file (no header row)") from None
    aliases = COLUMN_ALIASES.get(kind, {})
    names = []
    for h in header:
        key = h.strip().lower()
        names.append(aliases.get(key, key))
    missing = [c for c in REQUIRED_COLUMNS[kind] if c not in names]
    if missing:
        raise DataFileError(label, f"missing column(s) {', '.join(missing)} (header: {', '.join(header)[:200]})")
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        row = {name: (cells[i] if i < len(cells) else "") for i, name in enumerate(names)}
        yield line, row


def read_attractions(path: Path, label: str) -> tuple[list[AttractionRow], list[RowProblem]]:
    """The rows of an ``attractions.csv`` and the rows skipped."""
    rd = _Reader(path, label)
    out: list[AttractionRow] = []
    for line, row in _csv_rows(path, label, "attraction"):
        try:
            maxtime = (row.get("recommendmaxtime") or "").strip()
            out.append(AttractionRow(
                name=_required(row, "name"), type=(row.get("type") or "").strip(),
                lat=_coord(row, "lat", -90, 90), lon=_coord(row, "lon", -180, 180),
                opentime=_time(row, "opentime"), endtime=_time(row, "endtime"), price=_number(row, "price"),
                recommendmintime=_number(row, "recommendmintime"),
                recommendmaxtime=_number(row, "recommendmaxtime") if maxtime else None,
                id=(row.get("id") or "").strip(),
            ))  # fmt: skip
        except _BadValue as exc:
            rd.skip(line, exc.column, str(exc))
    return out, rd.problems


def read_restaurants(path: Path, label: str) -> tuple[list[RestaurantRow], list[RowProblem]]:
    """The rows of a ``restaurants_{city}.csv`` and the rows skipped."""
    rd = _Reader(path, label)
    out: list[RestaurantRow] = []
    for line, row in _csv_rows(path, label, "restaurant"):
        try:
            out.append(RestaurantRow(
                name=_required(row, "name"), lat=_coord(row, "lat", -90, 90), lon=_coord(row, "lon", -180, 180),
                price=_number(row, "price"), cuisine=(row.get("cuisine") or "").strip(),
                opentime=_time(row, "opentime", closed_ok=True), endtime=_time(row, "endtime", closed_ok=True),
                recommendedfood=(row.get("recommendedfood") or "").strip(), id=(row.get("id") or "").strip(),
            ))  # fmt: skip
        except _BadValue as exc:
            rd.skip(line, exc.column, str(exc))
    return out, rd.problems


def read_hotels(path: Path, label: str) -> tuple[list[HotelRow], list[RowProblem]]:
    """The rows of an ``accommodations.csv`` (ChinaTravel drops rows with any empty cell) and the rows skipped."""
    rd = _Reader(path, label)
    out: list[HotelRow] = []
    for line, row in _csv_rows(path, label, "hotel"):
        empty = [k for k, v in row.items() if not (v or "").strip()]
        if empty:
            rd.skip(line, empty[0], "empty value (ChinaTravel drops such hotel rows too)")
            continue
        try:
            beds = _number(row, "numbed")
            if beds != int(beds) or beds < 1:
                raise _BadValue("numbed", f"expected a positive whole number of beds, got {row.get('numbed')!r}")
            out.append(HotelRow(
                name=_required(row, "name"), featurehoteltype=_required(row, "featurehoteltype"),
                lat=_coord(row, "lat", -90, 90), lon=_coord(row, "lon", -180, 180), price=_number(row, "price"),
                numbed=int(beds), id=(row.get("id") or "").strip(),
            ))  # fmt: skip
        except _BadValue as exc:
            rd.skip(line, exc.column, str(exc))
    return out, rd.problems


def _pair(value: Any) -> tuple[float, float] | None:
    if isinstance(value, str):
        parts = value.replace("，", ",").split(",")
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        return None
    if len(parts) != 2:
        return None
    try:
        a, b = float(parts[0]), float(parts[1])
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(a) and math.isfinite(b)):
        return None
    return a, b


def read_poi_positions(path: Path, label: str) -> tuple[dict[str, tuple[float, float]], list[RowProblem]]:
    """``name → (lat, lon)`` of a ``poi.json`` (a later duplicate name wins, as in ChinaTravel)."""
    data = _json(path, label)
    if not isinstance(data, list):
        raise DataFileError(label, f"expected a JSON list of {{name, position}}, got {type(data).__name__}")
    rd = _Reader(path, label)
    out: dict[str, tuple[float, float]] = {}
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
            rd.skip(i + 1, "name", "entry without a name")
            continue
        pos = _pair(item.get("position"))
        if pos is None or not (-90 <= pos[0] <= 90 and -180 <= pos[1] <= 180):
            rd.skip(i + 1, "position", f"expected [lat, lon], got {str(item.get('position'))[:40]!r}")
            continue
        out[item["name"]] = pos
    return out, rd.problems


def read_subways(path: Path, label: str) -> tuple[dict[str, list[StationRow]], list[RowProblem]]:
    """``city slug → stations`` (in file order, every line) of ``subways.json``.

    Station positions are ``"lng,lat"`` strings (ChinaTravel swaps the two numbers on load).
    """
    data = _json(path, label)
    if not isinstance(data, dict):
        raise DataFileError(label, f"expected a JSON object {{city: [lines]}}, got {type(data).__name__}")
    rd = _Reader(path, label)
    out: dict[str, list[StationRow]] = {}
    for city, lines in data.items():
        if not isinstance(lines, list):
            rd.skip(0, str(city), "expected a list of lines")
            continue
        stations: list[StationRow] = []
        for li, line in enumerate(lines):
            if not isinstance(line, dict) or not isinstance(line.get("stations"), list):
                rd.skip(li + 1, f"{city}[{li}]", "expected {name, stations: [...]}")
                continue
            lname = str(line.get("name") or "")
            for si, st in enumerate(line["stations"]):
                pos = _pair(st.get("position")) if isinstance(st, dict) else None
                name = st.get("name") if isinstance(st, dict) else None
                if pos is None or not isinstance(name, str) or not name:
                    rd.skip(si + 1, f"{city}/{lname}", "station without a name or a 'lng,lat' position")
                    continue
                lng, lat = pos
                stations.append(StationRow(name, lname, lat, lng))
        out[str(city)] = stations
    return out, rd.problems


_TIMETABLE_KEYS = ("From", "To", "BeginTime", "EndTime", "Duration", "Cost")


def _timetable_row(item: Any, id_key: str) -> TimetableRow:
    if not isinstance(item, dict):
        raise _BadValue("", "expected an object")
    for key in (id_key, *_TIMETABLE_KEYS):
        if key not in item or item[key] is None or (isinstance(item[key], str) and not item[key].strip()):
            raise _BadValue(key, "missing value")
    row = {k: str(v) for k, v in item.items()}
    duration = _number(row, "Duration")
    cost = _number(row, "Cost")
    return TimetableRow(
        id=str(item[id_key]).strip(), origin=str(item["From"]).strip(), destination=str(item["To"]).strip(),
        begin=_time(row, "BeginTime"), end=_time(row, "EndTime"), duration_h=duration, cost=cost,
        train_type=str(item.get("TrainType") or "").strip(),
    )  # fmt: skip


def read_timetable(path: Path, label: str, kind: str) -> tuple[list[TimetableRow], list[RowProblem]]:
    """Trains (a JSON list, ``kind="train"``) or flights (JSON lines, ``kind="airplane"``)."""
    rd = _Reader(path, label)
    id_key = "TrainID" if kind == "train" else "FlightID"
    items: list[tuple[int, Any]] = []
    if kind == "train":
        data = _json(path, label)
        if not isinstance(data, list):
            raise DataFileError(label, f"expected a JSON list of trains, got {type(data).__name__}")
        items = list(enumerate(data, start=1))
    else:
        for n, line in enumerate(_text(path, label).split("\n"), start=1):
            if not line.strip():
                continue
            try:
                items.append((n, json.loads(line)))
            except ValueError as exc:
                rd.skip(n, "", f"not a JSON object ({exc})")
    out: list[TimetableRow] = []
    for n, item in items:
        try:
            out.append(_timetable_row(item, id_key))
        except _BadValue as exc:
            rd.skip(n, exc.column, str(exc))
    return out, rd.problems
