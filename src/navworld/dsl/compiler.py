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
from typing import Any

from navworld.core.errors import DSLError
from navworld.dsl.expressions import ExprCompiler
from navworld.dsl.limits import MAX_AST_DEPTH, MAX_AST_NODES
from navworld.dsl.nodes import BINOP_NAMES, FORBIDDEN_HINTS, MISSING, Stmt, check_store, fail, line_of, nodes
from navworld.dsl.operators import binop
from navworld.dsl.runtime import Fault, Fn, Frame, wrap_error
from navworld.dsl.values import det_iter

__all__ = ["compile_body", "parse_checked"]


_STMT_OVERHEAD = 3
"""Steps charged per statement execution on top of its node count (dispatch cost)."""
_BREAK = object()
_CONTINUE = object()

_STMTS = (ast.Expr, ast.Assign, ast.AugAssign, ast.For, ast.If, ast.Break, ast.Continue, ast.Pass)


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
            raise fail(node, f"program nested too deeply (more than {MAX_AST_DEPTH} levels)")
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1))
    return tree


def _assigned_names(tree: ast.AST) -> set[str]:
    names: set[str] = {"plan"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names



class _Compiler(ExprCompiler):
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
            raise fail(node, FORBIDDEN_HINTS.get(type(node), f"'{type(node).__name__}' statements are not allowed"))
        line = line_of(node)
        inner = self._stmt_inner(node)
        if isinstance(node, ast.For):
            cost = _STMT_OVERHEAD + nodes(node.iter)
        elif isinstance(node, ast.If):
            cost = _STMT_OVERHEAD + nodes(node.test)
        else:
            cost = _STMT_OVERHEAD + nodes(node)

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
                raise fail(node, f"'{'break' if isinstance(node, ast.Break) else 'continue'}' outside a loop")
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
            raise fail(node, "type comments are not allowed")
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
        if op_name not in BINOP_NAMES:
            raise fail(node, f"operator '{op_name}' is not allowed")
        op = binop(op_name)
        value = self.expr(node.value)
        if isinstance(node.target, ast.Name):
            name = self._store_name(node.target)

            def run_aug_name(fr: Frame) -> Any:
                cur = fr.vars.get(name, MISSING)
                if cur is MISSING:
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
                check_store(fr, obj, key)
                obj[key] = op(obj[key], value(fr), fr)
                return None

            return run_aug_sub
        raise fail(node, "augmented assignment needs a name or a subscript target")


def compile_body(tree: ast.Module, functions: dict[str, Fn]) -> Stmt:
    """Check ``tree`` against the whitelist and return its body as one closure."""
    comp = _Compiler(tree, functions)
    if not tree.body:
        return lambda fr: None
    return comp.block(tree.body)

