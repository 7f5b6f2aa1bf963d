"""The attack library itself (not xfail): attacks are built from real tool calls, carry what their
docstrings say, and the report runs. ``test_attacks.py`` holds the assertions on the scorer."""

from __future__ import annotations

import asyncio
import json
from functools import cache

import pytest

from navworld.scoring.parser import parse_answer
from navworld.tools.registry import call_tool

from . import report
from .attacks import ATTACKS, NotApplicable, build
from .context import TASKS, TaskContext, honest_total, results_of, task_context
from .judge_attacks import FAKE_TAGS, JUDGE_ATTACKS, NOTE, PLACES
from .steps import STEP_ATTACKS, STEPS, episode_steps, play, respellings
from .writers import split_plan

ONE_PER_TYPE = TASKS[:7]
NO_PLAN = {
    "fact_list_no_plan",
    "english_fact_list",
    "html_comment_facts",
    "echo_bullets_dump",
    "echo_punctuation_dump",
    "echo_reordered_dump",
    "echo_paraphrased_dump",
    "trivial_calls",
    "other_city_reused_ids",
    "other_city_orphans",
    "other_city_no_region",
    "neighbour_city_around",
    "wrong_dates",
    "plan_deleted",
}


@cache
def _real_text(task_id: int, name: str, arguments: str) -> str:
    ctx = task_context(task_id)
    result = asyncio.run(call_tool(name, arguments, ctx.world, default_date=ctx.problem.travel_date or None))
    return result.text


def _built(name: str, ctx: TaskContext) -> tuple[list[dict], str]:
    try:
        return build(name, ctx)
    except NotApplicable as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize("task_id", ONE_PER_TYPE)
@pytest.mark.parametrize("name", list(ATTACKS))
def test_attack_traces_hold_only_real_tool_results(name: str, task_id: int) -> None:
    ctx = task_context(task_id)
    trace, answer = _built(name, ctx)
    assert trace[-1] == {"role": "assistant", "content": answer}
    for tool, args, text in results_of(trace):
        if text.startswith("错误"):  # over the episode budget: a real error result too
            continue
        assert text == _real_text(task_id, tool, json.dumps(args, ensure_ascii=False)), (tool, args)
    assert ATTACKS[name].doc, "every attack says what it targets"


@pytest.mark.parametrize("name", sorted(NO_PLAN))
def test_no_plan_attacks_carry_no_plan(name: str) -> None:
    for task_id in ONE_PER_TYPE:
        ctx = task_context(task_id)
        _, answer = _built(name, ctx)
        assert not parse_answer(answer).has_plan
        assert len(answer) >= 200


@pytest.mark.parametrize(
    "name", [n for n, s in ATTACKS.items() if s.cls == "impossible plan" and n != "random_plan"]
)
def test_plan_attacks_keep_the_honest_prose_and_change_the_plan(name: str) -> None:
    ctx = task_context(1)
    try:
        _, answer = build(name, ctx)
    except NotApplicable:
        ctx = task_context(3)
        _, answer = build(name, ctx)
    prose, plan, _ = split_plan(ctx.honest_answer)
    assert answer.startswith(prose.rstrip())
    if name == "plan_deleted":
        assert "```json" not in answer
    else:
        assert split_plan(answer)[1] != plan


def test_honest_reference_is_a_strong_baseline() -> None:
    totals = [honest_total(t) for t in TASKS]
    assert min(totals) >= 40.0, totals


@pytest.mark.parametrize("name", list(JUDGE_ATTACKS))
def test_judge_attacks_carry_their_payload(name: str) -> None:
    ctx = task_context(2)
    _, answer = JUDGE_ATTACKS[name].builder(ctx)
    payload = {
        "note_in_plan_fields": NOTE,
        "fake_boundary_tags": FAKE_TAGS,
        "prose_place_injection": PLACES,
        "budget_claim": "合计 100元",
        "signal_stuffing": "因为所以因此",
    }[name]
    assert payload in answer or json.dumps(payload, ensure_ascii=False)[1:-1] in answer


@pytest.mark.parametrize("name", ["honest", *STEP_ATTACKS])
def test_step_episodes_run_every_call_through_the_actor(name: str) -> None:
    ctx = task_context(5)
    steps = episode_steps(name, ctx)
    assert len(steps) == (STEPS if name != "honest" else len(steps))
    results = asyncio.run(play(ctx, steps))
    for calls, r in zip(steps, results, strict=True):
        assert not r["done"]
        tools = [m for m in r["observation"] if m["role"] == "tool"]
        assert len(tools) == len(calls)  # after step 15 the final-answer prompt follows them


def test_respellings_name_one_city() -> None:
    spellings = respellings("长沙")
    assert {"长沙", "长沙市", "430100", "Changsha"} <= set(spellings)
    assert len(spellings) >= 10


def test_report_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert report.main(["--tasks", "0", "--only", "fact_list_no_plan,plan_overlap"]) == 0
    out = capsys.readouterr().out
    assert "HONEST" in out and "fact_list_no_plan" in out and "plan_overlap" in out
    assert "respelled_search" in out and "note_in_plan_fields" in out
