"""Options of ``navworld eval`` → a validated :class:`~navworld.runner.config.EvalConfig`.

The CLI passes every option as text (flag or ``NAVWORLD_<NAME>``) and this module validates it,
raising :class:`~navworld.core.errors.ConfigError` with a one-line message on bad input. It also
picks the default run directory: a new ``runs/<UTC timestamp>``, unless a run under ``runs/``
has the same result-defining configuration (its ``config_digest``), which is then resumed.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from navworld.agents.client import DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_TOKENS
from navworld.core.errors import ConfigError
from navworld.core.seeding import current_salt
from navworld.runner.config import AgentSpec, EvalConfig, JudgeSpec
from navworld.runner.selection import describe as describe_selection
from navworld.runner.selection import select as select_tasks
from navworld.runner.taskspec import parse_task_spec
from navworld.scoring.config import JUDGE_MAX_TOKENS, JUDGE_RETRIES, JUDGE_TIMEOUT_S

__all__ = ["AUTO_WORKERS_MIN_EPISODES", "build_config", "config_digest"]


def _int(name: str, value: str | None, default: int, minimum: int = 1) -> int:
    if value is None or str(value).strip() == "":
        return default
    try:
        number = int(str(value).strip())
    except ValueError:
        raise ConfigError(f"--{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise ConfigError(f"--{name} must be >= {minimum}, got {number}")
    return number


def _float(name: str, value: str | None, default: float) -> float:
    if value is None or str(value).strip() == "":
        return default
    try:
        return float(str(value).strip())
    except ValueError:
        raise ConfigError(f"--{name} must be a number, got {value!r}") from None


def _positive(name: str, value: str | None, default: float) -> float:
    number = _float(name, value, default)
    if not number > 0 or number == float("inf"):
        raise ConfigError(f"--{name} must be a positive number of seconds, got {value!r}")
    return number


def _seed(value: str | None) -> int | None:
    if value is None or str(value).strip() == "":
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise ConfigError(f"--seed must be an integer, got {value!r}") from None


def _choice(name: str, value: str | None, default: str, choices: tuple[str, ...]) -> str:
    text = (value or default).strip().lower()
    if text not in choices:
        raise ConfigError(f"--{name} must be one of {', '.join(choices)}, got {value!r}")
    return text


AUTO_WORKERS_MIN_EPISODES = 50
"""``--workers auto`` uses worker processes only for runs at least this long (start-up cost)."""


def _workers(value: str | None, kind: str, episodes: int) -> int:
    """``--workers N`` or ``auto`` (default): CPU-bound reference runs of 50+ episodes use up to 4 CPUs."""
    if value is None or value.strip().lower() in ("", "auto"):
        if kind == "reference" and episodes >= AUTO_WORKERS_MIN_EPISODES:
            return max(1, min(os.cpu_count() or 1, 4))
        return 1
    return _int("workers", value, 1)


def config_digest(public: dict[str, Any]) -> str:
    """Digest of the result-defining configuration (not ``out``, concurrency or backend)."""
    keep = {
        k: v
        for k, v in public.items()
        if k not in {"out", "concurrency", "workers", "backend", "ray_address"}
    }
    return hashlib.sha256(json.dumps(keep, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _default_out(digest: str, root: Path = Path("runs")) -> tuple[Path, bool]:
    """``runs/<UTC timestamp>``, unless a run under ``runs/`` has the same configuration (resume it)."""
    if root.is_dir():
        for run_json in sorted(root.glob("*/run.json"), reverse=True):
            try:
                if json.loads(run_json.read_text(encoding="utf-8")).get("config_digest") == digest:
                    return run_json.parent, True
            except (OSError, ValueError):
                continue
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = root / stamp
    n = 1
    while out.exists():
        n += 1
        out = root / f"{stamp}-{n}"
    return out, False


def _chinatravel_options(tasks: str | None, queries: str | None, profile: str | None, world: Any) -> tuple[
        list[int], str | None, str]:
    """Task ids, the query file and the profile (``--queries`` / ``--profile``, issue 17)."""
    ct_world = hasattr(world, "tables")
    name = (profile or ("chinatravel" if ct_world else "navworld")).strip().lower()
    if name not in ("navworld", "chinatravel"):
        raise ConfigError(f"--profile must be navworld or chinatravel, got {profile!r}")
    if name == "chinatravel" and not ct_world:
        raise ConfigError("--profile chinatravel needs --world chinatravel:DIR (ChinaTravel's database)")
    if not queries or not queries.strip():
        if ct_world:
            raise ConfigError("a chinatravel world runs ChinaTravel queries: give --queries FILE")
        return parse_task_spec(tasks or ""), None, name
    if not ct_world:
        raise ConfigError("--queries needs --world chinatravel:DIR (the database the queries refer to)")
    from navworld.tasks.chinatravel import QueryError, load_queries

    path = str(Path(queries.strip()).resolve())
    try:
        found, _errors = load_queries(path)
    except QueryError as exc:
        raise ConfigError(str(exc)) from None
    if not found:
        raise ConfigError(f"--queries {queries}: no usable query ({_errors[0] if _errors else 'empty'})")
    ids = parse_task_spec(tasks) if tasks and tasks.strip() else list(range(len(found)))
    bad = [i for i in ids if i >= len(found)]
    if bad:
        raise ConfigError(f"--tasks {tasks}: the query file has {len(found)} usable queries (ids 0..{len(found) - 1})")
    return ids, path, name


def build_config(
    *,
    agent: str | None,
    model: str | None,
    base_url: str | None,
    api_key_env: str | None,
    tasks: str | None,
    concurrency: str | None,
    epochs: str | None,
    workers: str | None,
    out: str | None,
    salt: str | None,
    judge_model: str | None,
    judge_base_url: str | None,
    judge_api_key_env: str | None,
    world: str | None,
    backend: str | None,
    ray_address: str | None,
    lang: str | None,
    temperature: str | None,
    timeout: str | None,
    scoring: str | None = None,
    types: str | None = None,
    difficulty: str | None = None,
    limit: str | None = None,
    queries: str | None = None,
    profile: str | None = None,
    max_tokens: str | None = None,
    call_timeout: str | None = None,
    seed: str | None = None,
    judge_timeout: str | None = None,
    judge_max_tokens: str | None = None,
    judge_retries: str | None = None,
) -> tuple[EvalConfig, bool]:
    """Validate the options and build the :class:`~navworld.runner.config.EvalConfig`.

    Returns the config and whether an earlier run directory with the same configuration is
    resumed (only when ``--out`` was not given). Raises :class:`ConfigError` on bad input.
    """
    kind = _choice("agent", agent, "model" if model else "reference", ("reference", "model"))
    if kind == "reference" and (model or base_url):
        raise ConfigError("--agent reference cannot be combined with --model/--base-url")
    if kind == "model" and not (model and base_url):
        raise ConfigError("a model agent needs both --model and --base-url")
    if api_key_env is not None and not api_key_env.strip():
        raise ConfigError("--api-key-env must name an environment variable")
    agent_spec = AgentSpec(
        kind=kind,  # type: ignore[arg-type]
        model=model,
        base_url=base_url,
        api_key_env=api_key_env,
        temperature=_float("temperature", temperature, 0.7),
        timeout=_float("timeout", timeout, 300.0),
        max_tokens=_int("max-tokens", max_tokens, DEFAULT_MAX_TOKENS),
        call_timeout=_positive("call-timeout", call_timeout, DEFAULT_CALL_TIMEOUT),
        seed=_seed(seed),
    )
    judge_calls = {
        "timeout": _positive("judge-timeout", judge_timeout, JUDGE_TIMEOUT_S),
        "max_tokens": _int("judge-max-tokens", judge_max_tokens, JUDGE_MAX_TOKENS),
        "retries": _int("judge-retries", judge_retries, JUDGE_RETRIES, minimum=0),
    }
    judge = None
    if judge_model or judge_base_url:
        if not (judge_model and judge_base_url):
            raise ConfigError("the judge needs both --judge-model and --judge-base-url")
        names = tuple(m.strip() for m in judge_model.split(",") if m.strip())
        if not names:
            raise ConfigError("--judge-model names no model")
        judge = JudgeSpec(models=names, base_url=judge_base_url, api_key_env=judge_api_key_env, **judge_calls)
    backend_name = _choice("backend", backend, "local", ("local", "ray"))
    if ray_address and backend_name != "ray":
        raise ConfigError("--ray-address needs --backend ray")
    world_spec = (world or "sandbox").strip()
    if not world_spec:
        raise ConfigError("--world must not be empty")
    from navworld.world import get_world

    built = get_world(world_spec, current_salt(salt))  # validates the spec (ConfigError) before anything is written
    task_ids, query_path, profile_name = _chinatravel_options(tasks, queries, profile, built)
    # task filters (--types / --difficulty / --limit) of generated tasks: see navworld.runner.selection
    selection = describe_selection(types=types, difficulty=difficulty, limit=limit)
    if selection:
        if query_path:
            raise ConfigError("--types/--difficulty/--limit select generated tasks; with --queries use --tasks")
        task_ids = select_tasks(task_ids, types=types, difficulty=difficulty, limit=limit)
        if not task_ids:
            raise ConfigError(f"no task of --tasks {tasks!r} matches {selection}")
    fields: dict[str, Any] = {
        "task_ids": tuple(task_ids),
        "tasks_spec": (tasks or "").strip(),
        "selection": selection,
        "epochs": _int("epochs", epochs, 1),
        "concurrency": _int("concurrency", concurrency, 4),
        "workers": _workers(workers, kind, len(task_ids) * _int("epochs", epochs, 1)),
        "salt": current_salt(salt),
        "world": world_spec,
        "lang": _choice("lang", lang, "zh", ("zh", "en")),
        "backend": backend_name,
        "ray_address": ray_address or None,
        "agent": agent_spec,
        "judge": judge,
        "scoring": _choice("scoring", scoring, "s2", ("s2", "seed")),
        "queries": query_path,
        "profile": profile_name,
    }
    resumed = False
    if out and out.strip():
        out_dir = Path(out.strip())
        if out_dir.exists() and not out_dir.is_dir():
            raise ConfigError(f"--out {out!r} exists and is not a directory")
    else:
        probe = EvalConfig(out="", **fields)
        out_dir, resumed = _default_out(config_digest(probe.public_dict()))
    return EvalConfig(out=str(out_dir), **fields), resumed
