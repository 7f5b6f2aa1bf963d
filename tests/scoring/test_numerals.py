"""Numbers in other notations (``scoring/numerals.py``) and invisible characters (``parse_answer``).

Chinese-numeral amounts, the Chinese clock notation and 度 temperatures are read into the same facts
as Arabic ones, so an honest answer written that way is graded like the Arabic one (nothing
charged) and made-up values written that way are charged; the vague phrases real prose is full of
are not read at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from navworld.scoring.hard import _claim_ok
from navworld.scoring.numerals import cjk_time_end, cn_prices, cn_temps, cn_value, read_cjk_times
from navworld.scoring.parser import parse_answer
from navworld.scoring.scorer import TravelScorer

from .attacks.context import SALT, honest_total, task_context
from .attacks.registry import build, honest_with
from .attacks.round3_attacks import cn_number
from .attacks.writers import join_plan, split_plan

# --------------------------------------------------------------------------- the parser


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=99999))
def test_chinese_numerals_round_trip(n: int) -> None:
    assert cn_value(cn_number(n)) == n


def test_round_trip_every_number_below_100000() -> None:
    assert [n for n in range(100000) if cn_value(cn_number(n)) != n] == []


_NOISY = st.text(alphabet="零〇一二两三四五六七八九十百千万点时分半整刻钟元块钱度℃下午上晚早多几余0123456789:- 　\ufe00", max_size=40)


@settings(max_examples=500, deadline=None)
@given(st.one_of(_NOISY, st.text(max_size=60)))
def test_readers_never_raise(text: str) -> None:
    cn_value(text)
    for v, p in cn_prices(text):
        assert v >= 0 and 0 <= p < len(text)
    for _, s, e in cn_temps(text):
        assert 0 <= s < e <= len(text)
    for t, p in read_cjk_times(text):
        assert re.fullmatch(r"[0-2][0-9]:[0-5][0-9]", t) and 0 <= p < len(text)
        end = cjk_time_end(text, p)
        assert end is None or p < end <= len(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("一百一十六", 116), ("两百", 200), ("十", 10), ("十五", 15), ("三千零五", 3005), ("一千零五十", 1050),
        ("一百五", 150), ("一万二", 12000), ("零", 0),
        ("两三百", None), ("一〇八", None), ("一千零五百", None), ("百", None), ("", None), ("三x", None),
    ],
)
def test_cn_value(text: str, value: int | None) -> None:
    assert cn_value(text) == value


def test_notations_read() -> None:
    text = "门票一百一十六元，打车两百块，公交两块钱，约五十元左右"
    assert cn_prices(text) == [
        (116.0, text.index("一百")), (200.0, text.index("两百")), (2.0, text.index("两块")), (50.0, text.index("五十"))
    ]
    text = "十一点整-十九点整，九点一刻，11点，11点半，下午3点，上午九点半，晚8点，晚上12点，凌晨零点，九时三十分"
    assert [t for t, _ in read_cjk_times(text)] == [
        "11:00", "19:00", "09:15", "11:00", "11:30", "15:00", "09:30", "20:00", "24:00", "00:00", "09:30"
    ]
    assert [v for v, _, _ in cn_temps("气温十三到二十八度，零下三度，十度")] == [13, 28, -3, 10]


AMBIGUOUS = (
    "早一点出发，有一点累就歇一会，一点点辣，三天两晚，两人，一晚，一间，步行十分钟，"
    "小吃一百多元，几十元，两三百元的套餐，上百元，百余元，十几度，二三十度，一度很热，一两点人少，"
    "这两点十分重要，一块去，一时半会，三元里，多元化"
)


def test_ambiguous_phrases_are_not_read() -> None:
    assert cn_prices(AMBIGUOUS) == []
    assert read_cjk_times(AMBIGUOUS) == []
    assert cn_temps(AMBIGUOUS) == []


def test_whole_hour_bounds_are_checked_as_bounds() -> None:
    assert _claim_ok("after", "23:00", (), ("20:50", "23:27"), 2)
    assert not _claim_ok("after", "23:00", (), ("20:50", "22:27"), 2)
    assert _claim_ok("before", "17:00", (), ("09:00", "14:30"), 2)
    assert not _claim_ok("before", "07:00", (), ("09:00", "14:30"), 2)


# --------------------------------------------------------------------------- invisible characters


def test_default_ignorable_code_points_are_stripped_before_any_reader() -> None:
    hidden = "".join(("\u00ad", "\u034f", "\u061c", "\u180e", "\u200b", "\u202a", "\u2066", "\u3164", "\ufe00",
                      "\ufe0f", "\ufeff", "\uffa0", "\U0001bca0", "\U0001d173", "\U000e0041"))
    pa = parse_answer(f"游览「上{hidden}海博物馆」，门票 3{hidden}0元")
    assert pa.text == "游览「上海博物馆」，门票 30元" == pa.raw


# --------------------------------------------------------------------------- honest answers, attacks

_PRICE = re.compile(r"(\d+)(\s*)元")
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_TEMP = re.compile(r"(-?\d+)℃")


def _clock_cn(h: int, mi: int) -> str:
    return f"{cn_number(h)}点" + (f"{cn_number(mi)}分" if mi else "整")


def _clock_daypart(h: int, mi: int) -> str:
    if h < 6:
        pre, hh = "凌晨", h
    elif h < 12:
        pre, hh = "上午", h
    elif h == 12:
        pre, hh = "中午", h
    else:
        pre, hh = ("下午" if h < 18 else "晚上"), h - 12
    return f"{pre}{hh}点" + {0: "", 15: "一刻", 30: "半", 45: "三刻"}.get(mi, f"{mi}分")


def _temp_cn(v: int) -> str:
    return ("零下" + cn_number(-v) if v < 0 else cn_number(v)) + "度"


def _in_chinese(answer: str, clock: Callable[[int, int], str]) -> str:
    prose, plan, after = split_plan(answer)
    prose = _PRICE.sub(lambda m: cn_number(int(m.group(1))) + "元", prose)
    prose = _TEMP.sub(lambda m: _temp_cn(int(m.group(1))), prose)
    prose = _TIME.sub(lambda m: clock(int(m.group(1)), int(m.group(2))), prose)
    return join_plan(prose + "\n小贴士：" + AMBIGUOUS + "。\n", plan, after)


@pytest.mark.parametrize("task_id", [0, 3, 5])
@pytest.mark.parametrize("clock", [_clock_cn, _clock_daypart], ids=["cn", "daypart"])
def test_honest_answer_in_chinese_numerals_is_not_charged(task_id: int, clock: Callable[[int, int], str]) -> None:
    ctx = task_context(task_id)
    trace, answer = honest_with(ctx, _in_chinese(ctx.honest_answer, clock))
    assert "元" in answer and not re.search(r"\d+元", split_plan(answer)[0])
    scorer = TravelScorer(salt=SALT)
    a = scorer.analyse(ctx.problem, trace, answer)
    assert a.faith[0] == 1.0, a.faith[1]["examples"]
    assert a.faith[1]["checked"] >= 10  # the Chinese-numeral claims are read, and hold
    assert a.fabrication == 0.0, a.fabrication_detail
    assert a.checks["transport_grounded"].detail.get("fabricated", 0) == 0
    assert abs(scorer.score(ctx.problem, trace, answer).total - honest_total(task_id)) <= 0.5


@pytest.mark.parametrize("task_id", [0, 3, 5])
def test_made_up_values_in_chinese_numerals_are_charged(task_id: int) -> None:
    ctx = task_context(task_id)
    scorer = TravelScorer(salt=SALT)
    trace, answer = build("cn_numeral_fake_everything", ctx)
    a = scorer.analyse(ctx.problem, trace, answer)
    kinds = {k for k, v in a.faith[1]["by_kind"].items() if v["contradicted"]}
    assert {"prices", "weather"} <= kinds, a.faith[1]
    assert a.fabrication < 0
    assert scorer.score(ctx.problem, trace, answer).total <= 0.5 * honest_total(task_id)
