"""Scoring profiles: s2 is the default, seed reproduces the seed formula; both reachable from every surface."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from navworld import Actor, TravelScorer
from navworld.agents.reference import ReferencePlanner
from navworld.scoring.profile import PROFILES, get_profile
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld

SALT = "profiles"


@pytest.fixture(scope="module")
def reference() -> tuple[object, list[dict], str]:
    world = SandboxWorld(SALT)
    problem = ProblemGenerator(world).generate(2)
    run = asyncio.run(ReferencePlanner().run(problem, world, salt=SALT))
    return problem, run.trace, run.answer


def test_default_is_s2_and_unknown_profiles_are_refused() -> None:
    assert TravelScorer().profile.name == "s2"
    assert set(PROFILES) == {"s2", "seed"}
    with pytest.raises(ValueError, match="choose one of: s2, seed"):
        get_profile("s3")


def test_both_profiles_record_themselves(reference: tuple[object, list[dict], str]) -> None:
    problem, trace, answer = reference
    for name in ("s2", "seed"):
        report = TravelScorer(salt=SALT, profile=name).score(problem, trace, answer)
        assert report.scoring_profile == name and report.to_safe_dict()["scoring_profile"] == name
        assert report.total >= 48.0
    no_plan = answer[: answer.index("```json")]
    seed = TravelScorer(salt=SALT, profile="seed").score(problem, trace, no_plan)
    s2 = TravelScorer(salt=SALT, profile="s2").score(problem, trace, no_plan)
    assert seed.total >= 45.0  # the seed formula ignores the plan
    assert s2.total <= 0.5 * seed.total and s2.code_score.plan_factor == 0.2


def test_score_cli_takes_the_profile(tmp_path: Path, reference: tuple[object, list[dict], str]) -> None:
    _, trace, answer = reference
    (tmp_path / "t.json").write_text(json.dumps(trace, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "a.md").write_text(answer[: answer.index("```json")], encoding="utf-8")
    base = [sys.executable, "-c", "from navworld.cli import main; main()", "score", "--task", "2", "--salt", SALT,
            "--trace", str(tmp_path / "t.json"), "--answer", str(tmp_path / "a.md"), "--json"]  # fmt: skip
    totals = {}
    for name in ("s2", "seed"):
        out = subprocess.run([*base, "--scoring", name], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        d = json.loads(out.stdout)
        assert d["scoring_profile"] == name
        totals[name] = d["total"]
    assert totals["s2"] < totals["seed"]
    bad = subprocess.run([*base, "--scoring", "nope"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "s2, seed" in bad.stderr


async def test_actor_profiles_pick_their_step_rewards() -> None:
    for name, first in (("seed", 0.06), ("s2", 0.0)):
        actor = Actor(salt=SALT, scoring=name)
        eid = (await actor.reset(0))["episode_id"]
        bad = [{"id": "c1", "type": "function", "function": {"name": "book_hotel", "arguments": "{}"}}]
        assert (await actor.step("", eid, bad))["reward"] == first
        await actor.step("答" * 300, eid)
