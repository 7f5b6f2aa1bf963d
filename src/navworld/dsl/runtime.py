"""Runtime core of the DSL interpreter: the frame, the budget and the guarded operators.

Values a program can hold are plain data only: ``None``, ``bool``, ``int``, ``float``, ``str``,
``list``, ``tuple``, ``set``, ``dict``, ``range`` and the DSL's own functions (:class:`Fn`).
Every operator checks its operand types and the size of its result *before* computing it, and
charges steps in proportion to the work, so no operation can take unbounded time or memory.
Sets are iterated in sorted order so results never depend on Python's per-process string hashing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from typing import Any

from navworld.core.errors import DSLError
from navworld.dsl.limits import MAX_INT_BITS, MAX_ITEMS, MAX_STR, MAX_TUPLE_DEPTH, WALL_CLOCK_S

__all__ = ["Fault", "Fn", "Frame", "check_int", "check_size", "det_iter", "make_tuple", "safe_repr", "type_name", "wrap_error"]


class Fault(Exception):
    """A runtime error of the program (converted to :class:`DSLError` with the line number)."""


class Fn:
    """A function callable from DSL programs (builtin or concept function).

    ``impl`` receives the running :class:`Frame` first. ``min_args``/``max_args`` bound the
    positional arguments and ``kwargs`` names the accepted keywords; calls are checked against
    them when a program is validated (for direct calls) and at run time.
    """

    __slots__ = ("charges_itself", "impl", "kwargs", "max_args", "min_args", "name")

    def __init__(
        self,
        name: str,
        impl: Callable[..., Any],
        min_args: int,
        max_args: int,
        kwargs: tuple[str, ...] = (),
        charges_itself: bool = False,
    ) -> None:
        self.name = name
        self.impl = impl
        self.min_args = min_args
        self.max_args = max_args
        self.kwargs = kwargs
        self.charges_itself = charges_itself
        """Builtins charge their own work; other functions are charged for the size of their result."""

    def arity_error(self, n_args: int, kw_names: Iterable[str]) -> str | None:
        """The reason a call with ``n_args`` positional and ``kw_names`` keywords is invalid, or None."""
        for k in kw_names:
            if k not in self.kwargs:
                return f"{self.name}() got an unexpected keyword argument '{k}'"
        if n_args < self.min_args or n_args > self.max_args:
            if self.min_args == self.max_args:
                want = f"{self.min_args}"
            elif self.max_args >= 99:
                want = f"at least {self.min_args}"
            else:
                want = f"{self.min_args} to {self.max_args}"
            return f"{self.name}() takes {want} positional argument(s) ({n_args} given)"
        return None

    def __repr__(self) -> str:
        return f"<function {self.name}>"


class Frame:
    """The state of one program run: variables, step counter, frozen plan containers, context."""

    __slots__ = ("clock_at", "ctx", "deadline", "frozen", "limit", "steps", "vars")

    def __init__(self, variables: dict[str, Any], limit: int, frozen: frozenset[int], ctx: Any) -> None:
        self.vars = variables
        self.steps = 0
        self.limit = limit
        self.frozen = frozen
        self.ctx = ctx
        self.clock_at = min(limit, 4096)
        self.deadline = time.perf_counter() + WALL_CLOCK_S

    def charge(self, n: int) -> None:
        """Add ``n`` steps; raise when the budget is exhausted."""
        self.steps += n
        if self.steps > self.clock_at:
            self.over()

    def over(self) -> None:
        """Called when ``steps`` passed the next checkpoint: enforce the budget and the clock."""
        if self.steps > self.limit:
            raise Fault(f"step budget of {self.limit} exceeded")
        if time.perf_counter() > self.deadline:
            raise Fault(f"time limit of {WALL_CLOCK_S:g} s exceeded")
        self.clock_at = min(self.limit, self.steps + 4096)

    def check_mutable(self, obj: Any) -> None:
        """Refuse to modify a container that belongs to the plan (plans are read-only)."""
        if id(obj) in self.frozen:
            raise Fault("the plan is read-only: copy it first, e.g. list(x)")


def type_name(x: Any) -> str:
    """The DSL name of a value's type."""
    if isinstance(x, Fn):
        return "function"
    return type(x).__name__


_NUM = (int, float, bool)
_SEQ = (str, list, tuple)
_FLAT = (str, int, float, bool, type(None))


def check_int(v: int) -> int:
    if v.bit_length() > MAX_INT_BITS:
        raise Fault(f"integer too large (more than {MAX_INT_BITS} bits)")
    return v


