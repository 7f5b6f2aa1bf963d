"""The safe builtins and container methods available to DSL programs.

Each builtin is our own wrapper around the Python function of the same name: it checks argument
types, bounds the size of what it builds and charges steps in proportion to its work. Only the
methods listed in :data:`METHODS` can be called on values, and methods that modify a container
refuse containers that belong to the plan.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from navworld.dsl.limits import MAX_ITEMS, MAX_RANGE
from navworld.dsl.runtime import Fault, Fn, Frame, check_number, type_name
from navworld.dsl.values import charge_hashing, charge_ordering, det_iter, make_tuple, safe_repr, weigh

__all__ = ["BUILTINS", "METHODS", "METHOD_NAMES", "call_fn"]

_NUM = (int, float, bool)
_MISSING: Any = object()


def call_fn(fr: Frame, fn: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """Call a DSL function value with arity checks and a size-proportional charge on the result."""
    if type(fn) is not Fn:
        raise Fault(f"'{type_name(fn)}' object is not callable")
    if len(args) < fn.min_args or len(args) > fn.max_args or (kwargs and any(k not in fn.kwargs for k in kwargs)):
        raise Fault(fn.arity_error(len(args), kwargs) or f"bad call of {fn.name}()")
    result = fn.impl(fr, *args, **kwargs)
    if not fn.charges_itself and type(result) in (list, set, dict, tuple):
        fr.charge(1 + len(result))
    return result


def _items(x: Any, fr: Frame) -> list[Any]:
    """All items of an iterable (sets sorted), charging one step per item."""
    it = det_iter(x, fr)
    if type(it) is range and len(it) > MAX_RANGE:
        raise Fault(f"range too long ({len(it)} > {MAX_RANGE})")
    fr.charge(1 + len(it))
    return list(it)


def _check_len(n: int, what: str = "container") -> None:
    if n > MAX_ITEMS:
        raise Fault(f"{what} too large ({n} > {MAX_ITEMS} items)")


def _key_fn(fr: Frame, key: Any) -> Callable[[Any], Any] | None:
    if key is None:
        return None
    if type(key) is not Fn:
        raise Fault("key= must be a function")

    def k(v: Any) -> Any:
        fr.charge(2)
        return call_fn(fr, key, [v], {})

    return k


def b_abs(fr: Frame, x: Any) -> Any:
    if type(x) not in _NUM:
        raise Fault(f"bad operand type for abs(): {type_name(x)}")
    return check_number(abs(x))


def b_all(fr: Frame, x: Any) -> bool:
    return all(_items(x, fr))


def b_any(fr: Frame, x: Any) -> bool:
    return any(_items(x, fr))


def b_bool(fr: Frame, x: Any = False) -> bool:
    return bool(x)


def b_float(fr: Frame, x: Any = 0.0) -> float:
    if type(x) in _NUM:
        return float(x)
    if type(x) is str:
        if len(x) > 100:
            raise Fault("string too long to convert to float")
        return check_number(float(x))
    raise Fault(f"float() argument must be a string or a number, not {type_name(x)}")


def b_int(fr: Frame, x: Any = 0) -> int:
    if type(x) in (int, bool):
        return int(x)
    if type(x) is float:
        if not math.isfinite(x):
            raise Fault(f"cannot convert {x} to integer")
        return check_number(int(x))
    if type(x) is str:
        if len(x) > 100:
            raise Fault("string too long to convert to int")
        return check_number(int(x))
    raise Fault(f"int() argument must be a string or a number, not {type_name(x)}")


def b_len(fr: Frame, x: Any) -> int:
    if type(x) in (list, tuple, set, dict, str, range):
        return len(x)
    raise Fault(f"object of type {type_name(x)} has no len()")


def b_list(fr: Frame, x: Any = ()) -> list[Any]:
    return _items(x, fr)


def b_tuple(fr: Frame, x: Any = ()) -> tuple[Any, ...]:
    return make_tuple(_items(x, fr), fr)


def b_set(fr: Frame, x: Any = ()) -> set[Any]:
    items = _items(x, fr)
    charge_hashing(items, fr)
    return set(items)


def b_dict(fr: Frame, x: Any = (), **kw: Any) -> dict[str, Any]:
    if type(x) is dict:
        out = dict(x)  # the hashes are copied, not recomputed
        fr.charge(1 + len(out))
    else:
        out = {}
        pairs = _items(x, fr)
        fr.charge(len(pairs))
        for pair in pairs:
            if type(pair) not in (list, tuple) or len(pair) != 2:
                raise Fault("dict() needs (key, value) pairs")
        charge_hashing([pair[0] for pair in pairs], fr)
        for pair in pairs:
            out[pair[0]] = pair[1]
    out.update(kw)
    return out


def b_max(fr: Frame, *args: Any, key: Any = None, default: Any = _MISSING) -> Any:
    return _minmax(fr, max, "max", args, key, default)


def b_min(fr: Frame, *args: Any, key: Any = None, default: Any = _MISSING) -> Any:
    return _minmax(fr, min, "min", args, key, default)


def _keys(fr: Frame, values: list[Any], key: Any) -> list[Any] | None:
    """The key of every value (the DSL function called once per value), or None without a key."""
    k = _key_fn(fr, key)
    return None if k is None else [k(v) for v in values]


def _minmax(fr: Frame, fn: Callable[..., Any], name: str, args: tuple[Any, ...], key: Any, default: Any) -> Any:
    values = _items(args[0], fr) if len(args) == 1 else list(args)
    if not values:
        if default is _MISSING:
            raise Fault(f"{name}() of an empty sequence (pass default=...)")
        return default
    keys = _keys(fr, values, key)
    charge_ordering(values if keys is None else keys, fr, log=False)
    if keys is None:
        return fn(values)
    return values[fn(range(len(values)), key=keys.__getitem__)]  # the first extreme, as fn(values, key=)


def b_range(fr: Frame, *args: Any) -> range:
    for a in args:
        if type(a) not in (int, bool):
            raise Fault(f"range() arguments must be integers, not {type_name(a)}")
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise Fault(f"range too long ({len(r)} > {MAX_RANGE})")
    return r


def b_round(fr: Frame, x: Any, ndigits: Any = None) -> Any:
    if type(x) not in _NUM:
        raise Fault(f"round() needs a number, not {type_name(x)}")
    if ndigits is None:
        if type(x) is float and not math.isfinite(x):
            raise Fault(f"cannot round {x}")
        return round(x)
    if type(ndigits) not in (int, bool) or abs(ndigits) > 100:
        raise Fault("round() ndigits must be an integer between -100 and 100")
    return round(x, ndigits)


def b_sorted(fr: Frame, x: Any, key: Any = None, reverse: Any = False) -> list[Any]:
    values = _items(x, fr)
    fr.charge(1 + len(values) * 2)
    keys = _keys(fr, values, key)
    charge_ordering(values if keys is None else keys, fr)
    if keys is None:
        return sorted(values, reverse=bool(reverse))
    order = sorted(range(len(values)), key=keys.__getitem__, reverse=bool(reverse))  # stable, as sorted(key=)
    return [values[i] for i in order]


def b_str(fr: Frame, x: Any = "") -> str:
    if type(x) is str:
        return x
    return safe_repr(x, fr)


def b_sum(fr: Frame, x: Any, start: Any = 0) -> Any:
    values = _items(x, fr)
    if type(start) not in _NUM or any(type(v) not in _NUM for v in values):
        raise Fault("sum() adds numbers only")
    return check_number(sum(values, start))


def b_enumerate(fr: Frame, x: Any, start: Any = 0) -> list[tuple[int, Any]]:
    if type(start) not in (int, bool):
        raise Fault("enumerate() start must be an integer")
    return [make_tuple((i, v), fr) for i, v in enumerate(_items(x, fr), start)]


def b_zip(fr: Frame, *args: Any) -> list[tuple[Any, ...]]:
    lists = [_items(a, fr) for a in args]
    return [make_tuple(t, fr) for t in zip(*lists, strict=False)]


def _fn(name: str, impl: Callable[..., Any], lo: int, hi: int, kw: tuple[str, ...] = ()) -> Fn:
    return Fn(name, impl, lo, hi, kw, charges_itself=True)


BUILTINS: dict[str, Fn] = {
    f.name: f
    for f in (
        _fn("abs", b_abs, 1, 1),
        _fn("all", b_all, 1, 1),
        _fn("any", b_any, 1, 1),
        _fn("bool", b_bool, 0, 1),
        _fn("float", b_float, 0, 1),
        _fn("int", b_int, 0, 1),
        _fn("len", b_len, 1, 1),
        _fn("list", b_list, 0, 1),
        _fn("max", b_max, 1, 99, ("key", "default")),
        _fn("min", b_min, 1, 99, ("key", "default")),
        _fn("range", b_range, 1, 3),
        _fn("round", b_round, 1, 2, ("ndigits",)),
        _fn("set", b_set, 0, 1),
        _fn("sorted", b_sorted, 1, 1, ("key", "reverse")),
        _fn("str", b_str, 0, 1),
        _fn("sum", b_sum, 1, 2, ("start",)),
        _fn("tuple", b_tuple, 0, 1),
        _fn("dict", b_dict, 0, 1, ()),
        _fn("enumerate", b_enumerate, 1, 2, ("start",)),
        _fn("zip", b_zip, 0, 8),
    )
}
"""Safe builtins by name."""


# ---- methods ---------------------------------------------------------------------------------


def m_append(fr: Frame, obj: list[Any], v: Any) -> None:
    fr.check_mutable(obj)
    _check_len(len(obj) + 1, "list")
    obj.append(v)


def m_extend(fr: Frame, obj: list[Any], v: Any) -> None:
    fr.check_mutable(obj)
    items = _items(v, fr)
    _check_len(len(obj) + len(items), "list")
    obj.extend(items)


def _scan_cost(obj: Any, fr: Frame) -> int:
    """Comparing ``v`` with every item of ``obj`` costs up to the weight of ``obj``."""
    return 1 + len(obj) if type(obj) is str else weigh(obj, fr)


def m_count(fr: Frame, obj: Any, v: Any) -> int:
    fr.charge(_scan_cost(obj, fr))
    if type(obj) is str and type(v) is not str:
        raise Fault("str.count() needs a string")
    return obj.count(v)


def m_index(fr: Frame, obj: Any, v: Any) -> int:
    fr.charge(_scan_cost(obj, fr))
    if type(obj) is str and type(v) is not str:
        raise Fault("str.index() needs a string")
    return obj.index(v)


def m_add(fr: Frame, obj: set[Any], v: Any) -> None:
    fr.check_mutable(obj)
    _check_len(len(obj) + 1, "set")
    charge_hashing((v,), fr)
    obj.add(v)


def m_update(fr: Frame, obj: set[Any], *others: Any) -> None:
    fr.check_mutable(obj)
    for o in others:
        items = _items(o, fr)
        _check_len(len(obj) + len(items), "set")
        charge_hashing(items, fr)
        obj.update(items)


def _set_method(name: str) -> Callable[..., Any]:
    def run(fr: Frame, obj: set[Any], *others: Any) -> Any:
        args = [b_set(fr, o) for o in others]
        fr.charge(1 + len(obj) + sum(len(a) for a in args))
        charge_hashing(obj, fr)
        result = getattr(obj, name)(*args)
        if type(result) is set:
            _check_len(len(result), "set")
        return result

    return run


def _one_set_method(name: str) -> Callable[..., Any]:
    def run(fr: Frame, obj: set[Any], other: Any) -> Any:
        o = b_set(fr, other)
        fr.charge(1 + len(obj) + len(o))
        charge_hashing(obj, fr)
        return getattr(obj, name)(o)

    return run


def m_get(fr: Frame, obj: dict[Any, Any], key: Any, default: Any = None) -> Any:
    charge_hashing((key,), fr)
    return obj.get(key, default)


def m_keys(fr: Frame, obj: dict[Any, Any]) -> list[Any]:
    fr.charge(1 + len(obj))
    return list(obj.keys())


def m_values(fr: Frame, obj: dict[Any, Any]) -> list[Any]:
    fr.charge(1 + len(obj))
    return list(obj.values())


def m_items(fr: Frame, obj: dict[Any, Any]) -> list[tuple[Any, Any]]:
    return [make_tuple(kv, fr) for kv in obj.items()]


def _str_method(name: str, n_args: int) -> Callable[..., Any]:
    def run(fr: Frame, obj: str, *args: Any) -> Any:
        if len(args) > n_args:
            raise Fault(f"str.{name}() takes at most {n_args} argument(s)")
        for a in args:
            if type(a) is not str and not (type(a) is tuple and all(type(e) is str for e in a)):
                raise Fault(f"str.{name}() needs string arguments")
        fr.charge(1 + len(obj) // 16)
        return getattr(obj, name)(*args)

    return run


def m_split(fr: Frame, obj: str, sep: Any = None) -> list[str]:
    if sep is not None and (type(sep) is not str or not sep):
        raise Fault("str.split() separator must be a non-empty string")
    fr.charge(1 + len(obj) // 4)
    return obj.split(sep)


METHODS: dict[type, dict[str, Fn]] = {
    list: {
        "append": Fn("append", m_append, 1, 1, charges_itself=True),
        "extend": Fn("extend", m_extend, 1, 1, charges_itself=True),
        "count": Fn("count", m_count, 1, 1, charges_itself=True),
        "index": Fn("index", m_index, 1, 1, charges_itself=True),
    },
    tuple: {"count": Fn("count", m_count, 1, 1, charges_itself=True), "index": Fn("index", m_index, 1, 1, charges_itself=True)},
    set: {
        "add": Fn("add", m_add, 1, 1, charges_itself=True),
        "update": Fn("update", m_update, 1, 8, charges_itself=True),
        "union": Fn("union", _set_method("union"), 0, 8, charges_itself=True),
        "intersection": Fn("intersection", _set_method("intersection"), 0, 8, charges_itself=True),
        "difference": Fn("difference", _set_method("difference"), 0, 8, charges_itself=True),
        "issubset": Fn("issubset", _one_set_method("issubset"), 1, 1, charges_itself=True),
        "issuperset": Fn("issuperset", _one_set_method("issuperset"), 1, 1, charges_itself=True),
        "isdisjoint": Fn("isdisjoint", _one_set_method("isdisjoint"), 1, 1, charges_itself=True),
    },
    dict: {
        "get": Fn("get", m_get, 1, 2, charges_itself=True),
        "keys": Fn("keys", m_keys, 0, 0, charges_itself=True),
        "values": Fn("values", m_values, 0, 0, charges_itself=True),
        "items": Fn("items", m_items, 0, 0, charges_itself=True),
    },
    str: {
        "lower": Fn("lower", _str_method("lower", 0), 0, 0, charges_itself=True),
        "upper": Fn("upper", _str_method("upper", 0), 0, 0, charges_itself=True),
        "strip": Fn("strip", _str_method("strip", 1), 0, 1, charges_itself=True),
        "startswith": Fn("startswith", _str_method("startswith", 1), 1, 1, charges_itself=True),
        "endswith": Fn("endswith", _str_method("endswith", 1), 1, 1, charges_itself=True),
        "split": Fn("split", m_split, 0, 1, charges_itself=True),
        "count": Fn("count", m_count, 1, 1, charges_itself=True),
    },
}
"""Callable methods per value type."""

METHOD_NAMES: frozenset[str] = frozenset(name for table in METHODS.values() for name in table)
"""Every method name a program may mention (``x.name(...)``)."""
