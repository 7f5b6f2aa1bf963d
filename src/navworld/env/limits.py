"""Size limits of what a client may put into a live episode (``Actor.step``, ``POST /step``).

A step is checked against these limits *before* anything happens, so a refused step changes
nothing (the episode goes on as if it had not been sent). Defaults are generous for real agents
(a tool call's arguments are a few hundred characters, a final answer a few thousand) and keep a
live episode's memory bounded; each reads an environment variable:

| limit | default | variable |
|---|---|---|
| ``max_argument_chars``: characters of one tool call's ``arguments`` | 20,000 | ``NAVWORLD_MAX_ARGUMENT_CHARS`` |
| ``max_tool_calls``: tool calls in one step (the first 32 are executed) | 64 | ``NAVWORLD_MAX_TOOL_CALLS`` |
| ``max_answer_chars``: characters of a step's text (``action``, the final answer) | 100,000 | ``NAVWORLD_MAX_ANSWER_CHARS`` |
| ``max_episode_chars``: characters one live episode may hold (text, arguments, tool results) | 500,000 | ``NAVWORLD_MAX_EPISODE_CHARS`` |

A violation raises :class:`LimitExceeded` (HTTP 413 with ``error`` = its ``kind``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any

from navworld.core.errors import NavworldError

__all__ = ["EpisodeLimits", "LimitExceeded", "env_int"]


class LimitExceeded(NavworldError, ValueError):
    """A step (or request) larger than a configured limit; nothing was changed.

    ``kind`` is machine-readable (``arguments_too_long``, ``too_many_tool_calls``,
    ``answer_too_long``, ``episode_too_large``, ``body_too_large``) and ``setting`` names the
    environment variable that raises the limit.
    """

    def __init__(self, message: str, kind: str, limit: int, setting: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.limit = limit
        self.setting = setting


def env_int(name: str, default: int) -> int:
    """A positive integer from the environment variable ``name`` (``default`` when unset or bad)."""
    raw = os.environ.get(name, "").strip().replace("_", "")
    if not raw:
        return default
    try:
        value = int(float(raw))
    except ValueError:
        return default
    return value if value > 0 else default


_ENV = {
    "max_argument_chars": "NAVWORLD_MAX_ARGUMENT_CHARS",
    "max_tool_calls": "NAVWORLD_MAX_TOOL_CALLS",
    "max_answer_chars": "NAVWORLD_MAX_ANSWER_CHARS",
    "max_episode_chars": "NAVWORLD_MAX_EPISODE_CHARS",
}


def _text_len(value: Any) -> int:
    return len(value) if isinstance(value, str) else len(str(value)) if value is not None else 0


@dataclass(frozen=True)
class EpisodeLimits:
    """The size limits of one actor's episodes (see the module docstring for the defaults)."""

    max_argument_chars: int = 20_000
    max_tool_calls: int = 64
    max_answer_chars: int = 100_000
    max_episode_chars: int = 500_000

    @classmethod
    def from_env(cls, **overrides: int | None) -> EpisodeLimits:
        """The defaults, overridden by ``NAVWORLD_MAX_*`` variables, overridden by ``overrides``."""
        values: dict[str, int] = {}
        for f in fields(cls):
            given = overrides.get(f.name)
            values[f.name] = int(given) if given else env_int(_ENV[f.name], f.default)  # type: ignore[arg-type]
        return cls(**values)

    def as_dict(self) -> dict[str, int]:
        """The limits by name (for ``/health`` and logs)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def check_step(self, action: str | None, calls: list[dict[str, Any]], held_chars: int = 0) -> int:
        """Check one step (normalised ``calls``) against the limits; return the characters it adds.

        Raises:
            LimitExceeded: the first limit the step breaks.
        """
        text = _text_len(action)
        if text > self.max_answer_chars:
            raise LimitExceeded(
                f"the step's text has {text} characters, more than the limit of {self.max_answer_chars} "
                f"(raise {_ENV['max_answer_chars']})",
                "answer_too_long", self.max_answer_chars, _ENV["max_answer_chars"],
            )
        if len(calls) > self.max_tool_calls:
            raise LimitExceeded(
                f"the step has {len(calls)} tool calls, more than the limit of {self.max_tool_calls} "
                f"(raise {_ENV['max_tool_calls']})",
                "too_many_tool_calls", self.max_tool_calls, _ENV["max_tool_calls"],
            )
        added = text
        for index, call in enumerate(calls):
            fn = call.get("function") or {}
            size = _text_len(fn.get("arguments"))
            if size > self.max_argument_chars:
                raise LimitExceeded(
                    f"tool call {index} has arguments of {size} characters, more than the limit of "
                    f"{self.max_argument_chars} (raise {_ENV['max_argument_chars']})",
                    "arguments_too_long", self.max_argument_chars, _ENV["max_argument_chars"],
                )
            added += size + _text_len(fn.get("name")) + _text_len(call.get("id"))
        if calls and held_chars + added > self.max_episode_chars:
            raise LimitExceeded(
                f"the episode would hold {held_chars + added} characters, more than the limit of "
                f"{self.max_episode_chars}: send the final answer (a step without tool calls) "
                f"(or raise {_ENV['max_episode_chars']})",
                "episode_too_large", self.max_episode_chars, _ENV["max_episode_chars"],
            )
        return added
