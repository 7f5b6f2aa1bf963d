"""Benchmark: answers scored per second on the code path (one core).

Input: a 10-call trace of realistic tool results (POIs, nearby restaurants, hotels, routes,
weather, flights, trains) and a ~4,000-character answer with a JSON plan. Each iteration scores
a distinct answer (a counter line is appended) so nothing answer-side is cached; tool-side
facts are cached per tool result text, as in production. Also prints the cold figure (tool
cache cleared every time) and the figure with plan verification when available.

    python benchmarks/score.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.scoring import tool_texts as T
from tests.scoring.cases import CASES, MULTIDAY_ANSWER

from navworld.scoring.facts import extract_text_facts
from navworld.scoring.scorer import TravelScorer


def _rate(
    scorer: TravelScorer, problem: object, trace: object, answer: str, seconds: float, cold: bool
) -> float:
    # CPU time of this process (one core), so other load on the machine does not skew the figure
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        if cold:
            extract_text_facts.cache_clear()
        scorer.score(problem, trace, f"{answer}\n（第{n}版）")  # type: ignore[arg-type]
        n += 1
    return n / (time.process_time() - start)


def main() -> None:
    """Print answers/second for the warm, cold and verified code paths."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    case = CASES["hybrid"]
    answer = (
        case.answer
        + "\n\n## 备选安排\n"
        + MULTIDAY_ANSWER
        + "\n\n## 附：美食备选\n"
        + CASES["food_tour"].answer
    )[:4000]
    trace = T.build_trace(case.calls)
    tool_chars = sum(len(t) for _, t in case.calls)
    scorer = TravelScorer(salt="bench", verify_plans=False)
    total = scorer.score(case.problem, trace, answer).total
    print(
        f"input: {len(case.calls)} tool calls ({tool_chars} chars of tool text), answer {len(answer)} chars, total {total}"
    )
    warm = _rate(scorer, case.problem, trace, answer, args.seconds, cold=False)
    print(f"code path (tool facts cached per result): {warm:,.0f} answers/s")
    cold = _rate(scorer, case.problem, trace, answer, args.seconds, cold=True)
    print(f"code path (tool facts re-extracted every time): {cold:,.0f} answers/s")
    verified = TravelScorer(salt="bench", verify_plans=True)
    if verified.score(case.problem, trace, answer).plan_verification is not None:
        rate = _rate(verified, case.problem, trace, answer, args.seconds, cold=False)
        print(f"code path + plan verification: {rate:,.0f} answers/s")
    print(f"target ≥ 500 answers/s on one core: {'met' if warm >= 500 else 'NOT met'}")


if __name__ == "__main__":
    main()
