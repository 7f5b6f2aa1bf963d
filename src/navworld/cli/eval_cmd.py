"""``navworld eval``: batch evaluation with resume, JSONL results, a summary and an HTML report.

Every option also reads ``NAVWORLD_<NAME>`` (e.g. ``NAVWORLD_TASKS``, ``NAVWORLD_CONCURRENCY``).
Options are parsed here (not by click) so that any bad value exits 2 with one line on stderr.
"""

from __future__ import annotations

from pathlib import Path

import typer

from navworld.cli import exitcodes
from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json
from navworld.cli.eval_output import (
    attention_lines,
    exit_status,
    parse_fail_under,
    plain_line,
    print_chinatravel_table,
    print_summary_table,
)
from navworld.core.errors import ConfigError, TaskError

__all__ = ["eval_command"]


@app.command("eval", cls=OneLineErrorCommand)
def eval_command(
    tasks: str = typer.Option(
        None,
        "--tasks",
        metavar="SPEC",
        envvar="NAVWORLD_TASKS",
        help="Task ids: A:B (half-open), comma list, @file.",
    ),
    agent: str = typer.Option(
        None, "--agent", metavar="NAME", envvar="NAVWORLD_AGENT", help="reference (default) or model."
    ),
    model: str = typer.Option(
        None, "--model", metavar="M", envvar="NAVWORLD_MODEL", help="Model name (OpenAI-compatible)."
    ),
    base_url: str = typer.Option(
        None, "--base-url", metavar="URL", envvar="NAVWORLD_BASE_URL", help="Model endpoint base URL."
    ),
    api_key_env: str = typer.Option(
        None,
        "--api-key-env",
        metavar="VAR",
        envvar="NAVWORLD_API_KEY_ENV",
        help="Env var holding the API key (default NAVWORLD_API_KEY, OPENAI_API_KEY).",
    ),
    concurrency: str = typer.Option(
        None,
        "--concurrency",
        metavar="N",
        envvar="NAVWORLD_CONCURRENCY",
        help="Episodes in flight (default 4).",
    ),
    epochs: str = typer.Option(
        None, "--epochs", metavar="K", envvar="NAVWORLD_EPOCHS", help="Runs per task (default 1)."
    ),
    workers: str = typer.Option(
        None,
        "--workers",
        metavar="N",
        envvar="NAVWORLD_WORKERS",
        help="Local worker processes, or auto (default: up to 4 for reference runs of 50+ episodes, else 1).",
    ),
    out: str = typer.Option(
        None,
        "--out",
        metavar="DIR",
        envvar="NAVWORLD_OUT",
        help="Run directory (default runs/<UTC timestamp>).",
    ),
    salt: str = typer.Option(
        None, "--salt", metavar="S", envvar="NAVWORLD_SALT", help="World salt (default: UTC week epoch)."
    ),
    judge_model: str = typer.Option(
        None,
        "--judge-model",
        metavar="M[,M2]",
        envvar="NAVWORLD_JUDGE_MODEL",
        help="Judge model(s), comma-separated.",
    ),
    judge_base_url: str = typer.Option(
        None, "--judge-base-url", metavar="URL", envvar="NAVWORLD_JUDGE_BASE_URL", help="Judge endpoint."
    ),
    judge_api_key_env: str = typer.Option(
        None,
        "--judge-api-key-env",
        metavar="VAR",
        envvar="NAVWORLD_JUDGE_API_KEY_ENV",
        help="Env var of the judge key.",
    ),
    world: str = typer.Option(
        None,
        "--world",
        metavar="W",
        envvar="NAVWORLD_WORLD",
        help="sandbox (default), amap, record:DIR, replay:DIR.",
    ),
    backend: str = typer.Option(
        None, "--backend", metavar="local|ray", envvar="NAVWORLD_BACKEND", help="local (default) or ray."
    ),
    ray_address: str = typer.Option(
        None, "--ray-address", metavar="ADDR", envvar="NAVWORLD_RAY_ADDRESS", help="Join this Ray cluster."
    ),
    lang: str = typer.Option(
        None, "--lang", metavar="zh|en", envvar="NAVWORLD_LANG", help="Prompt language: zh (default) or en."
    ),
    temperature: str = typer.Option(
        None,
        "--temperature",
        metavar="T",
        envvar="NAVWORLD_TEMPERATURE",
        help="Model temperature (default 0.7).",
    ),
    timeout: str = typer.Option(
        None,
        "--timeout",
        metavar="SECONDS",
        envvar="NAVWORLD_TIMEOUT",
        help="Episode timeout in seconds (default 300).",
    ),
    scoring: str = typer.Option(
        None,
        "--scoring",
        metavar="s2|seed",
        envvar="NAVWORLD_SCORING",
        help="Scoring profile: s2 (default, plan-gated) or seed (NAVWORLD's formula).",
    ),
    # -- model and judge call settings (issue 18) --
    max_tokens: str = typer.Option(
        None, "--max-tokens", metavar="N", envvar="NAVWORLD_MAX_TOKENS",
        help="max_tokens sent on every model call (default 8192).",
    ),
    call_timeout: str = typer.Option(
        None, "--call-timeout", metavar="SECONDS", envvar="NAVWORLD_CALL_TIMEOUT",
        help="Seconds one model call may take (default 480; clipped to what is left of --timeout).",
    ),
    seed: str = typer.Option(
        None, "--seed", metavar="N", envvar="NAVWORLD_SEED",
        help="Sampling seed sent on every model call (default: none sent); recorded in the rows.",
    ),
    judge_timeout: str = typer.Option(
        None, "--judge-timeout", metavar="SECONDS", envvar="NAVWORLD_JUDGE_TIMEOUT",
        help="Seconds one judge call may take (default 180).",
    ),
    judge_max_tokens: str = typer.Option(
        None, "--judge-max-tokens", metavar="N", envvar="NAVWORLD_JUDGE_MAX_TOKENS",
        help="max_tokens of a judge call (default 4000).",
    ),
    judge_retries: str = typer.Option(
        None, "--judge-retries", metavar="N", envvar="NAVWORLD_JUDGE_RETRIES",
        help="Judge retries after a failed or unparseable reply (default 2).",
    ),
    report: bool = typer.Option(
        True, "--report/--no-report", envvar="NAVWORLD_REPORT", help="Write DIR/report.html at the end."
    ),
    json_out: bool = typer.Option(
        False, "--json", envvar="NAVWORLD_JSON", help="Print one JSON summary object on stdout."
    ),
    # -- task filters, CI gates, exports (issue 16) -------------------------------------------
    types: str = typer.Option(
        None, "--types", metavar="T[,T2]", envvar="NAVWORLD_TYPES", help="Only these problem types."
    ),
    difficulty: str = typer.Option(
        None, "--difficulty", metavar="D[,D2]", envvar="NAVWORLD_DIFFICULTY", help="Only these difficulties (1-3)."
    ),
    limit: str = typer.Option(
        None, "--limit", metavar="N", envvar="NAVWORLD_LIMIT", help="At most N tasks (the first that match)."
    ),
    retry_errors: bool = typer.Option(
        True,
        "--retry-errors/--no-retry-errors",
        envvar="NAVWORLD_RETRY_ERRORS",
        help="Re-run rows that failed on infrastructure (default) or keep them.",
    ),
    fail_under: str = typer.Option(
        None,
        "--fail-under",
        metavar="[METRIC=]X",
        envvar="NAVWORLD_FAIL_UNDER",
        help="Exit 1 when score_mean (or METRIC, e.g. fpr=0.9) is below X.",
    ),
    csv_path: str = typer.Option(
        None, "--csv", metavar="FILE", envvar="NAVWORLD_CSV", help="Also write per-task results as CSV."
    ),
    queries: str = typer.Option(
        None, "--queries", metavar="FILE", envvar="NAVWORLD_QUERIES",
        help="ChinaTravel queries (JSON / JSONL) to run instead of generated tasks (needs --world chinatravel:DIR).",
    ),
    profile: str = typer.Option(
        None, "--profile", metavar="navworld|chinatravel", envvar="NAVWORLD_PROFILE",
        help="chinatravel adds ChinaTravel's own metrics (default on a chinatravel world).",
    ),
) -> None:
    """Run an agent over tasks (resumable); write results.jsonl, run.json and report.html."""
    from rich.console import Console

    from navworld.runner.agents import AgentUnavailable, resolve_api_key
    from navworld.runner.batch import run_eval
    from navworld.runner.options import build_config, config_digest
    from navworld.runner.progress import EvalProgress

    try:
        config, resumed = build_config(
            agent=agent, model=model, base_url=base_url, api_key_env=api_key_env, tasks=tasks,
            concurrency=concurrency, epochs=epochs, workers=workers, out=out, salt=salt, judge_model=judge_model,
            judge_base_url=judge_base_url, judge_api_key_env=judge_api_key_env, world=world,
            backend=backend, ray_address=ray_address, lang=lang, temperature=temperature, timeout=timeout,
            scoring=scoring,
            types=types, difficulty=difficulty, limit=limit,
            queries=queries, profile=profile,
            max_tokens=max_tokens, call_timeout=call_timeout, seed=seed, judge_timeout=judge_timeout,
            judge_max_tokens=judge_max_tokens, judge_retries=judge_retries,
        )  # fmt: skip
        gate = parse_fail_under(fail_under)
    except (ConfigError, ValueError) as exc:
        bad_args(str(exc).splitlines()[0])
    if config.agent.kind == "reference":
        from navworld.runner.agents import ReferenceAgentAdapter

        try:
            ReferenceAgentAdapter()
        except AgentUnavailable as exc:
            bad_args(str(exc))
    err = Console(stderr=True)
    if config.queries:
        from navworld.cli.chinatravel_inputs import warn
        from navworld.tasks.chinatravel import load_queries

        warn(load_queries(config.queries)[1])
    if resumed and not json_out:
        err.print(f"resuming {config.out} (same configuration)")
    progress = EvalProgress(err, enabled=not json_out)
    api_key = resolve_api_key(config.agent.api_key_env) if config.agent.kind == "model" else None
    try:
        with progress:
            outcome = run_eval(
                config,
                on_start=progress.start,
                on_row=progress.advance,
                api_key=api_key,
                run_info={"config_digest": config_digest(config.public_dict())},
                retry_errors=retry_errors,
            )
    except AgentUnavailable as exc:
        bad_args(str(exc))
    except KeyboardInterrupt:
        err.print(
            f"interrupted: completed rows are stored in {config.out}; re-run the same command to resume"
        )
        raise typer.Exit(exitcodes.INTERRUPTED) from None
    except (ConfigError, TaskError) as exc:
        bad_args(str(exc).splitlines()[0])
    missing = outcome.summary["planned"] - outcome.summary["completed"]
    if missing > 0:
        err.print(
            f"warning: {missing} (task, epoch) rows are missing (lost workers?); re-run the same command to resume"
        )
    if report:
        from navworld.runner.report import write_report

        write_report(Path(config.out))
    if csv_path:
        from navworld.runner.export import write_csv

        write_csv(outcome.rows, Path(csv_path))
    summary = {**outcome.summary, "out": config.out}
    status, why = exit_status(outcome.summary, gate)
    if json_out:
        print_json(summary)
    else:
        out_console = Console()
        print_summary_table(outcome.summary, config.out, out_console)
        print_chinatravel_table(outcome.summary, out_console)
        out_console.print(plain_line(outcome.summary), highlight=False, soft_wrap=True)
    for line in attention_lines(outcome.summary):
        err.print(f"warning: {line}", highlight=False, soft_wrap=True, markup=False)
    if why:
        err.print(why, highlight=False, soft_wrap=True, markup=False)
    if status:
        raise typer.Exit(status)
