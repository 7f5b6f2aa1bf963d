"""ChinaTravel query files → navworld problems; bad queries are reported and lose nothing else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from navworld.tasks.chinatravel import QueryError, load_queries, parse_query, read_programs, to_problem
from tests.chinatravel.synthetic_db import BUDGET, QUERIES, write_queries


def test_json_and_jsonl_give_the_same_queries(tmp_path: Path) -> None:
    a, errs_a = load_queries(write_queries(tmp_path / "q.json"))
    b, errs_b = load_queries(write_queries(tmp_path / "q.jsonl", jsonl=True))
    assert errs_a == errs_b == [] and a == b and len(a) == 5
    single = tmp_path / "one.json"
    single.write_text(json.dumps(QUERIES[0], ensure_ascii=False), encoding="utf-8")
    assert [q.uid for q in load_queries(single)[0]] == [QUERIES[0]["uid"]]


def test_hard_logic_py_as_a_string_is_literal_evaluated() -> None:
    q = parse_query(QUERIES[1])
    assert isinstance(QUERIES[1]["hard_logic_py"], str) and len(q.hard_logic_py) == 2
    assert q.hard_logic_py[1] == "result=(day_count(plan)==1)" and q.hard_logic_nl == ("只坐火车", "一天")


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"hard_logic_py": "__import__('os').system('touch /tmp/pwned')"}, "hard_logic_py is a string but not a Python list literal"),
        ({"hard_logic_py": "[open('x')]"}, "not a Python list literal"),
        ({"hard_logic_py": [1, 2]}, "hard_logic_py[0] must be a string, got int"),
        ({"target_city": "杭州市郊"}, "target_city '杭州市郊' is not one of ChinaTravel's ten cities"),
        ({"days": 0}, "days must be a whole number 1–30, got 0"),
        ({"people_number": "two"}, "people_number must be a whole number"),
        ({"nature_language": ""}, "nature_language (or nature_language_en) is missing"),
        ({"uid": None}, "uid is missing"),
        ({"travel_date": "2025-13-01"}, "month must be in 1..12"),
    ],
)
def test_bad_fields_name_the_query_and_the_field(patch: dict[str, Any], message: str) -> None:
    raw = {**QUERIES[0], **patch}
    with pytest.raises(QueryError) as info:
        parse_query(raw, "q.json query #1")
    assert str(info.value).startswith("q.json query #1") and message in str(info.value)
    assert not Path("/tmp/pwned").exists()


def test_a_bad_query_loses_only_itself(tmp_path: Path) -> None:
    items: list[Any] = [QUERIES[0], {**QUERIES[1], "days": -1}, "not an object", QUERIES[2], dict(QUERIES[0])]
    path = tmp_path / "q.json"
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    got, errors = load_queries(path)
    assert [q.uid for q in got] == [QUERIES[0]["uid"], QUERIES[2]["uid"]]
    assert errors == [
        f"{path} query #2 (uid {QUERIES[1]['uid']}): days must be a whole number 1–30, got -1",
        f"{path} query #3: expected a JSON object, got str",
        f"{path} query #5: duplicate uid {QUERIES[0]['uid']} (the first one is kept)",
    ]
    lines = tmp_path / "q.jsonl"
    lines.write_text(json.dumps(QUERIES[0], ensure_ascii=False) + "\n{broken\n", encoding="utf-8")
    got, errors = load_queries(lines)
    assert len(got) == 1 and errors[0].startswith(f"{lines} line 2: not JSON")


@pytest.mark.parametrize(("content", "message"), [("", "is empty"), ("[]", "holds no query"), ("{broken", "neither JSON nor JSON lines")])
def test_unusable_query_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "q.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(QueryError, match=message):
        load_queries(path)
    with pytest.raises(QueryError, match="not found"):
        load_queries(tmp_path / "missing.json")


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted({*QUERIES[0], "nature_language_en", "travel_date"})),
                       st.one_of(st.none(), st.integers(-5, 60), st.text(max_size=30), st.lists(st.text(max_size=5), max_size=3),
                                 st.sampled_from(["北京", "nanjing", "Shanghai", "2025-05-01", "['result=True']"]))))
def test_parse_query_raises_only_query_errors(raw: dict[str, Any]) -> None:
    try:
        q = parse_query(raw)
    except QueryError:
        return
    assert q.uid and q.days >= 1 and q.people_number >= 1 and all(isinstance(p, str) for p in q.hard_logic_py)


def test_problem_fields_and_oracle_facts(world: Any) -> None:
    q = parse_query(QUERIES[3])
    p = to_problem(q, 7, world, "ct-tests")
    assert (p.task_id, p.problem_type, p.origin_city, p.destination_city, p.num_days, p.group_size) == (7, "hybrid", "南京", "北京", 2, 4)
    assert p.hard_logic == list(q.hard_logic_py) and p.extra["uid"] == q.uid
    assert p.extra["intercity_mode"] == "airplane" and p.extra["innercity_modes"] == ["taxi"] and p.extra["rooms"] == 2
    assert p.extra["chinatravel"]["target_city"] == "北京" and "search_flights" in p.required_tools
    assert p.prompt.splitlines()[1] == QUERIES[3]["nature_language"]
    en = to_problem(parse_query(QUERIES[4]), 0, world, "ct-tests", lang="en")
    assert QUERIES[4]["nature_language_en"] in en.prompt and en.lang == "en"
    assert to_problem(parse_query({**QUERIES[0], "travel_date": "2025-06-01"}), 0, world).travel_date == "2025-06-01"


def test_translation_reads_the_common_idioms() -> None:
    f = read_programs([
        BUDGET.format(budget=3000), BUDGET.format(budget=2500),
        "names=set()\nfor activity in allactivities(plan):\n    if activity_type(activity)=='attraction':\n        names.add(activity_position(activity))\nresult=not ({'外滩'} & names)",
        "r=set()\nfor activity in allactivities(plan):\n    if activity_type(activity) in ['lunch','dinner']:\n        r.add(restaurant_type(activity, target_city(plan)))\nresult=({'川菜','火锅'}<=r)",
        "result=True\nfor activity in allactivities(plan):\n    if activity_type(activity)=='accommodation' and room_type(activity)!=1: result=False",
        "this is not python",
    ])
    assert f.budget == 2500 and f.avoid == ["外滩"] and f.cuisines == ["川菜", "火锅"] and f.room_type == 1
    assert f.recognised == [0, 1, 2, 3, 4]
