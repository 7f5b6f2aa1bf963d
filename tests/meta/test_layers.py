"""Imports point one way (DESIGN §2): data ← logic ← runtime ← surfaces."""

from __future__ import annotations

import ast
from pathlib import Path

import navworld

PACKAGE = Path(navworld.__file__).parent

# What each package may import (besides itself). ``tasks`` validates its programs with ``dsl``;
# ``scoring`` runs the plan verifier on the sandbox world (reported, never mixed into the total).
ALLOWED: dict[str, set[str]] = {
    "core": set(),
    "world": {"core"},
    "tools": {"core", "world"},
    "dsl": {"core", "world"},
    "tasks": {"core", "world", "dsl"},
    "verify": {"core", "world", "dsl"},
    "scoring": {"core", "world", "dsl", "verify"},
    "agents": {"core", "world", "tools", "tasks", "dsl", "verify", "scoring"},
    "env": {"core", "world", "tools", "tasks", "dsl", "verify", "scoring", "agents"},
    "runner": {"core", "world", "tools", "tasks", "dsl", "verify", "scoring", "agents", "env"},
    "server": {"core", "world", "tools", "tasks", "dsl", "verify", "scoring", "agents", "env"},
    # The top layer: adapters to other frameworks may import anything; nothing imports them.
    "integrations": {"core", "world", "tools", "tasks", "dsl", "verify", "scoring", "agents", "env", "runner",
                     "server"},
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m.startswith("navworld.")}


def test_imports_point_one_way() -> None:
    bad: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).parts
        if len(rel) < 2 or rel[0] not in ALLOWED:
            continue
        for mod in _imports(path):
            target = mod.split(".")[1]
            if target != rel[0] and target not in ALLOWED[rel[0]]:
                bad.append(f"{'/'.join(rel)} imports {mod}")
    assert not bad, "\n".join(bad)


def test_core_models_import_nothing_of_ours_but_core() -> None:
    for path in (PACKAGE / "core").glob("*.py"):
        assert all(m.startswith("navworld.core") for m in _imports(path)), path.name


def test_nothing_imports_the_integrations() -> None:
    bad = [
        "/".join(path.relative_to(PACKAGE).parts)
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] != "integrations"
        and any(m.startswith("navworld.integrations") for m in _imports(path))
    ]
    assert not bad, bad
