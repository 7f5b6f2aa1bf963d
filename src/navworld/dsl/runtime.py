"""Runtime core of the DSL interpreter: the frame, the budget and the guarded operators.

Values a program can hold are plain data only: ``None``, ``bool``, ``int``, ``float``, ``str``,
``list``, ``tuple``, ``set``, ``dict``, ``range`` and the DSL's own functions (:class:`Fn`).
Every operator checks its operand types and the size of its result *before* computing it, and
charges steps in proportion to the work, so no operation can take unbounded time or memory.
Value-level helpers (weights, deterministic iteration, tuples, ``repr``) are in
:mod:`navworld.dsl.values`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from typing import Any

from navworld.core.errors import DSLError
from navworld.dsl.limits import CPU_TIME_S, MAX_FLOAT, MAX_INT_BITS, MAX_ITEMS, MAX_STR, WALL_CLOCK_S

__all__ = ["Fault", "Fn", "Frame", "check_float", "check_int", "check_number", "check_size", "type_name", "wrap_error"]


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

    __slots__ = ("clock_at", "cpu_deadline", "ctx", "deadline", "frozen", "limit", "steps", "vars")

    def __init__(self, variables: dict[str, Any], limit: int, frozen: frozenset[int], ctx: Any) -> None:
        self.vars = variables
        self.steps = 0
        self.limit = limit
        self.frozen = frozen
        self.ctx = ctx
        self.clock_at = min(limit, 4096)
        self.deadline = time.perf_counter() + WALL_CLOCK_S
        self.cpu_deadline = time.thread_time() + CPU_TIME_S

    def charge(self, n: int) -> None:
        """Add ``n`` steps; raise when the budget is exhausted."""
        self.steps += n
        if self.steps > self.clock_at:
            self.over()

    def over(self) -> None:
        """Called when ``steps`` passed the next checkpoint: enforce the budget and the clock."""
        if self.steps > self.limit:
            raise Fault(f"step budget of {self.limit} exceeded")
        if time.thread_time() > self.cpu_deadline:
            raise Fault(f"CPU time limit of {CPU_TIME_S:g} s exceeded")
        if time.perf_counter() > self.deadline:
            raise Fault(f"time limit of {WALL_CLOCK_S:g} s exceeded")
        self.clock_at = min(self.limit, self.steps + 4096)

    def remaining(self) -> int:
        """Steps left in the budget."""
        return self.limit - self.steps

    def check_mutable(self, obj: Any) -> None:
        """Refuse to modify a container that belongs to the plan (plans are read-only)."""
        if id(obj) in self.frozen:
            raise Fault("the plan is read-only: copy it first, e.g. list(x)")


def type_name(x: Any) -> str:
    """The DSL name of a value's type."""
    if isinstance(x, Fn):
        return "function"
    return type(x).__name__




def check_int(v: int) -> int:
    """``v`` when its magnitude is within :data:`MAX_INT_BITS` bits; a :class:`Fault` otherwise."""
    if v.bit_length() > MAX_INT_BITS:
        raise Fault(f"integer too large (more than {MAX_INT_BITS} bits)")
    return v


def check_float(v: float) -> float:
    """``v`` when it is within ±:data:`MAX_FLOAT` (or not finite); a :class:`Fault` otherwise."""
    if (v > MAX_FLOAT or v < -MAX_FLOAT) and math.isfinite(v):
        raise Fault(f"number too large (beyond ±2**{MAX_INT_BITS})")
    return v


def check_number(v: Any) -> Any:
    """Bound an int or float result (other values pass through)."""
    t = type(v)
    if t is int:
        return check_int(v)
    if t is float:
        return check_float(v)
    return v


def check_size(n: int, what: Any) -> None:
    if isinstance(what, str):
        if n > MAX_STR:
            raise Fault(f"string too long ({n} > {MAX_STR} characters)")
    elif n > MAX_ITEMS:
        raise Fault(f"{type_name(what)} too large ({n} > {MAX_ITEMS} items)")


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
