"""ChinaTravel queries (their JSON / JSONL format) → navworld :class:`~navworld.core.problem.Problem`.

A query has ``uid``, ``nature_language`` (or ``nature_language_en``), ``start_city``,
``target_city``, ``days``, ``people_number`` and ``hard_logic_py`` (a list of programs, or that
list written as a Python literal string, as their hub CSV stores it: read with
:func:`ast.literal_eval`, never evaluated), plus optional ``hard_logic_nl``, ``preference_py``,
``tag`` … A file is one JSON list, one JSON object, or JSON lines. Each bad query is reported
with its position and reason and skipped; the others load.

Conventions (ChinaTravel has no dates): the travel date is the query's ``travel_date`` when it
has one, else the start of the salt's week (as the sandbox's weather default), so weather is
reproducible for a pinned ``--salt``; timetables are the same on every date.
"""

from __future__ import annotations

import ast
import datetime as _dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from navworld.core.errors import TaskError
from navworld.core.problem import Problem
from navworld.core.seeding import current_salt
from navworld.tasks.chinatravel.translate import read_programs
from navworld.tasks.prompts import system_prompt
from navworld.world.chinatravel.layout import city_by_name
from navworld.world.gen_weather import parse_date, salt_date

__all__ = [
    "MEAL_LATEST_START",
    "ChinaTravelQuery",
    "QueryError",
    "load_queries",
    "parse_query",
    "query_problems",
    "to_problem",
]

MEAL_LATEST_START = {"lunch": "13:59", "dinner": "19:59"}
"""ChinaTravel's meal rule (lunch starts before 14:00, dinner before 20:00), given to planners."""
MAX_QUERIES = 100_000
MAX_PROGRAMS = 200
MAX_PROGRAM_CHARS = 64 * 1024

_OPENING = {
    "zh": "（ChinaTravel 查询 {uid}：从{origin}出发去{dest}，{people}人，{days}天，出发日期 {date}。）",
    "en": "(ChinaTravel query {uid}: from {origin} to {dest}, {people} traveller(s), {days} day(s), leaving on {date}.)",
}
_ASK = {
    "zh": "请用工具查询后给出完整行程，并在回答末尾附上一个 ```json 行程计划（people_number、start_city、target_city、itinerary）。",
    "en": "Use the tools, then give the full itinerary and end the answer with one ```json plan "
          "(people_number, start_city, target_city, itinerary).",
}


class QueryError(TaskError):
    """A query (or query file) that cannot be used; the message names where and why."""


@dataclass(frozen=True)
class ChinaTravelQuery:
    """One validated query, with the raw record kept for ChinaTravel's own checks."""

    uid: str
    start_city: str
    target_city: str
    days: int
    people_number: int
    hard_logic_py: tuple[str, ...]
    nature_language: str = ""
    nature_language_en: str = ""
    hard_logic_nl: tuple[str, ...] = ()
    preference_py: tuple[str, ...] = ()
    travel_date: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def symbolic_input(self) -> dict[str, Any]:
        """The query dict ChinaTravel's evaluator reads (cities, days, people, programs)."""
        return {**self.raw, "uid": self.uid, "start_city": self.start_city, "target_city": self.target_city,
                "days": self.days, "people_number": self.people_number, "hard_logic_py": list(self.hard_logic_py)}