def check_size(n: int, what: Any) -> None:
    if isinstance(what, str):
        if n > MAX_STR:
            raise Fault(f"string too long ({n} > {MAX_STR} characters)")
    elif n > MAX_ITEMS:
        raise Fault(f"{type_name(what)} too large ({n} > {MAX_ITEMS} items)")


def _sort_key(v: Any) -> tuple[str, Any]:
    if type(v) in _NUM:
        return ("0", v)
    if type(v) is str:
        return ("1", v)
    return ("2" + type(v).__name__, repr(v))


def det_iter(obj: Any, fr: Frame) -> Iterable[Any]:
    """Iterate ``obj`` deterministically (sets in sorted order); charge its size; reject non-iterables."""
    t = type(obj)
    if t in (list, tuple, str, dict):
        fr.charge(1 + len(obj) // 64)
        return obj
    if t is range:
        return obj
    if t is set:
        fr.charge(1 + len(obj))
        try:
            return sorted(obj)
        except TypeError:
            return sorted(obj, key=_sort_key)
    raise Fault(f"{type_name(obj)} is not iterable")


def _tuple_depth(t: tuple[Any, ...], fr: Frame) -> int:
    """Depth of tuple nesting (tuples inside tuples), visiting each distinct tuple once."""
    depth = 1
    seen: set[int] = set()
    level = [t]
    while level:
        nxt: list[tuple[Any, ...]] = []
        for node in level:
            fr.charge(1 + len(node) // 8)
            for e in node:
                if type(e) is tuple and id(e) not in seen:
                    seen.add(id(e))
                    nxt.append(e)
        if nxt:
            depth += 1
            if depth > MAX_TUPLE_DEPTH:
                return depth
        level = nxt
    return depth


def make_tuple(items: Iterable[Any], fr: Frame) -> tuple[Any, ...]:
    """Build a tuple, refusing tuple nesting deeper than :data:`MAX_TUPLE_DEPTH`."""
    t = tuple(items)
    check_size(len(t), t)
    fr.charge(1 + len(t) // 8)
    for e in t:
        if type(e) is tuple:
            if _tuple_depth(t, fr) > MAX_TUPLE_DEPTH:
                raise Fault(f"tuples nested deeper than {MAX_TUPLE_DEPTH} levels")
            break
    return t


def safe_repr(x: Any, fr: Frame, limit: int = MAX_STR) -> str:
    """A deterministic ``repr`` bounded to ``limit`` characters (sets and dicts printed sorted/in order)."""
    out: list[str] = []
    size = 0

    def emit(s: str) -> None:
        nonlocal size
        size += len(s)
        if size > limit:
            raise Fault(f"string too long (more than {limit} characters)")
        out.append(s)

    def walk(v: Any, depth: int) -> None:
        if depth > 50:
            raise Fault("value nested too deeply to convert to a string")
        fr.charge(4)
        t = type(v)
        if t in (list, tuple) and all(type(e) in _FLAT for e in v):
            fr.charge(len(v))
            emit(repr(v))
            return
        if t in (list, tuple):
            emit("[" if t is list else "(")
            for i, e in enumerate(v):
                if i:
                    emit(", ")
                walk(e, depth + 1)
            emit("]" if t is list else ("," if len(v) == 1 else "") + ")")
        elif t is set:
            if not v:
                emit("set()")
                return
            emit("{")
            for i, e in enumerate(det_iter(v, fr)):
                if i:
                    emit(", ")
                walk(e, depth + 1)
            emit("}")
        elif t is dict:
            emit("{")
            for i, (k, e) in enumerate(v.items()):
                if i:
                    emit(", ")
                walk(k, depth + 1)
                emit(": ")
                walk(e, depth + 1)
            emit("}")
        elif t is float and not math.isfinite(v):
            emit(repr(v))
        else:
            emit(repr(v))

    walk(x, 0)
    return "".join(out)


def wrap_error(exc: BaseException, line: int) -> DSLError:
    """Turn any runtime exception into a :class:`DSLError` naming ``line``."""
    if isinstance(exc, DSLError):
        return exc
    if isinstance(exc, Fault):
        msg = str(exc)
    elif isinstance(exc, RecursionError):
        msg = "value nested too deeply"
    elif isinstance(exc, MemoryError):
        msg = "out of memory"
    else:
        text = str(exc)
        msg = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    if len(msg) > 300:
        msg = msg[:300] + "…"
    return DSLError(f"line {line}: {msg}")
