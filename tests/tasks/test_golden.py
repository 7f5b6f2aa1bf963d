"""Determinism: golden hashes of ``to_dict()`` and agreement between processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .golden import GOLDEN_IDS, GOLDEN_PATH, compute, problem_hash

REGEN = "python -m tests.tasks.golden"


def test_golden_hashes_match() -> None:
    assert GOLDEN_PATH.exists(), f"missing {GOLDEN_PATH}; run `{REGEN}`"
    expected = json.loads(GOLDEN_PATH.read_text(encoding="utf-8"))
    actual = compute()
    for key in ("generator_version", "world_version", "salt"):
        assert actual[key] == expected[key], f"{key} changed; if intended run `{REGEN}`"
    for lang in ("zh", "en"):
        diff = [i for i in GOLDEN_IDS if actual["hashes"][lang][str(i)] != expected["hashes"][lang][str(i)]]
        assert not diff, f"{lang} problems changed for ids {diff}; bump GENERATOR_VERSION and run `{REGEN}`"


_CHILD = """
import json, sys
sys.path.insert(0, {root!r})
from tests.tasks.golden import problem_hash
from navworld.tasks.generator import ProblemGenerator
from navworld.world.sandbox import SandboxWorld
gen = ProblemGenerator(SandboxWorld(salt="two-proc"))
print(json.dumps({{str(i): problem_hash(gen.generate(i).to_dict()) for i in range(14)}}))
"""


def _child(seed: str) -> dict[str, str]:
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONHASHSEED": seed}
    env.pop("NAVWORLD_SALT", None)
    out = subprocess.run(
        [sys.executable, "-c", _CHILD.format(root=root)], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    return json.loads(out.stdout)


def test_two_processes_agree_with_each_other_and_this_one() -> None:
    from navworld.tasks.generator import ProblemGenerator
    from navworld.world.sandbox import SandboxWorld

    a, b = _child("1"), _child("4242")
    assert a == b
    gen = ProblemGenerator(SandboxWorld(salt="two-proc"))
    assert a == {str(i): problem_hash(gen.generate(i).to_dict()) for i in range(14)}
