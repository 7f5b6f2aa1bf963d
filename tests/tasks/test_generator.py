"""Generator basics: type/difficulty mapping, profiles, fields, determinism, bad ids."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from navworld.core.errors import TaskError
from navworld.core.problem import PROBLEM_TYPES, Problem
from navworld.core.versions import GENERATOR_VERSION
from navworld.tasks.generator import MAX_TASK_ID, ProblemGenerator, check_task_id
from navworld.tasks.knowledge import profile
from navworld.tasks.pairs import distance_class, transport_modes, transport_tools
from navworld.world.sandbox import SandboxWorld

from .conftest import SALT

LOCAL_TOOLS = ["poi_search", "around_search", "direction", "weather"]
ALL_TOOLS = [*LOCAL_TOOLS, "search_flights", "search_train_tickets"]
ORIGIN_TYPES = {"intercity", "hybrid", "business"}


def test_first_63_tasks_cover_every_type_and_difficulty(problems: list[Problem]) -> None:
    seen = {(p.problem_type, p.difficulty) for p in problems[:63]}
    assert seen == {(t, d) for t in PROBLEM_TYPES for d in (1, 2, 3)}
    for p in problems[:63]:
        assert p.problem_type == PROBLEM_TYPES[p.task_id % 7]
        assert p.difficulty == (p.task_id // 7) % 3 + 1


def test_difficulty_profile_follows_the_seed_table(problems: list[Problem]) -> None:
    pressure_at_2 = set()
    for p in problems[:2100]:
        prof = p.difficulty_profile
        assert prof is not None
        assert (prof.constraint_tightness, prof.constraint_conflicts) == {1: (0.5, 1), 2: (0.75, 2), 3: (0.95, 3)}[
            p.difficulty
        ]
        if p.difficulty == 1:
            assert prof.time_pressure is False
        elif p.difficulty == 3:
            assert prof.time_pressure is True
        else:
            pressure_at_2.add(prof.time_pressure)
    assert pressure_at_2 == {True, False}


def test_conflicts_never_exceed_the_profile_and_mostly_match(problems: list[Problem]) -> None:
    exact = 0
    for p in problems:
        assert p.difficulty_profile is not None
        assert len(p.conflicts) <= p.difficulty_profile.constraint_conflicts
        exact += len(p.conflicts) == p.difficulty_profile.constraint_conflicts
    assert exact / len(problems) > 0.95


def test_fields_are_json_safe_and_round_trip(problems: list[Problem]) -> None:
    for p in problems[:300]:
        d = p.to_dict()
        again = Problem.model_validate(json.loads(json.dumps(d, ensure_ascii=False)))
        assert again == p
        assert p.generator_version == GENERATOR_VERSION
        assert p.system_prompt and p.prompt
        assert len(p.hard_logic) == len(p.hard_logic_nl) >= 3


def test_same_task_same_problem_in_a_fresh_generator(problems: list[Problem]) -> None:
    fresh = ProblemGenerator(SandboxWorld(salt=SALT))
    for tid in (0, 1, 2, 3, 4, 5, 6, 77, 1234, 9999):
        assert fresh.generate(tid).to_dict() == problems[tid].to_dict()


def test_large_ids_generate(gen: ProblemGenerator) -> None:
    for tid in (10**6, 123_456_789, MAX_TASK_ID):
        p = gen.generate(tid)
        assert p.task_id == tid and p.problem_type == PROBLEM_TYPES[tid % 7]


def test_dates_are_in_2027_and_avoid_bad_months(problems: list[Problem]) -> None:
    for p in problems:
        start = dt.date.fromisoformat(p.travel_date)
        end = dt.date.fromisoformat(p.extra["return_date"])
        assert start.year == 2027
        assert (end - start).days == p.num_days - 1
        avoid = set(profile(p.destination_city).seasonal_avoid)
        assert start.month not in avoid and end.month not in avoid


def test_days_groups_and_levels_per_type(problems: list[Problem]) -> None:
    sizes = {"solo": (1, 1), "couple": (2, 2), "family": (3, 5), "friends": (3, 6), "elderly": (2, 4)}
    for p in problems:
        lo, hi = sizes[p.group_type]
        assert lo <= p.group_size <= hi
        if p.problem_type in ("intercity", "single_poi"):
            assert p.num_days == 1
        if p.problem_type in ("intercity", "business"):
            assert p.group_type == "solo"
        if p.problem_type == "family_study":
            assert p.group_type == "family"
        if p.problem_type == "business":
            assert p.budget_level in ("comfort", "luxury")


def test_required_tools_and_pairs(problems: list[Problem]) -> None:
    for p in problems:
        if p.problem_type not in ORIGIN_TYPES:
            assert p.origin_city == "" and p.distance_class == ""
            assert p.required_tools == LOCAL_TOOLS
            continue
        assert p.origin_city and p.origin_city != p.destination_city
        from navworld.core.geo import haversine_km

        km = haversine_km(profile(p.origin_city).center, profile(p.destination_city).center)
        assert distance_class(km) == p.distance_class
        if p.problem_type == "intercity":
            modes = transport_modes(p.distance_class)
            assert p.required_tools == ["poi_search", "direction", "weather", *transport_tools(modes)]
        elif p.problem_type == "hybrid":
            assert p.required_tools == ALL_TOOLS
            assert p.distance_class in ("medium", "long")
        else:
            assert p.required_tools == ["poi_search", "direction", "weather", "search_flights", "search_train_tickets"]


@pytest.mark.parametrize(
    "bad",
    [-1, -(10**12), MAX_TASK_ID + 1, 2**70, True, False, 1.0, 3.5, "3", "abc", None, [1], b"1"],
)
def test_bad_ids_raise_a_clear_task_error(gen: ProblemGenerator, bad: object) -> None:
    with pytest.raises(TaskError, match="task id must be"):
        gen.generate(bad)  # type: ignore[arg-type]


def test_check_task_id_accepts_int_like() -> None:
    class IntLike:
        def __index__(self) -> int:
            return 5

    assert check_task_id(IntLike()) == 5
    assert check_task_id(0) == 0 and check_task_id(MAX_TASK_ID) == MAX_TASK_ID


def test_bad_lang(gen: ProblemGenerator) -> None:
    with pytest.raises(TaskError, match="lang"):
        gen.generate(1, lang="fr")


def test_task_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        check_task_id(-5)
