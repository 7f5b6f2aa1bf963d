"""A Gymnasium-style wrapper over :class:`~navworld.env.actor.Actor` for RL libraries.

``env.reset(seed=None, options=None) -> (observation, info)`` and
``env.step(action) -> (observation, reward, terminated, truncated, info)``.

* Observations are text: after ``reset`` the user prompt (the system prompt and the full
  opening messages are in ``info``); after a tool step the tool results joined by blank lines
  (plus the final-answer prompt once the step limit is reached); ``""`` when the episode ends.
* An action is either a string (the final answer) or a mapping ``{"content": str,
  "tool_calls": [...]}`` in the OpenAI shape (an empty/missing ``tool_calls`` means final answer).
* ``reward`` is the mean step reward for a tool step and total / 100 for the final answer.
  ``terminated`` is True when the answer was scored; ``truncated`` is True when an
  infrastructure failure ended the episode (not the policy's fault).
* The task comes from ``options["task_id"]``, else from ``task_ids`` drawn with a seeded RNG.

gymnasium is optional: when installed the class subclasses ``gymnasium.Env`` and its spaces are
:class:`UnicodeText` — a ``spaces.Text`` whose membership test accepts every Unicode character
(tool results use symbols such as ``→`` and ``℃``, and error results quote what the model sent,
so the environment can emit any character) and whose ``sample()`` draws from the characters the
environment itself writes; without gymnasium the same API works on a plain class. The action
space's length is the actor's answer limit, the observation space's fits the largest step.
The async actor runs on a private event loop in a background thread, so the wrapper works
from synchronous code (and from inside a running loop, e.g. a notebook).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, TypeVar

from navworld.core.seeding import rng
from navworld.env.actor import Actor

__all__ = ["NavworldEnv", "UnicodeText", "text_charset"]

_T = TypeVar("_T")

try:  # optional dependency
    import gymnasium as _gym
    from gymnasium import spaces as _spaces

    _Base: type = _gym.Env
except ImportError:  # pragma: no cover - exercised only without gymnasium
    _gym = None
    _spaces = None
    _Base = object

MAX_TEXT = 200_000
_TOOL_TEXT = 3000 + 2  # one tool result (truncated at 3,000 characters) and its separator


def text_charset() -> str:
    """The sampling characters of the text spaces: printable ASCII and Latin-1, general
    punctuation, arrows, letterlike and technical symbols (``℃``, ``→``), box drawing and
    geometric shapes, CJK punctuation, ideographs and fullwidth forms."""
    ranges = (
        (0x20, 0x7F), (0xA0, 0x100), (0x2000, 0x2070), (0x2100, 0x2150), (0x2190, 0x2200),
        (0x2200, 0x2300), (0x2460, 0x2500), (0x2500, 0x2600), (0x3000, 0x3040), (0x4E00, 0xA000),
        (0xFF00, 0xFFF0),
    )
    return "\n\t" + "".join(chr(c) for lo, hi in ranges for c in range(lo, hi))


if _spaces is not None:

    class UnicodeText(_spaces.Text):  # type: ignore[misc]
        """A ``gymnasium.spaces.Text`` holding any Unicode text of ``min_length``..``max_length``
        characters; ``sample()`` draws from ``charset`` (default :func:`text_charset`)."""

        def contains(self, x: Any) -> bool:
            """Whether ``x`` is a string of an allowed length (every character is allowed)."""
            return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

else:  # pragma: no cover - exercised only without gymnasium
    UnicodeText = None  # type: ignore[assignment, misc]


class _LoopThread:
    """A private asyncio loop in a daemon thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="navworld-gym", daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def close(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
        if not self.loop.is_running():
            self.loop.close()


def _join_observation(messages: list[dict[str, Any]]) -> str:
    return "\n\n".join(str(m.get("content") or "") for m in messages)


class NavworldEnv(_Base):  # type: ignore[misc, valid-type]
    """navworld episodes behind the Gymnasium API.

    Args:
        actor: the :class:`Actor` to drive (default: a new one built from ``actor_kwargs``).
        task_ids: tasks to draw from when ``reset`` gets no ``options["task_id"]`` (default 0..699).
        lang: prompt language for the episodes (default: the actor's).
        actor_kwargs: passed to :class:`Actor` when ``actor`` is None.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 - gymnasium's class attribute

    def __init__(
        self,
        actor: Actor | None = None,
        task_ids: Sequence[int] | None = None,
        lang: str | None = None,
        **actor_kwargs: Any,
    ) -> None:
        self._runner = _LoopThread()
        self.actor = actor if actor is not None else Actor(**actor_kwargs)
        self.task_ids: Sequence[int] = task_ids if task_ids is not None else range(700)
        self.lang = lang
        self.episode_id: str | None = None
        self.task_id: int | None = None
        self._rng = rng("navworld-gym", "default")
        if _spaces is not None:
            charset = text_charset()
            limits = self.actor.limits
            observed = max(MAX_TEXT, limits.max_tool_calls * _TOOL_TEXT + 20_000)
            self.observation_space = UnicodeText(max_length=observed, min_length=0, charset=charset)
            self.action_space = UnicodeText(max_length=limits.max_answer_chars, min_length=0, charset=charset)

    def _abandon(self) -> None:
        if self.episode_id is not None:
            self.actor.close_episode(self.episode_id)
            self.episode_id = None

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Start a new episode (abandoning any live one); return (user prompt, info)."""
        if _gym is not None:
            super().reset(seed=seed)
        if seed is not None:
            self._rng = rng("navworld-gym", seed)
        self._abandon()
        options = dict(options or {})
        task_id = options.get("task_id")
        if task_id is None:
            task_id = self.task_ids[self._rng.randrange(len(self.task_ids))]
        result = self._runner.run(self.actor.reset(int(task_id), lang=options.get("lang", self.lang)))
        self.episode_id = result["episode_id"]
        self.task_id = int(task_id)
        messages = result["observation"]
        user = next((m["content"] for m in messages if m.get("role") == "user"), "")
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        info = dict(result["info"], episode_id=self.episode_id, messages=messages, system_prompt=system)
        return user, info

    def step(self, action: str | Mapping[str, Any]) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Apply one assistant turn; return (observation, reward, terminated, truncated, info)."""
        if self.episode_id is None:
            raise RuntimeError("call reset() before step()")
        if isinstance(action, Mapping):
            content = action.get("content")
            tool_calls = action.get("tool_calls")
        else:
            content, tool_calls = str(action), None
        result = self._runner.run(self.actor.step(content, self.episode_id, tool_calls=tool_calls))
        info = dict(result["info"], messages=result["observation"])
        done = bool(result["done"])
        truncated = done and bool(info.get("error"))
        if done:
            self.episode_id = None
        return _join_observation(result["observation"]), float(result["reward"]), done and not truncated, truncated, info

    def close(self) -> None:
        """Abandon the live episode and stop the private loop."""
        try:
            self._abandon()
        finally:
            self._runner.close()
