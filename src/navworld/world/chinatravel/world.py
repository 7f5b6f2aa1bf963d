"""``ChinaTravelWorld``: the ``--world chinatravel:DIR`` backend on ChinaTravel's own database.

It serves the six tools (the async :class:`~navworld.world.base.WorldBackend`) and the sync API
that verification, the DSL and the reference planner use (``docs/contracts.md``), like the
sandbox: POI search and nearby search run the sandbox's own ranking over the database's POIs,
routes follow ChinaTravel's ``goto`` arithmetic (:mod:`.goto`), trains and flights are the
database's date-free timetables served on every date, and the weather is navworld's generated
forecast. Only the cities that loaded are served; any other city is a clear tool error.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from navworld.core.errors import ToolInputError
from navworld.core.geo import LngLat, haversine_km
from navworld.core.models import City, Flight, Poi, Route, RouteStep, Train
from navworld.world.amap_shapes import route_data
from navworld.world.catalog import Catalog
from navworld.world.chinatravel import goto as G
from navworld.world.chinatravel.convert import city_pois, flight_of, hub_pois, train_of
from navworld.world.chinatravel.database import CityTables, Database, load_database
from navworld.world.chinatravel.layout import city_by_name
from navworld.world.sandbox import CityPois, SandboxWorld
from navworld.world.search import PoiIndex

__all__ = ["ChinaTravelWorld"]

_NEAREST_CITY_KM = 150.0
_CACHE_CAP = 50_000


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(float(x), 2)


def _fmt_dist(m: int) -> str:
    return f"{m}米" if m < 1000 else f"{m / 1000:.1f}公里"


class _Store:
    """The database's POIs per loaded city, shaped like the sandbox's store (shared search code)."""

    def __init__(self, by_city: dict[str, CityPois], unavailable: dict[str, str]) -> None:
        self.cities = by_city
        self.unavailable = unavailable
        self.by_id: dict[str, Poi] = {p.id: p for cp in by_city.values() for p in cp.pois}
        self.global_index: PoiIndex | None = None
        self.city_at: dict[tuple[float, float], City | None] = {}

    def get(self, city: City) -> CityPois:
        hit = self.cities.get(city.name)
        if hit is None:
            raise ToolInputError(self.unavailable.get(city.name) or _not_served(city.name, self.cities))
        return hit

    def all(self) -> list[CityPois]:
        return list(self.cities.values())


def _not_served(name: str, cities: dict[str, Any]) -> str:
    return f"{name}不在ChinaTravel数据库中（可用城市：{'、'.join(cities)}）"


class ChinaTravelWorld(SandboxWorld):
    """ChinaTravel's database as a navworld world (``chinatravel:DIR``)."""

    min_leg_minutes = 0
    """Leg durations are truncated to whole minutes, so a very short walk takes 0 minutes."""

    def __init__(self, directory: str, salt: str | None = None, catalog: Catalog | None = None) -> None:
        super().__init__(salt=salt, catalog=catalog)
        self.directory = str(directory)
        self.name = f"chinatravel:{directory}"
        self.db: Database = load_database(directory)
        by_city: dict[str, CityPois] = {}
        self._stations: dict[str, list[tuple[str, float, float]]] = {}
        self._lines: dict[str, dict[str, str]] = {}
        self._graph: dict[str, dict[str, set[str]]] = {}
        hubs: dict[str, dict[str, str]] = {zh: {} for zh in self.db.cities}
        for table, kind in ((self.db.flights, "airplane"), (self.db.trains, "train")):
            for (a, b), rows in table.items():
                for r in rows:
                    if a in hubs:
                        hubs[a].setdefault(r.origin, kind)
                    if b in hubs:
                        hubs[b].setdefault(r.destination, kind)
        for zh, t in self.db.cities.items():
            city = self.catalog.get_city(zh)
            pois = city_pois(t, city)
            pois += hub_pois(t, city, hubs[zh], {p.name for p in pois})
            by_kind: dict[str, list[Poi]] = {}
            for p in pois:
                by_kind.setdefault(p.kind, []).append(p)
            by_city[city.name] = CityPois(city, pois, by_kind, {p.name: p for p in pois}, PoiIndex(pois))
            self._stations[zh] = [(s.name, s.lat, s.lon) for s in t.stations]
            self._lines[zh] = {}
            graph: dict[str, set[str]] = {}
            prev: tuple[str, str] | None = None
            for s in t.stations:
                self._lines[zh].setdefault(s.name, s.line)
                graph.setdefault(s.name, set())
                if prev is not None and prev[1] == s.line:
                    graph[prev[0]].add(s.name)
                    graph[s.name].add(prev[0])
                prev = (s.name, s.line)
            self._graph[zh] = graph
        unavailable = {zh: f"{zh}的ChinaTravel数据未能加载：{err}" for zh, err in self.db.lost.items()}
        self._store = _Store(by_city, unavailable)  # type: ignore[assignment]
        self._nearest: dict[tuple[str, float, float], tuple[int, float]] = {}

    # -- database access -----------------------------------------------------------------------
    @property
    def errors(self) -> list[str]:
        """Files that could not be used (and what was lost)."""
        return list(self.db.errors)

    @property
    def problems(self) -> list[str]:
        """Rows that were skipped while loading."""
        return list(self.db.problems)

    def served_cities(self) -> list[str]:
        """The cities this world serves (Chinese names, ChinaTravel's order)."""
        return list(self.db.cities)

    def tables(self, city: str) -> CityTables:
        """The raw rows of a loaded city (KeyError naming the reason otherwise)."""
        ct = city_by_name(city)
        zh = ct.zh if ct is not None else (city or "").strip()
        hit = self.db.cities.get(zh)
        if hit is None:
            raise KeyError(self._store.unavailable.get(zh) or _not_served(zh, self.db.cities))
        return hit

    # -- cities ----------------------------------------------------------------------------------
    def city(self, name: str | City) -> City:
        """The catalog city for ``name`` when the database serves it; ``KeyError`` otherwise."""
        c = name if isinstance(name, City) else self.catalog.get_city(name)
        if c.name not in self.db.cities:
            raise KeyError(self._store.unavailable.get(c.name) or _not_served(c.name, self.db.cities))
        return c

    def city_at(self, location: LngLat) -> City | None:
        """The served city whose centre is nearest to ``location`` (within 150 km), if any."""
        best: tuple[float, City] | None = None
        for cp in self._store.all():
            d = haversine_km(location, cp.city.center)
            if best is None or d < best[0]:
                best = (d, cp.city)
        return best[1] if best and best[0] <= _NEAREST_CITY_KM else None

    # -- routes ----------------------------------------------------------------------------------
    def _nearest_station(self, zh: str, lat: float, lon: float) -> tuple[int, float]:
        key = (zh, lat, lon)
        hit = self._nearest.get(key)
        if hit is None:
            if len(self._nearest) > _CACHE_CAP:
                self._nearest.clear()
            hit = G.nearest_station((lat, lon), self._stations.get(zh, []))
            self._nearest[key] = hit
        return hit

    def legs(self, city: str, a_name: str, a: tuple[float, float], b_name: str, b: tuple[float, float],
             start_time: str, mode: str) -> list[G.GotoLeg]:
        """``goto`` legs between two ``(lat, lon)`` points of ``city`` (raises :class:`~.goto.NoMetro`)."""
        zh = self.tables(city).city.zh
        stations = self._stations.get(zh, [])
        nearest = None
        if mode == "metro" and stations:
            nearest = (self._nearest_station(zh, *a), self._nearest_station(zh, *b))
        return G.plan_legs(a_name, a, b_name, b, start_time, mode, stations, nearest)

    def goto(self, city: str, start: str, end: str, start_time: str, mode: str) -> list[G.GotoLeg]:
        """ChinaTravel's ``goto`` by place names (``poi.json``); ``KeyError`` for an unknown name."""
        t = self.tables(city)
        a, b = t.position(start), t.position(end)
        if a is None or b is None:
            raise KeyError(f"城市中没有该地点，请检查地点名称: {start if a is None else end}.")
        return self.legs(t.city.zh, start, a, end, b, start_time, mode)

    def _hops(self, zh: str, a: str, b: str) -> int:
        graph = self._graph.get(zh, {})
        seen, queue = {a}, deque([(a, 0)])
        while queue:
            node, d = queue.popleft()
            if node == b:
                return d
            for nxt in sorted(graph.get(node, ())):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append((nxt, d + 1))
        return 1

    def route(self, origin: LngLat, destination: LngLat, mode: str, city: str | None = None,
              waypoints: tuple[LngLat, ...] = ()) -> Route:
        """A route by ``goto``'s arithmetic (``driving`` = taxi, ``transit`` = metro); ``ToolInputError`` if none."""
        c = self.city(city) if city else self.city_at(origin)
        if c is None:
            raise ToolInputError("起点不在ChinaTravel数据库的城市范围内")
        key = (origin, destination, mode, c.name, waypoints)
        hit = self._routes.get(key)
        if hit is None:
            if len(self._routes) > _CACHE_CAP:
                self._routes.clear()
            hit = self._route(c, origin, destination, mode, waypoints)
            self._routes[key] = hit
        return hit

    def _route(self, c: City, origin: LngLat, destination: LngLat, mode: str, waypoints: tuple[LngLat, ...]) -> Route:
        a, b = (origin[1], origin[0]), (destination[1], destination[0])
        if mode == "walking":
            leg = self.legs(c.name, "", a, "", b, "00:00", "walk")[0]
            m = round(leg.distance * 1000)
            secs = _span(leg.start_time, leg.end_time) * 60
            step = RouteStep(instruction=f"步行{_fmt_dist(m)}到达终点", distance_m=m, duration_s=secs)
            return Route(mode="walking", origin=origin, destination=destination, distance_m=m, duration_s=secs,
                         steps=(step,) if m else ())
        if mode == "driving":
            points = [a, *((w[1], w[0]) for w in waypoints), b]
            km = sum(G.geodesic_km(points[i], points[i + 1]) for i in range(len(points) - 1))
            minutes = int(km / G.TAXI_KMH * 60)
            m = round(round(km, 2) * 1000)
            step = RouteStep(instruction=f"打车行驶{_fmt_dist(m)}到达终点", distance_m=m, duration_s=minutes * 60)
            return Route(mode="driving", origin=origin, destination=destination, distance_m=m, duration_s=minutes * 60,
                         taxi_cost=round(G.taxi_fare(km), 2), steps=(step,) if m else ())
        if mode == "transit":
            try:
                w1, ride, w2 = self.legs(c.name, "", a, "", b, "00:00", "metro")
            except G.NoMetro as exc:
                raise ToolInputError(f"起终点附近是同一个地铁站或没有地铁，没有地铁方案（{exc}）；请步行或打车") from None
            zh = c.name
            board, alight = ride.start[: -len(G.STATION_SUFFIX)], ride.end[: -len(G.STATION_SUFFIX)]
            line = self._lines.get(zh, {}).get(board, "地铁")
            hops = max(1, self._hops(zh, board, alight))
            parts = [round(w1.distance * 1000), round(ride.distance * 1000), round(w2.distance * 1000)]
            mins = [_span(x.start_time, x.end_time) for x in (w1, ride, w2)]
            taxi_km = G.geodesic_km(a, b)
            steps = (
                RouteStep(instruction=f"步行{_fmt_dist(parts[0])}到{ride.start}", distance_m=parts[0], duration_s=mins[0] * 60),
                RouteStep(instruction=f"乘坐{line}从{ride.start}到{ride.end}，{hops}站，{_fmt_dist(parts[1])}",
                          distance_m=parts[1], duration_s=mins[1] * 60, line=line),
                RouteStep(instruction=f"从{ride.end}步行{_fmt_dist(parts[2])}到达终点", distance_m=parts[2], duration_s=mins[2] * 60),
            )
            return Route(mode="transit", origin=origin, destination=destination, distance_m=sum(parts),
                         duration_s=sum(mins) * 60, taxi_cost=round(G.taxi_fare(taxi_km), 2), transit_cost=ride.cost,
                         walking_distance_m=parts[0] + parts[2], steps=steps, lines=(line,))
        if mode == "bicycling":
            raise ToolInputError("ChinaTravel数据库没有骑行路线；可选 walking、transit（地铁）、driving（打车）")
        raise ToolInputError(f"不支持的出行方式 {mode!r}，可选：driving、walking、transit")

    # -- timetables ------------------------------------------------------------------------------
    def _pair(self, from_city: str, to_city: str) -> tuple[str, str]:
        return self.city(from_city).name, self.city(to_city).name

    def flight_list(self, date: str, from_city: str, to_city: str) -> list[Flight]:
        """The database's flights between two served cities, dated ``date`` (``[]`` when none)."""
        try:
            a, b = self._pair(from_city, to_city)
        except KeyError:
            return []
        return [flight_of(r, date, a, b) for r in self.db.timetable("airplane", a, b)]

    def train_list(self, date: str, from_city: str, to_city: str) -> list[Train]:
        """The database's trains between two served cities, dated ``date`` (``[]`` when none)."""
        try:
            a, b = self._pair(from_city, to_city)
        except KeyError:
            return []
        return [train_of(r, date, a, b) for r in self.db.timetable("train", a, b)]

    # -- async WorldBackend (the rest is inherited from the sandbox) -------------------------------
    def _served(self, *cities: City) -> None:
        for c in cities:
            if c.name not in self.db.cities:
                raise ToolInputError(self._store.unavailable.get(c.name) or _not_served(c.name, self.db.cities))

    async def poi_search(self, keywords: str, city: City | None) -> dict[str, Any]:
        """Keyword search over the database's POIs (the sandbox's ranking)."""
        if city is not None:
            self._served(city)
        return await super().poi_search(keywords, city)

    async def around_search(self, location: LngLat, radius: int, keyword: str | None, city: City | None) -> dict[str, Any]:
        """Nearby search over the database's POIs, nearest first."""
        if city is not None:
            self._served(city)
        return await super().around_search(location, radius, keyword, city)

    async def direction(self, origin: LngLat, destination: LngLat, mode: str, waypoints: list[LngLat]) -> dict[str, Any]:
        """AMap-shaped route computed with ``goto``'s arithmetic."""
        return route_data(self.route(origin, destination, mode, None, tuple(waypoints)))

    async def weather(self, city: City, date: str | None) -> dict[str, Any]:
        """navworld's generated forecast (ChinaTravel has no weather)."""
        self._served(city)
        return await super().weather(city, date)

    async def flights(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """The flights of the database (the same timetable on every date)."""
        self._served(from_city, to_city)
        rows = self.flight_list(date, from_city.name, to_city.name)
        if not rows:
            raise ToolInputError(f"ChinaTravel数据库中没有{from_city.name}到{to_city.name}的航班，请查询火车（search_train_tickets）")
        data = [{"flight_no": f.flight_no, "airline": f.airline, "from_airport": f.from_airport, "to_airport": f.to_airport,
                 "dep_time": f.dep_time, "arr_time": f.arr_time, "next_day": f.next_day, "duration_min": f.duration_min,
                 "price": _num(f.price)} for f in rows]
        return {"date": date, "from_city": from_city.name, "to_city": to_city.name, "count": len(data), "flights": data}

    async def trains(self, date: str, from_city: City, to_city: City) -> dict[str, Any]:
        """The trains of the database (the same timetable on every date)."""
        self._served(from_city, to_city)
        rows = self.train_list(date, from_city.name, to_city.name)
        if not rows:
            raise ToolInputError(f"ChinaTravel数据库中没有{from_city.name}到{to_city.name}的火车，请查询航班（search_flights）")
        data = [{"train_no": t.train_no, "train_type": t.train_type, "from_station": t.from_station,
                 "to_station": t.to_station, "dep_time": t.dep_time, "arr_time": t.arr_time, "next_day": t.next_day,
                 "duration_min": t.duration_min, "seats": [{"class": s.seat_class, "price": _num(s.price)} for s in t.seats]}
                for t in rows]
        return {"date": date, "from_city": from_city.name, "to_city": to_city.name, "count": len(data), "trains": data}


def _span(t0: str, t1: str) -> int:
    a = int(t0[:2]) * 60 + int(t0[3:])
    b = int(t1[:2]) * 60 + int(t1[3:])
    return max(0, b - a)
