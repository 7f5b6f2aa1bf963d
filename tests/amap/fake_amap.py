"""A local fake of the AMap web service (FastAPI on 127.0.0.1, free port) for offline tests.

Responses follow the documented AMap shapes: numbers as strings, ``[]`` or missing fields for
empty values, the ``status``/``info``/``infocode`` envelope with HTTP 200 errors, ``"lng,lat"``
coordinates, v5 ``place`` and ``direction`` payloads and the v3 ``weatherInfo`` forecast.

Switches on :class:`FakeState` simulate the failure modes a real key pool meets: quota and
invalid keys, HTTP 5xx/429, rate-limit infocodes, malformed or truncated JSON, slow answers.
``odd_shape`` answers valid JSON whose ``pois`` is not a list. Counters (``fail_5xx`` …) apply
to the next N requests; ``delay`` applies to every request.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import socket
import threading
import time
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

__all__ = ["CITIES", "FakeAmap", "FakeState"]

# adcode -> (cityname, pname, citycode, center, districts [(name, adcode)], roads)
CITIES: dict[str, tuple[str, str, str, tuple[float, float], list[tuple[str, str]], list[str]]] = {
    "330100": (
        "杭州市",
        "浙江省",
        "0571",
        (120.155070, 30.274085),
        [("西湖区", "330106"), ("上城区", "330102"), ("拱墅区", "330105")],
        ["延安路", "解放路", "庆春路", "文三路", "北山街"],
    ),
    "110000": (
        "北京市",
        "北京市",
        "010",
        (116.407387, 39.904179),
        [("东城区", "110101"), ("西城区", "110102"), ("朝阳区", "110105")],
        ["长安街", "王府井大街", "东三环中路", "建国路"],
    ),
    "310000": (
        "上海市",
        "上海市",
        "021",
        (121.473667, 31.230525),
        [("黄浦区", "310101"), ("徐汇区", "310104"), ("浦东新区", "310115")],
        ["南京东路", "淮海中路", "世纪大道", "延安东路"],
    ),
    "320500": (
        "苏州市",
        "江苏省",
        "0512",
        (120.585294, 31.299758),
        [("姑苏区", "320508"), ("吴中区", "320506")],
        ["人民路", "干将路", "十全街"],
    ),
}
_NAMES = {v[0]: k for k, v in CITIES.items()} | {v[0].removesuffix("市"): k for k, v in CITIES.items()}

_KINDS = {
    "hotel": ("住宿服务;宾馆酒店;舒适型酒店", "100102", ("酒店", "宾馆", "住宿")),
    "restaurant": ("餐饮服务;中餐厅;浙江菜", "050101", ("餐", "饭", "菜", "美食", "咖啡", "小吃")),
    "attraction": ("风景名胜;风景名胜;国家级景点", "110202", ()),
}
_SUFFIX = [
    "",
    "(北门)",
    "旗舰店",
    "(湖滨店)",
    "博物馆",
    "公园",
    "广场",
    "(西溪店)",
    "纪念馆",
    "中心",
    "(南山店)",
    "书院",
    "老街",
    "(城站店)",
    "艺术馆",
    "古镇",
    "(文三店)",
    "塔",
    "(东门)",
    "寺",
    "(延安路店)",
    "馆",
    "(二店)",
    "码头",
    "(总店)",
]
_WEATHER = ["晴", "多云", "阴", "小雨", "阵雨", "雷阵雨"]
_WIND = ["东", "东北", "南", "西南", "北", "无风向"]


def _h(*parts: object) -> int:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:12], 16)


def _haversine_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    lng1, lat1, lng2, lat2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


def _lnglat(text: str) -> tuple[float, float] | None:
    try:
        lng, lat = (float(x) for x in text.split(","))
    except ValueError:
        return None
    return (lng, lat) if -180 <= lng <= 180 and -90 <= lat <= 90 else None


def _fmt(p: tuple[float, float]) -> str:
    return f"{p[0]:.6f},{p[1]:.6f}"


def _nearest_city(p: tuple[float, float]) -> str:
    return min(CITIES, key=lambda code: _haversine_m(p, CITIES[code][3]))


def _city_of(region: str) -> str | None:
    if region in CITIES:
        return region
    for code in CITIES:
        if region[:4] == code[:4] or (code.endswith("0000") and region[:2] == code[:2]):
            return code
    return _NAMES.get(region)


def _error(info: str, infocode: str) -> dict[str, Any]:
    return {"status": "0", "info": info, "infocode": infocode}


def _ok(**body: Any) -> dict[str, Any]:
    return {"status": "1", "info": "OK", "infocode": "10000", **body}


@dataclass
class FakeState:
    """Switches and the request log of the fake server (mutate freely from tests)."""

    quota_keys: set[str] = field(default_factory=set)
    invalid_keys: set[str] = field(default_factory=set)
    fail_5xx: int = 0
    fail_429: int = 0
    rate_limited: int = 0
    malformed: int = 0
    truncated: int = 0
    odd_shape: int = 0
    delay: float = 0.0
    today: str = "2025-05-01"
    reporttime: str = "2025-05-01 07:05:33"
    requests: list[dict[str, Any]] = field(default_factory=list)

    def reset(self) -> None:
        """Clear every switch and the request log."""
        fresh = FakeState()
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(fresh, name))

    def count(self, path: str | None = None) -> int:
        """Requests received (optionally only for ``path``)."""
        return sum(1 for r in self.requests if path is None or r["path"] == path)


# --- endpoint bodies ---------------------------------------------------------------------------
def _poi(kind: str, name: str, at: tuple[float, float], city: str, seed: int) -> dict[str, Any]:
    cityname, pname, citycode, _, districts, roads = CITIES[city]
    adname, adcode = districts[seed % len(districts)]
    type_, typecode, _ = _KINDS[kind]
    business: dict[str, Any] = {
        "business_area": roads[seed % len(roads)][:2],
        "tel": f"0571-8{seed % 10000000:07d}" if seed % 5 else [],  # AMap quirk: [] when absent
        "rating": f"{3.5 + (seed % 15) / 10:.1f}" if seed % 7 else "",
        "opentime_today": "09:00-21:00" if kind != "hotel" else "00:00-24:00",
        "opentime_week": "周一至周日 09:00-21:00",
    }
    if kind == "restaurant":
        business["cost"] = str(40 + seed % 120)
        business["tag"] = "西湖醋鱼,东坡肉,龙井虾仁,叫花鸡,片儿川,定胜糕"
        business["keytag"] = "杭帮菜"
    elif kind == "hotel":
        business["cost"] = f"{200 + seed % 600}.00"
        business["star"] = str(2 + seed % 4)
    elif seed % 3 == 0:
        business["cost"] = str(seed % 80)
    return {
        "parent": "",
        "address": f"{roads[seed % len(roads)]}{1 + seed % 300}号" if seed % 11 else [],
        "distance": "",
        "pcode": pname and city[:2] + "0000",
        "adcode": adcode,
        "pname": pname,
        "cityname": cityname,
        "type": type_,
        "typecode": typecode,
        "adname": adname,
        "citycode": citycode,
        "name": name,
        "location": _fmt(at),
        "id": f"B0FF{seed % 0xFFFFFF:06X}",
        "business": business,
    }


def _kind_for(keywords: str) -> str:
    for kind, (_, _, words) in _KINDS.items():
        if any(w in keywords for w in words):
            return kind
    return "attraction"


def place_text(q: dict[str, str]) -> dict[str, Any]:
    """``/v5/place/text``."""
    keywords = q.get("keywords", "")
    if not keywords and not q.get("types"):
        return _error("MISSING_REQUIRED_PARAMS", "20001")
    if "无结果" in keywords:
        return _ok(count="0", pois=[])
    city = _city_of(q.get("region", "")) or "330100"
    size = min(25, int(q.get("page_size", "10") or 10))
    centre = CITIES[city][3]
    pois = []
    for i in range(size):
        seed = _h("text", keywords, city, i)
        at = (centre[0] + ((seed % 2001) - 1000) / 20000, centre[1] + (((seed >> 11) % 2001) - 1000) / 20000)
        poi = _poi(_kind_for(keywords), f"{keywords}{_SUFFIX[i % len(_SUFFIX)]}", at, city, seed)
        if "business" not in q.get("show_fields", ""):
            del poi["business"]
        pois.append(poi)
    return _ok(count=str(len(pois)), pois=pois)


def place_around(q: dict[str, str]) -> dict[str, Any]:
    """``/v5/place/around``: POIs at increasing distances up to ``radius``."""
    loc = _lnglat(q.get("location", ""))
    if loc is None:
        return _error("INVALID_PARAMS", "20000")
    radius = int(q.get("radius", "5000") or 5000)
    radius = 5000 if radius > 50000 else radius
    keywords = q.get("keywords", "")
    city = _nearest_city(loc)
    size = min(25, int(q.get("page_size", "10") or 10))
    n = min(size, max(1, radius // 100))
    pois = []
    for i in range(n):
        dist = radius * (i + 1) // (n + 1)
        seed = _h("around", keywords, q["location"], i)
        angle = (seed % 360) * math.pi / 180
        at = (loc[0] + dist * math.cos(angle) / 96000, loc[1] + dist * math.sin(angle) / 111000)
        poi = _poi(
            _kind_for(keywords), f"{keywords or '周边'}{_SUFFIX[(i + 3) % len(_SUFFIX)]}", at, city, seed
        )
        poi["distance"] = str(dist)
        pois.append(poi)
    return _ok(count=str(len(pois)), pois=pois)


_SPEED = {"driving": 9.0, "walking": 1.2, "bicycling": 4.0, "electrobike": 5.0}
_FACTOR = {"driving": 1.35, "walking": 1.2, "bicycling": 1.25, "electrobike": 1.25}


def direction(mode: str, q: dict[str, str]) -> dict[str, Any]:
    """``/v5/direction/{driving,walking,bicycling,electrobike}``."""
    o, d = _lnglat(q.get("origin", "")), _lnglat(q.get("destination", ""))
    if o is None or d is None:
        return _error("INVALID_PARAMS", "20000")
    total = int(_haversine_m(o, d) * _FACTOR[mode]) + 30
    if mode == "walking" and total > 100000:
        return _error("OVER_DIRECTION_RANGE", "20803")
    with_cost = "cost" in q.get("show_fields", "")
    roads = CITIES[_nearest_city(o)][5]
    parts = [total // 3, total // 2, total - total // 3 - total // 2]
    steps = []
    for i, dist in enumerate(parts):
        road = roads[(i + len(q["origin"])) % len(roads)]
        step: dict[str, Any] = {
            "instruction": f"沿{road}向{['东', '南', '北'][i]}{'骑行' if mode == 'bicycling' else '行驶'}{dist}米",
            "orientation": ["东", "南", "北"][i],
            "road_name": road if i != 1 or mode == "driving" else [],
            "step_distance": str(dist),
        }
        if with_cost:
            step["cost"] = {"duration": str(int(dist / _SPEED[mode]))}
        steps.append(step)
    path: dict[str, Any] = {"distance": str(total), "steps": steps}
    if mode == "driving":
        path["restriction"] = "0"
    if with_cost:
        cost = {"duration": str(int(total / _SPEED[mode]))}
        if mode == "driving":
            cost |= {"tolls": "0", "toll_distance": "0", "toll_road": [], "traffic_lights": str(total // 800)}
        path["cost"] = cost
    route: dict[str, Any] = {"origin": _fmt(o), "destination": _fmt(d), "paths": [path]}
    if mode == "driving":
        route["taxi_cost"] = str(int(11 + 2.5 * total / 1000))
    return _ok(count="1", route=route)


def transit(q: dict[str, str]) -> dict[str, Any]:
    """``/v5/direction/transit/integrated``: walk, metro, walk."""
    o, d = _lnglat(q.get("origin", "")), _lnglat(q.get("destination", ""))
    if o is None or d is None:
        return _error("INVALID_PARAMS", "20000")
    if not q.get("city1") or not q.get("city2"):
        return _error("MISSING_REQUIRED_PARAMS", "20001")
    total = int(_haversine_m(o, d) * 1.3) + 50
    if total < 600:
        return _ok(
            count="0",
            route={"origin": _fmt(o), "destination": _fmt(d), "distance": str(total), "transits": []},
        )
    roads = CITIES[_nearest_city(o)][5]
    walk1, walk2 = 300 + total % 200, 150 + total % 100
    ride = max(100, total - walk1 - walk2)
    line = f"地铁{1 + total % 5}号线({roads[0]}--{roads[-1]})"
    segments = [
        {
            "walking": {
                "origin": _fmt(o),
                "destination": _fmt(o),
                "distance": str(walk1),
                "cost": {"duration": str(int(walk1 / 1.2))},
                "steps": [
                    {"instruction": f"沿{roads[1]}步行{walk1}米", "road": roads[1], "distance": str(walk1)}
                ],
            },
            "bus": {
                "buslines": [
                    {
                        "departure_stop": {"name": f"{roads[0]}站", "id": "BV1", "location": _fmt(o)},
                        "arrival_stop": {"name": f"{roads[-1]}站", "id": "BV2", "location": _fmt(d)},
                        "name": line,
                        "id": "330100023072",
                        "type": "地铁线路",
                        "distance": str(ride),
                        "cost": {"duration": str(int(ride / 9))},
                        "bus_time_tips": "",
                        "via_num": str(1 + ride // 1500),
                        "via_stops": [{"name": "中间站", "id": "BV3", "location": _fmt(o)}],
                    }
                ]
            },
        },
        {
            "walking": {
                "origin": _fmt(d),
                "destination": _fmt(d),
                "distance": str(walk2),
                "cost": {"duration": str(int(walk2 / 1.2))},
                "steps": [{"instruction": f"步行{walk2}米到达终点", "road": [], "distance": str(walk2)}],
            },
            "bus": {"buslines": []},
        },
    ]
    duration = int(walk1 / 1.2 + ride / 9 + walk2 / 1.2) + 120
    plan = {
        "distance": str(total),
        "walking_distance": str(walk1 + walk2),
        "nightflag": "0",
        "cost": {
            "duration": str(duration),
            "transit_fee": str(2 + ride // 5000),
            "taxi_fee": str(int(11 + 2.5 * total / 1000)),
        },
        "segments": segments,
    }
    if "cost" not in q.get("show_fields", ""):
        del plan["cost"]
    route = {"origin": _fmt(o), "destination": _fmt(d), "distance": str(total), "transits": [plan]}
    return _ok(count="1", route=route)


def weather(q: dict[str, str], state: FakeState) -> dict[str, Any]:
    """``/v3/weather/weatherInfo`` with ``extensions=all`` (today + 3 days)."""
    code = _city_of(q.get("city", ""))
    if not q.get("city"):
        return _error("MISSING_REQUIRED_PARAMS", "20001")
    if code is None:
        return _ok(count="0", forecasts=[])
    cityname, pname, *_ = CITIES[code]
    start = date.fromisoformat(state.today)
    casts = []
    for i in range(4):
        day = start + timedelta(days=i)
        s = _h("weather", code, day.isoformat())
        high = 18 + s % 10
        casts.append(
            {
                "date": day.isoformat(),
                "week": str(day.isoweekday()),
                "dayweather": _WEATHER[s % len(_WEATHER)],
                "nightweather": _WEATHER[(s >> 4) % len(_WEATHER)],
                "daytemp": str(high),
                "nighttemp": str(high - 6 - s % 4),
                "daywind": _WIND[(s >> 8) % len(_WIND)],
                "nightwind": _WIND[(s >> 9) % len(_WIND)],
                "daypower": "1-3" if s % 3 else "≤3",
                "nightpower": "1-3",
                "daytemp_float": f"{high}.0",
                "nighttemp_float": f"{high - 6 - s % 4}.0",
            }
        )
    fc = {
        "city": cityname,
        "adcode": code,
        "province": pname.removesuffix("省"),
        "reporttime": state.reporttime,
        "casts": casts,
    }
    return _ok(count="1", forecasts=[fc])


# --- app -----------------------------------------------------------------------------------------
def make_app(state: FakeState) -> FastAPI:
    """The FastAPI app of the fake, bound to ``state``."""
    app = FastAPI()

    @app.get("/{path:path}")
    async def handle(path: str, request: Request) -> Response:
        q = dict(request.query_params)
        path = "/" + path
        state.requests.append({"path": path, "params": q, "t": time.monotonic()})
        if state.delay:
            await asyncio.sleep(state.delay)
        if state.fail_5xx > 0:
            state.fail_5xx -= 1
            return Response("<html>502 Bad Gateway</html>", status_code=502, media_type="text/html")
        if state.fail_429 > 0:
            state.fail_429 -= 1
            return Response("Too Many Requests", status_code=429, headers={"Retry-After": "0"})
        key = q.get("key", "")
        if not key or key in state.invalid_keys:
            return JSONResponse(_error("INVALID_USER_KEY", "10001"))
        if key in state.quota_keys:
            return JSONResponse(_error("USER_DAILY_QUERY_OVER_LIMIT", "10044"))
        if state.rate_limited > 0:
            state.rate_limited -= 1
            return JSONResponse(_error("CUQPS_HAS_EXCEEDED_THE_LIMIT", "10021"))
        if path == "/v5/place/text":
            body = place_text(q)
        elif path == "/v5/place/around":
            body = place_around(q)
        elif path.startswith("/v5/direction/") and path.rsplit("/", 1)[-1] in _SPEED:
            body = direction(path.rsplit("/", 1)[-1], q)
        elif path == "/v5/direction/transit/integrated":
            body = transit(q)
        elif path == "/v3/weather/weatherInfo":
            body = weather(q, state)
        else:
            return Response("Not Found", status_code=404)
        if state.odd_shape > 0 and "pois" in body:  # valid JSON, status "1", undocumented structure
            state.odd_shape -= 1
            body["pois"] = "unexpected"
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        if state.malformed > 0:
            state.malformed -= 1
            text = text.replace('"status":', "status:", 1)
        elif state.truncated > 0:
            state.truncated -= 1
            text = text[: len(text) // 2]
        return Response(text, media_type="application/json;charset=UTF-8")

    return app


class FakeAmap:
    """Runs the fake on a free 127.0.0.1 port in a background thread (``with FakeAmap() as fake``)."""

    def __init__(self, state: FakeState | None = None) -> None:
        self.state = state or FakeState()
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    @property
    def url(self) -> str:
        """Base URL to put into ``NAVWORLD_AMAP_BASE_URL``."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> FakeAmap:
        """Bind a free port and serve until :meth:`stop`."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            make_app(self.state),
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_keep_alive=1,
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("fake AMap server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Shut the server down and wait for its thread."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server = None
        self._thread = None

    def __enter__(self) -> FakeAmap:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
