"""``navworld eval``: batch evaluation with resume, JSONL results, a summary and an HTML report.

Every option also reads ``NAVWORLD_<NAME>`` (e.g. ``NAVWORLD_TASKS``, ``NAVWORLD_CONCURRENCY``).
Options are parsed here (not by click) so that any bad value exits 2 with one line on stderr.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand

try:  # recent typer vendors click; its exceptions are not the click package's
    from typer._click.exceptions import UsageError as _UsageError
except ImportError:  # pragma: no cover - older typer on the click package
    from click.exceptions import UsageError as _UsageError  # type: ignore[assignment]

from navworld.cli.app import app, bad_args, print_json
from navworld.core.errors import ConfigError, TaskError

__all__ = ["OneLineErrorCommand", "build_config", "eval_command"]


class OneLineErrorCommand(TyperCommand):
    """A typer command whose usage errors (unknown option, missing value) print one line, exit 2."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse as usual; turn a usage error into ``error: …`` on stderr and exit status 2."""
        try:
            return super().parse_args(ctx, args)
        except _UsageError as exc:
            sys.stderr.write(f"error: {exc.format_message().splitlines()[0]}\n")
            raise typer.Exit(2) from None


def _int(name: str, value: str | None, default: int, minimum: int = 1) -> int:
    if value is None or str(value).strip() == "":
        return default
    try:
        number = int(str(value).strip())
    except ValueError:
        raise ConfigError(f"--{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise ConfigError(f"--{name} must be >= {minimum}, got {number}")
    return number


def _float(name: str, value: str | None, default: float) -> float:
    if value is None or str(value).strip() == "":
        return default
    try:
        return float(str(value).strip())
    except ValueError:
        raise ConfigError(f"--{name} must be a number, got {value!r}") from None


def _choice(name: str, value: str | None, default: str, choices: tuple[str, ...]) -> str:
    text = (value or default).strip().lower()
    if text not in choices:
        raise ConfigError(f"--{name} must be one of {', '.join(choices)}, got {value!r}")
    return text


AUTO_WORKERS_MIN_EPISODES = 50
"""``--workers auto`` uses worker processes only for runs at least this long (start-up cost)."""


def _workers(value: str | None, kind: str, episodes: int) -> int:
    """``--workers N`` or ``auto`` (default): CPU-bound reference runs of 50+ episodes use up to 4 CPUs."""
    if value is None or value.strip().lower() in ("", "auto"):
        if kind == "reference" and episodes >= AUTO_WORKERS_MIN_EPISODES:
            return max(1, min(os.cpu_count() or 1, 4))
        return 1
    return _int("workers", value, 1)


def _config_digest(public: dict[str, Any]) -> str:
    """Digest of the result-defining configuration (not ``out``, concurrency or backend)."""
    keep = {
        k: v
        for k, v in public.items()
        if k not in {"out", "concurrency", "workers", "backend", "ray_address"}
    }
    return hashlib.sha256(json.dumps(keep, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _default_out(digest: str, root: Path = Path("runs")) -> tuple[Path, bool]:
    """``runs/<UTC timestamp>``, unless a run under ``runs/`` has the same configuration (resume it)."""
    if root.is_dir():
        for run_json in sorted(root.glob("*/run.json"), reverse=True):
            try:
                if json.loads(run_json.read_text(encoding="utf-8")).get("config_digest") == digest:
                    return run_json.parent, True
            except (OSError, ValueError):
                continue
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = root / stamp
    n = 1
    while out.exists():
        n += 1
        out = root / f"{stamp}-{n}"
    return out, False


def build_config(
    *,
    agent: str | None,
    model: str | None,
    base_url: str | None,
    api_key_env: str | None,
    tasks: str | None,
    concurrency: str | None,
    epochs: str | None,
    workers: str | None = None,
    out: str | None,
    salt: str | None,
    judge_model: str | None,
    judge_base_url: str | None,
    judge_api_key_env: str | None,
    world: str | None,
    backend: str | None,
    ray_address: str | None,
    lang: str | None,
    temperature: str | None,
    timeout: str | None,
) -> tuple[Any, bool]:
    """Validate the options and build the :class:`~navworld.runner.config.EvalConfig`.

    Returns the config and whether an earlier run directory with the same configuration is
    resumed (only when ``--out`` was not given). Raises :class:`ConfigError` on bad input.
    """
    from navworld.core.seeding import current_salt
    from navworld.runner.config import AgentSpec, EvalConfig, JudgeSpec
    from navworld.runner.taskspec import parse_task_spec

    task_ids = parse_task_spec(tasks or "")
    kind = _choice("agent", agent, "model" if model else "reference", ("reference", "model"))
    if kind == "reference" and (model or base_url):
        raise ConfigError("--agent reference cannot be combined with --model/--base-url")
    if kind == "model" and not (model and base_url):
        raise ConfigError("a model agent needs both --model and --base-url")
    if api_key_env is not None and not api_key_env.strip():
        raise ConfigError("--api-key-env must name an environment variable")
    agent_spec = AgentSpec(
        kind=kind,  # type: ignore[arg-type]
        model=model,
        base_url=base_url,
        api_key_env=api_key_env,
        temperature=_float("temperature", temperature, 0.7),
        timeout=_float("timeout", timeout, 300.0),
    )
    judge = None
    if judge_model or judge_base_url:
        if not (judge_model and judge_base_url):
            raise ConfigError("the judge needs both --judge-model and --judge-base-url")
        names = tuple(m.strip() for m in judge_model.split(",") if m.strip())
        if not names:
            raise ConfigError("--judge-model names no model")
        judge = JudgeSpec(models=names, base_url=judge_base_url, api_key_env=judge_api_key_env)
    backend_name = _choice("backend", backend, "local", ("local", "ray"))
    if ray_address and backend_name != "ray":
        raise ConfigError("--ray-address needs --backend ray")
    world_spec = (world or "sandbox").strip()
    if not world_spec:
        raise ConfigError("--world must not be empty")
    from navworld.world import get_world

    get_world(world_spec, current_salt(salt))  # validates the spec (ConfigError) before anything is written
    fields: dict[str, Any] = {
        "task_ids": tuple(task_ids),
        "tasks_spec": (tasks or "").strip(),
        "epochs": _int("epochs", epochs, 1),
        "concurrency": _int("concurrency", concurrency, 4),
        "workers": _workers(workers, kind, len(task_ids) * _int("epochs", epochs, 1)),
        "salt": current_salt(salt),
        "world": world_spec,
        "lang": _choice("lang", lang, "zh", ("zh", "en")),
        "backend": backend_name,
        "ray_address": ray_address or None,
        "agent": agent_spec,
        "judge": judge,
    }
    resumed = False
    if out and out.strip():
        out_dir = Path(out.strip())
        if out_dir.exists() and not out_dir.is_dir():
            raise ConfigError(f"--out {out!r} exists and is not a directory")
    else:
        probe = EvalConfig(out="", **fields)
        out_dir, resumed = _default_out(_config_digest(probe.public_dict()))
    return EvalConfig(out=str(out_dir), **fields), resumed


def _print_summary_table(summary: dict[str, Any], run_dir: str, console: Any) -> None:
    from rich.table import Table

    table = Table(title=f"navworld eval — {run_dir}", show_header=True, header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, value in summary.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        elif isinstance(value, float):
            value = f"{value:.4f}" if abs(value) < 10 else f"{value:.2f}"
        table.add_row(key, "—" if value is None else str(value))
    console.print(table)


def _plain_line(summary: dict[str, Any]) -> str:
    keys = ("tasks", "completed", "errors", "new", "score_mean", "success_rate", "fpr", "seconds")
    return "  ".join(f"{k}: {summary.get(k)}" for k in keys)


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
) -> None:
    """Run an agent over tasks (resumable); write results.jsonl, run.json and report.html."""
    from rich.console import Console

    from navworld.runner.agents import AgentUnavailable, resolve_api_key
    from navworld.runner.batch import run_eval
    from navworld.runner.progress import EvalProgress

    try:
        config, resumed = build_config(
            agent=agent, model=model, base_url=base_url, api_key_env=api_key_env, tasks=tasks,
            concurrency=concurrency, epochs=epochs, workers=workers, out=out, salt=salt, judge_model=judge_model,
            judge_base_url=judge_base_url, judge_api_key_env=judge_api_key_env, world=world,
            backend=backend, ray_address=ray_address, lang=lang, temperature=temperature, timeout=timeout,
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
                run_info={"config_digest": _config_digest(config.public_dict())},
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
    out_console.print(_plain_line(outcome.summary), highlight=False, soft_wrap=True)
