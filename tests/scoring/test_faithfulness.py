"""Scorer s2's faithfulness factor, derived amounts that must check out, and the echo factor on the
total (issue 13, second round): each rule charges a made-up claim and never a correct one."""

from __future__ import annotations

import pytest

from navworld.scoring import config as C
from navworld.scoring.echo import echo_total_factor
from navworld.scoring.facts import extract_tool_facts
from navworld.scoring.faithful import faithfulness
from navworld.scoring.hard import transport_grounded
from navworld.scoring.trace import read_trace

from . import tool_texts as T
from .test_fair_reading import facts

TRAIN_CALLS = [("search_train_tickets", T.TRAINS)]
POI_CALLS = [("poi_search", T.POI_WEST_LAKE)]


def faith(calls: list[tuple[str, str]], answer: str, **kw: object) -> tuple[float, dict]:
    tf, pa, af = facts(calls, answer, **kw)  # type: ignore[arg-type]
    detail = transport_grounded("intercity", tf, af).detail
    return faithfulness(tf, af, detail, 2, pa.json_span[0] if pa.json_span else -1)


def test_correct_and_rounded_fares_are_not_contradictions() -> None:
    factor, detail = faith(TRAIN_CALLS, "推荐 G35，二等座 626元；或 G167 二等座约 600元。")
    assert factor == 1.0, detail
    assert detail["by_kind"]["prices"] == {"checked": 2, "contradicted": 0}


def test_a_fare_the_seed_tolerance_hides_is_a_contradiction() -> None:
    # 660 is within the seed's ±15 % of 626 (transport_grounded verifies it) but no fare of G35
    tf, _, af = facts(TRAIN_CALLS, "推荐 G35，二等座 660元。")
    assert transport_grounded("intercity", tf, af).detail["fabricated"] == 0
    factor, detail = faith(TRAIN_CALLS, "推荐 G35，二等座 660元。")
    assert detail["by_kind"]["prices"]["contradicted"] == 1
    assert factor == pytest.approx(1 - 1 / (1 + C.FAITH_PRIOR), abs=1e-4)


def test_one_slip_costs_little_every_price_made_up_a_lot() -> None:
    honest = "灵隐寺门票 75元，雷峰塔门票 40元。G35 二等座 626元，G167 二等座 598元。"
    one_slip = honest.replace("40元", "55元")
    all_made_up = "灵隐寺门票 95元，雷峰塔门票 55元。G35 二等座 680元，G167 二等座 640元。"
    calls = POI_CALLS + TRAIN_CALLS
    f_honest, f_slip, f_all = (faith(calls, a)[0] for a in (honest, one_slip, all_made_up))
    assert f_honest == 1.0
    assert 0.8 < f_slip < 1.0
    assert f_all <= 0.5  # 4 of 4: 1 − 4 / (4 + 4)


def test_a_marked_amount_that_is_no_arithmetic_is_its_entitys_claim() -> None:
    _, _, af = facts(POI_CALLS, "灵隐寺门票约合 95元。")
    assert ("灵隐寺", 95.0) in {(k, v) for k, v, _ in af.prices}
    assert 95.0 not in {v for v, _ in af.derived}


def test_real_arithmetic_stays_derived() -> None:
    answer = "G35 二等座 626元，G167 二等座 598元，往返共 1224元；灵隐寺门票 75元，2 人共 150元。"
    calls = POI_CALLS + TRAIN_CALLS
    _, _, af = facts(calls, answer, party=2)
    assert {1224.0, 150.0} <= {v for v, _ in af.derived}
    assert faith(calls, answer, party=2)[0] == 1.0


def test_made_up_amounts_do_not_make_each_other_derivable() -> None:
    # 95 = 75 + 20 only through another made-up amount of the answer (打车 20元 is no tool price)
    _, _, af = facts(POI_CALLS, "打车约 20元。\n灵隐寺门票约合 95元。")
    assert 95.0 not in {v for v, _ in af.derived}


def test_clock_times_on_the_line_take_no_part_in_its_arithmetic() -> None:
    # 13 + 15 = 28 only from the clock times 13:55–15:25
    _, _, af = facts(POI_CALLS, "13:55–15:25 游览灵隐寺（门票约合 28元）")
    assert ("灵隐寺", 28.0) in {(k, v) for k, v, _ in af.prices}


def test_a_total_of_its_own_phrase_is_nobodys_price() -> None:
    answer = "去程 G35，往返 1224元，全天花费 1500元。"
    _, _, af = facts(TRAIN_CALLS, answer)
    assert 1500.0 in {v for v, _ in af.derived}
    assert faith(TRAIN_CALLS, answer)[0] == 1.0


def test_weather_without_any_forecast_is_unsupported() -> None:
    answer = "当天小雨，气温 14℃，记得带伞。"
    assert faith([("weather", T.WEATHER)], answer)[0] == 1.0
    factor, detail = faith(POI_CALLS, answer)
    assert detail["by_kind"]["weather"]["contradicted"] == 2
    assert factor == pytest.approx(1 - 2 / (2 + C.FAITH_PRIOR), abs=1e-4)


def test_a_number_reused_by_the_return_run_is_checked_against_both_runs() -> None:
    back = T.TRAINS.replace("北京 → 杭州", "杭州 → 北京").replace(
        "07:00 北京南站 → 11:38 杭州东站，历时 4小时38分，二等座 626元",
        "17:10 杭州东站 → 21:52 北京南站，历时 4小时42分，二等座 631元",
    )
    calls = [("search_train_tickets", T.TRAINS), ("search_train_tickets", back)]
    tf = extract_tool_facts(read_trace(T.build_trace(calls)))
    assert len(tf.runs_of("G35")) == 2
    answer = "去程 G35 07:00 出发，二等座 626元；返程 G35 17:10 出发，21:52 到达，二等座 631元。"
    factor, detail = faith(calls, answer)
    assert factor == 1.0, detail


def test_echo_factor_spares_honest_shares_and_sinks_dumps() -> None:
    assert echo_total_factor(0.0) == echo_total_factor(0.19) == echo_total_factor(C.ECHO_TOTAL_START) == 1.0
    assert echo_total_factor(0.5) == pytest.approx(1 - (1 - C.ECHO_TOTAL_MIN) * 0.5)
    assert echo_total_factor(0.96) == C.ECHO_TOTAL_MIN


def test_opening_hours_are_checked_against_the_hours_of_their_own_place() -> None:
    """灵隐寺 opens 07:00-18:00 and 西湖 00:00-24:00: 灵隐寺's hours given as 00:00-24:00 are another
    place's times, which the set of all the tools' times would let through."""
    right, _ = faith(POI_CALLS, "灵隐寺开放时间 07:00-18:00，西湖风景名胜区全天开放 00:00-24:00。")
    assert right == 1.0
    factor, detail = faith(POI_CALLS, "灵隐寺开放时间 00:00-24:00。")
    assert detail["by_kind"]["opening"]["contradicted"] == 2, detail
    assert factor < 1.0
    # a reference point before the time is not the place whose hours they are
    ref, detail = faith(POI_CALLS, "灵隐寺（距西湖风景名胜区 2 公里），开放时间 07:00-18:00。")
    assert ref == 1.0, detail
