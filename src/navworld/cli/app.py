"""The typer application and helpers shared by the command modules.

Every behaviour flag also reads ``NAVWORLD_<NAME>`` (typer ``envvar``); ``.env`` is loaded only
here, at the CLI entry point. ``--json`` output is exactly one JSON document on stdout.
Exit status: 0 success, 1 a failed operation (e.g. a tool error), 2 unusable arguments.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from typer.core import TyperCommand

try:  # recent typer vendors click; its exceptions are not the click package's
    from typer._click.exceptions import UsageError as _UsageError
except ImportError:  # pragma: no cover - older typer on the click package
    from click.exceptions import UsageError as _UsageError  # type: ignore[assignment,no-redef]

__all__ = ["OneLineErrorCommand", "app", "bad_args", "print_json", "table_console"]

app = typer.Typer(
    name="navworld",
    help="Evaluate and train LLM agents on tool-using trip planning in China (offline sandbox by default).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from navworld.core.versions import GENERATOR_VERSION, PACKAGE_VERSION, SCORER_VERSION, WORLD_VERSION

        typer.echo(
            f"navworld {PACKAGE_VERSION} (world {WORLD_VERSION}, generator {GENERATOR_VERSION}, scorer {SCORER_VERSION})"
        )
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Evaluate and train LLM agents on tool-using trip planning in China (offline sandbox by default)."""


def print_json(obj: Any) -> None:
    """Print one JSON document on stdout (UTF-8, non-ASCII kept)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2, default=str) + "\n")
    sys.stdout.flush()


def table_console() -> Any:
    """A stdout console for tables: the terminal's width, or 200 columns when piped (no folding)."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=200)


def bad_args(message: str) -> NoReturn:
    """Exit with status 2 and a one-line message on stderr."""
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(2)


class OneLineErrorCommand(TyperCommand):
    """A typer command whose usage errors (unknown option, missing value) print one line and exit 2."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse as usual; turn a usage error into ``error: …`` on stderr and exit status 2."""
        try:
            return super().parse_args(ctx, args)
        except _UsageError as exc:
            sys.stderr.write(f"error: {exc.format_message().splitlines()[0]}\n")
            raise typer.Exit(2) from None
