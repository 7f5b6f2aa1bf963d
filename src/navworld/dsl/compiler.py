"""Validate a program's syntax tree against the whitelist and turn it into closures.

The source is parsed with :func:`ast.parse` (parsing only; nothing is compiled to bytecode or
executed). Every node is checked against a whitelist and then translated into a tree of small
Python closures that implement exactly the whitelisted semantics through the guarded operators
of :mod:`navworld.dsl.runtime`. Each statement charges the step budget with the number of nodes
it evaluates; loops and comprehensions charge per iteration; bulk operations charge per item.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable
from typing import Any

from navworld.core.errors import DSLError
from navworld.dsl.builtins import METHOD_NAMES, METHODS, call_fn
from navworld.dsl.limits import MAX_AST_DEPTH, MAX_AST_NODES, MAX_INT_BITS, MAX_ITEMS
from navworld.dsl.runtime import (
    Fault,
    Fn,
    Frame,
    binop,
    compare,
    det_iter,
    make_tuple,
    type_name,
    unaryop,
    wrap_error,
)

__all__ = ["compile_body", "parse_checked"]

Expr = Callable[[Frame], Any]
Stmt = Callable[[Frame], Any]
Assigner = Callable[[Frame, Any], None]

_STMT_OVERHEAD = 3
"""Steps charged per statement execution on top of its node count (dispatch cost)."""
_BREAK = object()
_CONTINUE = object()
_MISSING = object()

_STMTS = (ast.Expr, ast.Assign, ast.AugAssign, ast.For, ast.If, ast.Break, ast.Continue, ast.Pass)
_FORBIDDEN_HINTS: dict[type, str] = {
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


def _line(node: ast.AST) -> int:
    return getattr(node, "lineno", 0) or 0


def _fail(node: ast.AST, msg: str) -> DSLError:
    return DSLError(f"line {_line(node)}: {msg}")


def parse_checked(source: str, line_offset: int = 0) -> ast.Module:
    """Parse ``source`` and check size and nesting limits (no whitelist yet)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings of odd sources are not ours to print
            tree = ast.parse(source, mode="exec")
    except SyntaxError as exc:
        raise DSLError(f"line {(exc.lineno or 0) + line_offset}: syntax error: {exc.msg}") from None
    except (RecursionError, MemoryError):
        raise DSLError("program nested too deeply") from None
    except ValueError as exc:
        raise DSLError(f"invalid source: {exc}") from None
    if line_offset:
        ast.increment_lineno(tree, line_offset)
    count = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_AST_NODES:
            raise DSLError(f"program too large (more than {MAX_AST_NODES} syntax nodes)")
        if depth > MAX_AST_DEPTH:
            raise _fail(node, f"program nested too deeply (more than {MAX_AST_DEPTH} levels)")
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1))
    return tree


