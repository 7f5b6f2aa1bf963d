"""Acceptance: a grounded answer beats every cheating / failing variant by a wide margin, per type."""

from __future__ import annotations

import pytest

from navworld.scoring.scorer import TravelScorer

from . import tool_texts as T
from .cases import CASES, TRANSPORT_TYPES, echo_dump, fabricated_ids, injection_stuffed, prices_off

TYPES = sorted(CASES)


def _wide(good: float, bad: float) -> bool:
    return good - bad >= 15.0 and good >= 1.5 * bad


@pytest.mark.parametrize("ptype", TYPES)
def test_grounded_answer_passes_every_hard_constraint(scorer: TravelScorer, ptype: str) -> None:
    c = CASES[ptype]
    r = scorer.score(c.problem, c.trace, c.answer)
    assert r.error is None
    assert all(r.hard_constraints.values()), r.constraints["details"]
    assert r.total >= 40.0, r.to_dict()["code_score"]
    assert r.path == "P5" and r.parse_success


@pytest.mark.parametrize("ptype", TYPES)
@pytest.mark.parametrize("variant", ["prices_off", "echo", "no_tools", "empty", "injection"])
def test_grounded_beats_variant_widely(scorer: TravelScorer, ptype: str, variant: str) -> None:
    c = CASES[ptype]
    good = scorer.score(c.problem, c.trace, c.answer).total
    trace, answer = c.trace, c.answer
    if variant == "prices_off":
        answer = prices_off(c.answer)
    elif variant == "echo":
        answer = echo_dump(c)
    elif variant == "no_tools":
        trace = T.empty_trace()
    elif variant == "empty":
        answer = ""
    else:
        answer = injection_stuffed(ptype)
    bad = scorer.score(c.problem, trace, answer)
    assert bad.error is None
    assert _wide(good, bad.total), (good, bad.total, bad.to_dict()["code_score"])


@pytest.mark.parametrize("ptype", TRANSPORT_TYPES)
def test_fabricated_transport_ids_fail_transport_grounded(scorer: TravelScorer, ptype: str) -> None:
    c = CASES[ptype]
    good = scorer.score(c.problem, c.trace, c.answer).total
    bad = scorer.score(c.problem, c.trace, fabricated_ids(c.answer))
    assert bad.hard_constraints["transport_grounded"] is False
    detail = bad.constraints["details"]["transport_grounded"]
    assert detail["fabrication_ratio"] > 0.5
    assert bad.code_score.fabrication_penalty < 0
    assert _wide(good, bad.total), (good, bad.total)


@pytest.mark.parametrize("ptype", TYPES)
def test_no_tool_calls_are_gated(scorer: TravelScorer, ptype: str) -> None:
    c = CASES[ptype]
    r = scorer.score(c.problem, T.empty_trace(), c.answer)
    assert r.hard_constraints["tool_info_used"] is False
    assert r.code_score.info_consistency == 0.0
    if ptype in TRANSPORT_TYPES:
        assert r.path == "P1" and r.total == 0.0
    else:
        assert r.path == "P1b"
        assert r.constraints["multipliers"]["tool_info_used"] == 0.05


@pytest.mark.parametrize("ptype", TYPES)
def test_prices_off_are_detected(scorer: TravelScorer, ptype: str) -> None:
    c = CASES[ptype]
    good = scorer.score(c.problem, c.trace, c.answer)
    bad = scorer.score(c.problem, c.trace, prices_off(c.answer))
    assert (
        bad.code_score.ic_categories["prices"]["matched"] < good.code_score.ic_categories["prices"]["matched"]
    )
    assert (
        bad.code_score.fabrication_penalty < good.code_score.fabrication_penalty
        or not bad.hard_constraints["transport_grounded"]
    )


def test_empty_answer_is_invalid_format(scorer: TravelScorer) -> None:
    c = CASES["multiday"]
    r = scorer.score(c.problem, c.trace, "")
    assert r.total == 0.0
    assert r.hard_constraints["format_valid"] is False
    assert r.parse_success is False


def test_scores_are_reproducible_in_process(scorer: TravelScorer) -> None:
    c = CASES["hybrid"]
    a = scorer.score(c.problem, c.trace, c.answer).to_dict()
    b = TravelScorer(salt="test-salt", verify_plans=False).score(c.problem, c.trace, c.answer).to_dict()
    assert a == b
