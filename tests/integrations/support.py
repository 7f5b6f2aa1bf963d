"""Shared helpers of the framework-integration tests (real libraries, real processes, 127.0.0.1 only)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SALT = "integrations"
SEVEN = list(range(7))
"""One task per problem type (``task_id % 7``)."""
NAVWORLD = [sys.executable, "-c", "from navworld.cli import main; main()"]
"""The ``navworld`` CLI of this interpreter."""


def needs(module: str) -> pytest.MarkDecorator:
    """Skip a test module whose framework is not installed, without importing it at collection.

    (Importing every framework while collecting would grow the heap of the whole run.) Where
    ``NAVWORLD_CI_REQUIRE`` names the framework, a missing one is a collection error instead.
    """
    import importlib.util

    required = {m.strip() for m in os.environ.get("NAVWORLD_CI_REQUIRE", "").split(",") if m.strip()}
    missing = importlib.util.find_spec(module) is None
    if missing and module in required:
        raise RuntimeError(f"NAVWORLD_CI_REQUIRE names {module!r}, which is not installed")
    return pytest.mark.skipif(missing, reason=f"needs {module}")


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a navworld subprocess: this one, the tests' salt, the sandbox world."""
    env = {k: v for k, v in os.environ.items() if k != "NAVWORLD_WORLD"}
    env.update(NAVWORLD_SALT=SALT, **extra)
    return env


def reference_eval(tasks: list[int], out: Path, salt: str = SALT) -> dict[int, dict[str, Any]]:
    """``navworld eval --agent reference`` in a subprocess: its result rows by task id."""
    spec = ",".join(str(t) for t in tasks)
    cmd = [*NAVWORLD, "eval", "--agent", "reference", "--tasks", spec, "--salt", salt, "--out", str(out), "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=child_env(), check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return {int(r["task_id"]): r for r in rows}


def free_port() -> int:
    """A port that was free a moment ago on 127.0.0.1."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServedProcess:
    """A navworld server started as a real subprocess on 127.0.0.1, stopped on exit."""

    def __init__(self, args: list[str], port: int, health: str = "/health", timeout: float = 60.0,
                 accept_status: bool = False) -> None:
        """``accept_status``: any HTTP answer on ``health`` means ready (an MCP endpoint answers GET with 4xx)."""
        self.args, self.port, self.health, self.timeout = args, port, health, timeout
        self.accept_status = accept_status
        self.proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ServedProcess:
        import time
        import urllib.error
        import urllib.request

        self.proc = subprocess.Popen(self.args, env=child_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True)
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stderr.read()[-2000:] if self.proc.stderr else ''}")
            try:
                with urllib.request.urlopen(self.url + self.health, timeout=2) as resp:
                    if resp.status == 200:
                        return self
            except urllib.error.HTTPError:
                if self.accept_status:
                    return self
                time.sleep(0.1)
            except OSError:
                time.sleep(0.1)
        self.__exit__(None, None, None)
        raise RuntimeError("server did not start in time")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
