"""The reference planner solves every synthetic query under both profiles (FPR 100 %), deterministically."""

from __future__ import annotations

import asyncio
from typing import Any

from navworld.agents.reference import ReferencePlanner
from navworld.verify import aggregate, verify_plan
from navworld.verify.chinatravel import aggregate as ct_aggregate
from navworld.verify.chinatravel import chinatravel_view, query_of, verify_chinatravel
from tests.chinatravel.conftest import SALT


def test_fpr_is_100_percent_under_the_navworld_profile(world: Any, problems: list[Any], runs: list[Any]) -> None:
    verdicts = [verify_plan(r.answer, p, world, r.trace) for p, r in zip(problems, runs, strict=True)]
    failed = {p.extra["uid"]: (v.failed_checks, v.logic_results) for p, v in zip(problems, verdicts, strict=True) if not v.final_pass}
    assert not failed
    metrics = aggregate(verdicts)
    assert metrics["fpr"] == metrics["dr"] == metrics["epr_micro"] == 1.0 and metrics["n"] == 5


def test_fpr_is_100_percent_under_the_chinatravel_profile(world: Any, problems: list[Any], runs: list[Any]) -> None:
    out = []
    for p, r in zip(problems, runs, strict=True):
        view, _notes = chinatravel_view(r.answer, world, p.group_size, p.destination_city)
        v = verify_chinatravel(view, query_of(p), world)
        assert v["final_pass"], (p.extra["uid"], [c for c, ok in v["commonsense"].items() if not ok], v["logic"], v["exception"])
        out.append(v)
    m = ct_aggregate(out)
    assert (m["fpr"], m["epr_micro"], m["epr_macro"], m["lpr_micro"], m["c_lpr"], m["schema_pass"]) == (100.0,) * 6
    assert m["columns"] == 25 and m["exceptions"] == 0


def test_the_plans_use_what_the_programs_ask(world: Any, problems: list[Any], runs: list[Any]) -> None:
    from navworld.verify.plan_parse import extract_plan

    plans = {p.extra["uid"]: extract_plan(r.answer) for p, r in zip(problems, runs, strict=True)}
    acts = {uid: plan.activities() for uid, plan in plans.items()}
    assert "夫子庙" in {a.position for a in acts["e20250101000000000001"]}
    assert {a.type for a in acts["e20250101000000000002"] if a.is_intercity} == {"train"}
    modes_taxi = {leg.mode for a in acts["m20250101000000000004"] for leg in a.transports}
    assert modes_taxi == {"taxi"} and all(a.rooms == 2 for a in acts["m20250101000000000004"] if a.type == "accommodation")
    assert {leg.mode for a in acts["e20250101000000000005"] for leg in a.transports} == {"transit"}


def test_answers_are_deterministic_and_grounded(world: Any, problems: list[Any], runs: list[Any]) -> None:
    again = asyncio.run(ReferencePlanner().run(problems[2], world, salt=SALT))
    assert again.answer == runs[2].answer and again.trace == runs[2].trace
    assert all(r.error is None and r.tool_calls > 0 for r in runs)
    tools = {tc["function"]["name"] for m in runs[2].trace if m.get("role") == "assistant" for tc in m.get("tool_calls") or []}
    assert {"poi_search", "search_train_tickets", "weather"} <= tools


def test_same_answer_in_another_process(db_dir: Any, queries_file: Any, runs: list[Any]) -> None:
    import hashlib
    import subprocess
    import sys

    code = (
        "import asyncio, hashlib, sys\n"
        "from navworld.world import get_world\n"
        "from navworld.tasks.chinatravel import query_problems\n"
        "from navworld.agents.reference import ReferencePlanner\n"
        f"w = get_world('chinatravel:{db_dir}', '{SALT}')\n"
        f"p = query_problems({str(queries_file)!r}, w, '{SALT}')[0][0]\n"
        f"r = asyncio.run(ReferencePlanner().run(p, w, salt='{SALT}'))\n"
        "print(hashlib.sha256(r.answer.encode()).hexdigest())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == hashlib.sha256(runs[0].answer.encode()).hexdigest()
