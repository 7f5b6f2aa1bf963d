"""Answer-side weather facts, Chinese and English (``light rain``, ``°C``, ``NE 3-4``, ``north-east wind``)."""

from __future__ import annotations

import bisect

from navworld.scoring import patterns as P
from navworld.scoring.fact_types import AnswerFacts, ToolFacts
from navworld.scoring.names import norm_power
from navworld.scoring.numerals import cn_temps

__all__ = ["find_weather"]


def find_weather(text: str, tf: ToolFacts, af: AnswerFacts) -> None:
    """Weather facts from lines with a weather word, and the lines right before/after them
    (Chinese and English: ``light rain``, ``°C``, ``NE 3-4``, ``north-east wind``)."""
    hits = [m.start() for m in P.WEATHER_CONTEXT.finditer(text)]
    if not hits:
        return
    starts = [0] + [m.end() for m in P.LINE_SPLIT.finditer(text)]
    ctx = {bisect.bisect_right(starts, h) - 1 for h in hits}
    wanted = sorted({i + d for i in ctx for d in (-1, 0, 1) if 0 <= i + d < len(starts)})
    for i in wanted:
        o = starts[i]
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        line = text[o:end]
        af.conditions.extend((m.group(0), o + m.start()) for m in P.WEATHER_COND.finditer(line))
        if line.isascii() or any("a" <= ch.lower() <= "z" for ch in line[:200]):
            _english_weather(line, o, tf, af)
        if "℃" in line or "°" in line or "度" in line:
            spans = []
            for m in P.TEMP_RANGE.finditer(line):
                spans.append((m.start(), m.end()))
                af.temps.extend(
                    ((_signed(line, m.start(1), m.group(1)), o + m.start()), (_signed(line, m.start(2), m.group(2)), o + m.start()))
                )
            for m in P.TEMP.finditer(line):
                if any(s <= m.start() < e for s, e in spans):
                    continue
                if P.TEMP_DIFFERENCE_BEFORE.search(line, max(0, m.start() - 6), m.start()):
                    continue  # "早晚温差 15℃": a difference the answer computed, not a forecast
                af.temps.append((_signed(line, m.start(1), m.group(1)), o + m.start()))
            for value, start, _ in cn_temps(line):
                if not P.TEMP_DIFFERENCE_BEFORE.search(line, max(0, start - 6), start):
                    af.temps.append((value, o + start))  # 十三到二十八度, 零下三度
        if "风" in line:
            af.wind.extend((m.group(1), o + m.start()) for m in P.WIND_DIR.finditer(line))
        if "级" in line:
            for m in P.WIND_POWER.finditer(line):
                af.wind.append((norm_power(m.group(2), m.group(3), m.group(1)), o + m.start()))


def _signed(line: str, start: int, raw: str) -> int:
    """An Arabic temperature, negative after ``零下`` (``零下3℃`` is −3)."""
    v = int(raw)
    return -v if v > 0 and line[max(0, start - 2) : start] == "零下" else v


def _english_weather(line: str, o: int, tf: ToolFacts, af: AnswerFacts) -> None:
    taken: list[tuple[int, int]] = []
    for m in P.EN_WEATHER_COND.finditer(line):
        if P.EN_NEGATION.search(line, max(0, m.start() - 12), m.start()):
            continue  # "no rain in the forecast"
        word = " ".join(m.group(1).lower().split())
        word = word.rstrip("s") if word.endswith(("showers", "storms")) else word
        word = word.replace("thunder shower", "thundershower").replace("thunder storm", "thunderstorm")
        word = word.replace("rain storm", "rainstorm").replace("snow storm", "snowstorm")
        options = P.EN_WEATHER_MAP.get(word)
        if options:
            cond = next((c for c in options if c in tf.conditions), options[0])
            af.conditions.append((cond, o + m.start()))
            taken.append((m.start(), m.end()))
    for m in P.EN_WIND.finditer(line):
        word, lo, hi = m.group(1), m.group(2), m.group(3)
        whole = m.group(0).lower()
        if any(a <= m.start() < b for a, b in taken):
            continue
        if lo is None and "wind" not in whole and "erly" not in whole:
            continue
        if len(word) <= 2 and not word.isupper():
            continue  # "n"/"e": not a compass abbreviation
        direction = P.EN_WIND_DIRS.get(word.lower().replace("-", "").replace(" ", ""))
        if direction:
            af.wind.append((direction, o + m.start()))
        if lo is not None:
            af.wind.append((norm_power(lo, hi, None), o + m.start()))
    for m in P.EN_WIND_POWER.finditer(line):
        af.wind.append((norm_power(m.group(1), m.group(2), None), o + m.start()))


