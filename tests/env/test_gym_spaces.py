"""Issue 14 row 8: the Gym spaces contain every observation the environment emits.

Real episodes of every problem type, in Chinese and English: the reference planner's tool calls
are replayed through :class:`NavworldEnv` under Gymnasium's passive checker with warnings as
errors, and every observation must be in the observation space (tool results use ``→``, ``℃``
…; error results quote what the model sent, so any character can come back).
"""

from __future__ import annotations

import asyncio
import json
import warnings
from typing import Any

import pytest

from navworld.agents.reference import ReferencePlanner
from navworld.core.problem import PROBLEM_TYPES
from navworld.env.actor import Actor
from navworld.env.gym import NavworldEnv, text_charset

gymnasium = pytest.importorskip("gymnasium")

# The spaces' characters before issue 14: printable ASCII, CJK ideographs, common punctuation.
_OLD_RANGES = ((0x20, 0x7F), (0x2000, 0x2070), (0x3000, 0x3040), (0x4E00, 0xA000), (0xFF00, 0xFFF0))
OLD_CHARSET = set("\n\t" + "".join(chr(c) for lo, hi in _OLD_RANGES for c in range(lo, hi)))


def _turns(actor: Actor, task_id: int, lang: str) -> tuple[list[dict[str, Any]], str]:
    """The reference planner's assistant turns with tool calls, and its final answer."""
    run = asyncio.run(ReferencePlanner().run(actor.problem(task_id, lang), actor.world, salt=actor.salt))
    turns = [
        {"content": m.get("content"), "tool_calls": m["tool_calls"]}
        for m in run.trace
        if m.get("role") == "assistant" and m.get("tool_calls")
    ]
    return turns, run.answer


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_real_episodes_of_every_type_stay_in_the_spaces(lang: str) -> None:
    from gymnasium.wrappers import PassiveEnvChecker

    actor = Actor(salt="gym-spaces", lang=lang)
    raw = NavworldEnv(actor=actor, lang=lang)
    space = raw.observation_space
    outside_old: set[str] = set()
    try:
        for task_id in range(len(PROBLEM_TYPES)):
            turns, answer = _turns(actor, task_id, lang)
            assert turns, task_id
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                env = PassiveEnvChecker(raw)  # checks the first reset and step of each episode
                obs, info = env.reset(options={"task_id": task_id, "lang": lang})
                assert space.contains(obs) and info["problem"]["problem_type"] == PROBLEM_TYPES[task_id]
                for turn in turns:
                    obs, reward, terminated, truncated, _ = env.step(turn)
                    assert space.contains(obs), obs[:200]
                    assert not (terminated or truncated) and 0.0 <= reward <= 1.0
                    outside_old |= set(obs) - OLD_CHARSET
                assert raw.action_space.contains(answer)
                obs, reward, terminated, truncated, step_info = env.step(answer)
                assert terminated and space.contains(obs) and step_info["score"] > 0
    finally:
        raw.close()
    # The spaces of before (ASCII + CJK + punctuation) would not have held these observations.
    assert outside_old, "expected symbols such as → or ℃ in real tool results"
    assert outside_old <= set(text_charset()), outside_old  # and sample() can draw them


def test_characters_quoted_from_the_model_are_in_the_space() -> None:
    env = NavworldEnv(actor=Actor(salt="gym-spaces"))
    try:
        env.reset(options={"task_id": 3})
        odd = "预订🏨ǅ\u200b\U0001f680"
        call = {"id": "c", "type": "function", "function": {"name": odd, "arguments": json.dumps({"x": odd})}}
        obs, *_ = env.step({"content": None, "tool_calls": [call]})
        assert odd[:4] in obs and env.observation_space.contains(obs)
        assert env.action_space.contains(odd) and not env.action_space.contains(42)
        assert not env.action_space.contains("x" * (env.actor.limits.max_answer_chars + 1))
        assert all(env.observation_space.contains(env.observation_space.sample()) for _ in range(3))
    finally:
        env.close()
