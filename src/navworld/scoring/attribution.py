"""Which entity an amount or a time in an answer is about: tables, clauses and derived amounts.

An answer states a price *about* an entity only when the text ties the number to it: the
entity's own table row (in a price column, not a total column) or its own clause (the nearest
entity before the number on the line, with nothing between them that makes the number
something else). A number is **derived** — a sum, a multiple for several people / nights /
rooms, a difference or saving, a budget — when an arithmetic or total marker stands between the
entity and the number (``合计``, ``共``, ``4 晚需``, ``×2``, ``省``, ``贵``, ``（+260 元）``), when it
sits in a total column, or (checked later, by value) when it equals arithmetic over prices cited
next to it. Derived numbers are never fabrications and never matches.

:class:`Layout` is computed once per answer: line spans and, for markdown table rows, cell
spans and the column header of each cell.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from itertools import combinations, pairwise

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.numerals import cn_prices

__all__ = ["CLAIM", "DERIVED", "Entity", "Layout", "attribute_price", "is_bound_time", "sums_of"]

CLAIM = "claim"
DERIVED = "derived"


@dataclass(frozen=True, slots=True)
class Entity:
    """An entity mention: ``[start, end)``, its key (POI name or transport ID) and whether it is a transport ID."""

    start: int
    end: int
    key: str
    transport: bool


@dataclass(slots=True)
class _Row:
    cells: list[tuple[int, int]]
    headers: list[str]


@dataclass(slots=True)
class Layout:
    """Line and table structure of one answer text."""

    text: str
    starts: list[int] = field(default_factory=list)
    rows: dict[int, _Row] = field(default_factory=dict)
    """line index → cells of a markdown table row (absolute ``[start, end)`` spans) and their headers."""

    @classmethod
    def of(cls, text: str) -> Layout:
        """Scan ``text`` once."""
        starts = [0]
        starts.extend(m.end() for m in P.LINE_SPLIT.finditer(text))
        lay = cls(text, starts)
        headers: list[str] = []
        prev_table = False
        for i, s in enumerate(starts):
            e = lay.line_end(i)
            line = text[s:e]
            stripped = line.strip()
            if not (stripped.startswith("|") and stripped.count("|") >= 2):
                prev_table = False
                headers = []
                continue
            cells = _cells(text, s, e)
            if P.TABLE_SEPARATOR.fullmatch(stripped):
                prev_table = True
                continue
            if not prev_table:
                # first row of a table: its header (the next line is the |---| separator)
                nxt = text[lay.line_start(i + 1) : lay.line_end(i + 1)].strip() if i + 1 < len(starts) else ""
                if P.TABLE_SEPARATOR.fullmatch(nxt):
                    headers = [text[a:b].strip() for a, b in cells]
            prev_table = True
            lay.rows[i] = _Row(cells, headers)
        return lay

    def line_start(self, i: int) -> int:
        """Offset of line ``i``."""
        return self.starts[i]

    def line_end(self, i: int) -> int:
        """End offset of line ``i`` (before its newline)."""
        if i + 1 < len(self.starts):
            end = self.starts[i + 1] - 1
            if end > 0 and self.text[end - 1 : end] == "\r":
                end -= 1
            return end
        return len(self.text)

    def line_of(self, pos: int) -> int:
        """Index of the line holding ``pos``."""
        return bisect.bisect_right(self.starts, pos) - 1

    def cell_of(self, line: int, pos: int) -> tuple[int, tuple[int, int], str] | None:
        """``(index, span, header)`` of the table cell holding ``pos``, or None outside tables."""
        row = self.rows.get(line)
        if row is None:
            return None
        for i, (a, b) in enumerate(row.cells):
            if a <= pos < b:
                return i, (a, b), row.headers[i] if i < len(row.headers) else ""
        return None


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    out = []
    bars = [i for i in range(start, end) if text[i] == "|"]
    for a, b in pairwise(bars):
        out.append((a + 1, b))
    if bars and bars[-1] < end - 1 and text[bars[-1] + 1 : end].strip():
        out.append((bars[-1] + 1, end))  # a row without the closing bar
    return out


def is_bound_time(
    text: str, start: int, end: int, time: str = "", request_times: frozenset[str] | None = None
) -> bool:
    """Whether the time at ``[start, end)`` is a bound (``15:00前``, ``before 15:00``), not a claim.

    With ``request_times`` (scorer s2) a bound must be one the request itself set (the user's
    deadline restated) or written as advice (``建议 16:30 前到站``): an answer cannot hide a made-up
    time from the checks by writing ``前`` after it."""
    bound = bool(P.TIME_BOUND_AFTER.match(text, end) or P.TIME_BOUND_BEFORE.search(text, max(0, start - 12), start))
    if not bound or request_times is None:
        return bound
    return time in request_times or P.ADVICE_BEFORE.search(text, max(0, start - 10), start) is not None


def _nearest(text: str, entities: list[Entity], ends: list[int], lo: int, pos: int) -> Entity | None:
    """The entity closest before ``pos`` starting at or after ``lo`` (reference points skipped)."""
    k = bisect.bisect_right(ends, pos) - 1
    while k >= 0 and entities[k].end > lo - 60:
        e = entities[k]
        if e.start >= lo and e.end <= pos and not _reference(text, e):
            return e
        k -= 1
    return None


def _reference(text: str, e: Entity) -> bool:
    """Whether the mention is a reference point (``距孔望山 2409米``), not a subject."""
    return P.REFERENCE_POINT.search(text, max(0, e.start - 4), e.start) is not None


def _row_entity(text: str, entities: list[Entity], ends: list[int], lo: int, hi: int) -> Entity | None:
    """The single entity of a table row (a transport ID wins when the row has exactly one)."""
    i = bisect.bisect_left(ends, lo + 1)
    found = [e for e in entities[i:] if e.start >= lo and e.end <= hi and not _reference(text, e)]
    ids = {e.key for e in found if e.transport}
    if len(ids) == 1:
        return next(e for e in found if e.transport)
    keys = {e.key for e in found}
    if len(keys) == 1:
        return found[0]
    return None


def _owner_after(text: str, pos: int, entities: list[Entity], ends: list[int]) -> Entity | None:
    """The entity an amount qualifies when it is written before it: ``178元 的格林豪泰``,
    ``¥38 的 G1447`` (the amount, then 的, then the name)."""
    m = P.AMOUNT_OF_NEXT.match(text, _amount_end(text, pos))
    if m is None:
        return None
    at = m.end()
    k = bisect.bisect_right(ends, at)
    for e in entities[k : k + 4]:
        if at <= e.start <= at + 2 and not _reference(text, e):
            return e
    return None


def _amount_end(text: str, pos: int) -> int:
    m = P.AMOUNT_AT.match(text, pos)
    return m.end() if m is not None else pos


def _previous_line_entity(
    text: str, layout: Layout, line: int, pos: int, entities: list[Entity], ends: list[int]
) -> Entity | None:
    """A bullet continuing the line above (``**酒店名**`` then ``- 398元/晚``): that line's entity,
    when the amount is written as a unit price."""
    ls = layout.line_start(line)
    head = text[ls:pos].lstrip()
    if not head.startswith(("-", "*", "·", "•")) and text[ls : ls + 1] not in (" ", "\t"):
        return None
    if not P.UNIT_PRICE_AFTER.match(text, _amount_end(text, pos)) and not P.POI_PRICE_WORDS.search(text, ls, pos):
        return None
    for prev in (line - 1, line - 2):
        if prev < 0:
            break
        a, b = layout.line_start(prev), layout.line_end(prev)
        if not text[a:b].strip():
            continue
        if P.PRICE.search(text, a, b) or P.PRICE_SIGN.search(text, a, b) or cn_prices(text[a:b]):
            return None  # the line above states its own amounts: it is no heading of this one
        i = bisect.bisect_left(ends, a + 1)
        found = {e.key: e for e in entities[i:] if e.start >= a and e.end <= b and not e.transport}
        return next(iter(found.values())) if len(found) == 1 else None
    return None


def _mode_word(text: str, lo: int, pos: int) -> str | None:
    """``taxi`` or ``transit``: whichever word of the two stands closest before ``pos``."""
    best: tuple[int, str] | None = None
    for pattern, mode in ((P.TAXI_WORDS, "taxi"), (P.TRANSIT_WORDS, "transit")):
        last = None
        for m in pattern.finditer(text, lo, pos):
            last = m.start()
        if last is not None and (best is None or last > best[0]):
            best = (last, mode)
    return best[1] if best else None


def _in_table(
    text: str, layout: Layout, line: int, pos: int, cs: int, entities: list[Entity], ends: list[int]
) -> tuple[Entity | None, int, bool, str | None]:
    """A table cell's amount: ``(entity, gap start, marked as derived, mode word)``."""
    ent = _nearest(text, entities, ends, cs, pos)
    if ent is not None:
        return ent, ent.end, False, None
    row = layout.rows[line]
    row_start = row.cells[0][0]
    # a row computing an amount (``午餐 (69 × 4) | 276``, ``A 80 + B 120 | 200``)
    marked = bool(
        P.TOTAL_WORDS.search(text, row_start, pos)
        or P.MULTIPLIER.search(text, row_start, pos)
        or P.SUM_SIGN.search(text, row_start, pos)
    )
    ent = _row_entity(text, entities, ends, row_start, row.cells[-1][1])
    if ent is None:
        return None, pos, marked, _mode_word(text, cs, pos)
    mode = _mode_word(text, max(ent.end, row_start), pos)
    if mode is not None and not ent.transport:
        return None, pos, marked, mode  # a transfer cell of the row (``地铁1号线 … 3元``)
    return ent, pos, marked, None  # the entity is in another cell of its row: nothing between to read


