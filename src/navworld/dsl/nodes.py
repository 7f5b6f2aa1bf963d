"""Shared pieces of the DSL compiler: closure types, node counting, error helpers, guarded stores."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from navworld.core.errors import DSLError
from navworld.dsl.limits import MAX_ITEMS
from navworld.dsl.runtime import Fault, Frame, type_name
from navworld.dsl.values import det_iter, weigh

__all__ = [
    "BINOP_NAMES",
    "FORBIDDEN_HINTS",
    "MISSING",
    "Assigner",
    "Expr",
    "Stmt",
    "charged",
    "check_store",
    "comp_loop",
    "fail",
    "identity",
    "line_of",
    "max_items",
    "nodes",
]

Expr = Callable[[Frame], Any]
Stmt = Callable[[Frame], Any]
Assigner = Callable[[Frame, Any], None]
MISSING = object()

FORBIDDEN_HINTS: dict[type, str] = {
    ast.While: "'while' loops are not allowed (use 'for' over a bounded range)",
    ast.FunctionDef: "function definitions are not allowed",
    ast.AsyncFunctionDef: "function definitions are not allowed",
    ast.Lambda: "lambda is not allowed",
    ast.ClassDef: "class definitions are not allowed",
    ast.Import: "import is not allowed",
    ast.ImportFrom: "import is not allowed",
    ast.Try: "try/except is not allowed",
    ast.With: "'with' is not allowed",
    ast.Global: "'global' is not allowed",
    ast.Nonlocal: "'nonlocal' is not allowed",
    ast.Return: "'return' is not allowed (assign 'result' instead)",
    ast.Delete: "'del' is not allowed",
    ast.Raise: "'raise' is not allowed",
    ast.Assert: "'assert' is not allowed",
    ast.NamedExpr: "':=' is not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.Yield: "'yield' is not allowed",
    ast.Await: "'await' is not allowed",
    ast.Starred: "'*' unpacking is not allowed",
    ast.AnnAssign: "annotated assignments are not allowed",
}


def line_of(node: ast.AST) -> int:
    return getattr(node, "lineno", 0) or 0


def fail(node: ast.AST, msg: str) -> DSLError:
    return DSLError(f"line {line_of(node)}: {msg}")



COUNTED = (ast.expr, ast.stmt, ast.comprehension, ast.keyword)


def nodes(node: ast.AST | None) -> int:
    """Evaluated nodes of a subtree (expressions, statements; not contexts or operator tokens)."""
    if node is None:
        return 0
    return sum(1 for n in ast.walk(node) if isinstance(n, COUNTED))


BINOP_NAMES = frozenset({"Add", "Sub", "Mult", "Div", "FloorDiv", "Mod", "Pow", "BitOr", "BitAnd", "BitXor", "LShift", "RShift"})


def max_items() -> int:
    return MAX_ITEMS


def identity(fr: Frame, result: Any) -> Any:
    return result


def charged(fr: Frame, result: Any) -> Any:
    t = type(result)
    if t is list or t is set or t is dict or t is tuple:
        fr.charge(1 + len(result))
    return result


def check_store(fr: Frame, obj: Any, key: Any) -> None:
    t = type(obj)
    if t is dict:
        fr.check_mutable(obj)
        if type(key) is tuple:
            fr.charge(weigh(key, fr))  # hashing a tuple visits all of it
        if key not in obj and len(obj) >= max_items():
            raise Fault("dict too large")
    elif t is list:
        fr.check_mutable(obj)
        if type(key) not in (int, bool):
            raise Fault("list indices must be integers")
    else:
        raise Fault(f"'{type_name(obj)}' object does not support item assignment")


def comp_loop(fr: Frame, gens: list[tuple[Assigner, Expr, list[Expr], int]], i: int, emit: Callable[[], None], elt_cost: int) -> None:
    target, iterable, ifs, cost = gens[i]
    last = i + 1 == len(gens)
    for item in det_iter(iterable(fr), fr):
        fr.steps += cost
        if fr.steps > fr.clock_at:
            fr.over()
        target(fr, item)
        if ifs and not all(c(fr) for c in ifs):
            continue
        if last:
            fr.steps += elt_cost
            emit()
        else:
            comp_loop(fr, gens, i + 1, emit, elt_cost)

