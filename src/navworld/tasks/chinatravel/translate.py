"""Oracle translation of ChinaTravel's ``hard_logic_py`` programs into planner facts.

ChinaTravel's NeSy agent with ``--oracle_translation`` plans from the annotated programs; so does
navworld's reference planner. This module reads the common idioms of those programs from their
syntax tree (never by executing them) and records what a planner needs in ``Problem.extra``:

* a budget: ``result = (total_cost <= 6000)`` after summing ``activity_cost`` (and inner-city costs);
* must-visit sights / required cuisines / hotel features: ``{'夫子庙'} <= attraction_names``,
  ``{'本帮菜'} <= restaurant_type_set``, ``{'亲子主题房'} <= hotel_feature_set`` (also ``'X' in …``);
* places to avoid: ``result = not ({'X'} & names)``;
* the intercity mode: ``intercity_transport_set == {'train'}`` (or ``<=``);
* inner-city modes: ``innercity_transport_set <= {'metro', 'taxi'}``;
* rooms and room type: ``room_count(activity) != 2`` / ``room_type(activity) != 1`` → ``result = False``.

Anything else is left to the search: every candidate plan is checked against every program.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Facts", "read_programs"]

_MODE = {"metro": "transit", "taxi": "taxi", "walk": "walk"}


@dataclass
class Facts:
    """What the programs of one query ask for (empty fields: nothing recognised)."""

    budget: float | None = None
    must_visit: list[str] = field(default_factory=list)
    cuisines: list[str] = field(default_factory=list)
    hotel_features: list[str] = field(default_factory=list)
    avoid: list[str] = field(default_factory=list)
    intercity_mode: str | None = None
    innercity_modes: list[str] = field(default_factory=list)
    rooms: int | None = None
    room_type: int | None = None
    recognised: list[int] = field(default_factory=list)
    """Indices of the programs that matched an idiom."""

    def extra(self) -> dict[str, Any]:
        """The ``Problem.extra`` keys the reference planner reads."""
        return {
            "must_visit": list(dict.fromkeys(self.must_visit)),
            "required_cuisines": list(dict.fromkeys(self.cuisines)),
            "hotel_features": list(dict.fromkeys(self.hotel_features)),
            "avoid": list(dict.fromkeys(self.avoid)),
            "intercity_mode": self.intercity_mode,
            "innercity_modes": list(dict.fromkeys(self.innercity_modes)),
            "rooms": self.rooms,
            "room_type": self.room_type,
        }


def _calls(tree: ast.AST) -> set[str]:
    return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _strings(node: ast.AST) -> list[str] | None:
    """The string elements of a set/list/tuple literal (or a single string), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
        out = []
        for e in node.elts:
            if not (isinstance(e, ast.Constant) and isinstance(e.value, str)):
                return None
            out.append(e.value)
        return out
    return None


def _number(node: ast.AST) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    return None


def _result_values(tree: ast.Module) -> list[ast.expr]:
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "result" for t in n.targets):
            out.append(n.value)
    return out


def _kind(calls: set[str], text: str) -> str | None:
    if "restaurant_type" in calls:
        return "cuisine"
    if "accommodation_type" in calls:
        return "hotel_feature"
    if "innercity_transport_type" in calls:
        return "inner"
    if "intercity_transport_type" in calls or "'train'" in text or "'airplane'" in text:
        if "activity_position" not in calls:
            return "intercity"
    if "activity_position" in calls:
        return "position"
    return None


def _subset(value: ast.expr) -> tuple[str, list[str]] | None:
    """``{'a'} <= x`` → ("superset", [a]); ``x <= {'a'}`` → ("subset", [a]); ``x == {'a'}`` → ("equal", [a])."""
    node = value
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right, op = node.left, node.comparators[0], node.ops[0]
        lit_l, lit_r = _strings(left), _strings(right)
        if isinstance(op, (ast.LtE, ast.Lt)) and lit_l is not None and lit_r is None:
            return "superset", lit_l
        if isinstance(op, (ast.LtE, ast.Lt)) and lit_r is not None and lit_l is None:
            return "subset", lit_r
        if isinstance(op, (ast.GtE, ast.Gt)) and lit_r is not None and lit_l is None:
            return "superset", lit_r
        if isinstance(op, ast.Eq) and (lit_r is not None or lit_l is not None):
            return "equal", lit_r if lit_r is not None else (lit_l or [])
        if isinstance(op, ast.In) and lit_l is not None:
            return "superset", lit_l
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = node.operand
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.BitAnd):
            lit = _strings(inner.left) or _strings(inner.right)
            if lit is not None:
                return "none", lit
        if isinstance(inner, ast.Compare) and len(inner.ops) == 1 and isinstance(inner.ops[0], ast.In):
            lit = _strings(inner.left)
            if lit is not None:
                return "none", lit
    return None


def _budget(tree: ast.Module, calls: set[str], text: str, values: list[ast.expr]) -> float | None:
    if "activity_cost" not in calls or "activity_type" in calls:
        return None
    for v in values:
        if isinstance(v, ast.Compare) and len(v.ops) == 1 and isinstance(v.ops[0], (ast.LtE, ast.Lt)):
            n = _number(v.comparators[0])
            if n is not None and isinstance(v.left, ast.Name):
                return n
    return None


def _room_rule(tree: ast.Module) -> tuple[str, int] | None:
    for n in ast.walk(tree):
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], ast.NotEq):
            call, num = n.left, _number(n.comparators[0])
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and num is not None:
                if call.func.id in ("room_count", "room_type"):
                    return call.func.id, int(num)
    return None


def read_programs(programs: list[str]) -> Facts:
    """Read the planner facts out of a query's programs (unparsable programs are skipped)."""
    facts = Facts()
    for i, src in enumerate(programs):
        try:
            tree = ast.parse(src)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        calls = _calls(tree)
        values = _result_values(tree)
        budget = _budget(tree, calls, src, values)
        if budget is not None:
            facts.budget = budget if facts.budget is None else min(facts.budget, budget)
            facts.recognised.append(i)
            continue
        room = _room_rule(tree)
        if room is not None:
            if room[0] == "room_count":
                facts.rooms = room[1]
            else:
                facts.room_type = room[1]
            facts.recognised.append(i)
            continue
        kind = _kind(calls, src)
        for v in values:
            got = _subset(v)
            if got is None or kind is None:
                continue
            how, items = got
            if kind == "position" and how == "superset":
                facts.must_visit += items
            elif kind == "position" and how == "none":
                facts.avoid += items
            elif kind == "cuisine" and how == "superset":
                facts.cuisines += items
            elif kind == "hotel_feature" and how in ("superset", "equal"):
                facts.hotel_features += items
            elif kind == "intercity" and how in ("equal", "subset") and len(items) == 1 and items[0] in ("train", "airplane"):
                facts.intercity_mode = items[0]
            elif kind == "inner" and how in ("subset", "equal"):
                facts.innercity_modes += [_MODE[m] for m in items if m in _MODE]
            else:
                continue
            facts.recognised.append(i)
            break
    return facts
