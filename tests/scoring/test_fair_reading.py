"""Issue 12: one regression test per false-positive class the old scorer charged honest answers for.

Each test builds the smallest answer that shows the class, on the handwritten tool results of
``tool_texts``, and asserts the correct fact is not charged (and, where the class was about
matching, that it is still read). Plan-check classes 10–11 are in ``tests/verify/test_verify_honest_plans.py``.
"""

from __future__ import annotations

import json

from navworld.core.problem import Problem
from navworld.scoring.answer_facts import extract_answer_facts
from navworld.scoring.completeness import completeness, request_targets
from navworld.scoring.consistency import info_consistency
from navworld.scoring.fabrication import fabrication_penalty
from navworld.scoring.facts import extract_tool_facts
from navworld.scoring.hard import poi_names_verified, transport_grounded
from navworld.scoring.parser import parse_answer
from navworld.scoring.trace import read_trace

from . import tool_texts as T

PAD = "\n" + "以上信息均来自本次工具查询。" * 12  # past FABRICATION_MIN_LENGTH


def facts(
    calls: list[tuple[str, str]], answer: str, strict: bool = True, party: int = 1, nights: int = 1,
    request_times: frozenset[str] = frozenset(),
):
    tf = extract_tool_facts(read_trace(T.build_trace(calls)))
    pa = parse_answer(answer + PAD, blank_json=strict)
    return tf, pa, extract_answer_facts(pa, tf, party, nights, strict, request_times)


def fabricated(calls: list[tuple[str, str]], answer: str, **kw: object) -> list[str]:
    tf, pa, af = facts(calls, answer, **kw)  # type: ignore[arg-type]
    transport = transport_grounded("intercity", tf, af).detail
    return list(fabrication_penalty(pa.text, tf, af, 25.0, transport)[1]["fabricated_prices"])


def plan_block(activities: list[dict[str, object]]) -> str:
    plan = {"people_number": 2, "start_city": "杭州", "target_city": "杭州", "itinerary": [{"day": 1, "activities": activities}]}
    return "\n```json\n" + json.dumps(plan, ensure_ascii=False) + "\n```"


# 1. A hotel breakfast written as the system prompt instructs is not the hotel's nightly price.
def test_1_hotel_breakfast_at_price_zero_is_not_charged() -> None:
    hotel = "西湖国宾馆" if "西湖国宾馆" in T.POI_HOTELS else T.POI_HOTELS.split("name: ")[1].splitlines()[0]
    answer = "推荐入住" + hotel + plan_block(
        [{"type": "breakfast", "start_time": "07:30", "end_time": "08:00", "position": hotel, "price": 0, "cost": 0}]
    )
    assert fabricated([("poi_search", T.POI_HOTELS)], answer) == []


# 2. Name halves never match inside other names the tools returned (stations, roads, dishes, addresses).
def test_2_names_inside_stations_roads_dishes_and_addresses_are_not_mentions() -> None:
    calls = [("poi_search", T.POI_WEST_LAKE), ("around_search", T.AROUND_FOOD), ("direction", T.DIRECTION_TRANSIT)]
    answer = "地址：龙井路1号；乘地铁1号线到凤起路站，推荐西湖醋鱼、龙井虾仁。"
    tf, _, af = facts(calls, answer)
    assert "西湖风景名胜区" not in af.pois  # 西湖 only inside the dish 西湖醋鱼
    assert poi_names_verified(tf, af).passed is False  # an answer naming no POI does not pass


# 3. Totals, subtotals, multiples, savings, differences and budgets are derived, never charged.
def test_3_derived_amounts_are_neither_charged_nor_matched() -> None:
    calls = [("poi_search", T.POI_WEST_LAKE), ("search_train_tickets", T.TRAINS)]
    answer = "\n".join(
        [
            "# 杭州一日游（预算 3000 元）",
            "| 项目 | 明细 | 金额 |",
            "|---|---|---|",
            "| 门票 | 灵隐寺 75 + 雷峰塔 40 | 115元 |",
            "灵隐寺门票 75元，2 人需 150 元。",
            "雷峰塔门票 40元，比灵隐寺便宜 35 元（+40 元也可加一个点）。",
            "G35 二等座 626元，比 G167 贵 28 元。",
        ]
    )
    _, _, af = facts(calls, answer, party=2)
    assert fabricated(calls, answer, party=2) == []
    derived = {v for v, _ in af.derived}
    assert {115.0, 150.0, 35.0, 28.0, 3000.0} <= derived
    assert ("灵隐寺", 75.0) in {(k, v) for k, v, _ in af.prices}


# 4. A fare in the last cell of a train row belongs to that train, one rule for IC and claims.
def test_4_table_row_fare_belongs_to_its_train() -> None:
    answer = "\n".join(
        [
            "| 车次 | 出发 | 到达 | 历时 | 二等座 |",
            "|---|---|---|---|---|",
            "| G35 | 07:00 北京南站 | 11:38 杭州东站 | 4小时38分 | 626元 |",
        ]
    )
    tf, _, af = facts([("search_train_tickets", T.TRAINS)], answer)
    assert ("G35", 626.0) in {(k, v) for k, v, _ in af.prices}
    detail = transport_grounded("intercity", tf, af).detail
    assert detail["fabricated"] == 0 and detail["verified"] >= 3


