"""Guarded operators of the DSL: every operator checks operand types and result size first."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

from navworld.dsl.limits import MAX_INT_BITS
from navworld.dsl.runtime import Fault, Frame, check_float, check_int, check_size, type_name
from navworld.dsl.values import charge_hashing, weigh

__all__ = ["binop", "compare", "unaryop"]

_SEQ = (str, list, tuple)
_NUM = (int, float, bool)


def _num(a: Any, b: Any) -> bool:
    return type(a) in _NUM and type(b) in _NUM


def _finish_num(r: Any) -> Any:
    t = type(r)
    if t is int:
        return check_int(r)
    if t is float:
        return check_float(r)
    if isinstance(r, complex):
        raise Fault("result is a complex number")
    return r


def _add(a: Any, b: Any, fr: Frame) -> Any:
    if _num(a, b):
        return _finish_num(a + b)
    ta = type(a)
    if ta is type(b) and ta in _SEQ:
        n = len(a) + len(b)
        check_size(n, a)
        fr.charge(1 + n // 16)
        return a + b
    raise Fault(f"unsupported operand types for +: {type_name(a)} and {type_name(b)}")


def _mul(a: Any, b: Any, fr: Frame) -> Any:
    if _num(a, b):
        if type(a) is not float and type(b) is not float and abs(a).bit_length() + abs(b).bit_length() > MAX_INT_BITS + 1:
            raise Fault(f"integer too large (more than {MAX_INT_BITS} bits)")
        return _finish_num(a * b)
    if type(a) in (int, bool) and type(b) in _SEQ:
        a, b = b, a
    if type(a) in _SEQ and type(b) in (int, bool):
        n = len(a) * max(int(b), 0)
        check_size(n, a)
        fr.charge(1 + n // 16)
        return a * b
    raise Fault(f"unsupported operand types for *: {type_name(a)} and {type_name(b)}")


def _pow(a: Any, b: Any, fr: Frame) -> Any:
    if not _num(a, b):
        raise Fault(f"unsupported operand types for **: {type_name(a)} and {type_name(b)}")
    if type(a) is not float and type(b) is not float and b > 0 and abs(a) > 1:
        if math.log2(abs(a)) * b > MAX_INT_BITS:
            raise Fault(f"integer too large (more than {MAX_INT_BITS} bits)")
    return _finish_num(a**b)


def _arith(sym: str, fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any, Frame], Any]:
    def run(a: Any, b: Any, fr: Frame) -> Any:
        if _num(a, b):
            return _finish_num(fn(a, b))
        raise Fault(f"unsupported operand types for {sym}: {type_name(a)} and {type_name(b)}")

    return run


def _setop(sym: str, fn: Callable[[Any, Any], Any], ints: bool, dicts: bool = False) -> Callable[[Any, Any, Frame], Any]:
    def run(a: Any, b: Any, fr: Frame) -> Any:
        ta, tb = type(a), type(b)
        if ints and ta in (int, bool) and tb in (int, bool):
            return check_int(fn(a, b))
        if (ta is set and tb is set) or (dicts and ta is dict and tb is dict):
            fr.charge(1 + len(a) + len(b))
            charge_hashing(a, fr)  # equal hashes are confirmed by comparing the items
            charge_hashing(b, fr)
            r = fn(a, b)
            check_size(len(r), r)
            return r
        raise Fault(f"unsupported operand types for {sym}: {type_name(a)} and {type_name(b)}")

    return run


def _sub(a: Any, b: Any, fr: Frame) -> Any:
    if _num(a, b):
        return _finish_num(a - b)
    if type(a) is set and type(b) is set:
        fr.charge(1 + len(a) + len(b))
        charge_hashing(a, fr)
        charge_hashing(b, fr)
        return a - b
    raise Fault(f"unsupported operand types for -: {type_name(a)} and {type_name(b)}")


def _lshift(a: Any, b: Any, fr: Frame) -> Any:
    if type(a) in (int, bool) and type(b) in (int, bool):
        if b > MAX_INT_BITS:
            raise Fault(f"integer too large (more than {MAX_INT_BITS} bits)")
        return check_int(a << b)
    raise Fault(f"unsupported operand types for <<: {type_name(a)} and {type_name(b)}")


BINOPS: dict[str, Callable[[Any, Any, Frame], Any]] = {
    "Add": _add,
    "Sub": _sub,
    "Mult": _mul,
    "Div": _arith("/", operator.truediv),
    "FloorDiv": _arith("//", operator.floordiv),
    "Mod": _arith("%", operator.mod),
    "Pow": _pow,
    "BitOr": _setop("|", operator.or_, ints=True, dicts=True),
    "BitAnd": _setop("&", operator.and_, ints=True),
    "BitXor": _setop("^", operator.xor, ints=True),
    "LShift": _lshift,
    "RShift": _setop(">>", operator.rshift, ints=True),
}


def binop(name: str) -> Callable[[Any, Any, Frame], Any]:
    """The guarded implementation of a binary operator (by ``ast`` class name)."""
    return BINOPS[name]


def _neg(v: Any, fr: Frame) -> Any:
    if type(v) in _NUM:
        return -v
    raise Fault(f"bad operand type for unary -: {type_name(v)}")


def _pos(v: Any, fr: Frame) -> Any:
    if type(v) in _NUM:
        return +v
    raise Fault(f"bad operand type for unary +: {type_name(v)}")


def _invert(v: Any, fr: Frame) -> Any:
    if type(v) in (int, bool):
        return check_int(~v)
    raise Fault(f"bad operand type for unary ~: {type_name(v)}")


def _not(v: Any, fr: Frame) -> Any:
    return not v


UNARYOPS: dict[str, Callable[[Any, Frame], Any]] = {"USub": _neg, "UAdd": _pos, "Invert": _invert, "Not": _not}


def unaryop(name: str) -> Callable[[Any, Frame], Any]:
    """The guarded implementation of a unary operator (by ``ast`` class name)."""
    return UNARYOPS[name]


_CONTAINERS = (list, tuple, set, dict)


def _compare_cost(x: Any, fr: Frame) -> int:
    t = type(x)
    if t is str:
        return 1 + len(x) // 16
    if t in _CONTAINERS:
        return weigh(x, fr)  # comparison recurses into the items
    return 1


def _cmp(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any, Frame], Any]:
    def run(a: Any, b: Any, fr: Frame) -> Any:
        fr.charge(_compare_cost(a, fr) + _compare_cost(b, fr))
        return fn(a, b)

    return run


def _equality(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any, Frame], Any]:
    def run(a: Any, b: Any, fr: Frame) -> Any:
        ta = type(a)
        if ta is type(b) and ta in _CONTAINERS and len(a) != len(b):
            fr.charge(2)  # containers of different sizes are unequal without looking inside
        else:
            fr.charge(_compare_cost(a, fr) + _compare_cost(b, fr))
        return fn(a, b)

    return run


def _identity(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any, Frame], Any]:
    def run(a: Any, b: Any, fr: Frame) -> Any:
        fr.charge(2)
        return fn(a, b)

    return run


def _contains(a: Any, b: Any, fr: Frame) -> bool:
    tb = type(b)
    if tb in (set, dict):
        fr.charge(1 if type(a) is not tuple else weigh(a, fr))  # hashing a tuple visits it all
        return a in b
    if tb in (list, tuple, str, range):
        fr.charge(_compare_cost(b, fr) if tb is not range else 1)
        if tb is str and type(a) is not str:
            raise Fault(f"'in <string>' requires a string on the left, not {type_name(a)}")
        return a in b
    raise Fault(f"argument of type {type_name(b)} is not a container")


COMPAREOPS: dict[str, Callable[[Any, Any, Frame], Any]] = {
    "Eq": _equality(operator.eq),
    "NotEq": _equality(operator.ne),
    "Lt": _cmp(operator.lt),
    "LtE": _cmp(operator.le),
    "Gt": _cmp(operator.gt),
    "GtE": _cmp(operator.ge),
    "Is": _identity(operator.is_),
    "IsNot": _identity(operator.is_not),
    "In": _contains,
    "NotIn": lambda a, b, fr: not _contains(a, b, fr),
}


def compare(name: str) -> Callable[[Any, Any, Frame], Any]:
    """The guarded implementation of a comparison operator (by ``ast`` class name)."""
    return COMPAREOPS[name]


