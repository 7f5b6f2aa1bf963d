"""``--backend ray``: the same per-task function as Ray tasks, rows streamed back to the driver.

Ray is an optional extra (``pip install 'navworld[ray]'``) imported only here, lazily. Without
``--ray-address`` a local Ray is started (``num_cpus=2``, no dashboard) and shut down at the end;
with it the driver joins that cluster (every node needs navworld installed). The driver keeps at
most ``concurrency`` tasks in flight and appends each row to ``results.jsonl`` as it arrives, so
resume and Ctrl-C behave exactly as with the local backend. A model agent's API key travels to the
workers as a task argument (in memory), never in the stored config or the results.
"""

from __future__ import annotations

import logging
from typing import Any

from navworld.core.errors import ConfigError
from navworld.runner.config import EvalConfig
from navworld.runner.episode import Job, run_job
from navworld.runner.results import ResultsStore

__all__ = ["LOCAL_RAY_CPUS", "require_ray", "run_ray"]

log = logging.getLogger(__name__)

LOCAL_RAY_CPUS = 2
"""CPUs given to a local Ray started by the runner."""


def require_ray() -> Any:
    """Import Ray or raise a :class:`ConfigError` that says how to install it."""
    try:
        import ray
    except ImportError:
        raise ConfigError("--backend ray needs Ray: pip install 'navworld[ray]'") from None
    return ray


def _init(ray: Any, config: EvalConfig) -> bool:
    """Connect to (or start) Ray; return whether this call started it."""
    if ray.is_initialized():
        return False
    common = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if config.ray_address:
        ray.init(address=config.ray_address, **common)
    else:
        ray.init(num_cpus=LOCAL_RAY_CPUS, **common)
    return True


def run_ray(
    config: EvalConfig,
    jobs: list[Job],
    store: ResultsStore,
    *,
    on_row: Any = None,
    api_key: str | None = None,
) -> int:
    """Run ``jobs`` as Ray tasks, appending rows as they complete; return rows written."""
    if not jobs:
        return 0
    ray = require_ray()
    started_here = _init(ray, config)
    cpus = 1.0 if config.agent.kind == "reference" else 0.25
    remote = ray.remote(num_cpus=cpus, max_retries=1)(run_job)
    config_json = config.model_dump_json()
    config_ref = ray.put(config_json)
    queue = list(reversed(jobs))
    in_flight: dict[Any, Job] = {}
    written = 0
    try:
        while queue or in_flight:
            while queue and len(in_flight) < config.concurrency:
                job = queue.pop()
                in_flight[remote.remote(config_ref, job.task_id, job.epoch, api_key)] = job
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                job = in_flight.pop(ref)
                try:
                    row = ray.get(ref)
                except Exception as exc:  # a lost worker: leave the job for resume
                    log.warning(
                        "task %s epoch %s failed on Ray (%s); it will run on resume",
                        job.task_id,
                        job.epoch,
                        exc,
                    )
                    continue
                store.append(row)
                written += 1
                if on_row is not None:
                    on_row(row)
    finally:
        for ref in in_flight:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # best effort on shutdown
                pass
        if started_here:
            ray.shutdown()
    return written