# 5. The user's own deadline is a bound, not a time claim about the train.
def test_5_deadline_restated_is_not_a_transport_time() -> None:
    answer = "推荐 G35，07:00 出发，11:38 到达，满足 15:00 前到达的要求；建议 06:30 前到北京南站。"
    tf, _, af = facts([("search_train_tickets", T.TRAINS)], answer, request_times=frozenset({"15:00"}))
    assert transport_grounded("intercity", tf, af).detail["fabricated"] == 0
    assert ("15:00", answer.index("15:00")) in af.bound_times  # the request's own deadline
    assert ("06:30", answer.index("06:30")) in af.bound_times  # advice to the traveller
    # a made-up time cannot hide behind 前: only the request's bounds and advice are bounds
    fake = "推荐 G35，07:30前 出发。"
    tf, _, af = facts([("search_train_tickets", T.TRAINS)], fake, request_times=frozenset({"15:00"}))
    assert transport_grounded("intercity", tf, af).detail["fabricated"] == 1


# 6. Two correct flights of many are what "2-3 个方案" asks for (no minimum-quantity cut).
def test_6_two_correct_options_meet_the_minimum() -> None:
    many = T.FLIGHTS + "".join(
        f"航班 ZH{9000 + i}（深圳航空） {6 + i % 12:02d}:10 北京首都国际机场 → {8 + i % 12:02d}:20 杭州萧山国际机场，经济舱 {700 + i}元\n"
        for i in range(12)
    )
    answer = "航班：CA1702 07:30 起飞 860元；MU5131 10:05 起飞 720元。"
    tf, pa, af = facts([("search_flights", many)], answer)
    strict = info_consistency(tf, af, pa.text, {"flights": 2, "trains": 2}, strict=True)
    seed = info_consistency(tf, af, pa.text)
    assert strict.categories["flights"]["below_minimum"] is False
    assert seed.categories["flights"]["below_minimum"] is True


# 7. Prose words are not roads, fragments are not places.
def test_7_prose_words_are_not_roads_or_places() -> None:
    answer = "整体思路是少赶路，雨天路滑；晚上早点回酒店，1公里内的餐厅都可以。"
    _, _, af = facts([("direction", T.DIRECTION_DRIVE), ("poi_search", T.POI_HOTELS)], answer)
    assert not {r for r, _ in af.roads} & {"整体思路", "少赶路", "雨天路滑", "思路", "赶路"}
    assert not [p for p in af.ungrounded_places if "回酒店" in p or "公里内" in p]


# 8. English answers: currency first, °C and the U+2212 minus, h/min durations, compass winds.
def test_8_english_units_are_read() -> None:
    calls = [("poi_search", T.POI_WEST_LAKE), ("weather", T.WEATHER), ("direction", T.DIRECTION_DRIVE)]
    answer = (
        "Lingyin Temple (灵隐寺) admission is CNY 75 pp (¥75).\n"
        "Weather on Mar 1: sunny, 8–18 °C, wind NE 1-3. Mar 4 nights drop to −2 °C? No: 7 °C.\n"
        "The taxi ride is 6.8 km and takes 18 min; the whole loop is 1 h 30 min."
    )
    _, _, af = facts(calls, answer)
    assert ("灵隐寺", 75.0) in {(k, v) for k, v, _ in af.prices}
    assert "晴" in {c for c, _ in af.conditions}
    assert {"东北风", "1-3级"} <= {w for w, _ in af.wind}
    assert -2 in {t for t, _ in af.temps} and 18 in {t for t, _ in af.temps}
    assert {18, 90} <= {d for d, _ in af.durations}


# 9. Completeness targets follow the request's pace.
def test_9_relaxed_pace_halves_the_sights_target() -> None:
    relaxed = Problem(task_id=1, problem_type="multiday", destination_city="杭州", travel_date="2025-03-01",
                      num_days=3, constraints=["轻松休闲"], prompt="p")  # fmt: skip
    busy = relaxed.model_copy(update={"constraints": []})
    assert request_targets(relaxed)["attractions"](3) == 3
    assert request_targets(busy)["attractions"](3) == 6
    calls = [("poi_search", T.POI_WEST_LAKE)]
    answer = "第1天 上午游览灵隐寺（门票75元，07:00-18:00开放）。第2天 游览雷峰塔景区，门票40元。第3天 参观浙江省博物馆，上午开放。"
    tf, pa, af = facts(calls, answer)
    got = completeness("multiday", 3, ("poi_search",), pa, tf, af, request_targets(relaxed))[1]["attractions"]
    fixed = completeness("multiday", 3, ("poi_search",), pa, tf, af)[1]["attractions"]
    assert got > fixed
