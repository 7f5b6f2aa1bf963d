"""Batch evaluation: resumable runs, JSONL results, summaries, an offline HTML report, Ray.

Entry points: :func:`run_eval` (what ``navworld eval`` calls), :func:`write_report`
(``navworld report``), :class:`EvalConfig`, :class:`ResultsStore` and the agent adapters.
"""

from __future__ import annotations

from navworld.runner.agents import EpisodeAgent, ModelAgent, ReferenceAgentAdapter, RunRecord, build_agent
from navworld.runner.batch import EvalOutcome, run_eval
from navworld.runner.config import AgentSpec, EvalConfig, JudgeSpec
from navworld.runner.report import build_report, write_report
from navworld.runner.results import ResultsStore, content_hash, load_rows
from navworld.runner.summary import summarize
from navworld.runner.taskspec import parse_task_spec

__all__ = [
    "AgentSpec",
    "EpisodeAgent",
    "EvalConfig",
    "EvalOutcome",
    "JudgeSpec",
    "ModelAgent",
    "ReferenceAgentAdapter",
    "ResultsStore",
    "RunRecord",
    "build_agent",
    "build_report",
    "content_hash",
    "load_rows",
    "parse_task_spec",
    "run_eval",
    "summarize",
    "write_report",
]
