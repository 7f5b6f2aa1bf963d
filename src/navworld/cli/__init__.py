"""The ``navworld`` command line (thin typer commands over the library)."""

from __future__ import annotations

import importlib
import logging
import os

from navworld.cli.app import app

__all__ = ["app", "main"]

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
    "export_cmd",
)

for _name in _COMMAND_MODULES:
    try:
        importlib.import_module(f"navworld.cli.{_name}")
    except ModuleNotFoundError as exc:  # pragma: no cover - only while a module is absent
        if exc.name != f"navworld.cli.{_name}":
            raise


def main() -> None:
    """Console-script entry point: load ``.env`` (CLI only), configure logging, run the app."""
    try:
        from dotenv import load_dotenv

        load_dotenv(override=False)
    except ImportError:  # pragma: no cover
        pass
    level = os.environ.get("NAVWORLD_LOG_LEVEL", "WARNING").upper()
    logging.basicConfig(level=getattr(logging, level, logging.WARNING), format="%(levelname)s %(name)s: %(message)s")
    app()
