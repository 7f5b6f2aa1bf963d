"""Deterministic 4-day forecasts from a city's monthly climate normals.

Each day's weather depends only on ``(WORLD_VERSION, salt, city, date)`` - not on the first day
of the query - so overlapping forecasts agree. Temperatures follow the climate normals
(interpolated between mid-months) with seeded noise; rain probability is the month's
``rain_days`` / days in month; snow when it is cold and the city gets snow.
"""

from __future__ import annotations

import calendar
import datetime as dt

from navworld.core.models import Cast, City, Forecast
from navworld.core.seeding import rng, stable_int
from navworld.core.versions import WORLD_VERSION
from navworld.world.vocab import official_name

__all__ = ["WEEKDAYS_ZH", "forecast_for", "parse_date", "salt_date"]

WEEKDAYS_ZH = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")
_WINDS = {
    "winter": ("北", "西北", "东北", "西北", "北"),
    "summer": ("南", "东南", "西南", "东南", "东"),
    "mild": ("东", "东南", "东北", "北", "南", "西"),
}


def parse_date(text: str) -> dt.date:
    """Parse ``YYYY-MM-DD`` strictly (a real calendar date); raise ``ValueError`` otherwise."""
    if not isinstance(text, str) or len(text) != 10 or text[4] != "-" or text[7] != "-":
        raise ValueError(f"日期格式应为 YYYY-MM-DD，例如 2025-03-01，收到 {text[:30]!r}")
    return dt.date.fromisoformat(text)


def salt_date(salt: str) -> str:
    """The default forecast date of a salt: the start of its UTC week when it is a week epoch."""
    if salt.isdigit() and 1000 <= int(salt) <= 10000:
        return dt.datetime.fromtimestamp(int(salt) * 604800, tz=dt.UTC).date().isoformat()
    base = dt.date(2025, 3, 1)
    return (base + dt.timedelta(days=stable_int("salt-date", salt) % 365)).isoformat()


def _normal(values: tuple[int, ...], day: dt.date) -> float:
    """Climate value of ``day`` interpolated between the neighbouring mid-months."""
    m = day.month - 1
    n_days = calendar.monthrange(day.year, day.month)[1]
    frac = (day.day - 0.5) / n_days - 0.5  # -0.5 .. 0.5 around mid-month
    other = (m + (1 if frac >= 0 else -1)) % 12
    return values[m] + (values[other] - values[m]) * abs(frac)


def _season(month: int) -> str:
    if month in (12, 1, 2):
        return "winter"
    if month in (6, 7, 8):
        return "summer"
    return "mild"


def _power(r_val: float, wet: bool) -> str:
    x = r_val - (0.12 if wet else 0.0)
    if x < 0.02:
        return "5-6"
    if x < 0.10:
        return "4-5"
    if x < 0.35:
        return "3-4"
    return "1-3"


_CAST_CACHE: dict[tuple[str, object, dt.date, str], Cast] = {}
_CAST_CACHE_MAX = 100_000


def _cast(city: City, day: dt.date, salt: str) -> Cast:
    key = (city.name, city.climate, day, salt)  # the climate too: test catalogs reuse names
    hit = _CAST_CACHE.get(key)
    if hit is not None:
        return hit
    if len(_CAST_CACHE) >= _CAST_CACHE_MAX:
        _CAST_CACHE.clear()
    cast = _make_cast(city, day, salt)
    _CAST_CACHE[key] = cast
    return cast


def _make_cast(city: City, day: dt.date, salt: str) -> Cast:
    r = rng(WORLD_VERSION, "weather", salt, city.name, day.isoformat())
    clim = city.climate
    anomaly = r.gauss(0.0, 2.0)
    high = _normal(clim.high, day) + anomaly + r.gauss(0.0, 1.0)
    low = _normal(clim.low, day) + anomaly * 0.7 + r.gauss(0.0, 1.0)
    n_days = calendar.monthrange(day.year, day.month)[1]
    p_rain = min(0.9, _normal(clim.rain_days, day) / n_days)
    wet = r.random() < p_rain
    season = _season(day.month)
    if wet:
        high -= r.uniform(1.5, 4.0)
        if clim.snow and high <= 3.0:
            weather = r.choices(("小雪", "中雪", "雨夹雪", "大雪"), weights=(5, 2, 3 if high > 0 else 1, 1))[0]
        elif high >= 27:
            weather = r.choices(("雷阵雨", "阵雨", "小雨", "中雨", "大雨"), weights=(35, 30, 20, 10, 5))[0]
        else:
            weather = r.choices(("小雨", "中雨", "阵雨", "大雨"), weights=(50, 20, 20, 10))[0]
        night = weather if r.random() < 0.6 else r.choice(("阴", "多云"))
    else:
        weather = r.choices(("晴", "多云", "阴"), weights=(45, 35, 20))[0]
        if clim.snow and season == "winter" and r.random() < 0.06:
            weather = r.choice(("雾", "霾"))
        night = r.choices(("晴", "多云", "阴", weather), weights=(35, 35, 15, 15))[0]
        if r.random() < p_rain * 0.25:
            night = "小雪" if (clim.snow and low <= 0) else "小雨"
    daytemp = round(high)
    nighttemp = min(round(low), daytemp - 2)
    winds = _WINDS[season]
    daywind = r.choice(winds)
    nightwind = daywind if r.random() < 0.7 else r.choice(winds)
    daypower = _power(r.random(), wet)
    nightpower = daypower if r.random() < 0.7 else "1-3"
    return Cast(
        date=day.isoformat(),
        week=WEEKDAYS_ZH[day.weekday()],
        dayweather=weather,
        nightweather=night,
        daytemp=daytemp,
        nighttemp=nighttemp,
        daywind=daywind,
        nightwind=nightwind,
        daypower=daypower,
        nightpower=nightpower,
    )


def forecast_for(city: City, date: str, salt: str) -> Forecast:
    """A 4-day forecast for ``city`` starting at ``date`` (``YYYY-MM-DD``)."""
    start = parse_date(date)
    casts = tuple(_cast(city, start + dt.timedelta(days=i), salt) for i in range(4))
    return Forecast(
        city=official_name(city),
        adcode=city.adcode,
        province=city.province,
        reporttime=f"{start.isoformat()} 07:00:00",
        casts=casts,
    )
