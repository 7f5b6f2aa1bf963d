"""``navworld task show ID``: one generated problem (fields, prompt, DSL constraints)."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json, table_console

__all__ = ["list_tasks", "parse_task_id", "task_app"]

task_app = typer.Typer(help="Generated problems: list them with filters, or show one by id.", no_args_is_help=True)
app.add_typer(task_app, name="task")




def parse_task_id(text: str) -> int:
    """Parse a CLI task id; exit 2 with one line when it is not a valid id."""
    from navworld.core.errors import TaskError
    from navworld.tasks.generator import check_task_id

    raw = text.strip()
    try:
        value = int(raw, 10)
    except ValueError:
        bad_args(f"task id must be an integer, got {text!r}")
    try:
        return check_task_id(value)
    except TaskError as exc:
        bad_args(str(exc))


def _human(problem: Any) -> str:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=None, record=True, width=110, force_terminal=False, color_system=None)
    d = problem.to_dict()
    table = Table(title=f"task {problem.task_id}: {problem.problem_type} (difficulty {problem.difficulty})")
    table.add_column("field")
    table.add_column("value", overflow="fold")
    skip = {"prompt", "system_prompt", "hard_logic", "hard_logic_nl", "preferences", "extra", "task_id"}
    for key, value in d.items():
        if key in skip:
            continue
        if isinstance(value, list):
            text = ", ".join(str(v if not isinstance(v, dict) else "/".join(map(str, v.values()))) for v in value)
        elif isinstance(value, dict):
            text = ", ".join(f"{k}={v}" for k, v in value.items())
        else:
            text = "" if value is None else str(value)
        table.add_row(key, text)
    extra = {k: v for k, v in d["extra"].items() if v not in (None, [], {}, False, "")}
    table.add_row("extra", ", ".join(f"{k}={v}" for k, v in extra.items()))
    with console.capture() as cap:
        console.print(table)
    parts = [cap.get().rstrip(), "", "── prompt ──", problem.prompt, "", "── constraints (DSL) ──"]
    for i, (program, gloss) in enumerate(zip(problem.hard_logic, problem.hard_logic_nl, strict=True), start=1):
        parts.append(f"[{i}] {gloss}")
        parts.extend("    " + line for line in program.splitlines())
    if problem.preferences:
        parts += ["", "── preferences ──"]
        for program in problem.preferences:
            parts.extend("    " + line for line in program.splitlines())
            parts.append("")
    return "\n".join(parts).rstrip() + "\n"


@task_app.command("show", cls=OneLineErrorCommand, context_settings={"ignore_unknown_options": True})
def show(
    task_id: Annotated[str, typer.Argument(metavar="ID", help="Task id (0 … 1000000000).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print Problem.to_dict() as JSON.")] = False,
    lang: Annotated[str, typer.Option("--lang", envvar="NAVWORLD_LANG", help="Prompt language: zh | en.")] = "zh",
    salt: Annotated[str | None, typer.Option("--salt", envvar="NAVWORLD_SALT", help="Salt of weekly facts.")] = None,
) -> None:
    """Show one generated problem: fields, prompt, DSL constraints with their glosses."""
    tid = parse_task_id(task_id)
    lang = (lang or "zh").strip().lower()
    if lang not in ("zh", "en"):
        bad_args(f"--lang must be zh or en, got {lang!r}")
    from navworld.tasks.generator import ProblemGenerator
    from navworld.world.sandbox import SandboxWorld

    problem = ProblemGenerator(SandboxWorld(salt=salt)).generate(tid, lang=lang)
    if as_json:
        print_json(problem.to_dict())
        return
    sys.stdout.write(_human(problem))
    sys.stdout.flush()


LIST_FIELDS = (
    "task_id", "problem_type", "difficulty", "origin_city", "destination_city", "travel_date", "num_days",
    "group_type", "group_size", "budget", "interests",
)  # fmt: skip


@task_app.command("list", cls=OneLineErrorCommand)
def list_tasks(
    tasks: Annotated[str, typer.Option("--tasks", metavar="SPEC", help="Task ids: A:B, comma list, @file.")] = "0:70",
    types: Annotated[str | None, typer.Option("--types", metavar="T[,T2]", help="Only these problem types.")] = None,
    difficulty: Annotated[
        str | None, typer.Option("--difficulty", metavar="D[,D2]", help="Only these difficulties (1-3).")
    ] = None,
    city: Annotated[
        str | None, typer.Option("--city", metavar="CITY", help="Only tasks to or from this city (杭州 / Hangzhou).")
    ] = None,
    limit: Annotated[str | None, typer.Option("--limit", metavar="N", help="At most N tasks.")] = None,
    lang: Annotated[str, typer.Option("--lang", envvar="NAVWORLD_LANG", help="Prompt language: zh | en.")] = "zh",
    salt: Annotated[str | None, typer.Option("--salt", envvar="NAVWORLD_SALT", help="Salt of weekly facts.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list of the tasks' fields.")] = False,
) -> None:
    """List generated tasks (type, difficulty, cities, dates, budget), filtered like eval."""
    from navworld.core.errors import ConfigError
    from navworld.runner.selection import parse_limit, select
    from navworld.runner.taskspec import parse_task_spec
    from navworld.tasks.generator import ProblemGenerator
    from navworld.world.catalog import resolve_city
    from navworld.world.sandbox import SandboxWorld

    lang = (lang or "zh").strip().lower()
    if lang not in ("zh", "en"):
        bad_args(f"--lang must be zh or en, got {lang!r}")
    try:
        ids = select(parse_task_spec(tasks), types=types, difficulty=difficulty)
        cap = parse_limit(limit)
    except ConfigError as exc:
        bad_args(str(exc))
    wanted = None
    if city:
        found = resolve_city(city)
        if found is None:
            bad_args(f"--city: unknown city {city!r}")
        wanted = found.name
    generator = ProblemGenerator(SandboxWorld(salt=salt))
    items: list[dict[str, Any]] = []
    for task_id in ids:
        problem = generator.generate(task_id, lang=lang)
        if wanted and wanted not in (problem.origin_city, problem.destination_city):
            continue
        d = problem.to_dict()
        items.append({key: d.get(key) for key in LIST_FIELDS})
        if cap is not None and len(items) >= cap:
            break
    if as_json:
        print_json(items)
        return
    from rich.table import Table

    table = Table(title=f"{len(items)} tasks", header_style="bold")
    for name in ("id", "type", "diff", "from", "to", "date", "days", "group", "budget", "interests"):
        table.add_column(name, overflow="fold")
    for t in items:
        table.add_row(
            str(t["task_id"]), t["problem_type"], str(t["difficulty"]), t["origin_city"] or "—", t["destination_city"],
            t["travel_date"], str(t["num_days"]), f"{t['group_type']} ×{t['group_size']}", str(t["budget"]),
            ", ".join(t["interests"] or []),
        )  # fmt: skip
    table_console().print(table)