def attribute_price(
    text: str, pos: int, layout: Layout, entities: list[Entity], ends: list[int]
) -> tuple[str | None, str]:
    """``(key, kind)`` of the amount at ``pos``: kind :data:`CLAIM` or :data:`DERIVED`.

    key is a POI name, a transport ID, ``taxi``/``transit``, or None (nobody's). For a
    :data:`DERIVED` amount the key is the entity it would belong to: the caller keeps it derived
    only when it really is arithmetic over cited prices (else it is that entity's claim).
    """
    line = layout.line_of(pos)
    ls = layout.line_start(line)
    lead = text[max(ls, pos - C.ATTRIBUTION_MARK_LEAD) : pos]
    marked = bool(P.DERIVED_BEFORE.search(lead) or P.DERIVED_AFTER.match(text, _amount_end(text, pos)))
    lo = max(ls, pos - C.ATTRIBUTION_WINDOW)
    cell = layout.cell_of(line, pos)
    if cell is not None:
        if P.TOTAL_HEADER.search(cell[2]):
            return None, DERIVED  # a total column
        lo = cell[1][0]
        ent, gap_start, row_marked, mode = _in_table(text, layout, line, pos, lo, entities, ends)
        marked = marked or row_marked
        if ent is None:
            return mode, DERIVED if marked else CLAIM
    else:
        if text[ls : ls + 1] == "#" and P.BUDGET_WORDS.search(text, ls, pos):
            return None, DERIVED  # a budget in a title line
        following = _owner_after(text, pos, entities, ends)
        if following is not None:
            return following.key, DERIVED if marked else CLAIM
        ent = _nearest(text, entities, ends, lo, pos)
        if ent is None:
            wide = text[max(ls, pos - 2 * C.ATTRIBUTION_MARK_WINDOW) : pos]
            marked = marked or bool(
                P.TOTAL_WORDS.search(wide) or P.DIFFERENCE_WORDS.search(wide) or P.MULTIPLIER.search(wide)
            )
            prev = _previous_line_entity(text, layout, line, pos, entities, ends)
            key = prev.key if prev is not None else _mode_word(text, lo, pos)
            return key, DERIVED if marked else CLAIM
        gap_start = ent.end
    gap = text[gap_start:pos]
    if P.TOTAL_WORDS.search(gap) or P.MULTIPLIER.search(gap) or P.DIFFERENCE_WORDS.search(gap):
        marked = True
    if marked and P.PHRASE_BREAK.search(gap) and P.AMOUNT_UNIT.search(gap):
        # "G8190，往返 464 元，全天花费 666 元": a total of its own clause, after another amount
        return None, DERIVED
    return _key(text, ls, lo, pos, ent, gap_start, gap), DERIVED if marked else CLAIM


