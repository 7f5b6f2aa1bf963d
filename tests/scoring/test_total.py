"""The total formula (seed §3.1, §3.6.5–§3.7) and the hard-constraint multipliers."""

from __future__ import annotations

import math

import pytest

from navworld.scoring import config as C
from navworld.scoring.answer_facts import AnswerFacts, TransportClaim
from navworld.scoring.facts import ToolFacts, TransportEntry
from navworld.scoring.hard import transport_grounded
from navworld.scoring.total import code_total, combine, scoring_path

LLM = dict.fromkeys(C.LLM_DIMENSIONS, 8.0)


def test_code_total_is_the_geometric_mean_times_diversity_plus_fabrication() -> None:
    assert code_total(25, 25, 1.0, 0) == 50.0
    assert code_total(25, 0, 1.0, 0) == 0.0
    assert code_total(25, 6.25, 1.0, 0) == pytest.approx(25.0)
    assert code_total(16, 25, 0.75, -2) == pytest.approx(50 * math.sqrt(16 / 25) * 0.75 - 2)
    assert code_total(1, 1, 1.0, -12.5) == 0.0
    assert code_total(25, 25, 1.1, 0) == 50.0


def test_bidirectional_coupling_and_monotonicity() -> None:
    r = combine(25, 6.25, 1.0, 0, 1.0, {}, LLM)  # code 25, llm 40
    assert r.code_total == 25.0 and r.llm_raw == 40.0
    assert r.llm_adjusted == pytest.approx(40 * 25 / 30, abs=1e-3)
    assert r.code_coupled == pytest.approx(25 * (0.7 + 0.3 * 1.0))
    assert r.total == pytest.approx(25 + 40 * 25 / 30, abs=0.01)
    low_llm = {**dict.fromkeys(C.LLM_DIMENSIONS, 0.0), "factual_grounding": 5.0}
    low = combine(4, 4, 1.0, 0, 1.0, {}, low_llm)  # code 8, llm 5 (fg ≥ 4: no defense)
    coupled = 8 * (0.7 + 0.3 * 5 / 20) + 5 * 8 / 30
    assert low.total == pytest.approx(max(coupled, 0.5 * 13), abs=0.01)
    floor = combine(1, 1, 1.0, 0, 1.0, {}, dict.fromkeys(C.LLM_DIMENSIONS, 10.0))  # code 2, llm 50
    assert floor.total == pytest.approx(0.5 * (2 + 50), abs=0.01)  # the monotonicity floor binds


def test_code_only_is_not_coupled() -> None:
    r = combine(25, 25, 1.0, 0, 1.0, {}, None)
    assert r.total == 50.0 and r.llm_raw == 0.0 and r.code_coupled == 50.0


def test_failed_hard_constraints_multiply() -> None:
    r = combine(25, 25, 1.0, 0, 1.0, {"required_tools_called": 0.5, "poi_names_verified": 0.7}, None)
    assert r.total == pytest.approx(50 * 0.35)


def test_defense_in_depth_compresses_ic_and_comp() -> None:
    fg = 2.0
    r = combine(25, 25, 1.0, 0, 1.0, {}, {**LLM, "factual_grounding": fg})
    m = 0.3 + 0.7 * fg / 4
    assert r.defense_multiplier == pytest.approx(m) and r.ic == pytest.approx(25 * m)
    already = combine(25, 25, 1.0, 0, 0.5, {}, {**LLM, "factual_grounding": fg})
    assert already.defense_multiplier == 1.0  # local regex multiplier already harsher
    assert combine(25, 25, 1.0, 0, 1.0, {}, {**LLM, "factual_grounding": 4.0}).defense_multiplier == 1.0


@pytest.mark.parametrize(
    ("ptype", "tool_info", "fmt", "judged", "configured", "path"),
    [
        ("intercity", False, True, False, True, "P1"),
        ("multiday", False, True, True, True, "P1b"),
        ("multiday", True, False, True, True, "P2"),
        ("business", True, True, True, True, "P3"),
        ("business", True, True, False, True, "P4"),
        ("business", True, True, False, False, "P5"),
    ],
)
def test_paths(ptype: str, tool_info: bool, fmt: bool, judged: bool, configured: bool, path: str) -> None:
    assert scoring_path(ptype, tool_info, fmt, judged, configured) == path


def _grounding(fabricated: int, verified: int) -> float:
    tf = ToolFacts(called=frozenset({"search_train_tickets"}))
    tf.transports = {
        f"G{100 + i}": TransportEntry(f"G{100 + i}", "train", "08:00", "10:00", (500.0,), 120)
        for i in range(5)
    }
    af = AnswerFacts()
    af.claims = {TransportClaim(f"G{100 + i}", "train", "id") for i in range(verified)}
    af.claims |= {TransportClaim(f"G{900 + i}", "train", "id") for i in range(fabricated)}
    return transport_grounded("intercity", tf, af).multiplier


def test_transport_grounded_is_progressive() -> None:
    assert _grounding(0, 5) == 1.0
    assert _grounding(1, 4) == 1.0  # 20 % fabrication is tolerated
    assert _grounding(1, 1) == pytest.approx(1 - 0.7 * 0.3 / 0.8)  # 50 % → ≈ 0.74
    assert _grounding(3, 0) == pytest.approx(0.3)


def test_unverifiable_transport_claims_are_excluded() -> None:
    tf = ToolFacts(called=frozenset({"search_flights"}))  # called, returned nothing usable
    af = AnswerFacts()
    af.claims = {TransportClaim("CA1234", "flight", "id")}
    check = transport_grounded("business", tf, af)
    assert check.passed and check.detail["unverifiable"] == 1
    af.claims = {TransportClaim("G7777", "train", "id")}  # trains never searched → fabricated
    assert not transport_grounded("business", tf, af).passed
