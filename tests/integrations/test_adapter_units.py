"""Units of the adapters' shared parts: the Responses-item parser (property-based), task lists,
the scoring pass-through."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from navworld.core.errors import ConfigError
from navworld.integrations.common import make_actor, task_list
from navworld.server.responses_items import (
    ItemError,
    input_messages,
    output_items,
    response_object,
    stream_events,
)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)
ITEM = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["message", "function_call", "function_call_output", "reasoning", "x"]) | JSON,
    "role": st.sampled_from(["user", "assistant", "system", "developer", "tool"]) | JSON,
    "content": JSON, "call_id": JSON, "name": JSON, "arguments": JSON, "output": JSON,
})


@settings(max_examples=300, deadline=None)
@given(instructions=JSON, items=st.lists(ITEM, max_size=6) | JSON)
def test_input_messages_never_fails_but_with_item_error(instructions: Any, items: Any) -> None:
    try:
        messages = input_messages(instructions, items)
    except ItemError as exc:
        assert str(exc)
        return
    for m in messages:
        assert m["role"] in ("system", "user", "assistant", "tool")
        for call in m.get("tool_calls", []):
            assert isinstance(call["id"], str) and isinstance(call["function"]["arguments"], str)


def test_input_messages_round_trip() -> None:
    items = [
        {"role": "user", "content": [{"type": "input_text", "text": "plan "}, {"type": "input_text", "text": "T1"}]},
        {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": '{"city": "杭州"}'},
        {"type": "function_call", "call_id": "c2", "name": "poi_search", "arguments": '{"address": "西湖"}'},
        {"type": "function_call_output", "call_id": "c1", "output": "weather：…"},
        {"type": "function_call_output", "call_id": "c2", "output": [{"type": "input_text", "text": "poi_search：…"}]},
        {"type": "reasoning", "summary": []},
    ]
    messages = input_messages("sys", items)
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "tool"]
    assert messages[1]["content"] == "plan T1"
    assert [c["id"] for c in messages[2]["tool_calls"]] == ["c1", "c2"]
    assert messages[4] == {"role": "tool", "tool_call_id": "c2", "content": "poi_search：…"}
    calls = messages[2]["tool_calls"]
    out = output_items(None, calls, "msg_1")
    assert [(o["type"], o["call_id"], o["name"]) for o in out] == [("function_call", "c1", "weather"),
                                                                   ("function_call", "c2", "poi_search")]
    response = response_object("resp_1", "m", {"tools": []}, output_items("answer " * 200, [], "msg_2"))
    events = stream_events(response)
    kinds = [k for k, _ in events]
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
    assert "".join(d["delta"] for k, d in events if k == "response.output_text.delta") == "answer " * 200
    assert [d["sequence_number"] for _, d in events] == list(range(len(events)))


def test_task_lists() -> None:
    assert task_list(None) == list(range(70))
    assert task_list("0:3") == [0, 1, 2] and task_list(5) == [5] and task_list([3, 1]) == [3, 1]
    for bad in ("", "x", [], [-1], True):
        with pytest.raises(ConfigError):
            task_list(bad)  # type: ignore[arg-type]


def test_scoring_is_passed_through() -> None:
    from navworld.scoring.scorer import TravelScorer

    assert make_actor(salt="s").scorer is not None
    if "profile" not in inspect.signature(TravelScorer).parameters:
        with pytest.raises(ConfigError, match="single profile"):
            make_actor(salt="s", scoring="seed")
    else:  # the scorer with profiles (scorer_version s2)
        assert make_actor(salt="s", scoring="seed").scorer is not None
