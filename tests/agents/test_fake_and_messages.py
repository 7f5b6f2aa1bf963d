"""Scripted-model helpers and transcript normalisation."""

from __future__ import annotations

import json

from navworld.agents.fake import (
    ChatRequest,
    Conversation,
    Fault,
    GroundedPlanner,
    Reply,
    fail_first,
    find_cities,
    find_date,
)
from navworld.agents.messages import is_sufficient_answer, normalize_tool_calls, opening_messages


def test_find_cities_origin_and_destination() -> None:
    names = ["上海", "杭州", "北京"]
    assert find_cities("我从上海出发，去杭州玩", names) == ("上海", "杭州")
    assert find_cities("去杭州，从北京出发", names) == ("北京", "杭州")
    assert find_cities("想在杭州玩三天", names) == (None, "杭州")
    assert find_cities("Plan a trip to 杭州 from 上海", names) == ("上海", "杭州")
    assert find_cities("没有城市", names) == (None, None)


def test_find_date_formats() -> None:
    assert find_date("2025-05-01 出发") == "2025-05-01"
    assert find_date("2025年5月1日出发") == "2025-05-01"
    assert find_date("下周") is None


def test_planner_decides_by_content_not_order() -> None:
    planner = GroundedPlanner(cities=["上海", "杭州"])
    opening = [{"role": "user", "content": "我从上海出发，2025-05-01 去杭州玩"}]
    tools = [{"type": "function"}]
    first = planner(ChatRequest("m", opening, tools=tools))
    assert isinstance(first, Reply) and [c["function"]["name"] for c in first.tool_calls] == ["poi_search"] * 3
    # The same conversation always gives the same decision (retries are idempotent).
    assert planner(ChatRequest("m", opening, tools=tools)) == first
    # Pretend the POI searches succeeded: the next move is weather + transport.
    convo = [*opening, {"role": "assistant", "content": None, "tool_calls": list(first.tool_calls)}]
    convo += [{"role": "tool", "tool_call_id": c["id"], "content": "西湖 120.155123,30.274456"} for c in first.tool_calls]
    second = planner(ChatRequest("m", convo, tools=tools))
    names = [c["function"]["name"] for c in second.tool_calls]
    assert names == ["weather", "search_train_tickets", "search_flights"]
    assert json.loads(second.tool_calls[1]["function"]["arguments"]) == {
        "date": "2025-05-01",
        "from_city": "上海",
        "to_city": "杭州",
    }
    # With tools off it always answers with text.
    answer = planner(ChatRequest("m", convo, tools=None))
    assert isinstance(answer, Reply) and not answer.tool_calls and len(answer.content or "") >= 200


def test_fail_first_counts_per_conversation_state() -> None:
    script = fail_first(lambda r: Reply(content="ok"), status=503, times=1)
    a = ChatRequest("m", [{"role": "user", "content": "a"}])
    b = ChatRequest("m", [{"role": "user", "content": "b"}])
    assert isinstance(script(a), Fault) and isinstance(script(b), Fault)
    assert script(a) == Reply(content="ok") and script(b) == Reply(content="ok")


def test_conversation_tracks_tool_exchanges() -> None:
    convo = Conversation(
        [
            {"role": "user", "content": "q"},
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "1", "type": "function", "function": {"name": "weather", "arguments": "{}"}},
                    {"id": "2", "type": "function", "function": {"name": "poi_search", "arguments": "{"}},
                ],
            },
            {"role": "tool", "tool_call_id": "1", "content": "晴 25℃"},
            {"role": "tool", "tool_call_id": "2", "content": "错误：参数不是合法的 JSON"},
        ]
    )
    assert convo.called_ok("weather") and not convo.called_ok("poi_search")
    assert [e.name for e in convo.errors()] == ["poi_search"]
    assert not convo.final_prompt_sent


def test_normalize_tool_calls_shapes() -> None:
    calls = normalize_tool_calls(
        [
            {"id": "a", "type": "function", "function": {"name": "weather", "arguments": {"city": "杭州"}}},
            {"name": "poi_search", "arguments": '{"address": "西湖"}'},
            {"id": "a", "function": {"name": "direction", "arguments": None}},
            "garbage",
        ],
        prefix="call_3",
    )
    assert [c["id"] for c in calls] == ["a", "call_3_1", "call_3_2", "call_3_3"]
    assert calls[0]["function"]["arguments"] == '{"city": "杭州"}'
    assert calls[1]["function"] == {"name": "poi_search", "arguments": '{"address": "西湖"}'}
    assert calls[2]["function"]["arguments"] == ""
    assert calls[3]["function"]["name"] == ""
    assert normalize_tool_calls(None) == [] and normalize_tool_calls([]) == []


def test_answer_sufficiency_and_opening() -> None:
    assert not is_sufficient_answer(None) and not is_sufficient_answer(" " * 300)
    assert is_sufficient_answer("字" * 200) and not is_sufficient_answer("字" * 199)
    assert opening_messages("", "hi") == [{"role": "user", "content": "hi"}]
    assert opening_messages("sys", "hi")[0] == {"role": "system", "content": "sys"}
