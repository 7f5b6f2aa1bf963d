"""A ChinaTravel-compatible DSL mode: their builtins and concept-function quirks, our interpreter.

ChinaTravel runs ``hard_logic_py`` through Python's ``exec`` with builtins ``{"set": set}`` and the concept functions as locals
(``{set, list}`` for preferences) and scores any exception as False. To reproduce their LPR, this
mode keeps navworld's safe interpreter (parsed AST, whitelist, step budget — never ``exec``) but
changes what programs see (``reference/chinatravel-compat.md`` §2.1, ChinaTravel ``main``):

* **builtins**: only ``set`` (``set`` and ``list`` for preferences); ``len``, ``sum``, ``range`` …
  are undefined (NameError → False). Undefined names fail when reached, not when validated.
* **comprehensions**: like ``exec`` with separate locals on Python ≤ 3.11, a comprehension body
  cannot see the program's variables or concept functions (only its own targets and the
  builtins); its outermost iterable is evaluated outside, as in Python.
* **the plan is the raw JSON**: ``metro`` stays ``metro`` and missing keys stay missing.
* **concept functions** with their quirks: ``intercity_transport_type`` returns the activity's
  ``type``; the ``node=``/``mode=`` filters of ``innercity_transport_cost``/``_distance`` compare
  the leg's ``type`` key (so a filter gives 0) and ``innercity_transport_time`` ignores ``mode``;
  ``metro_tickets`` reads ``legs[1]``; ``taxi_cars`` returns ``"invalid input"`` without ``cars``;
  ``attraction_type``/``accommodation_type`` return ``""`` when unknown (``restaurant_type``:
  ``"empty"``); ``activity_time`` does not wrap past midnight; ``dayactivities`` indexes like
  Python (``IndexError`` past the end); ``poi_distance`` is ``goto(...)[0]["distance"]`` (for
  metro: the first walk only).

Database lookups need a world with ChinaTravel's tables (:class:`~navworld.world.chinatravel.ChinaTravelWorld`).
"""

from __future__ import annotations

import ast
import copy
import hashlib
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from navworld.core.errors import DSLError
from navworld.dsl.builtins import BUILTINS
from navworld.dsl.chinatravel_concepts import CT_CITIES, CT_CONCEPTS
from navworld.dsl.compiler import _Compiler, parse_checked
from navworld.dsl.context import DSLContext, _container_ids
from navworld.dsl.expressions import number_problem
from navworld.dsl.limits import MAX_SOURCE_BYTES
from navworld.dsl.nodes import Assigner, Expr, fail
from navworld.dsl.runtime import Fault, Fn, Frame, wrap_error

__all__ = [
    "CT_CITIES",
    "CT_CONCEPTS",
    "ChinaTravelContext",
    "ct_constraint",
    "ct_value",
]

_CONSTRAINT_FUNCTIONS: dict[str, Fn] = {"set": BUILTINS["set"], **CT_CONCEPTS}
_PREFERENCE_FUNCTIONS: dict[str, Fn] = {"list": BUILTINS["list"], **_CONSTRAINT_FUNCTIONS}


class _CtCompiler(_Compiler):
    """navworld's compiler with ChinaTravel's name resolution (see the module docstring)."""

    def __init__(self, tree: ast.Module, functions: dict[str, Fn], builtins: frozenset[str]) -> None:
        super().__init__(tree, functions)
        self.builtins = builtins
        self.scopes: list[set[str]] = []
        """Target names of the comprehensions being compiled (innermost last)."""

    def _e_Constant(self, node: ast.Constant) -> Expr:
        v = node.value
        if v is not None and type(v) not in (bool, int, float, str):
            raise fail(node, f"constants of type {type(v).__name__} are not allowed")
        if number_problem(v):
            raise fail(node, str(number_problem(v)))  # bounded numbers, as in navworld's mode
        return lambda fr: v

    def _e_Name(self, node: ast.Name) -> Expr:
        name = node.id
        if name.startswith("__"):
            raise fail(node, f"names starting with '__' are not allowed ('{name}')")
        fn = self.functions.get(name)
        if self.scopes:  # inside a comprehension body: its own targets and the builtins only
            if any(name in s for s in self.scopes):
                return _variable(name, None)
            if name in self.builtins and fn is not None:
                return lambda fr: fn
            return _undefined(name)
        if name in self.locals:
            return _variable(name, fn)
        if fn is None:
            return _undefined(name)
        return lambda fr: fn

    def _e_Call(self, node: ast.Call) -> Expr:
        func = node.func
        if self.scopes and isinstance(func, ast.Name) and func.id not in self.builtins:
            if not any(func.id in sc for sc in self.scopes):
                for a in node.args:
                    self.expr(a)  # still reject what is not allowed inside
                return _undefined(func.id)
        return super()._e_Call(node)

    def _generators(self, node: ast.expr, gens: list[ast.comprehension]) -> list[tuple[Assigner, Expr, list[Expr], int]]:
        out = []
        for i, g in enumerate(gens):
            if g.is_async:
                raise fail(node, "async comprehensions are not allowed")
            if i == 0:
                saved = self.scopes.pop()
                iterable = self.expr(g.iter)  # the outermost iterable runs in the enclosing scope
                self.scopes.append(saved)
            else:
                iterable = self.expr(g.iter)
            target = self.target(g.target)
            ifs = [self.expr(c) for c in g.ifs]
            out.append((target, iterable, ifs, 3 + sum(1 for _ in ast.walk(g))))
        return out

    def _scoped(self, node: Any, method: Callable[[Any], Expr]) -> Expr:
        names = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        self.scopes.append(names)
        try:
            return method(node)
        finally:
            self.scopes.pop()

    def _e_ListComp(self, node: ast.ListComp) -> Expr:
        return self._scoped(node, super()._e_ListComp)

    _e_GeneratorExp = _e_ListComp

    def _e_SetComp(self, node: ast.SetComp) -> Expr:
        return self._scoped(node, super()._e_SetComp)

    def _e_DictComp(self, node: ast.DictComp) -> Expr:
        return self._scoped(node, super()._e_DictComp)


