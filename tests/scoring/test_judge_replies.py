"""Judges that answer badly: messy replies are read, failures are named, retries say what was wrong."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from navworld.scoring import config as C
from navworld.scoring.judge import LLMJudge
from navworld.scoring.judge_call import failure_class
from navworld.scoring.judge_reply import json_objects, read_verdict
from navworld.scoring.scorer import TravelScorer

from .cases import CASES
from .messy_judges import EXAMPLE, GOOD, VERDICT, MessyJudges

CASE = CASES["intercity"]


@pytest.fixture(scope="module")
def judges() -> Iterator[MessyJudges]:
    with MessyJudges() as server:
        yield server


def scorer(judges: MessyJudges, model: str, **kw: float) -> TravelScorer:
    judge = LLMJudge([model], base_url=judges.base_url, retries=int(kw.pop("retries", 2)), backoff=0.01,
                     timeout=kw.pop("timeout", 10.0))  # fmt: skip
    return TravelScorer(judge=judge, salt="judge-salt", verify_plans=False)


@pytest.mark.parametrize("model", ["entities", "trailing", "example-then-verdict", "two-objects"])
async def test_messy_replies_holding_a_verdict_are_read(judges: MessyJudges, model: str) -> None:
    report = await scorer(judges, model).score_async(CASE.problem, CASE.trace, CASE.answer)
    assert report.llm_validation_success and report.llm_error is None, report.llm_error
    assert all(getattr(report.llm_score, d) == 6.0 for d in C.LLM_DIMENSIONS)  # the last object won
    assert len(judges.bodies(model)) == 1  # read at the first try


async def test_an_echo_is_retried_with_a_prompt_saying_what_was_wrong(judges: MessyJudges) -> None:
    report = await scorer(judges, "echo-then-ok").score_async(CASE.problem, CASE.trace, CASE.answer)
    assert report.llm_validation_success
    first, second = judges.bodies("echo-then-ok")[-2:]
    assert len(first["messages"]) == 2 and len(second["messages"]) == 4  # not an identical request
    assert second["messages"][:2] == first["messages"]
    assert second["messages"][2]["role"] == "assistant"
    correction = second["messages"][3]["content"]
    assert correction.startswith("你上一条回复无法解析：the reply echoes the prompt")
    assert all(d in correction for d in C.LLM_DIMENSIONS)


async def test_a_judge_that_always_echoes_fails_visibly(judges: MessyJudges) -> None:
    report = await scorer(judges, "echo").score_async(CASE.problem, CASE.trace, CASE.answer)
    code_only = TravelScorer(salt="judge-salt", verify_plans=False).score(CASE.problem, CASE.trace, CASE.answer)
    assert not report.llm_validation_success and report.path == "P4"
    assert report.total == code_only.total  # code-only fallback
    assert report.llm_error.startswith("unparseable reply: the reply echoes the prompt")
    assert report.llm_error.endswith("(after 3 attempts)")
    assert failure_class(report.llm_error) == "unparseable reply"
    assert report.judge["error_kind"] == "unparseable reply" and "echo" in report.judge["failures"]
    bodies = judges.bodies("echo")[-3:]
    assert len({json.dumps(b["messages"], ensure_ascii=False) for b in bodies}) == 3  # every retry differs
    assert "llm_error" in report.to_dict() and report.to_dict()["judge"]["error_kind"] == "unparseable reply"


async def test_a_judge_that_keeps_writing_times_out_once_and_is_stopped(judges: MessyJudges) -> None:
    before = judges.aborted
    started = time.monotonic()
    report = await scorer(judges, "slow", timeout=0.6).score_async(CASE.problem, CASE.trace, CASE.answer)
    assert time.monotonic() - started < 3.0
    assert report.llm_error.startswith("timeout: the judge at ") and "not retried" in report.llm_error
    assert len(judges.bodies("slow")) == 1  # a second try would take as long
    deadline = time.monotonic() + 5
    while judges.aborted == before and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert judges.aborted == before + 1  # the connection was closed: the server stopped writing


async def test_a_validation_500_from_the_judge_is_not_retried(judges: MessyJudges) -> None:
    report = await scorer(judges, "invalid").score_async(CASE.problem, CASE.trace, CASE.answer)
    assert report.llm_error.startswith("invalid request: HTTP 500 from http://127.0.0.1:")
    assert "less_than_equal" in report.llm_error
    assert len(judges.bodies("invalid")) == 1


async def test_an_unreachable_judge_is_a_connection_failure() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    judge = LLMJudge(["j"], base_url=f"http://127.0.0.1:{port}/v1", retries=1, backoff=0.01, timeout=5)
    report = await TravelScorer(judge=judge, salt="s", verify_plans=False).score_async(
        CASE.problem, CASE.trace, CASE.answer
    )
    assert failure_class(report.llm_error) == "connection" and report.judge["error_kind"] == "connection"
    assert f"127.0.0.1:{port}" in report.llm_error


# ----------------------------------------------------------------------------- the reader


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("", "empty reply"),
        ("I think the plan is fine.", "no JSON object in the reply"),
        (EXAMPLE, "only the format example (placeholders, no scores)"),
        (json.dumps({d: VERDICT[d] for d in C.LLM_DIMENSIONS[:3]}), "JSON lacks user_experience, factual_grounding"),
        (json.dumps({**VERDICT, "logic": {"score": "高"}}), "no numeric score for logic"),
    ],
)
def test_unreadable_replies_say_why(reply: str, problem: str) -> None:
    verdict = read_verdict(reply)
    assert not verdict.ok and verdict.problem.startswith(problem)


def test_a_reply_cut_at_max_tokens_says_so() -> None:
    verdict = read_verdict(GOOD[: len(GOOD) // 2], finish_reason="length")
    assert not verdict.ok and "cut at max_tokens" in verdict.problem


def test_the_last_complete_object_wins_and_fences_and_think_blocks_are_skipped() -> None:
    low = json.dumps({d: {"score": 1} for d in C.LLM_DIMENSIONS})
    verdict = read_verdict(f"<think>{GOOD}</think>\n```json\n{low}\n```\n最终：{GOOD.replace('6', '8')}")
    assert verdict.ok and set(verdict.scores.values()) == {8.0 * w / 10 for w in C.LLM_SCORE_WEIGHTS.values()}


def test_json_objects_skips_braces_inside_strings() -> None:
    spans, tail = json_objects('前言 {"a": "}{"} 中间 {"b": 1} 尾 {"c": ')
    assert spans == ['{"a": "}{"}', '{"b": 1}'] and tail == '{"c": '


_TOKENS = st.sampled_from([*'{}[]":,\'&; 0123456789\\\n', "&quot;", "score", "reason", "<0-10>", *C.LLM_DIMENSIONS])


@settings(max_examples=200, deadline=None)
@given(st.lists(_TOKENS, max_size=120).map("".join))
def test_read_verdict_never_raises(text: str) -> None:
    verdict = read_verdict(text)
    assert verdict.ok or (verdict.problem and len(verdict.problem) < 400)


def test_a_huge_reply_is_read_in_bounded_time() -> None:
    started = time.monotonic()
    verdict = read_verdict("{" * 100_000 + "x" * 500_000 + GOOD)
    assert time.monotonic() - started < 5.0
    assert verdict.ok or verdict.problem
