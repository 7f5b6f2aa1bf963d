"""Random source text never crashes the validator or the interpreter: only DSLError."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navworld.core.errors import DSLError
from navworld.dsl import evaluate_constraint, evaluate_preference, run_constraint, validate

PLAN: dict[str, Any] = {
    "people_number": 2,
    "start_city": "",
    "target_city": "杭州",
    "itinerary": [{"day": 1, "activities": [
        {"type": "lunch", "position": "知味观", "start_time": "12:00", "end_time": "13:00", "price": 60, "cost": 120,
         "transports": [{"mode": "taxi", "start": "a", "end": "知味观", "start_time": "11:40", "end_time": "11:55",
                         "distance": 3.0, "price": 12, "cost": 12, "cars": 1}]}]}],
}

TOKENS = [
    "result", "=", " ", "\n", "    ", "plan", "allactivities(plan)", "for a in ", ":", "if ", "else:", "break", "continue",
    "activity_cost(a)", "activity_type(a)", "'lunch'", "==", "!=", "<=", "+", "-", "*", "/", "//", "%", "**", "(", ")",
    "[", "]", "{", "}", ",", "1", "0", "2.5", "True", "None", "not ", " and ", " or ", " in ", "x", "y", "len(", "sum(",
    "range(", "set()", ".add(", ".append(", "__", ".x", "lambda", "while", "import", "maximize x\n", "[i for i in ",
    "dayactivities(plan, 1)", "innercity_transport_type(", "activity_transports(a)", "str(", "sorted(", "'", '"',
]


def _check(source: str) -> None:
    try:
        program = validate(source)
    except DSLError as exc:
        assert str(exc)
        return
    if program.kind == "constraint":
        value, error = evaluate_constraint(program, PLAN)
        assert (value is None) != (error is None)
        assert value in (None, True, False)
    else:
        value, error = evaluate_preference(program, PLAN)
        assert value is None or isinstance(value, float)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_random_text(source: str) -> None:
    _check(source)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_random_token_soup(tokens: list[str]) -> None:
    _check("".join(tokens))


@settings(max_examples=200, deadline=None)
@given(st.integers(-(10**6), 10**6), st.integers(-50, 50), st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"]))
def test_random_arithmetic(a: int, b: int, op: str) -> None:
    try:
        value = run_constraint(f"x = {a} {op} {b}\nresult = x == x", PLAN)
        assert value is True or value is False
    except DSLError as exc:
        assert str(exc).startswith("line ")
