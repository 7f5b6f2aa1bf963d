"""``navworld tools list`` and ``navworld tools call`` (a typer sub-app)."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Annotated, Any

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args, print_json
from navworld.core.errors import ConfigError

__all__ = ["tools_app"]

tools_app = typer.Typer(help="The six tools: list their schemas or call one.", no_args_is_help=True)
app.add_typer(tools_app, name="tools")


@tools_app.command("list", cls=OneLineErrorCommand)
def list_tools(
    as_json: Annotated[bool, typer.Option("--json", help="Print the OpenAI tool list as JSON.")] = False,
) -> None:
    """List the tools with their parameters."""
    from navworld.tools.registry import all_tools, openai_tools

    if as_json:
        print_json(openai_tools())
        return
    for spec in all_tools():
        schema = spec.json_schema()
        required = set(schema["required"])
        params = ", ".join(f"{k}{'' if k in required else '?'}" for k in schema["properties"])
        sys.stdout.write(f"{spec.name}({params})\n    {spec.description_zh}\n")


@tools_app.command("call", cls=OneLineErrorCommand)
def call(
    name: Annotated[str, typer.Argument(help="Tool name, e.g. poi_search.")],
    args_json: Annotated[str, typer.Argument(metavar="ARGS_JSON", help="Arguments as a JSON object.")] = "{}",
    salt: Annotated[str | None, typer.Option("--salt", envvar="NAVWORLD_SALT", help="Salt of weekly facts.")] = None,
    world: Annotated[
        str | None, typer.Option("--world", envvar="NAVWORLD_WORLD", help="sandbox | amap | record:DIR | replay:DIR")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help='Print {"ok", "text", "data"} as JSON.')] = False,
) -> None:
    """Run one tool; exit 0 when ok, 1 on a tool error, 2 on unusable arguments."""
    from navworld.tools.registry import TOOL_NAMES, call_tool
    from navworld.world import get_world

    if name not in TOOL_NAMES:
        bad_args(f"unknown tool {name!r}; valid tools: {', '.join(TOOL_NAMES)}")
    try:
        arguments: Any = json.loads(args_json)
    except json.JSONDecodeError as exc:
        bad_args(f"ARGS_JSON is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
    if not isinstance(arguments, dict):
        bad_args(f"ARGS_JSON must be a JSON object, got {type(arguments).__name__}")
    try:
        backend = get_world(world, salt)
    except ConfigError as exc:
        bad_args(str(exc))

    async def run() -> Any:
        try:
            return await call_tool(name, arguments, backend)
        finally:
            await backend.aclose()

    result = asyncio.run(run())
    if as_json:
        print_json(result.to_public())
    else:
        sys.stdout.write(result.text + "\n")
        sys.stdout.flush()
    if not result.ok:
        raise typer.Exit(1)
