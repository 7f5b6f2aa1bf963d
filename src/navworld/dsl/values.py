"""Value-level helpers of the DSL interpreter: weights, deterministic iteration, tuples, ``repr``.

Sets are iterated in sorted order so results never depend on Python's per-process string hashing.

Comparing or hashing a container walks it element by element in C (tuples are re-hashed on every
set insertion or dict lookup; ``==`` and ``<`` recurse), so the cost of those operations is the
*weight* of their operands (:func:`weigh`: nodes counted with repetition, long strings by length),
charged before the operation runs — a list of 100,000 references to one large tuple is not cheap
to compare just because it was cheap to build. Output is measured before it is built
(:func:`safe_repr`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from navworld.dsl.limits import MAX_STR, MAX_TUPLE_DEPTH
from navworld.dsl.runtime import Fault, Frame, check_size, type_name

__all__ = ["charge_hashing", "charge_ordering", "det_iter", "make_tuple", "safe_repr", "weigh"]

_NUM = (int, float, bool)
_FLAT = (str, int, float, bool, type(None))


def _sort_key(v: Any) -> tuple[str, Any]:
    if type(v) in _NUM:
        return ("0", v)
    if type(v) is str:
        return ("1", v)
    return ("2" + type(v).__name__, repr(v))


_CONTAINERS = frozenset({list, tuple, set, dict})
_SCALARS = frozenset({int, float, bool, type(None)})
_STR = {str}
_FLAT_KINDS = _SCALARS | _STR


def _kids(x: Any) -> list[Any]:
    if type(x) is dict:
        return [*x.keys(), *x.values()]
    return list(x)


def _over_budget(fr: Frame, what: str) -> Fault:
    return Fault(f"step budget of {fr.limit} exceeded ({what})")


def _flat_weight(x: Any) -> int:
    """The weight of a container of scalars and strings only (0 when it holds containers)."""
    if type(x) is dict:
        keys, values = set(map(type, x)), set(map(type, x.values()))
        if keys == _STR and values <= _FLAT_KINDS:
            strs = (len(v) for v in x.values() if type(v) is str) if _STR <= values else ()
            return 1 + 2 * len(x) + ((sum(map(len, x)) + sum(strs)) >> 5)
        return 0
    kinds = set(map(type, x))
    if kinds <= _SCALARS:
        return 1 + len(x)
    if kinds == _STR:
        return 1 + len(x) + (sum(map(len, x)) >> 5)
    return 0


def weigh(x: Any, fr: Frame, memo: dict[int, int] | None = None) -> int:
    """The work of comparing or hashing ``x``: 1 per scalar, 1 + len/32 per string, 1 + the
    weights of the items per container (shared items counted every time they occur, as C's
    comparison and hashing visit them). Walking ``x`` visits each distinct container once and is
    charged; a weight beyond the remaining budget, or a container that contains itself, is a
    :class:`Fault`. ``memo`` may be shared across calls on values that stay alive.
    """
    t = type(x)
    if t is str:
        return 1 + (len(x) >> 5)
    if t not in _CONTAINERS:
        return 1
    if memo is not None:
        known = memo.get(id(x))
        if known is not None:
            if known < 0:
                raise Fault("a value that contains itself cannot be compared or hashed")
            return known
    flat = _flat_weight(x)  # flat containers (the usual case) are weighed in C
    if flat:
        if flat > fr.remaining():
            raise _over_budget(fr, "a value too large to compare or hash")
        if memo is not None:
            memo[id(x)] = flat
        return flat
    memo = {} if memo is None else memo
    cap = fr.remaining()
    visited = 0
    memo[id(x)] = -1
    stack: list[list[Any]] = [[x, _kids(x), 0, 1]]
    while stack:
        top = stack[-1]
        kids, i, total = top[1], top[2], top[3]
        n = len(kids)
        if i == 0 and set(map(type, kids)) <= _SCALARS:
            total, i = total + n, n  # flat container: no Python loop
        pushed = False
        while i < n:
            k = kids[i]
            i += 1
            tk = type(k)
            if tk is str:
                total += 1 + (len(k) >> 5)
            elif tk in _CONTAINERS:
                wk = memo.get(id(k))
                if wk is None:
                    top[2], top[3] = i, total
                    memo[id(k)] = -1
                    stack.append([k, _kids(k), 0, 1])
                    pushed = True
                    break
                if wk < 0:
                    raise Fault("a value that contains itself cannot be compared or hashed")
                total += wk
            else:
                total += 1
        if pushed:
            continue
        if total > cap:
            raise _over_budget(fr, "a value too large to compare or hash")
        visited += n
        stack.pop()
        memo[id(top[0])] = total
        if stack:
            stack[-1][3] += total
    fr.charge(visited >> 3)
    return memo[id(x)]


def charge_hashing(items: Iterable[Any], fr: Frame) -> None:
    """Charge the hashing of ``items`` as set elements or dict keys (tuples are re-hashed in full
    on every insertion and lookup; scalars and strings are cheap or cached)."""
    tuples = [e for e in items if type(e) is tuple]
    if tuples:
        memo: dict[int, int] = {}
        total = 0
        for e in tuples:
            total += weigh(e, fr, memo)
            if total > fr.remaining():
                raise _over_budget(fr, "hashing values too large")
        fr.charge(total)


def charge_ordering(values: list[Any], fr: Frame, log: bool = True) -> None:
    """Charge sorting (``log``) or scanning ``values`` by comparison beyond one step per item:
    each comparison costs up to the weight of the items compared."""
    kinds = set(map(type, values))
    if kinds <= _SCALARS:
        return
    memo: dict[int, int] = {}
    extra = 0
    for v in values if kinds != _STR else ():
        if type(v) is str:
            extra += len(v) >> 5
        elif type(v) in _CONTAINERS:
            extra += weigh(v, fr, memo) - 1
    if kinds == _STR:  # about the sum of len // 32: short strings compare in one step
        extra = max(0, sum(map(len, values)) - 31 * len(values)) >> 5
    if extra:
        if log:
            extra *= max(1, len(values).bit_length())
        if extra > fr.remaining():
            raise _over_budget(fr, "comparing values too large")
        fr.charge(extra)


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
        charge_ordering(list(obj), fr)
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
            # Measure before building: a string's repr is at least its length plus two quotes, any
            # other item at least one character, and items are separated by ", ".
            chars = sum(len(e) for e in v if type(e) is str)
            fr.charge(len(v) + chars // 16)
            if size + chars + 3 * len(v) > limit:
                raise Fault(f"string too long (more than {limit} characters)")
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


