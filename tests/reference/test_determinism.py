"""Same task and salt → the same answer and transcript, byte for byte, in any process."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from navworld.agents.reference import ReferencePlanner

from .conftest import SALT

TASKS = (0, 3, 8, 16, 23)
_CHILD = """
import asyncio, hashlib, json, sys
from navworld.agents.reference import ReferencePlanner
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld
world = SandboxWorld(sys.argv[1])
gen = ProblemGenerator(world)
out = {}
for tid in map(int, sys.argv[2].split(",")):
    run = asyncio.run(ReferencePlanner().run(gen.generate(tid), world))
    blob = json.dumps(run.trace, ensure_ascii=False, sort_keys=True)
    out[tid] = [hashlib.sha256(run.answer.encode()).hexdigest(), hashlib.sha256(blob.encode()).hexdigest()]
print(json.dumps(out))
"""


def _digests(answer: str, trace: list[dict[str, Any]]) -> list[str]:
    blob = json.dumps(trace, ensure_ascii=False, sort_keys=True)
    return [hashlib.sha256(answer.encode()).hexdigest(), hashlib.sha256(blob.encode()).hexdigest()]


async def test_twice_in_process(world: Any, problem_of: Any) -> None:
    for tid in TASKS:
        problem = problem_of(tid)
        a = await ReferencePlanner().run(problem, world, salt=SALT)
        b = await ReferencePlanner().run(problem, world, salt=SALT)
        assert a.answer == b.answer and a.trace == b.trace


@pytest.mark.slow
@pytest.mark.timeout(180)
async def test_same_in_a_subprocess(world: Any, problem_of: Any) -> None:
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    env.pop("NAVWORLD_SALT", None)
    out = subprocess.run([sys.executable, "-c", _CHILD, SALT, ",".join(map(str, TASKS))], capture_output=True,
                         text=True, env=env, timeout=170, check=True)
    child = json.loads(out.stdout.strip().splitlines()[-1])
    for tid in TASKS:
        run = await ReferencePlanner().run(problem_of(tid), world, salt=SALT)
        assert child[str(tid)] == _digests(run.answer, run.trace), tid
