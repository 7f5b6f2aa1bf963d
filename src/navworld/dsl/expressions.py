"""Expression and assignment-target compilation of the DSL (whitelisted nodes → closures)."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import Any

from navworld.dsl.builtins import METHOD_NAMES, METHODS, call_fn
from navworld.dsl.limits import MAX_FLOAT, MAX_INT_BITS
from navworld.dsl.nodes import (
    BINOP_NAMES,
    FORBIDDEN_HINTS,
    MISSING,
    Assigner,
    Expr,
    charged,
    check_store,
    comp_loop,
    fail,
    identity,
    max_items,
    nodes,
)
from navworld.dsl.operators import binop, compare, unaryop
from navworld.dsl.runtime import Fault, Fn, Frame, type_name
from navworld.dsl.values import charge_hashing, det_iter, make_tuple, weigh

__all__ = ["ExprCompiler", "number_problem"]


def number_problem(v: object) -> str | None:
    """Why a constant is out of the numbers programs may hold (see ``limits``), or None."""
    if type(v) is int and v.bit_length() > MAX_INT_BITS:
        return f"integer constant too large (more than {MAX_INT_BITS} bits)"
    if type(v) is float and abs(v) > MAX_FLOAT and math.isfinite(v):
        return f"number constant too large (beyond ±2**{MAX_INT_BITS})"
    return None


class ExprCompiler:
    """Compiles expressions and assignment targets; :class:`~navworld.dsl.compiler` adds statements."""

    functions: dict[str, Fn]
    locals: set[str]

    # ---- assignment targets -----------------------------------------------------------------

    def _store_name(self, node: ast.Name) -> str:
        if node.id.startswith("__"):
            raise fail(node, f"names starting with '__' are not allowed ('{node.id}')")
        return node.id

    def target(self, node: ast.expr) -> Assigner:
        if isinstance(node, ast.Name):
            name = self._store_name(node)

            def set_name(fr: Frame, v: Any) -> None:
                fr.vars[name] = v

            return set_name
        if isinstance(node, (ast.Tuple, ast.List)):
            parts = [self.target(e) for e in node.elts]
            n = len(parts)

            def unpack(fr: Frame, v: Any) -> None:
                items = v if type(v) in (list, tuple) else list(det_iter(v, fr))
                if len(items) != n:
                    raise Fault(f"cannot unpack {len(items)} values into {n} names")
                for p, item in zip(parts, items, strict=True):
                    p(fr, item)

            return unpack
        if isinstance(node, ast.Subscript):
            if isinstance(node.slice, ast.Slice):
                raise fail(node, "slice assignment is not allowed")
            obj_e = self.expr(node.value)
            key_e = self.expr(node.slice)

            def set_item(fr: Frame, v: Any) -> None:
                obj = obj_e(fr)
                key = key_e(fr)
                check_store(fr, obj, key)
                obj[key] = v

            return set_item
        raise fail(node, f"cannot assign to {type(node).__name__}")

    # ---- expressions ------------------------------------------------------------------------

    def expr(self, node: ast.expr) -> Expr:
        method = getattr(self, "_e_" + type(node).__name__, None)
        if method is None:
            raise fail(node, FORBIDDEN_HINTS.get(type(node), f"'{type(node).__name__}' expressions are not allowed"))
        return method(node)

    def _e_Constant(self, node: ast.Constant) -> Expr:
        v = node.value
        if v is not None and type(v) not in (bool, int, float, str):
            raise fail(node, f"constants of type {type(v).__name__} are not allowed")
        problem = number_problem(v)
        if problem:
            raise fail(node, problem)
        if v == "metro":
            v = "transit"  # ChinaTravel's metro is our public transit (documented alias)
        return lambda fr: v

    def _e_Name(self, node: ast.Name) -> Expr:
        name = node.id
        if name.startswith("__"):
            raise fail(node, f"names starting with '__' are not allowed ('{name}')")
        fn = self.functions.get(name)
        if name in self.locals:

            def load_local(fr: Frame) -> Any:
                v = fr.vars.get(name, MISSING)
                if v is MISSING:
                    if fn is not None:
                        return fn
                    raise Fault(f"name '{name}' is used before it is assigned")
                return v

            return load_local
        if fn is None:
            raise fail(node, f"name '{name}' is not defined (not a concept function, builtin or assigned variable)")
        return lambda fr: fn

    def _e_Attribute(self, node: ast.Attribute) -> Expr:
        raise fail(node, f"attribute access is not allowed ('.{node.attr}'); only calls of whitelisted methods")

    def _e_BinOp(self, node: ast.BinOp) -> Expr:
        op_name = type(node.op).__name__
        if op_name not in BINOP_NAMES:
            raise fail(node, f"operator '{op_name}' is not allowed")
        op = binop(op_name)
        left = self.expr(node.left)
        right = self.expr(node.right)
        return lambda fr: op(left(fr), right(fr), fr)

    def _e_UnaryOp(self, node: ast.UnaryOp) -> Expr:
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.Not):
            return lambda fr: not operand(fr)
        op = unaryop(type(node.op).__name__)
        return lambda fr: op(operand(fr), fr)

    def _e_BoolOp(self, node: ast.BoolOp) -> Expr:
        values = [self.expr(v) for v in node.values]
        if isinstance(node.op, ast.And):

            def run_and(fr: Frame) -> Any:
                v: Any = True
                for e in values:
                    v = e(fr)
                    if not v:
                        return v
                return v

            return run_and

        def run_or(fr: Frame) -> Any:
            v: Any = False
            for e in values:
                v = e(fr)
                if v:
                    return v
            return v

        return run_or

    def _e_Compare(self, node: ast.Compare) -> Expr:
        left = self.expr(node.left)
        ops = [compare(type(o).__name__) for o in node.ops]
        rights = [self.expr(c) for c in node.comparators]
        if len(ops) == 1:
            op0, r0 = ops[0], rights[0]
            return lambda fr: op0(left(fr), r0(fr), fr)
        pairs = list(zip(ops, rights, strict=True))

        def run_chain(fr: Frame) -> Any:
            a = left(fr)
            for op, r in pairs:
                b = r(fr)
                if not op(a, b, fr):
                    return False
                a = b
            return True

        return run_chain

    def _e_IfExp(self, node: ast.IfExp) -> Expr:
        test, body, orelse = self.expr(node.test), self.expr(node.body), self.expr(node.orelse)
        return lambda fr: body(fr) if test(fr) else orelse(fr)

    def _e_List(self, node: ast.List) -> Expr:
        elts = [self.expr(e) for e in node.elts]
        return lambda fr: [e(fr) for e in elts]

    def _e_Tuple(self, node: ast.Tuple) -> Expr:
        elts = [self.expr(e) for e in node.elts]
        return lambda fr: make_tuple([e(fr) for e in elts], fr)

    def _e_Set(self, node: ast.Set) -> Expr:
        elts = [self.expr(e) for e in node.elts]

        def run_set(fr: Frame) -> Any:
            items = [e(fr) for e in elts]
            charge_hashing(items, fr)
            return set(items)

        return run_set

    def _e_Dict(self, node: ast.Dict) -> Expr:
        if any(k is None for k in node.keys):
            raise fail(node, "'**' unpacking is not allowed")
        pairs = [(self.expr(k), self.expr(v)) for k, v in zip(node.keys, node.values, strict=True) if k is not None]

        def run_dict(fr: Frame) -> Any:
            items = [(k(fr), v(fr)) for k, v in pairs]
            charge_hashing([k for k, _ in items], fr)
            return dict(items)

        return run_dict

    def _e_Subscript(self, node: ast.Subscript) -> Expr:
        obj_e = self.expr(node.value)
        if isinstance(node.slice, ast.Slice):
            parts = [self.expr(p) if p is not None else None for p in (node.slice.lower, node.slice.upper, node.slice.step)]

            def run_slice(fr: Frame) -> Any:
                obj = obj_e(fr)
                bounds = [p(fr) if p is not None else None for p in parts]
                for b in bounds:
                    if b is not None and type(b) not in (int, bool):
                        raise Fault("slice indices must be integers or None")
                if type(obj) not in (list, tuple, str, range):
                    raise Fault(f"'{type_name(obj)}' object cannot be sliced")
                out = obj[slice(*bounds)]
                fr.charge(1 + len(out) // (16 if type(out) is str else 1))
                return out

            return run_slice
        key_e = self.expr(node.slice)

        def run_index(fr: Frame) -> Any:
            obj = obj_e(fr)
            if type(obj) not in (list, tuple, str, dict, range):
                raise Fault(f"'{type_name(obj)}' object is not subscriptable")
            key = key_e(fr)
            if type(key) is tuple:
                fr.charge(weigh(key, fr))  # a dict lookup hashes the whole tuple
            return obj[key]

        return run_index

    def _e_Call(self, node: ast.Call) -> Expr:
        for kw in node.keywords:
            if kw.arg is None:
                raise fail(node, "'**' unpacking is not allowed")
        args = [self.expr(a) for a in node.args]
        kw_names = [kw.arg for kw in node.keywords if kw.arg is not None]
        kw_vals = [self.expr(kw.value) for kw in node.keywords]
        func = node.func
        if isinstance(func, ast.Attribute):
            return self._method_call(node, func, args, kw_names, kw_vals)
        if not isinstance(func, ast.Name):
            self.expr(func)  # report what is wrong inside first (e.g. a lambda)
            raise fail(node, "only named functions and whitelisted methods can be called")
        name = func.id
        fn = self.functions.get(name)
        if fn is not None and name not in self.locals:
            problem = fn.arity_error(len(args), kw_names)
            if problem:
                raise fail(node, problem)
            impl = fn.impl
            post = identity if fn.charges_itself else charged
            if not kw_names:
                if len(args) == 1:
                    a0 = args[0]
                    return lambda fr: post(fr, impl(fr, a0(fr)))
                return lambda fr: post(fr, impl(fr, *[a(fr) for a in args]))
            return lambda fr: post(
                fr, impl(fr, *[a(fr) for a in args], **{k: v(fr) for k, v in zip(kw_names, kw_vals, strict=True)})
            )
        f_e = self._e_Name(func)
        return lambda fr: call_fn(fr, f_e(fr), [a(fr) for a in args], {k: v(fr) for k, v in zip(kw_names, kw_vals, strict=True)})

    def _method_call(self, node: ast.Call, func: ast.Attribute, args: list[Expr], kw_names: list[str], kw_vals: list[Expr]) -> Expr:
        m = func.attr
        obj_e = self.expr(func.value)  # report what is wrong with the receiver first
        if m.startswith("_") or m not in METHOD_NAMES:
            raise fail(node, f"method '.{m}()' is not allowed (allowed: {', '.join(sorted(METHOD_NAMES))})")
        if kw_names:
            raise fail(node, f"method '.{m}()' takes no keyword arguments")

        def run_method(fr: Frame) -> Any:
            obj = obj_e(fr)
            table = METHODS.get(type(obj))
            fn = table.get(m) if table else None
            if fn is None:
                raise Fault(f"'{type_name(obj)}' object has no method '{m}'")
            values = [a(fr) for a in args]
            problem = fn.arity_error(len(values), ())
            if problem:
                raise Fault(problem)
            return fn.impl(fr, obj, *values)

        return run_method

    # ---- comprehensions ---------------------------------------------------------------------

    def _generators(self, node: ast.expr, gens: list[ast.comprehension]) -> list[tuple[Assigner, Expr, list[Expr], int]]:
        out = []
        for g in gens:
            if g.is_async:
                raise fail(node, "async comprehensions are not allowed")
            cost = 3 + sum(nodes(c) for c in g.ifs)
            out.append((self.target(g.target), self.expr(g.iter), [self.expr(c) for c in g.ifs], cost))
        return out

    def _comprehension(self, node: Any, emit_factory: Callable[[Frame, Any], Callable[[], None]], make: Callable[[], Any]) -> Expr:
        gens = self._generators(node, node.generators)
        elt_cost = nodes(getattr(node, "elt", None)) + nodes(getattr(node, "key", None)) + nodes(getattr(node, "value", None))

        def run(fr: Frame) -> Any:
            out = make()
            saved = fr.vars
            fr.vars = dict(saved)
            fr.charge(1 + len(saved) // 16)
            emit = emit_factory(fr, out)
            try:
                comp_loop(fr, gens, 0, emit, elt_cost)
            finally:
                fr.vars = saved
            return out

        return run

    def _e_ListComp(self, node: ast.ListComp) -> Expr:
        elt = self.expr(node.elt)

        def factory(fr: Frame, out: list[Any]) -> Callable[[], None]:
            def emit() -> None:
                if len(out) >= max_items():
                    raise Fault("list too large")
                out.append(elt(fr))

            return emit

        return self._comprehension(node, factory, list)

    _e_GeneratorExp = _e_ListComp

    def _e_SetComp(self, node: ast.SetComp) -> Expr:
        elt = self.expr(node.elt)

        def factory(fr: Frame, out: set[Any]) -> Callable[[], None]:
            def emit() -> None:
                if len(out) >= max_items():
                    raise Fault("set too large")
                v = elt(fr)
                if type(v) is tuple:
                    fr.charge(weigh(v, fr))
                out.add(v)

            return emit

        return self._comprehension(node, factory, set)

    def _e_DictComp(self, node: ast.DictComp) -> Expr:
        key, value = self.expr(node.key), self.expr(node.value)

        def factory(fr: Frame, out: dict[Any, Any]) -> Callable[[], None]:
            def emit() -> None:
                if len(out) >= max_items():
                    raise Fault("dict too large")
                k = key(fr)
                if type(k) is tuple:
                    fr.charge(weigh(k, fr))
                out[k] = value(fr)

            return emit

        return self._comprehension(node, factory, dict)

