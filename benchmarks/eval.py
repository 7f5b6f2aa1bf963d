"""Throughput of ``navworld eval``: local backend (in-process and with worker processes), then a local Ray.

Usage::

    python benchmarks/eval.py [--tasks 700] [--concurrency 4] [--workers 2] [--no-ray] [--keep DIR]
                              [--agent reference|fake]

``--agent fake`` evaluates the scripted OpenAI-compatible fake model (``navworld.agents.fake``)
served over HTTP on 127.0.0.1 from this process: it measures the runner, the agent loop, the
tools and the scorer without the reference planner.

Each backend runs the same task range into a fresh run directory (rows fsync-ed as in real runs)
and the script prints wall seconds and tasks per second. Ray start-up is timed separately and
excluded from the Ray figure. Target: 700 tasks in <= 60 s locally on a 2-core machine.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import tempfile
import time
from pathlib import Path

from navworld.runner.batch import run_eval
from navworld.runner.config import AgentSpec, EvalConfig


def _config(
    out: Path, tasks: int, concurrency: int, backend: str, agent: AgentSpec, workers: int = 1
) -> EvalConfig:
    return EvalConfig(
        task_ids=tuple(range(tasks)),
        tasks_spec=f"0:{tasks}",
        out=str(out),
        salt="bench",
        concurrency=concurrency,
        workers=workers,
        backend=backend,  # type: ignore[arg-type]
        agent=agent,
    )


def _measure(label: str, config: EvalConfig) -> dict[str, float]:
    started = time.perf_counter()
    outcome = run_eval(config)
    seconds = time.perf_counter() - started
    s = outcome.summary
    rate = s["new"] / seconds if seconds else float("nan")
    print(
        f"{label:<9} {s['new']:>5} tasks  {seconds:8.2f} s  {rate:8.1f} tasks/s  "
        f"score_mean {s['score_mean']}  fpr {s['fpr']}  errors {s['errors']}",
        flush=True,
    )
    return {"seconds": seconds, "rate": rate}


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tasks", type=int, default=700)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the second local run")
    parser.add_argument("--agent", choices=("reference", "fake"), default="reference")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray backend")
    parser.add_argument("--keep", type=Path, default=None, help="keep the run directories under this folder")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    root = args.keep or Path(tempfile.mkdtemp(prefix="navworld-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    server = None
    if args.agent == "fake":
        from navworld.agents.fake import GroundedPlanner
        from navworld.agents.fake_server import start_fake_server

        server = start_fake_server({"fake-planner": GroundedPlanner()})
        agent = AgentSpec(kind="model", model="fake-planner", base_url=server.base_url)
    else:
        agent = AgentSpec(kind="reference")
        try:
            from navworld.runner.agents import ReferenceAgentAdapter

            ReferenceAgentAdapter()
        except Exception as exc:
            print(f"reference agent unavailable ({exc}); try --agent fake")
            return 1
    try:
        print(
            f"navworld eval benchmark: {args.tasks} tasks, agent {args.agent}, concurrency {args.concurrency}"
        )
        local = _measure("local", _config(root / "local", args.tasks, args.concurrency, "local", agent))
        if args.workers > 1:
            _measure(
                f"local/{args.workers}p",
                _config(
                    root / "local-workers", args.tasks, args.concurrency, "local", agent, workers=args.workers
                ),
            )
        if not args.no_ray:
            try:
                import ray
            except ImportError:
                print("ray    skipped (pip install 'navworld[ray]')")
                return 0
            started = time.perf_counter()
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
            print(f"ray    start-up {time.perf_counter() - started:.2f} s (excluded below)")
            try:
                remote = _measure(
                    "ray", _config(root / "ray", args.tasks, max(args.concurrency, 4), "ray", agent)
                )
            finally:
                ray.shutdown()
            print(f"ray/local speed ratio {remote['rate'] / local['rate']:.2f}")
        verdict = "meets" if local["seconds"] <= 60 * args.tasks / 700 else "misses"
        print(f"local {verdict} the target of 700 tasks in 60 s (scaled to {args.tasks} tasks)")
    finally:
        if server is not None:
            server.stop()
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
