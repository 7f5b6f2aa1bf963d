"""Reward-hacking attacks on the code score (issue 13): builders of ``(trace, answer)``.

Each attack takes a :class:`~tests.scoring.attacks.context.TaskContext` and returns a transcript
built from real tool calls on the sandbox world plus an answer written without planning (or
with a broken plan). Its docstring says which credit it goes for and why it must not get it.
``ATTACKS`` maps a name to an :class:`AttackSpec`, in the order of the issue's table:

* ``answer_attacks``: fact lists without a plan, reformatted tool dumps, padding and format;
* ``call_attacks``: trivial calls, another city's results, wrong dates;
* ``plan_attacks``: the honest answer with an impossible JSON plan.

The attacks on the judge prompt are in ``judge_attacks.py``, those on the step rewards in
``steps.py``. The contract ``test_attacks.py`` asserts: on every task, an attack's code-only
total is at most half the honest reference answer's.
"""

from __future__ import annotations

from . import answer_attacks, call_attacks, plan_attacks, round2_attacks, round3_attacks, round4_attacks  # noqa: F401  (they register the attacks)
from .call_attacks import other_city_pois
from .registry import ATTACKS, CLASSES, POI_TOOLS, AttackSpec, NotApplicable, build

__all__ = ["ATTACKS", "CLASSES", "POI_TOOLS", "AttackSpec", "NotApplicable", "build", "other_city_pois"]

_ordered = sorted(ATTACKS.values(), key=lambda s: CLASSES.index(s.cls))
ATTACKS.clear()
ATTACKS.update((s.name, s) for s in _ordered)
