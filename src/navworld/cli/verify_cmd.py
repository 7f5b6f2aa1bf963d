"""``navworld verify --plan PLAN.json (--task ID | --problem PROBLEM.json | --query QUERY.json) [--trace TRACE.json]``.

ChinaTravel-style verification of one plan: environment checks against the sandbox world (and
the trace's tool results when ``--trace`` is given), the task's constraint programs and its
preferences. ``PLAN.json`` may hold the plan JSON or a whole answer (the plan is then the last
```` ```json ```` block). Exit status: 0 when the plan passes everything (``final_pass``), 1 when it
fails, 2 for bad arguments or unreadable files.

``--world chinatravel:DIR --query QUERY.json`` verifies against ChinaTravel's own database and
query; ``--profile chinatravel`` (the default there) adds their verdict under the key
``chinatravel`` (``navworld.verify.chinatravel``) and decides the exit status.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json
from navworld.cli.inputs import load_problem, read_json, read_text

__all__ = ["verify"]




def _human(result: Any, problem: Any) -> str:
    d = result.to_dict()
    lines: list[str] = []
    if not d["delivered"]:
        lines.append(f"plan: NOT DELIVERED — {d['reasons'].get('delivered', '')}")
    checks = d["env"]["checks"]
    passed = sum(1 for ok in checks.values() if ok)
    lines.append(f"environment: {passed}/{len(checks)} checks passed")
    if d["delivered"]:
        for name, ok in checks.items():
            if not ok:
                lines.append(f"  ✗ {name}: {d['reasons'].get(name, '')}")
        for name in result.skipped:
            lines.append(f"  - {name}: {d['reasons'].get(name, 'not checked')}")
    results, errors = d["logic"]["results"], d["logic"]["errors"]
    glosses = list(getattr(problem, "hard_logic_nl", []) or [])
    lines.append(f"logic: {sum(1 for r in results if r is True)}/{len(results)} constraints satisfied")
    for i, (ok, err) in enumerate(zip(results, errors, strict=True)):
        gloss = glosses[i] if i < len(glosses) else ""
        mark = "✓" if ok is True else ("!" if ok is None else "✗")
        text = f"  {mark} [{i + 1}] {gloss}".rstrip()
        if err and d["delivered"]:
            text += f" — error: {err}"
        lines.append(text)
    for name, value in d["preferences"].items():
        lines.append(f"preference {name}: {'n/a' if value is None else f'{value:g}'}")
    lines.append(f"final: {'PASS' if d['final_pass'] else 'FAIL'}")
    return "\n".join(lines) + "\n"


@app.command("verify", cls=OneLineErrorCommand)
def verify(
    plan: Annotated[Path, typer.Option("--plan", help="Plan JSON, or an answer containing a ```json plan block.")],
    task: Annotated[str | None, typer.Option("--task", help="Task id (generated problem).")] = None,
    problem_file: Annotated[Path | None, typer.Option("--problem", help="Problem JSON (Problem.to_dict()).")] = None,
    trace: Annotated[Path | None, typer.Option("--trace", help="Episode transcript (OpenAI messages) for grounding.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verification as one JSON document.")] = False,
    salt: Annotated[str | None, typer.Option("--salt", envvar="NAVWORLD_SALT", help="Salt of weekly facts (trains, flights).")] = None,
    world_spec: Annotated[str | None, typer.Option("--world", envvar="NAVWORLD_WORLD", help="sandbox (default) or chinatravel:DIR.")] = None,
    query: Annotated[Path | None, typer.Option("--query", help="A ChinaTravel query (JSON / JSONL) instead of --task.")] = None,
    uid: Annotated[str | None, typer.Option("--uid", help="The query of --query to use when the file holds several.")] = None,
    profile: Annotated[str | None, typer.Option("--profile", help="navworld, or chinatravel (adds ChinaTravel's own verdict).")] = None,
) -> None:
    """Verify one plan: environment checks, constraint programs, preferences (ChinaTravel-style)."""
    plan_text = read_text(plan, "plan")
    messages = read_json(trace, "trace") if trace is not None else None
    if messages is not None and not isinstance(messages, (list, dict)):
        bad_args(f"trace {trace} must be a JSON list of chat messages")
    from navworld.cli.chinatravel_inputs import ct_human, load_query_problem, resolve_profile, verify_world

    world = verify_world(world_spec, salt)
    chosen = resolve_profile(profile, world)
    if query is not None:
        if task is not None or problem_file is not None:
            bad_args("give one of --task, --problem or --query")
        problem = load_query_problem(query, uid, world, salt)
    elif task is not None and hasattr(world, "tables"):
        bad_args("--task generates navworld's own tasks; on a chinatravel world give --query QUERY.json")
    else:
        problem = load_problem(task, problem_file, world)

    from navworld.verify import verify_plan

    result = verify_plan(plan_text, problem, world, messages)
    out = result.to_dict()
    passed = result.final_pass
    if chosen == "chinatravel":
        from navworld.verify.chinatravel import chinatravel_view, query_of, verify_chinatravel

        view, notes = chinatravel_view(plan_text, world, problem.group_size, problem.destination_city)
        out["chinatravel"] = {**verify_chinatravel(view, query_of(problem), world), "notes": notes}
        passed = out["chinatravel"]["final_pass"]
    if as_json:
        print_json(out)
    else:
        sys.stdout.write(_human(result, problem) if chosen == "navworld" else "navworld profile:\n" + _human(result, problem))
        if chosen == "chinatravel":
            sys.stdout.write(ct_human(out["chinatravel"]))
        sys.stdout.flush()
    raise typer.Exit(0 if passed else 1)
