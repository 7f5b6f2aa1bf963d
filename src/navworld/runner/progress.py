"""A rich progress bar (on stderr) for batch runs: done/total, rate, elapsed, ETA, running mean."""

from __future__ import annotations

from types import TracebackType
from typing import Any

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

__all__ = ["EvalProgress"]


class EvalProgress:
    """Context manager wrapping :class:`rich.progress.Progress`; a no-op when disabled.

    Args:
        console: where to draw (use a stderr console so stdout stays clean).
        enabled: ``False`` (e.g. with ``--json``) draws nothing.
    """

    def __init__(self, console: Console, *, enabled: bool = True) -> None:
        self.enabled = enabled
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
            disable=not enabled,
        )
        self._task: TaskID | None = None
        self._sum = 0.0
        self._scored = 0
        self._errors = 0

    def __enter__(self) -> EvalProgress:
        if self.enabled:
            self._progress.__enter__()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.enabled:
            self._progress.__exit__(exc_type, exc, tb)

    def start(self, pending: int, stored: int) -> None:
        """Begin with ``pending`` jobs to run and ``stored`` already present (resume)."""
        if self.enabled:
            info = f"resumed {stored}" if stored else ""
            self._task = self._progress.add_task("eval", total=pending, info=info)

    def advance(self, row: dict[str, Any]) -> None:
        """Count one finished row."""
        if not self.enabled or self._task is None:
            return
        if row.get("error"):
            self._errors += 1
        elif isinstance(row.get("score"), int | float):
            self._sum += float(row["score"])
            self._scored += 1
        info = f"mean {self._sum / self._scored:5.1f}" if self._scored else ""
        if self._errors:
            info += f" errors {self._errors}"
        self._progress.update(self._task, advance=1, info=info)