def _literal_list(value: Any, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return ()
        if len(text) > MAX_PROGRAMS * MAX_PROGRAM_CHARS:
            raise ValueError(f"{what} is too large")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            raise ValueError(f"{what} is a string but not a Python list literal of strings") from None
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list of strings, got {type(value).__name__}")
    if len(value) > MAX_PROGRAMS:
        raise ValueError(f"{what} has more than {MAX_PROGRAMS} entries")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise ValueError(f"{what}[{i}] must be a string, got {type(item).__name__}")
        if len(item) > MAX_PROGRAM_CHARS:
            raise ValueError(f"{what}[{i}] is longer than {MAX_PROGRAM_CHARS} characters")
        out.append(item)
    return tuple(out)


def _count(raw: dict[str, Any], key: str, hi: int) -> int:
    value = raw.get(key)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= hi:
        raise ValueError(f"{key} must be a whole number 1–{hi}, got {value!r}")
    return value


def _city(raw: dict[str, Any], key: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{key} is missing")
    c = city_by_name(value)
    if c is None:
        raise ValueError(f"{key} {value!r} is not one of ChinaTravel's ten cities")
    return c.zh


def parse_query(raw: Any, where: str = "query") -> ChinaTravelQuery:
    """Validate one query record (:class:`QueryError` naming ``where`` and the field)."""
    try:
        if not isinstance(raw, dict):
            raise ValueError(f"expected a JSON object, got {type(raw).__name__}")
        uid = raw.get("uid")
        if isinstance(uid, int) and not isinstance(uid, bool):
            uid = str(uid)
        if not isinstance(uid, str) or not uid.strip() or len(uid) > 200:
            raise ValueError("uid is missing")
        nl = raw.get("nature_language") or ""
        nl_en = raw.get("nature_language_en") or ""
        if not isinstance(nl, str) or not isinstance(nl_en, str):
            raise ValueError("nature_language must be a string")
        if not (nl.strip() or nl_en.strip()):
            raise ValueError("nature_language (or nature_language_en) is missing")
        date = raw.get("travel_date")
        if date is not None:
            if not isinstance(date, str):
                raise ValueError(f"travel_date must be a YYYY-MM-DD string, got {type(date).__name__}")
            parse_date(date)
        return ChinaTravelQuery(
            uid=uid.strip(),
            start_city=_city(raw, "start_city"),
            target_city=_city(raw, "target_city"),
            days=_count(raw, "days", 30),
            people_number=_count(raw, "people_number", 50),
            hard_logic_py=_literal_list(raw.get("hard_logic_py"), "hard_logic_py"),
            nature_language=nl,
            nature_language_en=nl_en,
            hard_logic_nl=_literal_list(raw.get("hard_logic_nl"), "hard_logic_nl") if raw.get("hard_logic_nl") else (),
            preference_py=_literal_list(raw.get("preference_py"), "preference_py"),
            travel_date=date,
            raw=dict(raw),
        )
    except ValueError as exc:
        uid_txt = raw.get("uid") if isinstance(raw, dict) else None
        label = f"{where} (uid {uid_txt})" if isinstance(uid_txt, (str, int)) and not isinstance(uid_txt, bool) else where
        raise QueryError(f"{label}: {exc}") from None


def load_queries(path: str | Path) -> tuple[list[ChinaTravelQuery], list[str]]:
    """Read a query file: the valid queries, and one message per query that was skipped.

    Raises :class:`QueryError` when the file itself cannot be read or holds no query at all.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise QueryError(f"query file {p} not found") from None
    except UnicodeDecodeError:
        raise QueryError(f"query file {p} is not UTF-8 text") from None
    except OSError as exc:
        raise QueryError(f"cannot read query file {p}: {exc.strerror or exc}") from None
    records: list[tuple[str, Any]] = []
    errors: list[str] = []
    stripped = text.strip()
    if not stripped:
        raise QueryError(f"query file {p} is empty")
    try:
        data = json.loads(stripped)
    except ValueError:
        data = None
        for n, line in enumerate(text.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                records.append((f"{p} line {n}", json.loads(line)))
            except ValueError as exc:
                errors.append(f"{p} line {n}: not JSON ({exc})")
        if not records and not errors:
            raise QueryError(f"query file {p} is empty") from None
        if not records:
            raise QueryError(f"query file {p} is neither JSON nor JSON lines ({errors[0]})") from None
    else:
        if isinstance(data, dict):
            data = data.get("queries", [data]) if "uid" not in data else [data]
        if not isinstance(data, list) or not data:
            raise QueryError(f"query file {p} holds no query (expected a JSON list, an object or JSON lines)")
        records = [(f"{p} query #{i + 1}", item) for i, item in enumerate(data)]
    if len(records) > MAX_QUERIES:
        raise QueryError(f"query file {p} has more than {MAX_QUERIES} queries")
    out: list[ChinaTravelQuery] = []
    seen: set[str] = set()
    for where, item in records:
        try:
            q = parse_query(item, where)
        except QueryError as exc:
            errors.append(str(exc))
            continue
        if q.uid in seen:
            errors.append(f"{where}: duplicate uid {q.uid} (the first one is kept)")
            continue
        seen.add(q.uid)
        out.append(q)
    return out, errors


def _shift(date: str, days: int) -> str:
    return (_dt.date.fromisoformat(date) + _dt.timedelta(days=days)).isoformat()


def _tools(world: Any, q: ChinaTravelQuery, date: str) -> list[str]:
    tools = ["poi_search", "around_search", "direction", "weather"]
    if world is None:
        return [*tools, "search_flights", "search_train_tickets"]
    if q.start_city == q.target_city:
        return tools
    for kind, tool in (("airplane", "search_flights"), ("train", "search_train_tickets")):
        lister = world.flight_list if kind == "airplane" else world.train_list
        if lister(date, q.start_city, q.target_city) and lister(date, q.target_city, q.start_city):
            tools.append(tool)
    return tools


def to_problem(q: ChinaTravelQuery, index: int, world: Any = None, salt: str | None = None, lang: str = "zh") -> Problem:
    """The navworld problem of query ``q`` (``index`` becomes ``task_id``; ``uid`` is in ``extra``)."""
    date = q.travel_date or salt_date(current_salt(salt))
    facts = read_programs(list(q.hard_logic_py))
    text = (q.nature_language_en if lang == "en" and q.nature_language_en else q.nature_language) or q.nature_language_en
    tools = _tools(world, q, date)
    opening = _OPENING[lang].format(uid=q.uid, origin=q.start_city, dest=q.target_city, people=q.people_number,
                                    days=q.days, date=date)
    prompt = "\n".join([opening, text.strip(), _ASK[lang]])
    modes = [m for m, t in (("airplane", "search_flights"), ("train", "search_train_tickets")) if t in tools]
    extra: dict[str, Any] = {
        **facts.extra(),
        "intercity_modes": modes,
        "meal_latest_start": dict(MEAL_LATEST_START),
        "return_date": _shift(date, q.days - 1),
        "uid": q.uid,
        "chinatravel": q.symbolic_input(),
        "source": "chinatravel",
    }
    budget = int(facts.budget) if facts.budget is not None else None
    return Problem(
        task_id=index,
        problem_type="intercity" if q.days == 1 else "hybrid",
        origin_city=q.start_city if q.start_city != q.target_city else "",
        destination_city=q.target_city,
        travel_date=date,
        num_days=q.days,
        budget=budget,
        group_type="solo" if q.people_number == 1 else "friends",
        group_size=q.people_number,
        required_tools=tools,
        difficulty=2,
        prompt=prompt,
        system_prompt=system_prompt(lang),
        hard_logic=list(q.hard_logic_py),
        hard_logic_nl=list(q.hard_logic_nl),
        preferences=list(q.preference_py),
        lang=lang,  # type: ignore[arg-type]
        extra=extra,
        generator_version="chinatravel-queries-1",
    )


def query_problems(path: str | Path, world: Any = None, salt: str | None = None, lang: str = "zh") -> tuple[list[Problem], list[str]]:
    """The problems of a query file (task ids 0, 1, … in file order) and the skipped queries' messages."""
    queries, errors = load_queries(path)
    return [to_problem(q, i, world, salt, lang) for i, q in enumerate(queries)], errors
