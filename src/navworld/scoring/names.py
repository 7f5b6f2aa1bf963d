"""Name and value helpers of fact extraction: POI name variants, road names, wind normalisation."""

from __future__ import annotations

from navworld.scoring import patterns as P
from navworld.scoring.scan import suffix_names

__all__ = [
    "admin_prefixes",
    "norm_power",
    "norm_wind",
    "poi_kind",
    "poi_variant_parts",
    "poi_variants",
    "road_names",
    "strip_code",
]


def norm_wind(value: str) -> str | None:
    """``东北`` / ``东北风`` → ``东北风``; other values kept when they name a wind."""
    v = value.strip()
    if not v:
        return None
    if all(ch in "东南西北" for ch in v) and len(v) <= 2:
        return v + "风"
    m = P.WIND_DIR.search(v)
    return m.group(1) if m else None


def norm_power(lo: str, hi: str | None, le: str | None) -> str:
    """``1-3级`` / ``≤3级`` / ``3级``."""
    if le:
        return f"≤{int(lo)}级"
    if hi is not None:
        return f"{int(lo)}-{int(hi)}级"
    return f"{int(lo)}级"


def road_names(text: str) -> list[tuple[str, int]]:
    """Road names with their positions: a road suffix and the characters back to a verb/unit/punctuation."""
    out = []
    for name, pos in suffix_names(
        text, 0, len(text), P.ROAD_SUFFIX_ONLY, P.ROAD_SPLIT, max_prefix=10, min_len=3
    ):
        end = pos + len(name)
        if name in P.ROAD_STOP_NAMES or P.ROAD_BAD_SUFFIX.match(text, end):
            continue
        if name[-2:] in P.ROAD_PROSE_ENDINGS or name[-3:] in P.ROAD_PROSE_ENDINGS:
            continue
        out.append((name, pos))
    return out


def admin_prefixes(cities: set[str] | frozenset[str], districts: set[str] | frozenset[str]) -> frozenset[str]:
    """Prefixes stripped from POI names: city/province names (full and short) and full district names."""
    out = set(districts)
    for c in cities:
        out.add(c)
        short = P.ADMIN_SUFFIX.sub("", c)
        if len(short) >= 2:
            out.add(short)
    return frozenset(p for p in out if len(p) >= 2)


def poi_variants(name: str, prefixes: frozenset[str] | set[str] = frozenset()) -> tuple[str, ...]:
    """Search strings for a POI name: full, without branch suffix, without admin prefix, halves.

    Halves are used only for names of ≥ 6 characters whose halves are ≥ 3 characters and not
    generic words or admin names (the upstream ≥ 4-character half match produced false positives).
    """
    whole, halves = poi_variant_parts(name, prefixes)
    return tuple(dict.fromkeys(v for v in (*whole, *halves) if v))


def poi_variant_parts(
    name: str, prefixes: frozenset[str] | set[str] = frozenset()
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(whole variants, half variants)`` of a POI name (see :func:`poi_variants`)."""
    out = [name]
    base = P.BRANCH_SUFFIX.sub("", name).strip()
    if base and base != name and len(base) >= 2:
        out.append(base)
    clean = P.NAME_NOISE.sub("", base)
    if clean and clean != base and len(clean) >= 2:
        out.append(clean)
    core = clean
    for prefix in sorted(prefixes, key=len, reverse=True):
        if core.startswith(prefix) and len(core) - len(prefix) >= 2:
            core = core[len(prefix) :]
            break
    if core != clean and len(core) >= 3 and core not in P.GENERIC_NAME_PARTS:
        out.append(core)
    stem = core
    for suffix in ("风景名胜区", "旅游景区", "风景区", "旅游区", "景区"):
        if core.endswith(suffix) and len(core) - len(suffix) >= 2:
            stem = core[: -len(suffix)]
            out.append(stem)
            break
    halves: list[str] = []
    if len(stem) >= 6:
        half = len(stem) // 2
        for part in (stem[:half], stem[half:]):
            if len(part) >= 3 and part not in P.GENERIC_NAME_PARTS and not _is_admin(part, prefixes):
                halves.append(part)
    whole = tuple(dict.fromkeys(v for v in out if v))
    return whole, tuple(h for h in dict.fromkeys(halves) if h not in whole)


def _is_admin(part: str, prefixes: frozenset[str] | set[str]) -> bool:
    return bool(P.ADMIN_SUFFIX.search(part)) or any(p in part for p in prefixes)


def poi_kind(fields: dict[str, str]) -> str:
    t = fields.get("type", "") + fields.get("typecode", "")
    if "餐饮" in t or fields.get("cuisine") or fields.get("typecode", "").startswith("05"):
        return "restaurant"
    if (
        any(w in t for w in ("住宿", "酒店", "宾馆"))
        or fields.get("star")
        or fields.get("typecode", "").startswith("10")
    ):
        return "hotel"
    if any(w in t for w in ("交通", "机场", "火车站")) or fields.get("typecode", "").startswith("15"):
        return "hub"
    return "attraction"


# --------------------------------------------------------------------------- per-text extraction


def strip_code(name: str) -> str:
    """``G92杭州湾环线高速`` → ``杭州湾环线高速`` (highway code dropped)."""
    i = 0
    while i < len(name) and name[i].isascii() and name[i].isalnum():
        i += 1
    return name[i:]
