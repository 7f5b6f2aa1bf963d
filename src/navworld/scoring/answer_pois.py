"""Answer-side POI mentions: tool POIs found by name variants, longest match first, and the other
place names found by suffix (ungrounded places).

See :func:`find_pois`. Used by :mod:`navworld.scoring.answer_facts`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.fact_types import AnswerFacts, PoiEntry, ToolFacts
from navworld.scoring.parser import ParsedAnswer

__all__ = ["alternation", "find_pois", "poi_index"]


@lru_cache(maxsize=256)
def alternation(words: tuple[str, ...]) -> re.Pattern[str] | None:
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))) if words else None


@dataclass(frozen=True, slots=True)
class _PoiIndex:
    """Per tool-POI set: every search string with its owner, rank and the longer names it starts."""

    items: tuple[tuple[str, str, int, bool, tuple[str, ...]], ...]
    """``(variant, poi name, rank, is half, longer-name prefixes)``; rank 0 = the exact name."""
    best: dict[str, str]
    """variant → the POI it best names (exact name, then a whole variant, then the longest name)."""


@lru_cache(maxsize=256)
def poi_index(entries: tuple[PoiEntry, ...]) -> _PoiIndex:
    wholes = {v for e in entries for v in e.variants if v not in e.halves}
    items = []
    best: dict[str, tuple[tuple[int, int], str]] = {}
    for e in entries:
        halves = set(e.halves)
        for i, v in enumerate(e.variants):
            is_half = v in halves
            rank = 0 if v == e.name else (2 if is_half else 1)
            # a mention that runs on into a longer tool name (黑虎泉西路… ⊃ 黑虎泉) is not this POI
            longer = tuple(sorted({w[: len(v) + 2] for w in wholes if len(w) >= len(v) + 2 and w.startswith(v)}))
            items.append((v, e.name, rank * 100 + i, is_half, longer))
            key = (rank, -len(e.name))
            if v not in best or key < best[v][0]:
                best[v] = (key, e.name)
    return _PoiIndex(tuple(items), {v: n for v, (_, n) in best.items()})




def _block_index(names: set[str] | frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Blocked names by their first two characters, longest first."""
    index: dict[str, list[str]] = {}
    for n in names:
        if len(n) >= 3:
            index.setdefault(n[:2], []).append(n)
    return {k: tuple(sorted(v, key=len, reverse=True)) for k, v in index.items()}


def _covered(text: str, start: int, end: int, index: dict[str, tuple[str, ...]], longest: int) -> bool:
    """Whether ``[start, end)`` lies inside a longer occurrence of a blocked name."""
    for p in range(max(0, start - longest + (end - start)), start + 1):
        names = index.get(text[p : p + 2])
        if not names:
            continue
        for b in names:
            if p + len(b) < end or len(b) <= end - start:
                continue
            if text.startswith(b, p):
                return True
    return False


def _carrier_mask(text: str) -> bytearray | None:
    mask: bytearray | None = None
    for m in P.CARRIER_NAME.finditer(text):
        if mask is None:
            mask = bytearray(len(text))
        mask[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    return mask


def find_pois(text: str, tf: ToolFacts, pa: ParsedAnswer, af: AnswerFacts) -> None:
    """Tool POIs mentioned in the answer, longest match first.

    A mention inside a longer POI mention does not count (``西湖`` inside ``汉庭酒店(杭州西湖湖滨店)``
    is not a mention of 西湖风景名胜区); a mention inside a longer name the tools returned for
    something else — an address, a dish, a road, a metro line or station, a carrier or airport —
    does not count (``西湖`` in ``西湖醋鱼``, ``体育场`` in ``体育场路626号``); at one span the exact
    name beats a whole variant beats a half; a mention running on into a longer tool name
    (``黑虎泉西路…`` vs 黑虎泉) is nobody's; a half never matches inside a carrier name.
    """
    index = poi_index(tuple(tf.pois.values()))
    blocked = _block_index(tf.blocked | tf.entity_names)
    longest = min(40, max((len(n) for n in tf.blocked | tf.entity_names), default=0))
    carriers = _carrier_mask(text) if any(it[3] for it in index.items) else None
    occ: list[tuple[int, int, int, str]] = []
    for variant, name, rank, is_half, longer in index.items:
        i = text.find(variant)
        n = 0
        while i >= 0 and n < C.POI_MENTIONS_MAX:
            end = i + len(variant)
            if (
                not (is_half and carriers is not None and any(carriers[i:end]))
                and not (longer and any(text.startswith(w, i) for w in longer))
                and not (blocked and _covered(text, i, end, blocked, longest))
            ):
                occ.append((i, end, rank, name))
                n += 1
            i = text.find(variant, end)
    mask = bytearray(len(text))
    occ.sort(key=lambda o: (o[0] - o[1], o[2], o[0]))
    for start, end, _, name in occ:
        if any(mask[start:end]):
            continue
        mask[start:end] = b"\x01" * (end - start)
        af.pois.setdefault(name, []).append(start)
    if pa.blanked:
        # the plan's JSON is blanked out of the text: its positions are read from the parsed fields
        base = pa.json_span[0] if pa.json_span else 0
        best = index.best
        for a in pa.activities:
            name = a.position if a.position in tf.pois else best.get(a.position or "")
            if name is not None:
                af.pois.setdefault(name, []).append(base)
    for positions in af.pois.values():
        positions.sort()
    seen: set[str] = set()
    admin = tf.admin_names
    variants = tuple(sorted({v for e in tf.pois.values() for v in e.variants[:3]}))
    joined = "\x00".join(variants)
    variant_re = alternation(variants)
    candidates = list(pa.places) + [(a.position, -1) for a in pa.activities if a.position]
    for name, pos in candidates:
        if name in seen or name in admin or P.ADMIN_SUFFIX.search(name):
            continue
        seen.add(name)
        if 0 <= pos < len(mask) and any(mask[pos : pos + len(name)]):
            continue
        if name in joined or (variant_re is not None and variant_re.search(name)):
            continue
        if blocked and 0 <= pos and _covered(text, pos, pos + len(name), blocked, longest):
            continue  # part of an address, dish or station the tools returned
        af.ungrounded_places.append(name)


