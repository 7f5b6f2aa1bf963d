"""Reading the files and problems that several commands take (one-line errors, exit status 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from navworld.cli.app import bad_args

__all__ = ["load_problem", "read_json", "read_text"]


def read_text(path: Path, what: str) -> str:
    """The UTF-8 text of ``path``; an unreadable file exits 2 naming ``what``."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        bad_args(f"cannot read {what} {path}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        bad_args(f"{what} {path} is not UTF-8 text")


def read_json(path: Path, what: str) -> Any:
    """The parsed JSON of ``path``; unreadable or malformed JSON exits 2 naming ``what``."""
    text = read_text(path, what)
    try:
        return json.loads(text)
    except ValueError as exc:
        bad_args(f"{what} {path} is not JSON: {str(exc).splitlines()[0]}")


def load_problem(task: str | None, problem_file: Path | None, world: Any) -> Any:
    """The problem of ``--task ID`` (generated on ``world``, so budgets and timetables follow its
    salt) or of ``--problem PROBLEM.json``; exactly one of the two must be given."""
    from navworld.core.problem import Problem

    if task is not None and problem_file is not None:
        bad_args("give either --task ID or --problem PROBLEM.json, not both")
    if problem_file is not None:
        data = read_json(problem_file, "problem")
        try:
            return Problem.model_validate(data)
        except ValueError as exc:
            bad_args(f"problem {problem_file} is not a valid problem: {str(exc).splitlines()[0]}")
    if task is None:
        bad_args("give --task ID or --problem PROBLEM.json")
    try:
        task_id = int(task.strip(), 10)
    except ValueError:
        bad_args(f"task id must be an integer, got {task!r}")
    from navworld.tasks.generator import ProblemGenerator

    try:
        return ProblemGenerator(world).generate(task_id)
    except ValueError as exc:
        bad_args(str(exc).splitlines()[0] if str(exc) else f"invalid task id {task_id}")
