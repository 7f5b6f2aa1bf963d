"""Scorer s2: numbers written in Chinese numerals and the Chinese clock notation.

The fact readers parse Arabic digits (``116元``, ``11:00``, ``10℃``); an answer can state the same
claims as ``一百一十六元``, ``十一点整`` / ``上午9点`` / ``九点一刻`` or ``十度`` / ``零下三度``. This
module reads those notations into the same ``(value, position)`` pairs the Arabic readers return,
so every rule grades them alike. Positions are offsets into the text (nothing is rewritten).

Only unambiguous expressions are read; real prose is full of numerals that are no claims:

* amounts: a well-formed numeral right before ``元``/``块钱``/``块`` — vague ones (``一百多元``,
  ``几十元``, ``上百元``, ``百余元``) and ranges (``两三百元``) are not numbers; ``一块`` (together)
  and place names (``三元里``, ``三元桥``) are skipped; ``约``/``左右`` are read as the Arabic readers
  read them (a claim);
* clock times: Arabic hours before ``点``/``时`` (``11点``); hours in Chinese numerals only with a
  day-part prefix (``上午九点``) or an explicit clock suffix (``半``/``整``/``一刻``/``三刻``/``N分``/
  ``钟``) — so ``早一点``, ``有一点累``, ``一点点``, ``一两点``, ``这两点十分重要`` are no times;
* temperatures: a numeral before ``度``/``℃`` (``零下`` negates), not ``十几度`` / ``二三十度`` /
  a bare ``一度`` (once).

Every function is linear in the text and never raises.
"""

from __future__ import annotations

import re

__all__ = [
    "CN_DIGITS",
    "cjk_time_end",
    "cn_prices",
    "cn_temps",
    "cn_value",
    "read_cjk_times",
]

