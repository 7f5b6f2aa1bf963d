"""Issue 14 in-process: the bounded argument loader, atomic steps, size limits, evaluate never
raising, and the episode store's per-client share."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from navworld.agents.fake import GroundedPlanner
from navworld.core.errors import ToolInputError
from navworld.core.problem import Problem
from navworld.env import evaluate as evaluate_module
from navworld.env.actor import Actor
from navworld.env.episodes import (
    DEFAULT_EPISODE_TTL,
    ClientEpisodeLimit,
    Episode,
    EpisodeStore,
    EpisodeStoreFull,
    reward_arguments,
)
from navworld.env.limits import EpisodeLimits, LimitExceeded
from navworld.env.rewards import RewardTracker
from navworld.tools.json_args import MAX_ARGUMENT_DEPTH, ToolArgumentsError, json_too_deep, load_arguments
from tests import runtime_support as H

DEEP = "[" * 1500 + "]" * 1500
ANSWER = "最终方案：" + "第一天参观景点。" * 40


def call(name: str, call_id: str, arguments: str | None = None, **kw: Any) -> dict[str, Any]:
    args = arguments if arguments is not None else json.dumps(kw, ensure_ascii=False)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


# ----------------------------------------------------------------------------- the loader


def _depth(v: Any) -> int:
    if isinstance(v, list):
        return 1 + max((_depth(x) for x in v), default=0)
    if isinstance(v, dict):
        return 1 + max((_depth(x) for x in v.values()), default=0)
    return 0


_TEXT = st.text(alphabet=st.sampled_from([*'ab"\\[]{}\n', "中"]), max_size=8)
_VALUES = st.recursive(
    st.none() | st.integers() | _TEXT, lambda c: st.lists(c, max_size=3) | st.dictionaries(_TEXT, c, max_size=3), max_leaves=60
)


@settings(max_examples=300, deadline=None)
@given(_VALUES, st.integers(0, 8), st.booleans())
def test_depth_check_agrees_with_the_parsed_value(value: Any, limit: int, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert json_too_deep(text, limit) == (_depth(value) > limit)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_loader_only_ever_raises_value_errors(text: str) -> None:
    try:
        load_arguments(text)
    except ValueError as exc:
        assert isinstance(exc, ToolArgumentsError) and isinstance(exc, ToolInputError)
        assert exc.reason in ("too_long", "too_deep", "invalid_json")


def test_loader_refuses_before_parsing() -> None:
    for text, reason in ((DEEP, "too_deep"), ("x" * 20_001, "too_long"), ('{"a": ', "invalid_json")):
        with pytest.raises(ToolArgumentsError) as info:
            load_arguments(text)
        assert info.value.reason == reason and str(info.value)
    assert load_arguments("  ") == {} and load_arguments('{"city": "[[[["}') == {"city": "[[[["}
    nested_ok = "[" * MAX_ARGUMENT_DEPTH + "]" * MAX_ARGUMENT_DEPTH
    assert _depth(load_arguments(nested_ok)) == MAX_ARGUMENT_DEPTH
    # What the step rewards see: the text itself, or a short non-JSON stand-in, stable per text.
    assert reward_arguments('{"city": "杭州"}') == '{"city": "杭州"}'
    stand_in = reward_arguments(DEEP)
    assert len(stand_in) < 60 and stand_in == reward_arguments(DEEP) != reward_arguments(DEEP + " ")


def test_rewards_never_parse_hostile_arguments() -> None:
    problem = Problem(task_id=1, problem_type="multiday", destination_city="杭州", travel_date="2025-05-01", num_days=2)
    tracker = RewardTracker(problem)
    from navworld.core.models import ToolResult

    result = ToolResult(ok=False, text="错误：参数不是合法的 JSON", error="bad")
    first = tracker.score("weather", reward_arguments(DEEP), result)
    again = tracker.score("weather", reward_arguments(DEEP), result)
    assert first.arguments == 0.0 and again.redundant


# ----------------------------------------------------------------------------- atomic steps


def _plain(obj: Any) -> dict[str, str]:
    """An object's attributes as comparable text (sets sorted)."""
    return {k: repr(sorted(map(repr, v))) if isinstance(v, set) else repr(v) for k, v in vars(obj).items()}


def _state(actor: Actor, eid: str) -> tuple[Any, ...]:
    e = actor.store.get(eid)
    return (
        json.dumps(e.messages, ensure_ascii=False), e.steps, e.tool_calls, list(e.step_rewards), e.chars,
        dict(e.budget.counts), sorted(e.executor.seen_ids), _plain(e.tracker),
    )


async def test_a_step_that_fails_midway_is_undone() -> None:
    actor = Actor(salt="test-salt")
    opened = await actor.reset(3)
    eid = opened["episode_id"]
    dest = actor.problem(3).destination_city
    await actor.step("", eid, [call("weather", "w0", city=dest)])
    before = _state(actor, eid)
    episode = actor.store.get(eid)
    real_run = episode.executor.run

    async def consume_then_fail(calls: list[dict[str, Any]]) -> Any:
        await real_run(calls)  # the tools ran (budget consumed) ...
        raise RuntimeError("backend bug")  # ... then something broke

    episode.executor.run = consume_then_fail  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await actor.step("", eid, [call("poi_search", "p1", address="景点", region=dest)])
    assert _state(actor, eid) == before
    # Cancelled in the middle of a tool call: undone as well.
    started = asyncio.Event()

    async def hang(calls: list[dict[str, Any]]) -> Any:
        await real_run(calls)
        started.set()
        await asyncio.sleep(60)

    episode.executor.run = hang  # type: ignore[method-assign]
    task = asyncio.create_task(actor.step("", eid, [call("poi_search", "p2", address="景点", region=dest)]))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _state(actor, eid) == before
    episode.executor.run = real_run  # type: ignore[method-assign]
    step = await actor.step("", eid, [call("poi_search", "p3", address="景点", region=dest)])
    assert step["info"]["step"] == 2 and step["reward"] > 0  # new information: the same call was never recorded
    assert (await actor.step(ANSWER, eid))["done"]


