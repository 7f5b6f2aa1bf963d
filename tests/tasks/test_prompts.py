"""Prompts: same facts in both languages, the upstream shape, requirements and trade-offs shown."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from navworld.core.problem import Problem
from navworld.tasks.compile import compile_hard
from navworld.tasks.generator import ProblemGenerator
from navworld.tasks.prompts import city_label, system_prompt

NUMBER = re.compile(r"\d+(?:[:.\-]\d+)*")
LIST_ITEM = re.compile(r"^\d+\. ", re.MULTILINE)
TOOLS = ("poi_search", "around_search", "direction", "weather", "search_flights", "search_train_tickets")


def numbers(text: str) -> Counter[str]:
    """Number tokens of a prompt (dates, times, amounts) without the list numbering."""
    return Counter(NUMBER.findall(LIST_ITEM.sub("", text)))


@pytest.fixture(scope="module")
def pairs(gen: ProblemGenerator) -> list[tuple[Problem, Problem]]:
    return [(gen.generate(i, "zh"), gen.generate(i, "en")) for i in range(0, 700)]


def test_zh_and_en_carry_the_same_numbers_dates_and_cities(pairs: list[tuple[Problem, Problem]]) -> None:
    for zh, en in pairs:
        assert numbers(zh.prompt) == numbers(en.prompt), zh.task_id
        for city in filter(None, (zh.origin_city, zh.destination_city)):
            assert city in zh.prompt and city in en.prompt
        assert zh.travel_date in zh.prompt and zh.travel_date in en.prompt
        assert str(zh.budget) in zh.prompt and str(zh.budget) in en.prompt
        for name in zh.extra["must_visit"]:
            assert name in zh.prompt and name in en.prompt


def test_languages_differ_only_in_text_fields(pairs: list[tuple[Problem, Problem]]) -> None:
    text = {"prompt", "system_prompt", "hard_logic_nl", "lang"}
    for zh, en in pairs[:200]:
        a, b = zh.to_dict(), en.to_dict()
        assert {k: v for k, v in a.items() if k not in text} == {k: v for k, v in b.items() if k not in text}
        assert zh.lang == "zh" and en.lang == "en"


def test_prompt_shape(pairs: list[tuple[Problem, Problem]]) -> None:
    asks = {"zh": "请帮我：", "en": "Please help me:"}
    for pz, pe in pairs:
        for p in (pz, pe):
            lines = p.prompt.splitlines()
            start = lines.index(asks[p.lang])
            items = list(lines[start + 1 : -2])  # closing line and task marker follow the requests
            assert [int(ln.split(".")[0]) for ln in items] == list(range(1, len(items) + 1))
            assert len(items) in (4, 5)
            assert "JSON" in lines[-2]


def test_conflicts_are_presented_as_trade_offs(pairs: list[tuple[Problem, Problem]]) -> None:
    for zh, en in pairs:
        assert zh.prompt.count("请权衡取舍") == len(zh.conflicts)
        assert en.prompt.count("please weigh them") == len(en.conflicts)
        for c in zh.conflicts:
            assert f"「{c.first}」与「{c.second}」" in zh.prompt


def test_every_stated_requirement_is_in_the_prompt(gen: ProblemGenerator) -> None:
    for tid in range(700):
        sk = gen.skeleton(tid)
        reqs = compile_hard(sk, city_label(sk.destination, "zh"), city_label(sk.destination, "en"))
        zh, en = gen.generate(tid, "zh"), gen.generate(tid, "en")
        assert [r.program for r in reqs] == zh.hard_logic == en.hard_logic
        for r in reqs:
            if r.prompt_zh:
                assert r.prompt_zh in zh.prompt
                assert r.prompt_en and r.prompt_en in en.prompt
        assert zh.hard_logic_nl == [r.gloss_zh for r in reqs]
        assert en.hard_logic_nl == [r.gloss_en for r in reqs]


def test_transport_wording_follows_the_required_tools(pairs: list[tuple[Problem, Problem]]) -> None:
    for zh, _ in pairs:
        if zh.problem_type != "intercity":
            continue
        flights = "search_flights" in zh.required_tools
        trains = "search_train_tickets" in zh.required_tools
        first = zh.prompt.split("1. ", 1)[1].splitlines()[0]
        assert ("航班" in first) == flights and ("火车" in first) == trains


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_system_prompt_names_tools_rules_and_format(lang: str) -> None:
    text = system_prompt(lang)
    for tool in TOOLS:
        assert tool in text
    for word in ("```json", "people_number", "start_city", "target_city", "itinerary", "HH:MM",
                 "walk", "transit", "taxi", "bicycling", "FlightID", "TrainID", "tickets", "rooms"):
        assert word in text
    assert ("不得编造" if lang == "zh" else "never invent") in text


def test_prompt_ends_with_task_marker(pairs: list[tuple[Problem, Problem]]) -> None:
    """The last prompt line names the task, so an OpenAI-protocol agent can identify it."""
    for pz, pe in pairs:
        assert pz.prompt.splitlines()[-1] == f"任务编号：T{pz.task_id}"
        assert pe.prompt.splitlines()[-1] == f"Task ID: T{pe.task_id}"
