"""Exit statuses of the ``navworld`` commands (documented in docs/eval.md and the README).

* 0 — success;
* 1 — a failed operation: a tool error (``tools call``), or ``eval --fail-under`` not met;
* 2 — unusable arguments (one ``error: …`` line on stderr);
* 3 — ``eval``: every row this invocation ran failed on infrastructure (endpoint down, timeouts,
  a rejected key), or the run has rows but none of them could be scored;
* 130 — interrupted (Ctrl-C); the stored rows are complete, re-run to resume.
"""

from __future__ import annotations

__all__ = ["ALL_ERRORS", "BAD_ARGS", "FAILED", "INTERRUPTED", "OK"]

OK = 0
FAILED = 1
BAD_ARGS = 2
ALL_ERRORS = 3
INTERRUPTED = 130