def _key(text: str, ls: int, lo: int, pos: int, ent: Entity, gap_start: int, gap: str) -> str | None:
    """Whose amount it is, given the nearest entity before it."""
    if ent.transport:
        return ent.key
    if P.CLAUSE_END.search(gap):
        return _mode_word(text, lo, pos)
    mode = _mode_word(text, gap_start, pos)
    if mode is not None:
        return mode
    if not P.POI_PRICE_WORDS.search(gap):
        # "打车到灵隐寺约25元" / "打车…去素心斋 22元": the ride to the entity, not the entity's price
        sentence = text[max(ls, pos - C.ATTRIBUTION_WINDOW) : ent.start]
        cut = max(sentence.rfind(ch) for ch in "。；;！？!?")
        mode = _mode_word(sentence, cut + 1, len(sentence))
        if mode is not None:
            return mode
    return ent.key


def sums_of(values: list[float], k_max: int, differences: bool = True) -> set[float]:
    """Amounts derivable from ``values``: multiples (2…k_max), sums of 2–4 values, multiples of pair
    sums, and (when ``differences``) differences."""
    vals = sorted({round(v, 2) for v in values if v > 0})[: C.DERIVED_MAX_VALUES]
    out = {round(v * k, 2) for v in vals for k in range(2, k_max + 1)}
    for r in (2, 3, 4):
        if len(vals) < r:
            break
        sums = [round(sum(c), 2) for c in combinations(vals, r)]
        out.update(sums)
        if r == 2:
            out.update(round(x * k, 2) for x in sums for k in range(2, k_max + 1))  # (558 + 552) × 2
    if differences:
        out.update(round(abs(a - b), 2) for a, b in combinations(vals, 2))
    return out