async def test_size_limits_refuse_a_step_without_changing_anything() -> None:
    actor = Actor(salt="test-salt", limits=EpisodeLimits(max_argument_chars=100, max_tool_calls=3, max_answer_chars=500, max_episode_chars=900))
    eid = (await actor.reset(3))["episode_id"]
    dest = actor.problem(3).destination_city
    before = _state(actor, eid)
    cases = [
        ("", [call("weather", "a", city=dest, pad="x" * 200)], "arguments_too_long"),
        ("", [call("weather", f"c{i}", city=dest) for i in range(4)], "too_many_tool_calls"),
        ("x" * 501, None, "answer_too_long"),
    ]
    for action, calls, kind in cases:
        with pytest.raises(LimitExceeded) as info:
            await actor.step(action, eid, calls)
        assert info.value.kind == kind and info.value.setting.startswith("NAVWORLD_MAX_")
        assert _state(actor, eid) == before
    steps = 0
    with pytest.raises(LimitExceeded) as info:
        for _ in range(10):
            await actor.step("", eid, [call("weather", "e", city=dest, date="2025-05-0" + str(steps + 1), pad="z" * 20)])
            steps += 1
    assert info.value.kind == "episode_too_large" and steps >= 1
    assert actor.store.get(eid).chars <= 900 + 3000  # the last step's tool results may pass it once
    final = await actor.step("短", eid)  # the final answer is never refused for the episode's size
    assert final["done"]


async def test_a_reward_bug_or_a_scorer_bug_does_not_break_the_episode(monkeypatch: pytest.MonkeyPatch) -> None:
    actor = Actor(salt="test-salt")
    eid = (await actor.reset(3))["episode_id"]
    dest = actor.problem(3).destination_city

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("reward bug")

    episode = actor.store.get(eid)
    monkeypatch.setattr(episode.tracker, "score", broken)
    step = await actor.step("", eid, [call("weather", "w", city=dest)])
    assert step["reward"] == 0.0 and step["observation"][0]["content"].startswith("weather")

    async def broken_score(*args: Any) -> Any:
        raise KeyError("scorer bug")

    monkeypatch.setattr(actor, "_score", broken_score)
    final = await actor.step(ANSWER, eid)
    assert final["done"] and final["reward"] == 0.0
    assert final["info"]["error"].startswith("scorer: KeyError") and final["info"]["valid_for_scoring"] is False
    assert len(actor.store) == 0


async def test_evaluate_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    actor = Actor(salt="test-salt")

    async def exploding(*args: Any, **kwargs: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(evaluate_module, "run_episode", exploding)
    result = await actor.evaluate("m", "http://127.0.0.1:9/v1", 3, timeout=5)
    assert result["score"] == 0.0 and result["error"].startswith("internal: RecursionError")
    assert result["extra"]["valid_for_scoring"] is False and len(actor.store) == 0


# ----------------------------------------------------------------------------- the store


def _episode() -> Episode:
    p = Problem(task_id=1, problem_type="multiday", destination_city="杭州", travel_date="2025-05-01", num_days=2)
    return Episode(p, world=object(), salt="s")


def test_store_shares_and_evictions() -> None:
    assert DEFAULT_EPISODE_TTL == 600.0  # ten minutes
    store = EpisodeStore(max_episodes=6, ttl=60, evict_idle=30)
    assert store.max_per_client == 3
    hog = [store.add(_episode(), "hog") for _ in range(3)]
    with pytest.raises(ClientEpisodeLimit, match="NAVWORLD_MAX_EPISODES_PER_CLIENT"):
        store.add(_episode(), "hog")
    local = [store.add(_episode()) for _ in range(3)]  # in-process callers are exempt from the share
    with pytest.raises(EpisodeStoreFull):
        store.add(_episode(), "other")  # full, and nobody idle long enough
    for e in hog:
        e.touched -= 40
    for e in local:
        e.touched -= 40
    newcomer = store.add(_episode(), "other")  # evicts the longest-idle episode of a fuller client
    assert store.evicted == 1 and len(store) == 6 and newcomer.client == "other"
    assert store.held_by("hog") + store.held_by("local") == 5
    occupancy = store.occupancy()
    assert occupancy["clients"] == 3 and occupancy["busiest_client_episodes"] == 3 and occupancy["evicted"] == 1
    store.discard(newcomer.id)
    assert store.held_by("other") == 0 and store.occupancy()["clients"] == 2
    store.clear()
    assert store.occupancy()["live_episodes"] == 0 and store.occupancy()["clients"] == 0


async def test_reset_and_evaluate_take_the_client_share() -> None:
    actor = Actor(salt="test-salt", max_episodes=4)
    for _ in range(2):
        await actor.reset(0, client="a")
    with pytest.raises(ClientEpisodeLimit):
        await actor.reset(0, client="a")
    with pytest.raises(ClientEpisodeLimit):
        await actor.evaluate("m", "http://127.0.0.1:9/v1", 0, timeout=1, client="a")
    planner = GroundedPlanner(cities=H.city_list())
    episode = await H.drive(lambda t: actor.reset(t, client="b"), actor.step, 1, planner)
    assert episode["steps"][-1]["done"]
