"""Batch evaluation: plan the (task, epoch) jobs, skip those already stored, run the rest.

The local backend runs episodes on one asyncio loop with at most ``concurrency`` in flight; each
finished row is appended to ``results.jsonl`` at once (see :mod:`navworld.runner.results`). On
Ctrl-C (SIGINT → the main task is cancelled) the in-flight episodes are cancelled and discarded,
every row already written is complete, ``run.json`` records ``status: "interrupted"``, and
re-running the same command resumes.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from navworld.runner import runinfo
from navworld.runner.agents import EpisodeAgent
from navworld.runner.config import EvalConfig
from navworld.runner.episode import EpisodeRunner, Job, plan_jobs, run_job
from navworld.runner.results import ResultsStore
from navworld.runner.runinfo import RUN_FILE
from navworld.runner.summary import summarize

__all__ = ["RUN_FILE", "EvalOutcome", "ProgressHook", "run_eval", "run_local", "write_run_json"]

log = logging.getLogger(__name__)

ProgressHook = Callable[[dict[str, Any]], None]
"""Called with each new row as it is stored (drives the progress bar)."""


@dataclass
class EvalOutcome:
    """What :func:`run_eval` returns."""

    summary: dict[str, Any]
    rows: list[dict[str, Any]] = field(default_factory=list)
    new: int = 0
    interrupted: bool = False
    retried: int = 0
    """Rows with an infrastructure error that this invocation ran again."""
    status: str = "complete"
    """The status recorded in ``run.json`` (see :mod:`navworld.runner.runinfo`)."""


def write_run_json(config: EvalConfig, run_dir: Path, **extra: Any) -> None:
    """Merge ``extra`` into ``run.json`` (see :mod:`navworld.runner.runinfo`)."""
    runinfo.write_run_json(config, run_dir, **extra)


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


def _done_hashes(store: ResultsStore, retry_errors: bool) -> tuple[set[str], set[str]]:
    """(hashes that count as done, hashes whose latest row is an infrastructure error)."""
    latest: dict[str, bool] = {}
    for row in store.rows():
        key = row.get("content_hash")
        if isinstance(key, str):
            latest[key] = bool(row.get("error"))
    errored = {k for k, failed in latest.items() if failed}
    done = set(latest) - errored if retry_errors else set(latest)
    return done, errored


def run_eval(
    config: EvalConfig,
    *,
    on_start: Callable[[int, int], None] | None = None,
    on_row: ProgressHook | None = None,
    agent: EpisodeAgent | None = None,
    api_key: str | None = None,
    run_info: dict[str, Any] | None = None,
    retry_errors: bool = True,
) -> EvalOutcome:
    """Run (or resume) an evaluation and summarise it.

    Args:
        config: the run configuration; ``config.out`` is the run directory.
        on_start: called once with (jobs to run, jobs already stored).
        on_row: called with each new row.
        agent: use this agent instead of building the configured one (local backend only).
        api_key: passed to worker processes / Ray workers for a model agent (never stored).
        run_info: extra fields for ``run.json`` (e.g. the CLI's ``config_digest``).
        retry_errors: run again the (task, epoch)s whose stored row is an infrastructure error
            (default); ``False`` keeps those rows as done. Model failures are scored rows and
            are never re-run.

    Raises:
        KeyboardInterrupt: after recording the interruption in ``run.json`` (rows stay consistent).
        Exception: whatever stopped the run (e.g. Ray could not start), after recording
            ``"status": "failed"`` and the error in ``run.json``.
    """
    run_dir = Path(config.out)
    store = ResultsStore(run_dir)
    started = time.perf_counter()
    jobs = plan_jobs(config)
    done, errored = _done_hashes(store, retry_errors)
    pending = [j for j in jobs if j.content_hash not in done]
    retried = sum(1 for j in pending if j.content_hash in errored)
    runinfo.start_invocation(config, run_dir, runinfo.now(), **(run_info or {}))
    if on_start is not None:
        on_start(len(pending), len(jobs) - len(pending))
    counter = {"new": 0, "errors": 0}

    def hook(row: dict[str, Any]) -> None:
        counter["new"] += 1
        counter["errors"] += 1 if row.get("error") else 0
        if on_row is not None:
            on_row(row)

    status = "complete"
    failure: str | None = None
    try:
        if config.backend == "ray":
            from navworld.runner.ray_backend import run_ray

            run_ray(config, pending, store, on_row=hook, api_key=api_key)
        else:
            asyncio.run(run_local(config, pending, store, on_row=hook, agent=agent, api_key=api_key))
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    except BaseException as exc:
        status = "failed"
        failure = f"{exc.__class__.__name__}: {exc}".splitlines()[0][:500]
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
        summary["retried"] = retried
        summary["new_errors"] = counter["errors"]
        if status == "complete" and summary["completed"] < summary["planned"]:
            status = "incomplete"
        runinfo.finish_invocation(
            config, run_dir, status=status, summary=summary, seconds=elapsed, retried=retried, error=failure
        )
        outcome = EvalOutcome(
            summary=summary,
            rows=rows,
            new=counter["new"],
            interrupted=status == "interrupted",
            retried=retried,
            status=status,
        )
    return outcome
