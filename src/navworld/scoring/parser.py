"""Answer parser: JSON-first (the fenced plan of DESIGN §7), regex fallback.

The JSON path reads ``itinerary[].activities[]`` (type, start/end time, position or start/end,
``FlightID``/``TrainID``, price/cost) and inbound ``transports`` legs. It is tolerant: any JSON
object with an ``itinerary`` list is used, unknown fields are ignored, wrong types are skipped.
The fallback reads the day structure (第N天 / Day N / D1), budget lines and place names by
suffix. ``parse_success`` is true when either path found structure (upstream could report
failure after a successful fallback).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from navworld.scoring import config as C
from navworld.scoring import patterns as P
from navworld.scoring.numerals import cn_prices
from navworld.scoring.scan import cn_number, day_headers, find_prices, normalise_text, suffix_names

__all__ = ["Activity", "DaySpan", "Leg", "ParsedAnswer", "cn_number", "parse_answer", "place_candidates"]

@dataclass(slots=True)
class Leg:
    """An inbound inner-city transport leg of an activity."""

    mode: str = ""
    start: str = ""
    end: str = ""
    start_time: str = ""
    end_time: str = ""
    distance: float | None = None
    price: float | None = None


@dataclass(slots=True)
class Activity:
    """One activity of the JSON plan."""

    day: int
    type: str = ""
    start_time: str = ""
    end_time: str = ""
    position: str = ""
    start: str = ""
    end: str = ""
    transport_id: str = ""
    price: float | None = None
    cost: float | None = None
    legs: list[Leg] = field(default_factory=list)


@dataclass(slots=True)
class DaySpan:
    """A day section of the answer text: ``[start, end)`` character offsets."""

    day: int
    start: int
    end: int


@dataclass(slots=True)
class ParsedAnswer:
    """The parsed answer: text, optional JSON plan, day structure, budget lines, places."""

    text: str
    raw: str = ""
    """The answer as given (cut at ANSWER_MAX_CHARS, default-ignorable code points removed); ``text``
    equals it unless JSON was blanked."""
    blanked: bool = False
    """Scorer s2: JSON code blocks were replaced by spaces in ``text`` (facts come from the parsed plan's
    fields, never from free strings inside the JSON)."""
    plan: dict[str, Any] | None = None
    json_error: str | None = None
    json_span: tuple[int, int] | None = None
    activities: list[Activity] = field(default_factory=list)
    day_spans: list[DaySpan] = field(default_factory=list)
    day_numbers: set[int] = field(default_factory=set)
    budget_lines: list[str] = field(default_factory=list)
    places: list[tuple[str, int]] = field(default_factory=list)

    @property
    def has_plan(self) -> bool:
        """Whether a JSON plan with an itinerary was found."""
        return self.plan is not None

    @property
    def days_found(self) -> int:
        """Number of distinct days (from the plan, else from day headers)."""
        return len(self.day_numbers)

    @property
    def parse_success(self) -> bool:
        """Whether any structure was recognised (plan, days, budget lines or places)."""
        return self.has_plan or bool(self.day_numbers or self.budget_lines or self.places)


def _str(v: object, limit: int = 80) -> str:
    return v.strip()[:limit] if isinstance(v, str) else ""


def _num(v: object) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float):
        return float(v) if v == v and abs(v) < 1e9 else None
    if isinstance(v, str):
        found = find_prices(v) or find_prices(v.strip() + "元")
        return found[0][0] if found else None
    return None


def _time(v: object) -> str:
    if isinstance(v, str):
        m = P.TIME.search(v)
        if m:
            return f"{int(m.group(1)):02d}:{m.group(2)}"
    return ""


def _find_plan(text: str) -> tuple[dict[str, Any] | None, str | None, tuple[int, int] | None]:
    error = None
    for m in reversed(list(P.JSON_FENCE.finditer(text))):
        try:
            obj = json.loads(m.group(1))
        except (ValueError, RecursionError) as exc:
            error = f"invalid JSON in fenced block: {str(exc)[:80]}"
            continue
        if isinstance(obj, dict) and isinstance(obj.get("itinerary"), list):
            return obj, None, (m.start(), m.end())
        error = error or "fenced JSON has no itinerary list"
    if error is None:
        start = text.find('{"')
        if start < 0:
            start = text.find("{\n")
        if start >= 0 and "itinerary" in text[start:]:
            try:
                obj, end = json.JSONDecoder().raw_decode(text, start)
            except (ValueError, RecursionError) as exc:
                return None, f"invalid JSON: {str(exc)[:80]}", None
            if isinstance(obj, dict) and isinstance(obj.get("itinerary"), list):
                return obj, None, (start, end)
    return None, error, None


def _activities(plan: dict[str, Any]) -> tuple[list[Activity], set[int]]:
    acts: list[Activity] = []
    days: set[int] = set()
    for i, day in enumerate(plan.get("itinerary") or []):
        if not isinstance(day, dict):
            continue
        d = day.get("day")
        dn = d if isinstance(d, int) and not isinstance(d, bool) and 0 < d < 100 else i + 1
        days.add(dn)
        for a in day.get("activities") or []:
            if not isinstance(a, dict):
                continue
            legs = []
            for leg in a.get("transports") or []:
                if isinstance(leg, dict):
                    legs.append(
                        Leg(
                            _str(leg.get("mode"), 20),
                            _str(leg.get("start")),
                            _str(leg.get("end")),
                            _time(leg.get("start_time")),
                            _time(leg.get("end_time")),
                            _num(leg.get("distance")),
                            _num(leg.get("price")),
                        )
                    )
            tid = _str(a.get("FlightID") or a.get("TrainID") or a.get("flight_id") or a.get("train_id"), 12)
            acts.append(
                Activity(
                    dn,
                    _str(a.get("type"), 20),
                    _time(a.get("start_time")),
                    _time(a.get("end_time")),
                    _str(a.get("position")),
                    _str(a.get("start")),
                    _str(a.get("end")),
                    tid.upper(),
                    _num(a.get("price")),
                    _num(a.get("cost")),
                    legs,
                )
            )
    return acts, days


def _day_spans(text: str, skip: tuple[int, int] | None, all_days: set[int]) -> list[DaySpan]:
    heads = []
    for raw, pos in day_headers(text):
        if skip and skip[0] <= pos < skip[1]:
            continue
        n = cn_number(raw)
        if n is not None and 0 < n < 100:
            line_start = text.rfind("\n", 0, pos) + 1
            heads.append((n, pos, not text[line_start:pos].strip(" \t#*->|【[（(")))
    all_days.update(h[0] for h in heads)
    # Headers that open a line are the day structure; mentions inside sentences are not.
    if any(h[2] for h in heads):
        heads = [h for h in heads if h[2]]
    spans = []
    for i, (n, start, _) in enumerate(heads):
        end = heads[i + 1][1] if i + 1 < len(heads) else (skip[0] if skip and skip[0] > start else len(text))
        spans.append(DaySpan(n, start, max(start, end)))
    return spans


def place_candidates(text: str, start: int = 0, end: int | None = None) -> list[tuple[str, int]]:
    """Place names recognised by suffix (景区, 公园, 博物馆, 酒店 …), with positions.

    Fragments between verbs and punctuation are scanned so ``游览西湖`` yields ``西湖``;
    administrative names (…省/市/区/县) are excluded.
    """
    end = len(text) if end is None else end
    return [
        (name, pos)
        for name, pos in suffix_names(text, start, end, P.PLACE_SUFFIX_ONLY, P.PLACE_STOP)
        if not P.ADMIN_SUFFIX.search(name)
        and name not in P.GENERIC_NAME_PARTS
        and not P.PLACE_SUFFIX_ONLY.fullmatch(name)
    ]


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span replaced by spaces (newlines kept), so every offset stays valid."""
    if not spans:
        return text
    out, last = [], 0
    for a, b in sorted(spans):
        if a < last:
            a = last
        out.append(text[last:a])
        out.append("".join(ch if ch == "\n" else " " for ch in text[a:b]))
        last = max(last, b)
    out.append(text[last:])
    return "".join(out)


