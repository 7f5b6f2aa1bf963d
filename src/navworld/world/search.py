"""Keyword matching and ranking of POIs (the ranking ``poi_search`` and ``around_search`` use).

Ranking of one keyword token against a POI (higher is better, 0 = no match):

* 100 exact name; 82–92 the token inside the name (prefix and tight matches first), +10 when
  the token is also one of the POI's category words; 64 when the token is only in a branch
  suffix such as ``(杭州西湖店)``;
  70 the name inside the token (``西湖景区`` → 西湖);
* 60 a category word (type segment, category, cuisine, tag, brand, feature, IATA code);
* 55 a signature dish; 50 a kind word (景点 / 餐厅 / 酒店 / 机场 …);
* 45 a compound of known words (``素食餐厅`` = 素食 + 餐厅) that all match.

Several whitespace-separated tokens must all match; scores add up. Ties break by rating
(desc), name length, id. When nothing matches, a fuzzy fallback (rapidfuzz) over names applies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from navworld.core.models import Poi

__all__ = ["KIND_WORDS", "PoiIndex", "split_keywords"]

KIND_WORDS: dict[str, tuple[str, ...]] = {
    "attraction": ("景点", "景区", "旅游", "风景", "名胜", "游玩", "好玩", "必去", "打卡", "旅游景点", "风景名胜", "玩"),
    "restaurant": ("餐厅", "美食", "饭店", "餐馆", "吃饭", "饭馆", "好吃", "馆子", "吃", "餐饮", "美食餐厅", "饭", "食"),
    "hotel": ("酒店", "宾馆", "住宿", "旅馆", "住", "饭店住宿", "酒店住宿", "住宿服务"),
    "hub": ("交通", "车站", "交通枢纽", "交通设施"),
}
_CACHE_MAX = 2048
_SPLIT_RE = re.compile(r"[\s,，、;；|/]+")


def split_keywords(text: str) -> list[str]:
    """Split a keyword string on whitespace and list punctuation."""
    return [t for t in _SPLIT_RE.split(text.strip()) if t]


@dataclass(frozen=True, slots=True)
class _Entry:
    poi: Poi
    words: frozenset[str]
    dishes: tuple[str, ...]
    kind_words: frozenset[str]


class PoiIndex:
    """A per-city (or global) search index over a fixed list of POIs."""

    def __init__(self, pois: Sequence[Poi]) -> None:
        self.pois = list(pois)
        entries: list[_Entry] = []
        vocab: set[str] = set()
        for kw in KIND_WORDS.values():
            vocab.update(w for w in kw if len(w) >= 2)
        for p in self.pois:
            words = {seg for seg in p.type.split(";") if seg}
            words.update(w for w in (p.category, p.cuisine, p.brand) if w)
            words.update(p.tags)
            words.update(p.features)
            if p.kind == "hub":
                words.update({"机场", "飞机场"} if p.category == "机场" else {"火车站", "车站"})
            entries.append(_Entry(p, frozenset(words), tuple(p.dishes), frozenset(KIND_WORDS[p.kind])))
            vocab.update(w for w in words if len(w) >= 2)
        self._entries = entries
        # Longest first, so compounds decompose greedily into the most specific words.
        self._vocab = sorted(vocab, key=lambda w: (-len(w), w))
        self._names = [p.name for p in self.pois]
        self._cache: dict[str, list[tuple[Poi, float]]] = {}

    # -- scoring -------------------------------------------------------------------------
    @staticmethod
    def _token_score(e: _Entry, token: str) -> float:
        name = e.poi.name
        category = 10.0 if token in e.words else 0.0  # a category hit lifts a name hit
        if token == name:
            return 100.0 + category
        if token in name:
            main = name.split("(", 1)[0]
            if token not in main:  # only in a branch suffix such as 全季酒店(杭州西湖店)
                return 64.0 + category
            tight = max(0.0, 8.0 - 0.5 * (len(main) - len(token)))
            return 82.0 + tight + (2.0 if name.startswith(token) else 0.0) + category
        if len(name) >= 2 and name in token:
            return 70.0
        if category:
            return 60.0
        for w in e.words:
            if len(token) >= 2 and token in w:
                return 58.0
        for d in e.dishes:
            if token in d or (len(d) >= 2 and d in token):
                return 55.0
        if token in e.kind_words:
            return 50.0
        return 0.0

    def _decompose(self, token: str) -> list[str]:
        """Known words inside ``token`` (greedy, longest first); empty when none."""
        found: list[str] = []
        rest = token
        for w in self._vocab:
            if w in rest:
                found.append(w)
                rest = rest.replace(w, " ")
        return found if found and len(rest.replace(" ", "")) <= max(1, len(token) // 3) else []

    def _score(self, e: _Entry, tokens: Sequence[str], parts: Sequence[Sequence[str]]) -> float:
        total = 0.0
        for token, words in zip(tokens, parts, strict=True):
            s = self._token_score(e, token)
            if s == 0.0 and words:
                sub = [self._token_score(e, w) for w in words]
                s = 45.0 if all(x > 0 for x in sub) else 0.0
            if s == 0.0:
                return 0.0
            total += s
        return total

    # -- queries -------------------------------------------------------------------------
    def matches(self, keywords: str) -> list[tuple[Poi, float]]:
        """Every POI matching all tokens of ``keywords`` with its score (memoised; a fresh list)."""
        hit = self._cache.get(keywords)
        if hit is None:
            hit = self._matches(keywords)
            if len(self._cache) >= _CACHE_MAX:
                self._cache.clear()
            self._cache[keywords] = hit
        return list(hit)

    def _matches(self, keywords: str) -> list[tuple[Poi, float]]:
        tokens = split_keywords(keywords)
        if not tokens:
            return [(e.poi, 1.0) for e in self._entries]
        parts = [self._decompose(t) for t in tokens]
        out: list[tuple[Poi, float]] = []
        for e in self._entries:
            s = self._score(e, tokens, parts)
            if s > 0:
                out.append((e.poi, s))
        return out

    def search(self, keywords: str, limit: int = 10) -> list[Poi]:
        """The best ``limit`` POIs for ``keywords``; fuzzy name matching when nothing matches."""
        hits = self.matches(keywords)
        if hits:
            hits.sort(key=lambda h: (-h[1], -h[0].rating, len(h[0].name), h[0].id))
            return [p for p, _ in hits[:limit]]
        return self.fuzzy(keywords, limit)

    def fuzzy(self, keywords: str, limit: int = 10) -> list[Poi]:
        """Fuzzy fallback over names (rapidfuzz WRatio ≥ 60), best first."""
        query = keywords.strip()
        if not query or not self._names:
            return []
        found = process.extract(query, self._names, scorer=fuzz.WRatio, score_cutoff=60, limit=limit)
        ranked = sorted(found, key=lambda f: (-f[1], f[2]))
        return [self.pois[i] for _, _, i in ranked]

    @staticmethod
    def merge(indexes: Iterable[PoiIndex]) -> PoiIndex:
        """One index over the POIs of several indexes (e.g. every city)."""
        pois: list[Poi] = []
        for idx in indexes:
            pois.extend(idx.pois)
        return PoiIndex(pois)