def _assigned_names(tree: ast.AST) -> set[str]:
    names: set[str] = {"plan"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


_COUNTED = (ast.expr, ast.stmt, ast.comprehension, ast.keyword)


def _nodes(node: ast.AST | None) -> int:
    """Evaluated nodes of a subtree (expressions, statements; not contexts or operator tokens)."""
    if node is None:
        return 0
    return sum(1 for n in ast.walk(node) if isinstance(n, _COUNTED))


class _Compiler:
    """Translates one validated module into closures."""

    def __init__(self, tree: ast.Module, functions: dict[str, Fn]) -> None:
        self.functions = functions
        self.locals = _assigned_names(tree)
        self.loop_depth = 0

    # ---- statements -----------------------------------------------------------------------

    def block(self, stmts: list[ast.stmt]) -> Stmt:
        compiled = [self.stmt(s) for s in stmts]
        if len(compiled) == 1:
            return compiled[0]

        def run(fr: Frame) -> Any:
            for s in compiled:
                sig = s(fr)
                if sig is not None:
                    return sig
            return None

        return run

    def stmt(self, node: ast.stmt) -> Stmt:
        if not isinstance(node, _STMTS):
            raise _fail(node, _FORBIDDEN_HINTS.get(type(node), f"'{type(node).__name__}' statements are not allowed"))
        line = _line(node)
        inner = self._stmt_inner(node)
        if isinstance(node, ast.For):
            cost = _STMT_OVERHEAD + _nodes(node.iter)
        elif isinstance(node, ast.If):
            cost = _STMT_OVERHEAD + _nodes(node.test)
        else:
            cost = _STMT_OVERHEAD + _nodes(node)

        def run(fr: Frame) -> Any:
            fr.steps += cost
            try:
                if fr.steps > fr.clock_at:
                    fr.over()
                return inner(fr)
            except DSLError:
                raise
            except Exception as exc:
                raise wrap_error(exc, line) from None

        return run

    def _stmt_inner(self, node: ast.stmt) -> Stmt:
        if isinstance(node, ast.Pass):
            return lambda fr: None
        if isinstance(node, (ast.Break, ast.Continue)):
            if self.loop_depth == 0:
                raise _fail(node, f"'{'break' if isinstance(node, ast.Break) else 'continue'}' outside a loop")
            sig = _BREAK if isinstance(node, ast.Break) else _CONTINUE
            return lambda fr: sig
        if isinstance(node, ast.Expr):
            e = self.expr(node.value)

            def run_expr(fr: Frame) -> Any:
                e(fr)
                return None

            return run_expr
        if isinstance(node, ast.Assign):
            value = self.expr(node.value)
            targets = [self.target(t) for t in node.targets]
            if len(targets) == 1:
                t0 = targets[0]

                def run_assign1(fr: Frame) -> Any:
                    t0(fr, value(fr))
                    return None

                return run_assign1

            def run_assign(fr: Frame) -> Any:
                v = value(fr)
                for t in targets:
                    t(fr, v)
                return None

            return run_assign
        if isinstance(node, ast.AugAssign):
            return self._augassign(node)
        if isinstance(node, ast.If):
            test = self.expr(node.test)
            body = self.block(node.body)
            orelse = self.block(node.orelse) if node.orelse else None

            def run_if(fr: Frame) -> Any:
                if test(fr):
                    return body(fr)
                if orelse is not None:
                    return orelse(fr)
                return None

            return run_if
        assert isinstance(node, ast.For)
        return self._for(node)

    def _for(self, node: ast.For) -> Stmt:
        if node.type_comment:
            raise _fail(node, "type comments are not allowed")
        target = self.target(node.target)
        iterable = self.expr(node.iter)
        self.loop_depth += 1
        body = self.block(node.body)
        self.loop_depth -= 1
        orelse = self.block(node.orelse) if node.orelse else None

        def run_for(fr: Frame) -> Any:
            for item in det_iter(iterable(fr), fr):
                fr.steps += 1
                if fr.steps > fr.clock_at:
                    fr.over()
                target(fr, item)
                sig = body(fr)
                if sig is _BREAK:
                    return None
            if orelse is not None:
                return orelse(fr)
            return None

        return run_for

    def _augassign(self, node: ast.AugAssign) -> Stmt:
        op_name = type(node.op).__name__
        if op_name not in _BINOP_NAMES:
            raise _fail(node, f"operator '{op_name}' is not allowed")
        op = binop(op_name)
        value = self.expr(node.value)
        if isinstance(node.target, ast.Name):
            name = self._store_name(node.target)

            def run_aug_name(fr: Frame) -> Any:
                cur = fr.vars.get(name, _MISSING)
                if cur is _MISSING:
                    raise Fault(f"name '{name}' is not defined")
                fr.vars[name] = op(cur, value(fr), fr)
                return None

            return run_aug_name
        if isinstance(node.target, ast.Subscript) and not isinstance(node.target.slice, ast.Slice):
            obj_e = self.expr(node.target.value)
            key_e = self.expr(node.target.slice)

            def run_aug_sub(fr: Frame) -> Any:
                obj = obj_e(fr)
                key = key_e(fr)
                _check_store(fr, obj, key)
                obj[key] = op(obj[key], value(fr), fr)
                return None

            return run_aug_sub
        raise _fail(node, "augmented assignment needs a name or a subscript target")

    # ---- assignment targets -----------------------------------------------------------------

    def _store_name(self, node: ast.Name) -> str:
        if node.id.startswith("__"):
            raise _fail(node, f"names starting with '__' are not allowed ('{node.id}')")
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
                raise _fail(node, "slice assignment is not allowed")
            obj_e = self.expr(node.value)
            key_e = self.expr(node.slice)

            def set_item(fr: Frame, v: Any) -> None:
                obj = obj_e(fr)
                key = key_e(fr)
                _check_store(fr, obj, key)
                obj[key] = v

            return set_item
        raise _fail(node, f"cannot assign to {type(node).__name__}")

    # ---- expressions ------------------------------------------------------------------------

    def expr(self, node: ast.expr) -> Expr:
        method = getattr(self, "_e_" + type(node).__name__, None)
        if method is None:
            raise _fail(node, _FORBIDDEN_HINTS.get(type(node), f"'{type(node).__name__}' expressions are not allowed"))
        return method(node)

    def _e_Constant(self, node: ast.Constant) -> Expr:
        v = node.value
        if v is not None and type(v) not in (bool, int, float, str):
            raise _fail(node, f"constants of type {type(v).__name__} are not allowed")
        if type(v) is int and v.bit_length() > MAX_INT_BITS:
            raise _fail(node, "integer constant too large")
        if v == "metro":
            v = "transit"  # ChinaTravel's metro is our public transit (documented alias)
        return lambda fr: v

    def _e_Name(self, node: ast.Name) -> Expr:
        name = node.id
        if name.startswith("__"):
            raise _fail(node, f"names starting with '__' are not allowed ('{name}')")
        fn = self.functions.get(name)
        if name in self.locals:

            def load_local(fr: Frame) -> Any:
                v = fr.vars.get(name, _MISSING)
                if v is _MISSING:
                    if fn is not None:
                        return fn
                    raise Fault(f"name '{name}' is used before it is assigned")
                return v

            return load_local
        if fn is None:
            raise _fail(node, f"name '{name}' is not defined (not a concept function, builtin or assigned variable)")
        return lambda fr: fn

    def _e_Attribute(self, node: ast.Attribute) -> Expr:
        raise _fail(node, f"attribute access is not allowed ('.{node.attr}'); only calls of whitelisted methods")

    def _e_BinOp(self, node: ast.BinOp) -> Expr:
        op_name = type(node.op).__name__
        if op_name not in _BINOP_NAMES:
            raise _fail(node, f"operator '{op_name}' is not allowed")
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
        return lambda fr: {e(fr) for e in elts}

    def _e_Dict(self, node: ast.Dict) -> Expr:
        if any(k is None for k in node.keys):
            raise _fail(node, "'**' unpacking is not allowed")
        pairs = [(self.expr(k), self.expr(v)) for k, v in zip(node.keys, node.values, strict=True) if k is not None]
        return lambda fr: {k(fr): v(fr) for k, v in pairs}

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
            return obj[key_e(fr)]

        return run_index

    def _e_Call(self, node: ast.Call) -> Expr:
        for kw in node.keywords:
            if kw.arg is None:
                raise _fail(node, "'**' unpacking is not allowed")
        args = [self.expr(a) for a in node.args]
        kw_names = [kw.arg for kw in node.keywords if kw.arg is not None]
        kw_vals = [self.expr(kw.value) for kw in node.keywords]
        func = node.func
        if isinstance(func, ast.Attribute):
            return self._method_call(node, func, args, kw_names, kw_vals)
        if not isinstance(func, ast.Name):
            self.expr(func)  # report what is wrong inside first (e.g. a lambda)
            raise _fail(node, "only named functions and whitelisted methods can be called")
        name = func.id
        fn = self.functions.get(name)
        if fn is not None and name not in self.locals:
            problem = fn.arity_error(len(args), kw_names)
            if problem:
                raise _fail(node, problem)
            impl = fn.impl
            post = _identity if fn.charges_itself else _charged
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
            raise _fail(node, f"method '.{m}()' is not allowed (allowed: {', '.join(sorted(METHOD_NAMES))})")
        if kw_names:
            raise _fail(node, f"method '.{m}()' takes no keyword arguments")

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
                raise _fail(node, "async comprehensions are not allowed")
            cost = 3 + sum(_nodes(c) for c in g.ifs)
            out.append((self.target(g.target), self.expr(g.iter), [self.expr(c) for c in g.ifs], cost))
        return out

    def _comprehension(self, node: Any, emit_factory: Callable[[Frame, Any], Callable[[], None]], make: Callable[[], Any]) -> Expr:
        gens = self._generators(node, node.generators)
        elt_cost = _nodes(getattr(node, "elt", None)) + _nodes(getattr(node, "key", None)) + _nodes(getattr(node, "value", None))

        def run(fr: Frame) -> Any:
            out = make()
            saved = fr.vars
            fr.vars = dict(saved)
            fr.charge(1 + len(saved) // 16)
            emit = emit_factory(fr, out)
            try:
                _comp_loop(fr, gens, 0, emit, elt_cost)
            finally:
                fr.vars = saved
            return out

        return run

    def _e_ListComp(self, node: ast.ListComp) -> Expr:
        elt = self.expr(node.elt)

        def factory(fr: Frame, out: list[Any]) -> Callable[[], None]:
            def emit() -> None:
                if len(out) >= _max_items():
                    raise Fault("list too large")
                out.append(elt(fr))

            return emit

        return self._comprehension(node, factory, list)

    _e_GeneratorExp = _e_ListComp

    def _e_SetComp(self, node: ast.SetComp) -> Expr:
        elt = self.expr(node.elt)

        def factory(fr: Frame, out: set[Any]) -> Callable[[], None]:
            def emit() -> None:
                if len(out) >= _max_items():
                    raise Fault("set too large")
                out.add(elt(fr))

            return emit

        return self._comprehension(node, factory, set)

    def _e_DictComp(self, node: ast.DictComp) -> Expr:
        key, value = self.expr(node.key), self.expr(node.value)

        def factory(fr: Frame, out: dict[Any, Any]) -> Callable[[], None]:
            def emit() -> None:
                if len(out) >= _max_items():
                    raise Fault("dict too large")
                out[key(fr)] = value(fr)

            return emit

        return self._comprehension(node, factory, dict)


_BINOP_NAMES = frozenset({"Add", "Sub", "Mult", "Div", "FloorDiv", "Mod", "Pow", "BitOr", "BitAnd", "BitXor", "LShift", "RShift"})


def _max_items() -> int:
    return MAX_ITEMS


def _identity(fr: Frame, result: Any) -> Any:
    return result


def _charged(fr: Frame, result: Any) -> Any:
    t = type(result)
    if t is list or t is set or t is dict or t is tuple:
        fr.charge(1 + len(result))
    return result


def _check_store(fr: Frame, obj: Any, key: Any) -> None:
    t = type(obj)
    if t is dict:
        fr.check_mutable(obj)
        if key not in obj and len(obj) >= _max_items():
            raise Fault("dict too large")
    elif t is list:
        fr.check_mutable(obj)
        if type(key) not in (int, bool):
            raise Fault("list indices must be integers")
    else:
        raise Fault(f"'{type_name(obj)}' object does not support item assignment")


def _comp_loop(fr: Frame, gens: list[tuple[Assigner, Expr, list[Expr], int]], i: int, emit: Callable[[], None], elt_cost: int) -> None:
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
            _comp_loop(fr, gens, i + 1, emit, elt_cost)


def compile_body(tree: ast.Module, functions: dict[str, Fn]) -> Stmt:
    """Check ``tree`` against the whitelist and return its body as one closure."""
    comp = _Compiler(tree, functions)
    if not tree.body:
        return lambda fr: None
    return comp.block(tree.body)