def parse_answer(answer: object, blank_json: bool = False) -> ParsedAnswer:
    """Parse an answer (any object; non-strings become empty). Never raises.

    ``blank_json`` (scorer s2): every JSON code block (and the plan's JSON) is blanked out of
    ``text``; the plan's facts are then read from its parsed fields only."""
    text = answer if isinstance(answer, str) else ""
    text = normalise_text(P.DEFAULT_IGNORABLE.sub("", text[: C.ANSWER_MAX_CHARS]))
    pa = ParsedAnswer(text=text, raw=text)
    plan, error, span = _find_plan(text)
    pa.json_error = error
    if plan is not None:
        pa.plan, pa.json_span = plan, span
        pa.activities, pa.day_numbers = _activities(plan)
    header_days: set[int] = set()
    pa.day_spans = _day_spans(text, span, header_days)
    if not pa.day_numbers:
        pa.day_numbers = header_days
    prose = text if span is None else text[: span[0]] + text[span[1] :]
    last_line = -1
    for m in P.BUDGET_LINE.finditer(prose):
        start = prose.rfind("\n", 0, m.start()) + 1
        if start == last_line:
            continue
        last_line = start
        end = prose.find("\n", m.start())
        line = prose[start : end if end >= 0 else len(prose)]
        if P.PRICE.search(line) or P.PRICE_SIGN.search(line) or cn_prices(line):
            pa.budget_lines.append(line.strip()[:120])
    if span is None:
        pa.places = place_candidates(text)
    else:
        pa.places = place_candidates(text, 0, span[0]) + place_candidates(text, span[1])
    if blank_json:
        spans = [(m.start(), m.end()) for m in P.JSON_FENCE.finditer(text)]
        if span is not None:
            spans.append(span)
        if spans:
            pa.text = _blank(text, spans)
            pa.blanked = True
    return pa
