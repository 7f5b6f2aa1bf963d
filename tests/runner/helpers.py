"""Shared helpers for the runner tests: run the real CLI in a subprocess, read result files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

CLI = [sys.executable, "-c", "from navworld.cli import main; main()"]


def clean_env(**extra: str) -> dict[str, str]:
    """The current environment without NAVWORLD_* / OPENAI_* variables, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NAVWORLD_", "OPENAI_"))}
    env.update(extra)
    env.setdefault("NAVWORLD_LOG_LEVEL", "ERROR")
    return env


def run_cli(args: list[str], cwd: Path, timeout: float = 300, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``navworld ARGS`` in a fresh process."""
    return subprocess.run(
        [*CLI, *args],
        cwd=cwd,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _default_sigint() -> None:
    # A test runner started in the background of a non-interactive shell ignores SIGINT, and a
    # child inherits that; give the child the default disposition, as a terminal user's has.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def popen_cli(args: list[str], cwd: Path, **env: str) -> subprocess.Popen[str]:
    """Start ``navworld ARGS`` without waiting (SIGINT behaves as at a terminal)."""
    return subprocess.Popen(
        [*CLI, *args],
        cwd=cwd,
        env=clean_env(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_default_sigint,
    )


def result_lines(run_dir: Path) -> list[dict[str, Any]]:
    """Every line of results.jsonl parsed (fails on a malformed line)."""
    text = (run_dir / "results.jsonl").read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n"), "results.jsonl must end with a complete line"
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def count_lines(run_dir: Path) -> int:
    """Complete lines in results.jsonl so far (0 when missing)."""
    try:
        return (run_dir / "results.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0
