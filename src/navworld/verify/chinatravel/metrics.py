"""ChinaTravel's metric formulas, as their evaluation code computes them (percent scale).

Per plan the inputs are the schema verdict, the commonsense :class:`~.commonsense.Outcome` and
the programs' truth values. Over a batch (``eval_exp.py`` / ``eval_tpc.py`` of ChinaTravel
``main``), with the quirks named:

* **EPR micro** = 100 × (1 − Σ flags / (N × K)) where **K = the columns seen in this batch**
  (``data_dependent_k``: 25 static + the dynamic columns any plan created); a plan whose checks
  raised keeps zeros for the columns not reached (``exception_credit``).
* **EPR macro** = plans with no flag and no exception / N.
* **LPR micro** = satisfied programs / Σ |C_p| (``None`` when no query has a program: their
  code divides by zero); **LPR macro** = plans whose programs all hold / N, where a query with
  **no program counts as passed even when no plan was delivered** (``zero_program_pass``).
* **C-LPR** = Σ over commonsense-passing plans of satisfied programs / Σ |C_p| over all plans;
  the conditional macro (commonsense and all programs) is reported too.
* **FPR** = |schema-pass ∩ commonsense-pass ∩ logic-pass| / N.
* **TPC overall** = 0.1·MicEPR **+ 0.1·MicEPR** (``double_micro_epr``: MacEPR is computed but not
  used) + 0.25·C-LPR + 0.05·(DAV + ATT + DDR) + 0.4·FPR, where DAV/ATT/DDR are averaged over
  the FPR-passing plans only (``preferences_over_passing``; 0 when none passes) and a plan with
  no inner-city transport gets ATT = 1 (``att_without_transport``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from navworld.verify.chinatravel.commonsense import DYNAMIC_COLUMNS, STATIC_COLUMNS

__all__ = ["QUIRKS", "PlanScore", "aggregate"]

QUIRKS: dict[str, str] = {
    "data_dependent_k": "micro EPR divides by the columns seen in this batch (25 + dynamic columns that fired)",
    "exception_credit": "columns of a plan whose checks raised count as passed in micro EPR",
    "zero_program_pass": "LPR macro counts a query without programs as passed, even without a plan",
    "double_micro_epr": "TPC overall adds 0.1 × micro EPR twice and leaves macro EPR out",
    "preferences_over_passing": "DAV/ATT/DDR are averaged over FPR-passing plans only",
    "att_without_transport": "a plan without inner-city transport scores ATT 1 (clamped 8/7 + 1/105)",
}
"""The behaviours of ChinaTravel's metric code that these formulas keep on purpose."""


@dataclass
class PlanScore:
    """ChinaTravel's verdicts on one (query, plan)."""

    schema: bool
    flags: dict[str, int]
    exception: str | None
    logic: list[bool]
    preference: tuple[float, float, float] | None = None
    """DAV, ATT, DDR of the plan (their default scoring programs, clamped to [0, 1])."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def commonsense(self) -> bool:
        """No flag set and no exception."""
        return self.exception is None and not any(self.flags.values())

    @property
    def logic_pass(self) -> bool:
        """Every program holds (vacuously true without programs)."""
        return all(self.logic)

    @property
    def final(self) -> bool:
        """Schema, commonsense and logic all pass."""
        return self.schema and self.commonsense and self.logic_pass

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PlanScore:
        """Rebuild from the ``chinatravel`` dict of a verification (see :mod:`.profile`)."""
        pref = d.get("preference")
        return cls(
            schema=bool(d.get("schema")),
            flags={str(k): int(v) for k, v in (d.get("flags") or {}).items()},
            exception=d.get("exception"),
            logic=[r is True for r in d.get("logic") or []],
            preference=tuple(pref) if isinstance(pref, (list, tuple)) and len(pref) == 3 else None,  # type: ignore[arg-type]
        )


def _pct(x: float) -> float:
    return round(100.0 * x, 4)


def aggregate(items: Iterable[PlanScore | dict[str, Any]]) -> dict[str, Any]:
    """ChinaTravel's batch metrics (percent) with the quirks of :data:`QUIRKS`."""
    plans = [p if isinstance(p, PlanScore) else PlanScore.from_dict(p) for p in items]
    n = len(plans)
    if n == 0:
        return {"n": 0}
    columns = list(STATIC_COLUMNS) + [c for c in DYNAMIC_COLUMNS if any(c in p.flags for p in plans)]
    flagged = sum(int(p.flags.get(c, 0)) for p in plans for c in columns)
    programs = sum(len(p.logic) for p in plans)
    satisfied = sum(sum(p.logic) for p in plans)
    env_pass = [p for p in plans if p.commonsense]
    final = [p for p in plans if p.final]
    micro_epr = _pct(1.0 - flagged / (n * len(columns)))
    c_lpr = _pct(sum(sum(p.logic) for p in env_pass) / programs) if programs else None
    fpr = _pct(len(final) / n)
    prefs: Sequence[tuple[float, float, float]] = [p.preference or (0.0, 0.0, 0.0) for p in final]
    dav, att, ddr = ((_pct(sum(x[i] for x in prefs) / len(prefs)) for i in range(3)) if prefs else (0.0, 0.0, 0.0))
    overall = 0.1 * micro_epr + 0.1 * micro_epr + 0.25 * (c_lpr or 0.0) + 0.05 * (dav + att + ddr) + 0.4 * fpr
    return {
        "n": n,
        "columns": len(columns),
        "schema_pass": _pct(sum(p.schema for p in plans) / n),
        "epr_micro": micro_epr,
        "epr_macro": _pct(len(env_pass) / n),
        "lpr_micro": _pct(satisfied / programs) if programs else None,
        "lpr_macro": _pct(sum(p.logic_pass for p in plans) / n),
        "c_lpr": c_lpr,
        "c_lpr_macro": _pct(sum(p.logic_pass for p in env_pass) / n),
        "fpr": fpr,
        "dav": dav,
        "att": att,
        "ddr": ddr,
        "tpc_overall": round(overall, 4),
        "exceptions": sum(1 for p in plans if p.exception),
        "quirks": sorted(QUIRKS),
    }
