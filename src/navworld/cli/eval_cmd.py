"""``navworld eval``: batch evaluation with resume, JSONL results, a summary and an HTML report.

Every option also reads ``NAVWORLD_<NAME>`` (e.g. ``NAVWORLD_TASKS``, ``NAVWORLD_CONCURRENCY``).
Options are parsed here (not by click) so that any bad value exits 2 with one line on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json
from navworld.core.errors import ConfigError, TaskError

__all__ = ["eval_command"]




def _print_summary_table(summary: dict[str, Any], run_dir: str, console: Any) -> None:
    from rich.table import Table

    label = " — navworld profile" if isinstance(summary.get("chinatravel"), dict) else ""
    table = Table(title=f"navworld eval — {run_dir}{label}", show_header=True, header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, value in summary.items():
        if key == "chinatravel":
            continue  # printed as its own table
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        elif isinstance(value, float):
            value = f"{value:.4f}" if abs(value) < 10 else f"{value:.2f}"
        table.add_row(key, "—" if value is None else str(value))
    console.print(table)


def _print_chinatravel_table(summary: dict[str, Any], console: Any) -> None:
    """ChinaTravel's own metrics (percent, their formulas) as a second, labelled table."""
    ct = summary.get("chinatravel")
    if not isinstance(ct, dict):
        return
    from rich.table import Table

    table = Table(title="ChinaTravel profile — their formulas, percent", show_header=True, header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key in ("n", "schema_pass", "epr_micro", "epr_macro", "lpr_micro", "lpr_macro", "c_lpr", "fpr", "dav", "att",
                "ddr", "tpc_overall", "columns", "exceptions"):
        value = ct.get(key)
        table.add_row(key, "—" if value is None else (f"{value:.2f}" if isinstance(value, float) else str(value)))
    console.print(table)


def _plain_line(summary: dict[str, Any]) -> str:
    keys = ("tasks", "completed", "errors", "new", "score_mean", "success_rate", "fpr", "seconds")
    line = "  ".join(f"{k}: {summary.get(k)}" for k in keys)
    ct = summary.get("chinatravel")
    if isinstance(ct, dict):
        line += f"  chinatravel fpr %: {ct.get('fpr')}  tpc_overall: {ct.get('tpc_overall')}"
    return line


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
    report: bool = typer.Option(
        True, "--report/--no-report", envvar="NAVWORLD_REPORT", help="Write DIR/report.html at the end."
    ),
    json_out: bool = typer.Option(
        False, "--json", envvar="NAVWORLD_JSON", help="Print one JSON summary object on stdout."
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
            queries=queries, profile=profile,
        )  # fmt: skip
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
            )
    except AgentUnavailable as exc:
        bad_args(str(exc))
    except KeyboardInterrupt:
        err.print(
            f"interrupted: completed rows are stored in {config.out}; re-run the same command to resume"
        )
        raise typer.Exit(130) from None
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
    summary = {**outcome.summary, "out": config.out}
    if json_out:
        print_json(summary)
        return
    out_console = Console()
    _print_summary_table(outcome.summary, config.out, out_console)
    _print_chinatravel_table(outcome.summary, out_console)
    out_console.print(_plain_line(outcome.summary), highlight=False, soft_wrap=True)
