"""Pydantic argument models of the six tools (descriptions in Chinese and English).

Unknown parameters are rejected, strings are length-capped (a 1 MB string is a clean error),
coordinates must be ``lng,lat`` inside China and dates real ``YYYY-MM-DD`` calendar dates.
:func:`describe_validation_error` turns a pydantic error into one readable Chinese sentence.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from navworld.core.geo import LngLat, parse_lnglat
from navworld.world.gen_weather import parse_date

__all__ = [
    "AroundSearchArgs",
    "DirectionArgs",
    "FlightsArgs",
    "PoiSearchArgs",
    "TrainsArgs",
    "WeatherArgs",
    "check_date",
    "check_lnglat",
    "describe_validation_error",
]

_CFG = ConfigDict(extra="forbid", str_strip_whitespace=True)
MAX_WAYPOINTS = 16


def _looks_swapped(value: str) -> bool:
    parts = value.split(",")
    if len(parts) != 2 or len(value) > 60:
        return False
    try:
        a, b = float(parts[0]), float(parts[1])
    except ValueError:
        return False
    return 3.0 <= a <= 54.0 and 73.0 <= b <= 136.0


def check_lnglat(value: str) -> LngLat:
    """Parse ``lng,lat`` and require a point in or near China; ``ValueError`` (Chinese) otherwise."""
    try:
        lng, lat = parse_lnglat(value)
    except ValueError:
        shown = value if len(value) <= 40 else value[:40] + "…"
        if _looks_swapped(value):
            raise ValueError(f"坐标 {shown!r} 的经纬度顺序颠倒了：应为 lng,lat（经度在前，纬度在后），例如 120.155100,30.274100") from None
        raise ValueError(f"坐标格式错误（收到 {shown!r}）：应为 lng,lat（经度在前，纬度在后），例如 120.155100,30.274100") from None
    if not (73.0 <= lng <= 136.0 and 3.0 <= lat <= 54.0):
        raise ValueError(f"坐标 {lng},{lat} 不在中国境内：请确认经度在前、纬度在后（例如 120.155100,30.274100）")
    return lng, lat


def check_date(value: str) -> str:
    """Require a real ``YYYY-MM-DD`` calendar date between 2000 and 2100."""
    try:
        d = parse_date(value)
    except ValueError:
        shown = value if len(value) <= 30 else value[:30] + "…"
        raise ValueError(f"日期不合法（收到 {shown!r}）：应为真实存在的 YYYY-MM-DD 日期，例如 2025-03-01") from None
    if not 2000 <= d.year <= 2100:
        raise ValueError(f"日期 {value} 超出支持范围（2000–2100 年）")
    return value


class PoiSearchArgs(BaseModel):
    """poi_search arguments."""

    model_config = _CFG
    address: str = Field(
        min_length=1, max_length=200,
        description="搜索关键词：地点名称、地址或类别，如“西湖”“博物馆”“火锅”“酒店” / Keywords: a place name, address or category",
    )
    region: str | None = Field(
        default=None, max_length=50,
        description="城市名，如“杭州”；省略时从关键词推断 / City name such as 杭州 or Hangzhou; inferred from the keywords when omitted",
    )


class AroundSearchArgs(BaseModel):
    """around_search arguments."""

    model_config = _CFG
    location: str = Field(
        min_length=1, max_length=60,
        description="中心点坐标“经度,纬度”，如“120.155100,30.274100” / Centre as 'lng,lat'",
    )
    radius: int = Field(
        default=5000, ge=1, le=50000,
        description="搜索半径（米），1–50000，默认 5000 / Search radius in metres (1-50000, default 5000)",
    )
    keyword: str | None = Field(
        default=None, max_length=100,
        description="关键词或类别，如“餐厅”“酒店”“咖啡” / Optional keyword or category",
    )
    region: str | None = Field(
        default=None, max_length=50,
        description="城市名，可省略 / Optional city name",
    )

    @field_validator("location")
    @classmethod
    def _loc(cls, v: str) -> str:
        check_lnglat(v)
        return v


class DirectionArgs(BaseModel):
    """direction arguments."""

    model_config = _CFG
    origin: str = Field(
        min_length=1, max_length=60,
        description="起点坐标“经度,纬度”（可先用 poi_search 获取） / Origin as 'lng,lat' (get it from poi_search)",
    )
    destination: str = Field(
        min_length=1, max_length=60,
        description="终点坐标“经度,纬度” / Destination as 'lng,lat'",
    )
    mode: Literal["driving", "walking", "bicycling", "transit"] = Field(
        default="driving",
        description="出行方式：driving 驾车、walking 步行、bicycling 骑行、transit 公交地铁 / Travel mode",
    )
    waypoints: str | None = Field(
        default=None, max_length=1000,
        description="途经点（仅驾车），多个用“;”分隔，最多 16 个 / Driving waypoints 'lng,lat;lng,lat' (max 16)",
    )

    @field_validator("origin", "destination")
    @classmethod
    def _point(cls, v: str) -> str:
        check_lnglat(v)
        return v

    @field_validator("waypoints")
    @classmethod
    def _waypoints(cls, v: str | None) -> str | None:
        if v is None or v == "":
            return None
        parts = [p for p in v.split(";") if p.strip()]
        if len(parts) > MAX_WAYPOINTS:
            raise ValueError(f"途经点最多 {MAX_WAYPOINTS} 个（收到 {len(parts)} 个）")
        for p in parts:
            check_lnglat(p)
        return ";".join(p.strip() for p in parts)

    def points(self) -> tuple[LngLat, LngLat, list[LngLat]]:
        """Parsed origin, destination and waypoints."""
        wps = [check_lnglat(p) for p in self.waypoints.split(";")] if self.waypoints else []
        return check_lnglat(self.origin), check_lnglat(self.destination), wps


class WeatherArgs(BaseModel):
    """weather arguments."""

    model_config = _CFG
    city: str = Field(min_length=1, max_length=50, description="城市名，如“杭州”或“Hangzhou” / City name")
    date: str | None = Field(
        default=None, max_length=20,
        description="起始日期 YYYY-MM-DD，返回从该日起 4 天；默认行程出发日 / First day (YYYY-MM-DD) of the 4-day forecast; defaults to the trip date",
    )

    @field_validator("date")
    @classmethod
    def _date(cls, v: str | None) -> str | None:
        return None if v in (None, "") else check_date(v)  # type: ignore[arg-type]


class _TransportArgs(BaseModel):
    model_config = _CFG
    date: str = Field(min_length=1, max_length=20, description="出发日期 YYYY-MM-DD / Departure date (YYYY-MM-DD)")
    from_city: str = Field(min_length=1, max_length=50, description="出发城市，如“北京” / Departure city")
    to_city: str = Field(min_length=1, max_length=50, description="到达城市，如“上海” / Arrival city")

    @field_validator("date")
    @classmethod
    def _date(cls, v: str) -> str:
        return check_date(v)


class FlightsArgs(_TransportArgs):
    """search_flights arguments."""


class TrainsArgs(_TransportArgs):
    """search_train_tickets arguments."""


_TYPE_WORDS = {
    "string_type": "应为字符串",
    "int_type": "应为整数",
    "int_parsing": "应为整数",
    "int_from_float": "应为整数",
    "literal_error": "取值不在可选范围内",
    "dict_type": "应为 JSON 对象",
    "model_type": "应为 JSON 对象",
}


def describe_validation_error(exc: ValidationError, model: type[BaseModel]) -> str:
    """One readable Chinese sentence for a pydantic validation error of a tool's arguments."""
    fields = list(model.model_fields)
    parts: list[str] = []
    for err in exc.errors(include_url=False)[:3]:
        loc = ".".join(str(x) for x in err.get("loc", ())) or "参数"
        typ = err.get("type", "")
        ctx = err.get("ctx") or {}
        if typ == "missing":
            parts.append(f"缺少必填参数 {loc}")
        elif typ == "extra_forbidden":
            parts.append(f"未知参数 {loc[:40]}（可用参数：{'、'.join(fields)}）")
        elif typ == "string_too_long":
            parts.append(f"参数 {loc} 过长（最多 {ctx.get('max_length')} 个字符）")
        elif typ == "string_too_short":
            parts.append(f"参数 {loc} 不能为空")
        elif typ in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            f = model.model_fields.get(loc)
            lo = hi = None
            for m in f.metadata if f else ():
                lo = getattr(m, "ge", lo) if getattr(m, "ge", None) is not None else lo
                hi = getattr(m, "le", hi) if getattr(m, "le", None) is not None else hi
            got = str(err.get("input"))[:20]
            parts.append(f"参数 {loc} 超出范围（应在 {lo} 到 {hi} 之间，收到 {got}）")
        elif typ == "literal_error":
            parts.append(f"参数 {loc} 取值应为 {ctx.get('expected', '')}")
        elif typ == "value_error":
            msg = str(ctx.get("error") or err.get("msg", ""))
            parts.append(f"参数 {loc}：{msg.removeprefix('Value error, ')}")
        elif typ in _TYPE_WORDS:
            parts.append(f"参数 {loc} {_TYPE_WORDS[typ]}")
        else:
            parts.append(f"参数 {loc} 不合法：{str(err.get('msg', ''))[:100]}")
    return "；".join(parts)
