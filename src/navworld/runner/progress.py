"""Progress of a batch run on stderr: a rich bar on a terminal, plain lines everywhere else.

On a terminal: done/total, running mean, errors, elapsed and ETA in a live bar. When stderr is
not a terminal (``nohup``, CI logs, a redirect) a live bar shows nothing until the end, so a
plain line is written instead every :data:`PLAIN_INTERVAL` seconds (``NAVWORLD_PROGRESS_INTERVAL``
overrides it), also while no row arrives, plus one final line::

    eval: 12/70 (17%)  errors 0  mean 49.9  elapsed 0:00:12  ETA 0:00:58
"""

from __future__ import annotations

import os
import sys
import threading
import time
from types import TracebackType
from typing import Any, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["PLAIN_INTERVAL", "EvalProgress", "plain_interval"]

PLAIN_INTERVAL = 5.0
"""Seconds between plain progress lines when stderr is not a terminal."""


def plain_interval() -> float:
    """The plain-line interval: ``NAVWORLD_PROGRESS_INTERVAL`` (seconds, > 0) or the default."""
    try:
        value = float(os.environ.get("NAVWORLD_PROGRESS_INTERVAL", "") or PLAIN_INTERVAL)
    except ValueError:
        return PLAIN_INTERVAL
    return value if value > 0 else PLAIN_INTERVAL


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class EvalProgress:
    """Context manager showing batch progress on ``console`` (stderr); a no-op when disabled.

    Args:
        console: where to draw (use a stderr console so stdout stays clean).
        enabled: ``False`` (e.g. with ``--json``) shows nothing.
        plain: force plain lines (``True``) or the live bar (``False``); default: plain lines
            unless ``console`` is a terminal.
        interval: seconds between plain lines (default :func:`plain_interval`).
    """

    def __init__(
        self,
        console: Console,
        *,
        enabled: bool = True,
        plain: bool | None = None,
        interval: float | None = None,
    ) -> None:
        self.enabled = enabled
        self.plain = (not console.is_terminal) if plain is None else plain
        self.interval = interval if interval is not None else plain_interval()
        self._stream: TextIO = console.file if self.plain else sys.stderr
        self._progress = Progress(
            TextColumn("[bold]eval[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[info]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
            disable=not enabled or self.plain,
        )
        self._task: TaskID | None = None
        self._sum = 0.0
        self._scored = 0
        self._errors = 0
        self._done = 0
        self._total = 0
        self._stored = 0
        self._started = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> EvalProgress:
        if self.enabled and not self.plain:
            self._progress.__enter__()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if not self.enabled:
            return
        if self.plain:
            self._stop.set()
            if self._thread is not None:
                self._thread.join(timeout=2)
            if self._task is not None or self._total:
                self._line(final=True)
        else:
            self._progress.__exit__(exc_type, exc, tb)

    # -- hooks -------------------------------------------------------------------------------
    def start(self, pending: int, stored: int) -> None:
        """Begin with ``pending`` jobs to run and ``stored`` already present (resume)."""
        if not self.enabled:
            return
        self._total, self._stored = pending, stored
        self._started = time.monotonic()
        if self.plain:
            resumed = f" ({stored} already stored)" if stored else ""
            self._write(f"eval: {pending} to run{resumed}")
            self._thread = threading.Thread(target=self._tick, name="navworld-progress", daemon=True)
            self._thread.start()
            return
        info = f"resumed {stored}" if stored else ""
        self._task = self._progress.add_task("eval", total=pending, info=info)

    def advance(self, row: dict[str, Any]) -> None:
        """Count one finished row."""
        if not self.enabled:
            return
        with self._lock:
            self._done += 1
            if row.get("error"):
                self._errors += 1
            elif isinstance(row.get("score"), int | float):
                self._sum += float(row["score"])
                self._scored += 1
        if self.plain or self._task is None:
            return
        info = f"mean {self._sum / self._scored:5.1f}" if self._scored else ""
        if self._errors:
            info += f" errors {self._errors}"
        self._progress.update(self._task, advance=1, info=info)

    # -- plain lines -------------------------------------------------------------------------
    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self._line()

    def status_line(self, *, final: bool = False) -> str:
        """The plain progress line for the current counts."""
        with self._lock:
            done, total, errors = self._done, self._total, self._errors
            mean = self._sum / self._scored if self._scored else None
        elapsed = time.monotonic() - self._started
        pct = f"{100 * done / total:.0f}%" if total else "100%"
        parts = [f"eval: {done}/{total} ({pct})", f"errors {errors}"]
        if mean is not None:
            parts.append(f"mean {mean:.1f}")
        parts.append(f"elapsed {_clock(elapsed)}")
        if final:
            parts.append("done" if done >= total else "stopped")
        elif done and total > done:
            parts.append(f"ETA {_clock(elapsed / done * (total - done))}")
        return "  ".join(parts)

    def _line(self, *, final: bool = False) -> None:
        self._write(self.status_line(final=final))

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text + "\n")
            self._stream.flush()
        except (OSError, ValueError):  # a closed pipe must not stop the run
            pass