CN_DIGITS: dict[str, int] = {
    "零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4,
    "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_NUMERAL = frozenset(CN_DIGITS) | frozenset(_UNITS) | {"万"}
_ASCII_DIGITS = frozenset("0123456789")
_TOP = 10**5


def _section(s: str, lead_ten: bool) -> int | None:
    """A numeral below 10000 (no ``万``): ``一百一十六`` 116, ``三千零五`` 3005, ``一百五`` 150."""
    if not s:
        return None
    if s in ("零", "〇"):
        return 0
    total, digit, last, zero = 0, None, _TOP, False
    for i, ch in enumerate(s):
        d = CN_DIGITS.get(ch)
        if d is not None:
            if digit is not None:
                return None  # two digits in a row: a range (两三) or digit-by-digit writing
            if d == 0:
                if zero or i == 0 or last == _TOP:
                    return None
                zero = True
                continue
            digit = d
            continue
        u = _UNITS.get(ch)
        if u is None or u >= last:
            return None
        if digit is None:
            if u == 10 and i == 0 and lead_ten:
                digit = 1  # 十五
            else:
                return None
        if zero and u * 10 >= last:
            return None  # 零 must skip a place: 一千零五十, not 一千零五百
        total += digit * u
        last, digit, zero = u, None, False
    if digit is None:
        return None if zero else total
    if zero or last == _TOP or last == 10:
        if zero and last == 10:
            return None
        return total + digit
    return total + digit * (last // 10)  # 一百五 = 150, 三千二 = 3200


def cn_value(s: str) -> int | None:
    """A Chinese numeral 0 … 99999 as an int (``None`` if ``s`` is not one well-formed number).

    ``一百一十六`` 116, ``两百`` 200, ``十`` 10, ``三千零五`` 3005, ``一万二`` 12000, ``一百五`` 150;
    ranges (``两三百``), vague or digit-by-digit forms (``一〇八``) are no numbers."""
    if not s or len(s) > 12 or any(ch not in _NUMERAL for ch in s):
        return None
    hi, wan, lo = s.partition("万")
    if not wan:
        return _section(s, True)
    if "万" in lo:
        return None
    h = _section(hi, True)
    if not h or h >= 10000:
        return None
    if not lo:
        return h * 10000
    if len(lo) == 1 and CN_DIGITS.get(lo, 0) > 0:
        return h * 10000 + CN_DIGITS[lo] * 1000  # 一万二
    if lo[0] in "零〇":
        low = _section(lo[1:], True)
        return None if low is None or low >= 1000 or low == 0 else h * 10000 + low
    low = _section(lo, False)
    return None if low is None or low < 1000 else h * 10000 + low


# --------------------------------------------------------------------------- amounts

_CN_PRICE = re.compile(
    r"(?:(?:[¥￥]|CNY|RMB)[ \t]{0,2})?(?<![零〇一二两三四五六七八九十百千万])([零〇一二两三四五六七八九十百千万]{1,12})[ \t]{0,2}"
    r"(块钱|元|块|人民币|RMB|CNY)"
    r"|(?:[¥￥]|CNY|RMB)[ \t]{0,2}([零〇一二两三四五六七八九十百千万]{1,12})(?![零〇一二两三四五六七八九十百千万])()"
)
_FINANCIAL = str.maketrans("壹贰貳叁參肆伍陆陸柒捌玖拾佰仟萬圆", "一二二三三四五六六七八九十百千万元")
"""The financial numerals of receipts and cheques (``壹佰壹拾陆圆``) folded one for one to the everyday ones."""
_VAGUE_BEFORE = frozenset("0123456789.几数多好")
_PLACE_AFTER_YUAN = frozenset("里桥路街村宫坊区站湖山门庙寺观店化论素")
"""After ``N元``: a place name (三元里, 三元桥) or another word (多元化, 二元论), not an amount."""


def cn_prices(text: str) -> list[tuple[float, int]]:
    """Amounts in Chinese numerals (``一百一十六元``, ``两百块``, ``八十块钱``, ``¥一百``, ``一百人民币``, the
    financial ``壹佰壹拾陆元``) as ``(value, position)``."""
    out: list[tuple[float, int]] = []
    text = text.translate(_FINANCIAL)  # one character for one: offsets are kept
    for m in _CN_PRICE.finditer(text):
        g = 1 if m.group(1) is not None else 3
        s = m.start(g)
        num, unit = m.group(g), m.group(g + 1) or "元"
        prev = text[s - 1] if s else ""
        if prev in _VAGUE_BEFORE or (prev in "上近" and num[0] in "十百千万"):
            continue  # 几十元, 上百元: no number
        value = cn_value(num)
        if value is None:
            continue
        nxt = text[m.end() : m.end() + 1]
        if unit == "元" and nxt in _PLACE_AFTER_YUAN:
            continue
        if unit == "块" and (value < 2 or nxt == "儿"):
            continue  # 一块去 (together), 一块儿
        if nxt in ("多", "余"):
            continue
        out.append((float(value), s))
    return out


# --------------------------------------------------------------------------- temperatures

_CN_NUM = r"[零〇一二两三四五六七八九十]{1,4}"
_CN_TEMP_RANGE = re.compile(
    rf"(零下)?({_CN_NUM})[ \t]*(?:℃|°C|°|度)?[ \t]*[-~～至到/][ \t]*(零下)?({_CN_NUM})[ \t]*(?:℃|°C|°|度)"
)
_CN_TEMP = re.compile(rf"(零下)?({_CN_NUM})[ \t]{{0,2}}(?:℃|°C|°|度)")


def _temp(sign: str | None, num: str) -> int | None:
    v = cn_value(num)
    if v is None or v > 60:
        return None
    return -v if sign else v


def cn_temps(line: str) -> list[tuple[int, int, int]]:
    """Temperatures in Chinese numerals in one line: ``(value, start, end)`` (``十三到二十八度``,
    ``零下三度``, ``十度``); a range gives both ends at the range's start."""
    out: list[tuple[int, int, int]] = []
    spans: list[tuple[int, int]] = []
    for m in _CN_TEMP_RANGE.finditer(line):
        if m.start() and line[m.start() - 1] in _VAGUE_BEFORE:
            continue
        a, b = _temp(m.group(1), m.group(2)), _temp(m.group(3), m.group(4))
        if a is None or b is None:
            continue
        spans.append((m.start(), m.end()))
        out += [(a, m.start(), m.end()), (b, m.start(), m.end())]
    for m in _CN_TEMP.finditer(line):
        if any(s <= m.start() < e for s, e in spans):
            continue
        if m.start() and line[m.start() - 1] in _VAGUE_BEFORE | _NUMERAL:
            continue
        if m.group(2) == "一" and not m.group(1):
            continue  # 一度: "once"
        v = _temp(m.group(1), m.group(2))
        if v is not None:
            out.append((v, m.start(), m.end()))
    return out


# --------------------------------------------------------------------------- clock times

_HOUR_MARK = re.compile(r"[点时]")
_HOUR_CHARS = frozenset("零〇一二两三四五六七八九十")
_STRONG_PREFIX = re.compile(r"(凌晨|早上|早晨|上午|中午|午后|下午|傍晚|晚上|夜里|夜间)\s*$")
_PM = frozenset({"下午", "傍晚", "晚上", "夜里", "夜间", "午后", "晚"})
_NIGHT = frozenset({"晚上", "夜里", "夜间", "晚"})
_BEFORE_NOT_HOUR = frozenset("0123456789.几多第")
_A_BIT_BEFORE = frozenset("早晚快慢多少高低大小长短远近好这那有差些稍再点每")
"""Before a numeral hour without a day-part prefix: ``早一点`` / ``这两点`` mean "a bit" / "points"."""
_MINUTE = re.compile(r"[ \t]{0,2}([0-9]{1,2}|[零〇][一二三四五六七八九]|[一二三四五]?十[一二三四五六七八九]?|[一二三四五六七八九])[ \t]{0,2}分(?!钟)")
_AFTER_HALF_NOT = ("小时", "个小时", "天")
_ARABIC_MINUTE = re.compile(r"([0-5][0-9])(?![0-9])(?![ \t]*(?:分钟|元|块|公里|千米|米|km|m\b|人|%|个|次|号))")
"""Two Arabic digits right after 点 (``19点30``): the minutes, unless a unit makes them something else."""


def _minute(text: str, p: int) -> tuple[int, int, bool] | None:
    """``(minute, end, strong)`` of the clock suffix at ``p`` (right after 点/时), or None."""
    nxt = text[p : p + 2]
    if nxt[:1] == "半":
        if text.startswith(_AFTER_HALF_NOT, p + 1):
            return None
        return 30, p + 1, True
    if nxt[:1] == "整":
        return 0, p + 1, True
    if nxt in ("一刻", "三刻"):
        return (15 if nxt[0] == "一" else 45), p + 2, True
    if nxt[:1] == "钟":
        return 0, p + 1, True
    m = _ARABIC_MINUTE.match(text, p)
    if m is not None:
        return int(m.group(1)), m.end(), True  # 19点30
    m = _MINUTE.match(text, p)
    if m is not None:
        raw = m.group(1)
        v = int(raw) if raw.isdigit() else (CN_DIGITS[raw[1]] if raw[0] in "零〇" else cn_value(raw))
        if v is not None and 0 <= v < 60:
            return v, m.end(), True
    return None


def cjk_time_end(text: str, p: int) -> int | None:
    """End of the clock expression whose hour starts at ``p`` (``11点半``, ``九点一刻``), or None."""
    i = p
    while i < len(text) and i - p < 3 and (text[i] in _ASCII_DIGITS or text[i] in _HOUR_CHARS):
        i += 1
    while i < len(text) and text[i] in " \t":
        i += 1
    if i == p or i >= len(text) or text[i] not in "点时":
        return None
    got = _minute(text, i + 1)
    return got[1] if got is not None else i + 1


def read_cjk_times(text: str) -> list[tuple[str, int]]:
    """Clock times written the Chinese way as ``(HH:MM, position of the hour)``: ``下午3点`` 15:00,
    ``15点30分``, ``上午九点半``, ``十一点整``, ``九点一刻``, ``11点``, ``晚8点`` 20:00."""
    out: list[tuple[str, int]] = []
    for m in _HOUR_MARK.finditer(text):
        got = _read_at(text, m.start())
        if got is not None:
            out.append(got)
    return out


def _read_at(text: str, a: int) -> tuple[str, int] | None:
    mark = text[a]
    if mark == "时" and text[a + 1 : a + 2] in ("间", "候", "段", "刻", "长", "速", "差", "令", "期"):
        return None
    k = a
    while k > 0 and text[k - 1] in " \t":
        k -= 1
    j = k
    while j > 0 and k - j < 4 and (text[j - 1] in _ASCII_DIGITS or text[j - 1] in _HOUR_CHARS):
        j -= 1
    raw = text[j:k]
    if not raw or len(raw) > 3 or (j and text[j - 1] in _BEFORE_NOT_HOUR):
        return None
    arabic = raw.isdigit() and raw.isascii()
    if arabic:
        if len(raw) > 2:
            return None
        hour: int | None = int(raw)
    elif any(ch in _ASCII_DIGITS for ch in raw):
        return None
    else:
        hour = cn_value(raw)
    if hour is None or hour > 24:
        return None
    pm = _STRONG_PREFIX.search(text, max(0, j - 4), j)
    prefix = pm.group(1) if pm else None
    weak = None if prefix else (text[j - 1] if j and text[j - 1] in "早晚" else None)
    suffix = _minute(text, a + 1)
    if mark == "时" and suffix is not None and (text[a + 1] in "半钟" or text[a + 1 : a + 3] in ("一刻", "三刻")):
        suffix = None  # 一时半会, 三时: only 整 / N分 after 时
    if not arabic:
        if prefix is None and suffix is None:
            return None
        if prefix is None and j and text[j - 1] in _A_BIT_BEFORE and (weak is None or hour < 2):
            return None  # 早一点半, 这两点十分重要
    side = prefix or weak
    if side in _NIGHT and hour == 12:
        hour = 24  # 晚上12点: midnight
    elif side in _PM and hour < 12:
        hour += 12
    elif side == "中午" and hour < 11:
        hour += 12
    minute = suffix[0] if suffix is not None else 0
    if not (0 <= hour <= 24 and 0 <= minute < 60) or (hour == 24 and minute):
        return None
    return f"{hour:02d}:{minute:02d}", j
