"""Deterministic travel problems: knowledge graph, city pairs, budgets, prompts and DSL constraints.

``ProblemGenerator().generate(task_id, lang="zh")`` is the entry point (see ``docs/tasks.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["ProblemGenerator", "check_task_id"]

if TYPE_CHECKING:  # pragma: no cover
    from navworld.tasks.generator import ProblemGenerator, check_task_id


def __getattr__(name: str) -> Any:
    if name in __all__:
        from navworld.tasks import generator

        return getattr(generator, name)
    raise AttributeError(f"module 'navworld.tasks' has no attribute {name!r}")