_MISSING = object()


def _variable(name: str, fallback: Fn | None) -> Expr:
    def load(fr: Frame) -> Any:
        v = fr.vars.get(name, _MISSING)
        if v is _MISSING:
            if fallback is not None:
                return fallback  # a concept function the program has not (yet) shadowed
            raise Fault(f"NameError: name '{name}' is not defined")
        return v

    return load


def _undefined(name: str) -> Expr:
    def fault(fr: Frame) -> Any:
        raise Fault(f"NameError: name '{name}' is not defined")

    return fault


class ChinaTravelContext(DSLContext):
    """A context whose programs see the raw plan JSON (ChinaTravel's view), with a ChinaTravel world."""

    def plan_data(self, plan: Any) -> tuple[dict[str, Any], frozenset[int]]:
        """A private deep copy of the raw plan (any JSON value; ``{}`` for a missing plan)."""
        if plan is self._plan_obj and self._plan_data is not None:
            return self._plan_data, self._frozen
        data = _plain(plan if plan is not None else {})
        self._plan_obj = plan
        self._plan_data = data  # type: ignore[assignment]
        self._frozen = _container_ids(data)
        self.plan_cost = 1 + len(self._frozen)
        self.memo.clear()
        return data, self._frozen  # type: ignore[return-value]


def _plain(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json", exclude_none=True)
    try:
        return copy.deepcopy(value)
    except (RecursionError, TypeError) as exc:
        raise DSLError(f"not a JSON plan: {exc}") from None


_CACHE: OrderedDict[tuple[str, str], Any] = OrderedDict()
_LOCK = threading.Lock()


def _compiled(source: str, kind: str) -> Any:
    """The compiled body of ``source`` (cached), or the :class:`DSLError` it raises."""
    if not isinstance(source, str):
        return DSLError(f"a program must be a string, got {type(source).__name__}")
    if len(source.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        return DSLError("program too large")
    key = (kind, hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest())
    with _LOCK:
        hit = _CACHE.get(key)
    if hit is None:
        functions = _PREFERENCE_FUNCTIONS if kind == "preference" else _CONSTRAINT_FUNCTIONS
        builtins = frozenset(("set", "list") if kind == "preference" else ("set",))
        try:
            tree = parse_checked(source)
            comp = _CtCompiler(tree, functions, builtins)
            hit = comp.block(tree.body) if tree.body else (lambda fr: None)
        except DSLError as exc:
            hit = exc
        except (RecursionError, MemoryError):
            hit = DSLError("program nested too deeply")
        with _LOCK:
            _CACHE[key] = hit
            if len(_CACHE) > 4096:
                _CACHE.popitem(last=False)
    return hit


def _run(source: str, plan: Any, ctx: ChinaTravelContext, kind: str) -> dict[str, Any]:
    body = _compiled(source, kind)
    if isinstance(body, DSLError):
        raise DSLError(str(body))
    data, frozen = ctx.plan_data(plan)
    fr = Frame({"plan": data}, ctx.step_limit, frozen, ctx)
    try:
        body(fr)
    except DSLError:
        raise
    except Exception as exc:  # pragma: no cover - statements wrap their own errors
        raise wrap_error(exc, 0) from None
    return fr.vars


def ct_constraint(source: str, plan: Any, ctx: ChinaTravelContext) -> tuple[bool, str | None]:
    """ChinaTravel's verdict on one ``hard_logic_py`` program: ``bool(result)``, any error → False."""
    try:
        variables = _run(source, plan, ctx, "constraint")
    except DSLError as exc:
        return False, str(exc)
    try:
        return bool(variables.get("result", False)), None
    except Exception as exc:  # bool() of an odd value
        return False, str(exc)


def ct_value(source: str, plan: Any, ctx: ChinaTravelContext, kind: str = "constraint") -> tuple[float | None, str | None]:
    """The numeric ``result`` of a scoring program (their DAV/ATT/DDR programs), or ``(None, error)``."""
    try:
        variables = _run(source, plan, ctx, kind)
    except DSLError as exc:
        return None, str(exc)
    value = variables.get("result", False)
    if type(value) not in (int, float, bool) or (type(value) is float and not math.isfinite(value)):
        return None, "result is not a number"
    return float(value), None
