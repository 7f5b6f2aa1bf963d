"""The ``navworld`` command line (thin typer commands over the library)."""

from __future__ import annotations

import importlib
import logging
import os

from navworld.cli.app import app

__all__ = ["app", "load_env_files", "main"]

# Command modules register themselves on ``app`` when imported. Each is optional so a partial
# install still runs the rest.
_COMMAND_MODULES = (
    "tools_cmd",
    "task_cmd",
    "verify_cmd",
    "score_cmd",
    "eval_cmd",
    "serve_cmd",
    "mcp_cmd",
    "report_cmd",
    # issue 16: looking at results
    "runs_cmd",
    "show_cmd",
    "export_cmd",
)

for _name in _COMMAND_MODULES:
    try:
        importlib.import_module(f"navworld.cli.{_name}")
    except ModuleNotFoundError as exc:  # pragma: no cover - only while a module is absent
        if exc.name != f"navworld.cli.{_name}":
            raise


def load_env_files() -> list[str]:
    """Load ``.env`` files without overriding the environment; return the files read.

    First the ``.env`` of the current working directory (or the nearest parent that has one),
    then the usual search of python-dotenv (from the installed package upwards), so a user's
    ``./.env`` wins over a checkout's. Called at the CLI entry point only (DESIGN §1.5).
    """
    try:
        from dotenv import find_dotenv, load_dotenv
    except ImportError:  # pragma: no cover
        return []
    loaded: list[str] = []
    for path in (find_dotenv(usecwd=True), find_dotenv()):
        if path and path not in loaded:
            load_dotenv(path, override=False)
            loaded.append(path)
    return loaded


def main() -> None:
    """Console-script entry point: load ``.env`` (CLI only), configure logging, run the app."""
    load_env_files()
    level = os.environ.get("NAVWORLD_LOG_LEVEL", "WARNING").upper()
    logging.basicConfig(level=getattr(logging, level, logging.WARNING), format="%(levelname)s %(name)s: %(message)s")
    app()
