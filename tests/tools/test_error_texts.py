"""The error texts a model reads, pinned word for word (docs/tool-output.md), in zh and en episodes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from navworld.agents.executor import CallToolExecutor
from navworld.agents.messages import step_limit_text, too_many_calls_text
from navworld.tools.budget import ToolBudget
from navworld.tools.hints import ARGUMENT_EXAMPLES, json_error_reason
from navworld.tools.registry import TOOL_NAMES, call_tool, get_tool
from navworld.world.sandbox import SandboxWorld

WORLD = SandboxWorld("2900")


def test_every_tool_has_a_valid_example_of_its_own() -> None:
    assert set(ARGUMENT_EXAMPLES) == set(TOOL_NAMES)
    for name, example in ARGUMENT_EXAMPLES.items():
        get_tool(name).args_model.model_validate(example)  # raises if the example is wrong
    assert set(ARGUMENT_EXAMPLES["poi_search"]) == {"address", "region"}


async def test_budget_error_names_the_task_scope() -> None:
    budget = ToolBudget({"weather": 1})
    first = await call_tool("weather", '{"city": "杭州"}', WORLD, budget=budget)
    assert first.ok
    over = await call_tool("weather", '{"city": "杭州"}', WORLD, budget=budget)
    assert over.text == "错误：本任务 weather 调用次数已达上限（1 次），请利用已有结果继续作答。"
    assert "本回合" not in over.text


async def test_malformed_json_hint_shows_position_context_and_the_tools_own_example() -> None:
    result = await call_tool("poi_search", '{"address": "西湖" "region": "杭州"}', WORLD)
    assert result.text == (
        "错误：参数不是合法的 JSON：第 1 行第 18 列（第 18 个字符）此处缺少逗号 ,（Expecting ',' delimiter），"
        '附近内容「…ress": "西湖" ⟨此处⟩"region": "杭…」。请传入一个 JSON 对象，例如 {"address": "西湖", "region": "杭州"}'
    )
    assert '{"city": "杭州"}' not in result.text  # the wrong example of the old hint


@pytest.mark.parametrize("name", TOOL_NAMES)
async def test_each_tool_shows_its_own_example(name: str) -> None:
    result = await call_tool(name, "{not json", WORLD)
    assert not result.ok
    assert result.text.startswith("错误：参数不是合法的 JSON：第 1 行第 2 列（第 2 个字符）")
    assert result.text.endswith("例如 " + json.dumps(ARGUMENT_EXAMPLES[name], ensure_ascii=False))


async def test_multi_line_arguments_name_line_and_column() -> None:
    text = '{"date": "2025-05-01",\n "from_city": "北京",}'
    result = await call_tool("search_flights", text, WORLD)
    assert "第 2 行第 20 列（第 43 个字符）此处应为双引号括起的参数名" in result.text
    assert "\n" not in result.text  # one line: the newline near the error is shown as ⏎


async def test_non_object_arguments_get_the_example_too() -> None:
    result = await call_tool("direction", "[1, 2]", WORLD)
    assert result.text == (
        "错误：参数必须是 JSON 对象，收到 list，例如 "
        + json.dumps(ARGUMENT_EXAMPLES["direction"], ensure_ascii=False)
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_episode_texts_in_both_languages(lang: str) -> None:
    """Tool-layer errors are Chinese in every task (the tool output contract); loop texts follow the task."""
    executor = CallToolExecutor(WORLD, budget=ToolBudget({"weather": 0}), lang=lang, max_calls=1)
    calls = [
        {"id": "a", "type": "function", "function": {"name": "weather", "arguments": '{"city": "杭州"}'}},
        {"id": "b", "type": "function", "function": {"name": "weather", "arguments": '{"city": "杭州"}'}},
    ]
    batch = await executor(calls)
    assert batch.messages[0]["content"] == "错误：本任务 weather 调用次数已达上限（0 次），请利用已有结果继续作答。"
    assert batch.messages[1]["content"] == too_many_calls_text(lang, 1)
    expected = {
        "zh": ("错误：单次最多执行 1 个工具调用，本调用未执行。", "工具调用已达到上限（15 步），本次调用未执行。"),
        "en": (
            "Error: at most 1 tool calls run per turn; this call was not executed.",
            "Tool-call limit reached (15 steps); this call was not executed.",
        ),
    }[lang]
    assert (too_many_calls_text(lang, 1), step_limit_text(lang)) == expected


@given(st.text(max_size=200))
def test_json_error_reason_never_fails_and_stays_one_bounded_line(text: str) -> None:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        reason = json_error_reason("poi_search", text, exc)
        assert "\n" not in reason and len(reason) < 400
        assert reason.endswith('例如 {"address": "西湖", "region": "杭州"}')
    except RecursionError:  # pragma: no cover - not reachable with 200 characters
        pass
