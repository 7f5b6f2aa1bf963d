"""The public names of DESIGN §3 exist, and no data depends on per-process randomness."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import navworld


def test_top_level_names() -> None:
    assert sorted(navworld.__all__) == ["Actor", "ProblemGenerator", "TravelScorer", "__version__"]
    for name in ("Actor", "ProblemGenerator", "TravelScorer"):
        obj = getattr(navworld, name)
        assert inspect.isclass(obj) and obj.__doc__, name


def test_actor_signatures() -> None:
    params = inspect.signature(navworld.Actor.evaluate).parameters
    assert list(params)[1:8] == ["model", "base_url", "task_id", "timeout", "temperature", "api_key", "seed"]
    assert params["timeout"].default == 300 and params["temperature"].default == 0.7
    assert list(inspect.signature(navworld.Actor.reset).parameters)[1:2] == ["task_id"]
    assert list(inspect.signature(navworld.Actor.step).parameters)[1:4] == ["action", "episode_id", "tool_calls"]


def test_no_builtin_hash_or_global_random_in_src() -> None:
    """``hash()`` is salted per process and the global RNG is shared: neither may shape data."""
    root = Path(navworld.__file__).parent
    bad = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hash":
                bad.append(f"{path.name}:{node.lineno} hash()")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "random"
                and node.func.attr != "Random"
            ):
                bad.append(f"{path.name}:{node.lineno} random.{node.func.attr}()")
    assert not bad, bad
