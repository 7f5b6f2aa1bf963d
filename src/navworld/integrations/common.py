"""What every adapter shares: the task list, an :class:`~navworld.env.actor.Actor` with an optional
scoring profile, and the reference scores of a run."""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import Any

from navworld.core.errors import ConfigError
from navworld.core.seeding import current_salt
from navworld.env.actor import Actor

__all__ = ["DEFAULT_TASKS", "make_actor", "task_list"]

DEFAULT_TASKS = "0:70"
"""Ten tasks of each of the seven problem types."""


def task_list(tasks: str | int | Iterable[int] | None = None) -> list[int]:
    """Task ids from ``A:B`` / ``1,2,5`` / a file (as ``navworld eval --tasks``), an int or ids.

    Raises:
        ConfigError: an empty or malformed selection.
    """
    from navworld.runner.taskspec import parse_task_spec

    if tasks is None:
        tasks = DEFAULT_TASKS
    if isinstance(tasks, bool):
        raise ConfigError(f"tasks must be a task spec or ids, got {tasks!r}")
    if isinstance(tasks, int):
        ids = [tasks]
    elif isinstance(tasks, str):
        ids = parse_task_spec(tasks)
    else:
        ids = [int(t) for t in tasks]
    if not ids or any(t < 0 for t in ids):
        raise ConfigError(f"tasks must name at least one non-negative task id, got {tasks!r}")
    return ids


def make_actor(world: Any = None, salt: str | int | None = None, lang: str = "zh", scoring: str | None = None,
               judge: Any = None, **kwargs: Any) -> Actor:
    """An :class:`Actor` whose scorer uses the ``scoring`` profile (``None``: the scorer's default).

    ``kwargs`` go to :class:`Actor` (``max_episodes``, ``episode_ttl``, …).

    Raises:
        ConfigError: ``scoring`` given but this navworld's scorer has no profiles, or rejects it.
    """
    scorer = None
    if scoring is not None:
        from navworld.scoring.scorer import TravelScorer

        params = inspect.signature(TravelScorer).parameters
        if "profile" not in params:
            raise ConfigError(f"scoring={scoring!r}: this navworld's scorer has a single profile")
        options: dict[str, Any] = {"judge": judge, "profile": scoring}
        if "salt" in params:
            options["salt"] = current_salt(salt)
        try:
            scorer = TravelScorer(**options)
        except (ValueError, TypeError) as exc:
            raise ConfigError(f"scoring={scoring!r}: {exc}") from None
    return Actor(world=world, salt=salt, lang=lang, judge=judge, scorer=scorer, **kwargs)
