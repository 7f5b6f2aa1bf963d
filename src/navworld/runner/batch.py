"""Batch evaluation: plan the (task, epoch) jobs, skip those already stored, run the rest.

The local backend runs episodes on one asyncio loop with at most ``concurrency`` in flight; each
finished row is appended to ``results.jsonl`` at once (see :mod:`navworld.runner.results`). On
Ctrl-C (SIGINT → the main task is cancelled) the in-flight episodes are cancelled and discarded,
every row already written is complete, ``run.json`` records ``status: "interrupted"``, and
re-running the same command resumes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from navworld.core.versions import PACKAGE_VERSION
from navworld.runner.agents import EpisodeAgent
from navworld.runner.config import EvalConfig, versions
from navworld.runner.episode import EpisodeRunner, Job, plan_jobs, run_job
from navworld.runner.results import ResultsStore
from navworld.runner.summary import summarize

__all__ = ["RUN_FILE", "EvalOutcome", "ProgressHook", "run_eval", "run_local", "write_run_json"]

log = logging.getLogger(__name__)

RUN_FILE = "run.json"

ProgressHook = Callable[[dict[str, Any]], None]
"""Called with each new row as it is stored (drives the progress bar)."""


@dataclass
class EvalOutcome:
    """What :func:`run_eval` returns."""

    summary: dict[str, Any]
    rows: list[dict[str, Any]] = field(default_factory=list)
    new: int = 0
    interrupted: bool = False


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_run_json(config: EvalConfig, run_dir: Path, **extra: Any) -> None:
    """Write ``run.json`` atomically: resolved config (no secrets), versions and ``extra``."""
    path = run_dir / RUN_FILE
    previous: dict[str, Any] = {}
    if path.exists():
        try:
            previous = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            previous = {}
    data = {
        **previous,
        "config": config.public_dict(),
        "versions": {**versions(), "package_version": PACKAGE_VERSION},
        **extra,
    }
    run_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _ignore_sigint() -> None:
    """Worker-process initializer: Ctrl-C is handled by the driver alone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


async def _run_pool(
    config: EvalConfig, jobs: list[Job], store: ResultsStore, on_row: ProgressHook | None, api_key: str | None
) -> int:
    """Run ``jobs`` in ``config.workers`` spawned processes, ``concurrency`` (at least one per worker) in flight."""
    loop = asyncio.get_running_loop()
    config_json = config.model_dump_json()
    limit = asyncio.Semaphore(max(config.concurrency, config.workers))
    written = 0
    pool = ProcessPoolExecutor(
        max_workers=config.workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_ignore_sigint,
    )

    async def one(job: Job) -> None:
        nonlocal written
        async with limit:
            try:
                row = await loop.run_in_executor(pool, run_job, config_json, job.task_id, job.epoch, api_key)
            except (BrokenProcessPool, OSError) as exc:
                log.warning(
                    "task %s epoch %s lost with its worker (%s); it will run on resume",
                    job.task_id,
                    job.epoch,
                    exc,
                )
                return
        store.append(row)
        written += 1
        if on_row is not None:
            on_row(row)

    tasks = [asyncio.create_task(one(job)) for job in jobs]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pool.shutdown(wait=False, cancel_futures=True)
    return written


async def run_local(
    config: EvalConfig,
    jobs: list[Job],
    store: ResultsStore,
    *,
    on_row: ProgressHook | None = None,
    agent: EpisodeAgent | None = None,
    api_key: str | None = None,
) -> int:
    """Run ``jobs`` on this event loop with ``config.concurrency`` in flight; return rows written.

    With ``config.workers > 1`` (and no injected ``agent``) episodes run in worker processes.
    """
    if not jobs:
        return 0
    if config.workers > 1 and agent is None:
        return await _run_pool(config, jobs, store, on_row, api_key)
    runner = EpisodeRunner(config, agent=agent)
    queue: asyncio.Queue[Job] = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    written = 0

    async def worker() -> None:
        nonlocal written
        while True:
            try:
                job = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            row = await runner.run(job.task_id, job.epoch, job.problem)
            if row["content_hash"] != job.content_hash:  # pragma: no cover - determinism bug guard
                log.error("task %s: content hash changed between planning and running", job.task_id)
            store.append(row)
            written += 1
            if on_row is not None:
                on_row(row)

    workers = [asyncio.create_task(worker()) for _ in range(min(config.concurrency, len(jobs)))]
    try:
        await asyncio.gather(*workers)
    finally:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        await runner.aclose()
    return written


def run_eval(
    config: EvalConfig,
    *,
    on_start: Callable[[int, int], None] | None = None,
    on_row: ProgressHook | None = None,
    agent: EpisodeAgent | None = None,
    api_key: str | None = None,
    run_info: dict[str, Any] | None = None,
) -> EvalOutcome:
    """Run (or resume) an evaluation and summarise it.

    Args:
        config: the run configuration; ``config.out`` is the run directory.
        on_start: called once with (jobs to run, jobs already stored).
        on_row: called with each new row.
        agent: use this agent instead of building the configured one (local backend only).
        api_key: passed to worker processes / Ray workers for a model agent (never stored).
        run_info: extra fields for ``run.json`` (e.g. the CLI's ``config_digest``).

    Raises:
        KeyboardInterrupt: after recording the interruption in ``run.json`` (rows stay consistent).
    """
    run_dir = Path(config.out)
    store = ResultsStore(run_dir)
    started = time.perf_counter()
    started_at = _now()
    jobs = plan_jobs(config)
    done = store.hashes()
    pending = [j for j in jobs if j.content_hash not in done]
    write_run_json(
        config, run_dir, status="running", started_at=started_at, ended_at=None, **(run_info or {})
    )
    if on_start is not None:
        on_start(len(pending), len(jobs) - len(pending))
    counter = {"new": 0}

    def hook(row: dict[str, Any]) -> None:
        counter["new"] += 1
        if on_row is not None:
            on_row(row)

    interrupted = False
    try:
        if config.backend == "ray":
            from navworld.runner.ray_backend import run_ray

            run_ray(config, pending, store, on_row=hook, api_key=api_key)
        else:
            asyncio.run(run_local(config, pending, store, on_row=hook, agent=agent, api_key=api_key))
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        elapsed = time.perf_counter() - started
        wanted = {j.content_hash for j in jobs}
        rows = [r for r in store.rows() if r.get("content_hash") in wanted]
        summary = summarize(
            rows,
            tasks=len(config.task_ids),
            epochs=config.epochs,
            new=counter["new"],
            seconds=elapsed,
            seed=config.salt,
        )
        if config.profile == "chinatravel":
            from navworld.runner.chinatravel import chinatravel_summary

            summary["chinatravel"] = chinatravel_summary(rows)
        status = "interrupted" if interrupted else "complete"
        write_run_json(
            config, run_dir, status=status, started_at=started_at, ended_at=_now(), summary=summary
        )
        outcome = EvalOutcome(summary=summary, rows=rows, new=counter["new"], interrupted=interrupted)
    return outcome
