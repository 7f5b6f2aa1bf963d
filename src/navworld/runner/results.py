"""``DIR/results.jsonl``: one JSON row per (task, epoch), appended atomically; resume by content hash.

Writing: each row is serialised to one line and written with a single ``os.write`` on a file
opened with ``O_APPEND``, then ``fsync``-ed, under a thread lock and an exclusive ``flock`` (so two
processes appending to the same file never interleave). A crash can at worst leave a trailing
partial line; readers ignore it and the next writer truncates it before appending.

Large traces (canonical JSON over :data:`INLINE_TRACE_LIMIT` bytes) go to
``DIR/traces/<content_hash>.json`` (written and fsync-ed *before* the row) and the row carries
``trace_path`` instead of ``trace``. The schema is documented in ``docs/eval.md``.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from navworld.core.versions import RESULTS_SCHEMA_VERSION

__all__ = [
    "INLINE_TRACE_LIMIT",
    "RESULTS_FILE",
    "TRACES_DIR",
    "ResultsStore",
    "canonical_json",
    "content_hash",
    "iter_rows",
    "load_rows",
    "load_trace",
]

log = logging.getLogger(__name__)

RESULTS_FILE = "results.jsonl"
TRACES_DIR = "traces"
INLINE_TRACE_LIMIT = 256 * 1024
"""Traces whose canonical JSON exceeds this many bytes are stored in ``DIR/traces/``."""


def canonical_json(obj: Any) -> str:
    """Canonical JSON (sorted keys, no spaces, UTF-8 kept) used for hashing.

    >>> canonical_json({"b": 1, "a": [1, "x"]})
    '{"a":[1,"x"],"b":1}'
    """
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def content_hash(
    problem: dict[str, Any],
    *,
    salt: str,
    world: str,
    versions: dict[str, Any],
    agent: dict[str, Any],
    judge: dict[str, Any] | None,
    epoch: int,
) -> str:
    """sha256 of the canonical JSON of everything that determines a row's content.

    Two rows with the same hash are interchangeable; a different problem, salt, world, version,
    agent (or model, endpoint, temperature), judge or epoch gives a different hash.
    """
    payload = {
        "problem": problem,
        "salt": salt,
        "world": world,
        "versions": versions,
        "agent": agent,
        "judge": judge,
        "epoch": epoch,
    }
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


def iter_rows(path: Path) -> Iterator[dict[str, Any]]:
    """Yield the complete rows of a results file, skipping a trailing partial line.

    A malformed line that is *not* the last one is skipped with a warning (it cannot come from
    our writer, which never leaves a partial line followed by a complete one).
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    lines = data.split(b"\n")
    last = len(lines) - 1
    for index, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except ValueError:
            if index != last:
                log.warning("%s: skipping malformed line %d", path, index + 1)
            continue
        if isinstance(row, dict):
            yield row


def load_rows(run_dir: Path) -> list[dict[str, Any]]:
    """All rows of ``run_dir/results.jsonl``; for a repeated content hash the last row wins."""
    by_hash: dict[str, dict[str, Any]] = {}
    loose: list[dict[str, Any]] = []
    for row in iter_rows(Path(run_dir) / RESULTS_FILE):
        key = row.get("content_hash")
        if isinstance(key, str):
            by_hash.pop(key, None)
            by_hash[key] = row
        else:
            loose.append(row)
    return [*by_hash.values(), *loose]


def load_trace(run_dir: Path, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The trace of a row: inline, or read from ``trace_path`` (``[]`` when unavailable)."""
    trace = row.get("trace")
    if isinstance(trace, list):
        return trace
    rel = row.get("trace_path")
    if isinstance(rel, str):
        target = (Path(run_dir) / rel).resolve()
        if Path(run_dir).resolve() in target.parents:
            try:
                loaded = json.loads(target.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return []
            return loaded if isinstance(loaded, list) else []
    return []


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class ResultsStore:
    """Append-only writer and reader of one run directory's results.

    Args:
        run_dir: the run directory (created if missing).
        fsync: flush rows to disk on every append (default; turn off only in throwaway benchmarks).
    """

    def __init__(self, run_dir: Path | str, *, fsync: bool = True) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / RESULTS_FILE
        self.fsync = fsync
        self._lock = threading.Lock()

    def hashes(self) -> set[str]:
        """Content hashes of the complete rows already stored."""
        return {h for row in iter_rows(self.path) if isinstance(h := row.get("content_hash"), str)}

    def rows(self) -> list[dict[str, Any]]:
        """All stored rows (see :func:`load_rows`)."""
        return load_rows(self.run_dir)

    def _repair_tail(self, fd: int) -> None:
        """Truncate a trailing partial line left by a killed writer (called under the lock)."""
        size = os.fstat(fd).st_size
        if size == 0:
            return
        os.lseek(fd, size - 1, os.SEEK_SET)
        if os.read(fd, 1) == b"\n":
            return
        block = 1 << 16
        pos = size
        while pos > 0:
            start = max(0, pos - block)
            os.lseek(fd, start, os.SEEK_SET)
            chunk = os.read(fd, pos - start)
            nl = chunk.rfind(b"\n")
            if nl >= 0:
                cut = start + nl + 1
                break
            pos = start
        else:
            cut = 0
        log.warning("%s: dropping a partial last line (%d bytes)", self.path, size - cut)
        os.ftruncate(fd, cut)

    def _write_trace(self, key: str, trace: list[dict[str, Any]], text: str) -> str:
        rel = f"{TRACES_DIR}/{key}.json"
        target = self.run_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".tmp{os.getpid()}")
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            if self.fsync:
                os.fsync(fh.fileno())
        os.replace(tmp, target)
        if self.fsync:
            _fsync_dir(target.parent)
        return rel

    def append(self, row: dict[str, Any]) -> None:
        """Append one complete row (moving a large trace to ``traces/`` first)."""
        row = dict(row)
        row.setdefault("schema_version", RESULTS_SCHEMA_VERSION)
        trace = row.get("trace")
        if isinstance(trace, list):
            trace_text = json.dumps(trace, ensure_ascii=False)
            if len(trace_text.encode("utf-8")) > INLINE_TRACE_LIMIT:
                row["trace_path"] = self._write_trace(str(row.get("content_hash")), trace, trace_text)
                row["trace"] = None
        line = (json.dumps(row, ensure_ascii=False, separators=(",", ":"), default=str) + "\n").encode(
            "utf-8"
        )
        self.run_dir.mkdir(parents=True, exist_ok=True)
        with self._lock:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                try:
                    self._repair_tail(fd)
                    view = memoryview(line)
                    while view:
                        written = os.write(fd, view)
                        view = view[written:]
                    if self.fsync:
                        os.fsync(fd)
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def extend(self, rows: Iterable[dict[str, Any]]) -> None:
        """Append several rows, one atomic line each."""
        for row in rows:
            self.append(row)
