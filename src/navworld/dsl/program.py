"""Validated programs: constraints (assign ``result``) and preferences (``maximize X`` / ``minimize X``).

:func:`validate` parses, checks and compiles a source once; the result is cached by the SHA-256
of the source, so the hot path (many plans × the same programs) never re-parses. Invalid sources
are cached too and raise the same :class:`DSLError` again.
"""

from __future__ import annotations

import ast
import gc
import hashlib
import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Literal

from navworld.core.errors import DSLError
from navworld.core.plan import Plan
from navworld.dsl import concepts_transport as _transport  # noqa: F401  (registers concept functions)
from navworld.dsl import helpers as _helpers  # noqa: F401  (registers our concept functions)
from navworld.dsl.builtins import BUILTINS
from navworld.dsl.compiler import compile_body, parse_checked
from navworld.dsl.concepts import CONCEPTS
from navworld.dsl.context import DSLContext
from navworld.dsl.limits import MAX_SOURCE_BYTES
from navworld.dsl.runtime import Fn, Frame, wrap_error

__all__ = [
    "FUNCTIONS",
    "Program",
    "evaluate_constraint",
    "evaluate_preference",
    "run_constraint",
    "run_preference",
    "validate",
]

FUNCTIONS: dict[str, Fn] = {**BUILTINS, **CONCEPTS}
"""Every function name a program may call (safe builtins and concept functions)."""

_HEADER_RE = re.compile(r"^\s*(maximize|minimize)\b(.*)$", re.IGNORECASE)
_IDENT_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*$")
_CACHE_SIZE = 4096
_cache: OrderedDict[str, Program | DSLError] = OrderedDict()
_lock = threading.Lock()


@dataclass(frozen=True)
class Program:
    """A validated, compiled program.

    ``kind`` is ``"constraint"`` (assigns ``result``) or ``"preference"`` (``sense`` is
    ``"maximize"``/``"minimize"`` and the code assigns ``objective``).
    """

    source: str
    digest: str
    kind: Literal["constraint", "preference"]
    sense: Literal["maximize", "minimize"] | None = None
    objective: str | None = None
    body: Any = field(default=None, repr=False, compare=False)

    def execute(self, plan: Plan | dict[str, Any], ctx: DSLContext | None = None) -> dict[str, Any]:
        """Run the program on ``plan`` and return its variables (raises :class:`DSLError`)."""
        ctx = ctx if ctx is not None else DSLContext()
        data, frozen = ctx.plan_data(plan)
        fr = Frame({"plan": data}, ctx.step_limit, frozen, ctx)
        # The cyclic GC would traverse the host process's whole heap in the middle of a run,
        # a pause the step budget cannot bound; memory is bounded by the budget, and a cycle a
        # program builds is collected after the run.
        gc_was_enabled = gc.isenabled()
        if gc_was_enabled:
            gc.disable()
        try:
            self.body(fr)
        except DSLError:
            raise
        except Exception as exc:  # pragma: no cover - statements already wrap their errors
            raise wrap_error(exc, 0) from None
        finally:
            if gc_was_enabled:
                gc.enable()
        return fr.vars


def _split_header(source: str) -> tuple[str | None, str | None, str, int]:
    lines = source.split("\n")
    for i, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _HEADER_RE.match(line)
        if m is None:
            return None, None, source, 0
        ident = _IDENT_RE.match(m.group(2))
        if ident is None:
            raise DSLError(f"line {i + 1}: expected '{m.group(1).lower()} NAME' with a variable name")
        rest = "\n".join(lines[i + 1 :])
        return m.group(1).lower(), ident.group(1), rest, i + 1
    return None, None, source, 0


def _build(source: str, digest: str) -> Program:
    sense, objective, body_src, offset = _split_header(source)
    tree = parse_checked(body_src, offset)
    body = compile_body(tree, FUNCTIONS)
    assigned = {n.id for n in _walk_names(tree)}
    if sense is None:
        if "result" not in assigned:
            raise DSLError("line 1: the program never assigns 'result'")
        return Program(source, digest, "constraint", body=body)
    assert objective is not None
    if objective not in assigned:
        raise DSLError(f"line {offset}: the preference never assigns '{objective}'")
    return Program(source, digest, "preference", sense, objective, body)  # type: ignore[arg-type]


def _walk_names(tree: Any) -> list[Any]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def validate(source: str) -> Program:
    """Parse, check and compile ``source`` (cached); raise :class:`DSLError` naming line and reason."""
    if isinstance(source, Program):
        return source
    if not isinstance(source, str):
        raise DSLError(f"a program must be a string, got {type(source).__name__}")
    if len(source) > MAX_SOURCE_BYTES or len(source.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        raise DSLError(f"program too large (more than {MAX_SOURCE_BYTES} bytes)")
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
    with _lock:
        hit = _cache.get(digest)
        if hit is not None:
            _cache.move_to_end(digest)
    if hit is None:
        try:
            hit = _build(source, digest)
        except DSLError as exc:
            hit = exc
        except (RecursionError, MemoryError):
            hit = DSLError("program nested too deeply")
        with _lock:
            _cache[digest] = hit
            if len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    if isinstance(hit, DSLError):
        raise DSLError(str(hit))
    return hit


def run_constraint(program_or_source: Program | str, plan: Plan | dict[str, Any], ctx: DSLContext | None = None) -> bool:
    """Run a constraint and return the truth of its ``result`` (raises :class:`DSLError` on any error)."""
    program = validate(program_or_source)  # type: ignore[arg-type]
    if program.kind != "constraint":
        raise DSLError("a preference program (maximize/minimize) cannot be used as a constraint")
    variables = program.execute(plan, ctx)
    if "result" not in variables:
        raise DSLError("the program finished without assigning 'result'")
    return bool(variables["result"])


def evaluate_constraint(
    program_or_source: Program | str, plan: Plan | dict[str, Any], ctx: DSLContext | None = None
) -> tuple[bool | None, str | None]:
    """``(result, None)`` or ``(None, error message)``; never raises."""
    try:
        return run_constraint(program_or_source, plan, ctx), None
    except DSLError as exc:
        return None, str(exc)


def evaluate_preference(
    program_or_source: Program | str, plan: Plan | dict[str, Any], ctx: DSLContext | None = None
) -> tuple[float | None, str | None]:
    """``(value, None)`` or ``(None, error message)`` for a ``maximize``/``minimize`` program; never raises."""
    try:
        program = validate(program_or_source)  # type: ignore[arg-type]
        if program.kind != "preference" or program.objective is None:
            return None, "not a preference program (first line must be 'maximize NAME' or 'minimize NAME')"
        variables = program.execute(plan, ctx)
    except DSLError as exc:
        return None, str(exc)
    value = variables.get(program.objective)
    if type(value) not in (int, float, bool):
        return None, f"'{program.objective}' is not a number"
    value = float(value)
    if not math.isfinite(value):
        return None, f"'{program.objective}' is not finite"
    return value, None


def run_preference(source: Program | str, plan: Plan | dict[str, Any], ctx: DSLContext | None = None) -> float | None:
    """The objective value of a preference program, or None when it cannot be computed."""
    return evaluate_preference(source, plan, ctx)[0]
