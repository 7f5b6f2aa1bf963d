"""``navworld score --task ID --trace TRACE.json --answer ANSWER.md``: score one answer offline.

Code-only by default (path P5); ``--judge-model`` (repeatable) with ``--judge-base-url`` adds the
LLM judge, whose API key comes from ``NAVWORLD_JUDGE_API_KEY`` or ``OPENAI_API_KEY`` only (never
a flag, never printed). ``--json`` prints the debug report (``to_dict``) as one JSON document;
``--safe`` prints the external view (``to_safe_dict``) instead.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json
from navworld.cli.inputs import load_problem, read_json, read_text

__all__ = ["score"]


def _human(report: Any) -> str:
    d = report.to_dict()
    cs, ls = d["code_score"], d["llm_score"]
    lines = [
        f"task {d['task_id']} ({d['problem_type']}), path {d['path']}, scoring {d['scoring_profile']}:"
        f" total {d['total']:.2f} / 100",
        f"  code {cs['subtotal']:.2f} / 50  = IC {cs['info_consistency']:.2f} · Comp {cs['completeness']:.2f}"
        f" · diversity {cs['diversity_mult']} + fabrication {cs['fabrication_penalty']:.2f}",
        f"  llm  {ls['subtotal']:.2f} / 50  (coupled {ls['coupled_subtotal']:.2f})"
        + ("" if d["llm_validation_success"] else f"  [{d['llm_error']}]"),
        "  hard constraints: "
        + ", ".join(f"{k}={'ok' if v else 'FAIL'}" for k, v in d["hard_constraints"].items())
        + f"  (× {d['constraints']['hc_multiplier']})",
        "  completeness: " + ", ".join(f"{k} {v:g}" for k, v in cs["comp_subscores"].items()),
    ]
    plan = d["constraints"].get("plan") or {}
    if d["scoring_profile"] == "s2":
        why = plan.get("reason") or ", ".join(sorted(plan.get("check_penalties") or {})) or "all checks pass"
        lines.append(f"  plan factor × {cs['plan_factor']}  ({why})")
    if d["plan_verification"] is not None:
        lines.append(f"  plan verification: final_pass={d['plan_verification'].get('final_pass')}")
    return "\n".join(lines)


@app.command("score", cls=OneLineErrorCommand)
def score(
    task: Annotated[str | None, typer.Option("--task", help="Task id of the problem.")] = None,
    trace: Annotated[
        Path | None, typer.Option("--trace", help="The OpenAI chat transcript (JSON list of messages).")
    ] = None,
    answer: Annotated[
        Path | None, typer.Option("--answer", help="The final answer (text/markdown file).")
    ] = None,
    problem: Annotated[
        Path | None,
        typer.Option("--problem", help="A Problem JSON instead of --task.", envvar="NAVWORLD_PROBLEM"),
    ] = None,
    judge_model: Annotated[
        list[str] | None,
        typer.Option("--judge-model", help="Judge model (repeatable).", envvar="NAVWORLD_JUDGE_MODEL"),
    ] = None,
    judge_base_url: Annotated[
        str | None,
        typer.Option(
            "--judge-base-url",
            help="OpenAI-compatible base URL of the judge.",
            envvar="NAVWORLD_JUDGE_BASE_URL",
        ),
    ] = None,
    judge_cross_model: Annotated[
        str | None,
        typer.Option(
            "--judge-cross-model",
            help="Model re-evaluating totals above 36/50.",
            envvar="NAVWORLD_JUDGE_CROSS_MODEL",
        ),
    ] = None,
    salt: Annotated[str | None, typer.Option("--salt", help="Epoch salt.", envvar="NAVWORLD_SALT")] = None,
    scoring: Annotated[
        str | None,
        typer.Option("--scoring", help="Scoring profile: s2 (default) or seed.", envvar="NAVWORLD_SCORING"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the debug report as JSON.")] = False,
    safe: Annotated[bool, typer.Option("--safe", help="Print the external (safe) view as JSON.")] = False,
) -> None:
    """Score one answer against a task and the trace of its tool calls."""
    if trace is None or answer is None:
        bad_args("--trace and --answer are required")
    from navworld.scoring.profile import get_profile
    from navworld.world.sandbox import SandboxWorld

    try:
        profile = get_profile(scoring)
    except ValueError as exc:
        bad_args(str(exc))

    prob = load_problem(task, problem, SandboxWorld(salt=salt))
    messages = read_json(trace, "trace")
    text = read_text(answer, "answer")
    from navworld.scoring.judge import LLMJudge
    from navworld.scoring.scorer import TravelScorer

    models = [m for m in (judge_model or []) if m.strip()]
    judge = LLMJudge(models, judge_cross_model, base_url=judge_base_url) if models else None
    scorer = TravelScorer(judge=judge, salt=salt, profile=profile)
    report = (
        asyncio.run(scorer.score_async(prob, messages, text)) if judge else scorer.score(prob, messages, text)
    )
    if safe:
        print_json(report.to_safe_dict())
    elif as_json:
        print_json(report.to_dict())
    else:
        typer.echo(_human(report))
