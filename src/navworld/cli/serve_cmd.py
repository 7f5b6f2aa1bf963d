"""``navworld serve``: the HTTP environment server (uvicorn).

Every option also reads its environment variable: ``NAVWORLD_HOST``, ``NAVWORLD_PORT``,
``NAVWORLD_WORLD``, ``NAVWORLD_SALT``, ``NAVWORLD_MAX_EPISODES``, ``NAVWORLD_EPISODE_TTL``,
``NAVWORLD_MAX_EPISODES_PER_CLIENT``, ``NAVWORLD_MAX_BODY_BYTES``, ``NAVWORLD_LOG_LEVEL``,
``NAVWORLD_SCORING``; the per-step size limits read ``NAVWORLD_MAX_ARGUMENT_CHARS``,
``NAVWORLD_MAX_TOOL_CALLS``, ``NAVWORLD_MAX_ANSWER_CHARS`` and ``NAVWORLD_MAX_EPISODE_CHARS``
(docs/runtime.md §6).
The default host is 127.0.0.1 (``/evaluate`` makes the server call model endpoints, so expose
it beyond the machine only deliberately).
"""

from __future__ import annotations

from typing import Annotated

import typer

from navworld.cli.app import OneLineErrorCommand, app, bad_args
from navworld.core.errors import ConfigError

__all__ = ["serve"]


@app.command("serve", cls=OneLineErrorCommand)
def serve(
    host: Annotated[str, typer.Option("--host", envvar="NAVWORLD_HOST", help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", envvar="NAVWORLD_PORT", help="TCP port.")] = 8000,
    world: Annotated[
        str | None, typer.Option("--world", envvar="NAVWORLD_WORLD", help="sandbox | amap | record:DIR | replay:DIR")
    ] = None,
    salt: Annotated[str | None, typer.Option("--salt", envvar="NAVWORLD_SALT", help="Salt of weekly facts.")] = None,
    max_episodes: Annotated[
        int | None,
        typer.Option("--max-episodes", envvar="NAVWORLD_MAX_EPISODES", help="Cap on live episodes (default 1024)."),
    ] = None,
    episode_ttl: Annotated[
        float | None,
        typer.Option("--episode-ttl", envvar="NAVWORLD_EPISODE_TTL", help="Idle seconds before a live episode is dropped (default 600)."),
    ] = None,
    max_per_client: Annotated[
        int | None,
        typer.Option(
            "--max-episodes-per-client", envvar="NAVWORLD_MAX_EPISODES_PER_CLIENT",
            help="Live episodes one client may hold (default half of --max-episodes).",
        ),
    ] = None,
    max_body_bytes: Annotated[
        int | None,
        typer.Option("--max-body-bytes", envvar="NAVWORLD_MAX_BODY_BYTES", help="Largest request body (default 4 MiB)."),
    ] = None,
    log_level: Annotated[
        str, typer.Option("--log-level", envvar="NAVWORLD_LOG_LEVEL", help="uvicorn log level.")
    ] = "info",
    scoring: Annotated[
        str | None,
        typer.Option("--scoring", envvar="NAVWORLD_SCORING", help="Scoring profile: s2 (default) or seed."),
    ] = None,
) -> None:
    """Serve the HTTP API (health, tools, tasks, reset, step, evaluate; OpenAPI at /openapi.json)."""
    if not 0 < port < 65536:
        bad_args(f"--port must be between 1 and 65535, got {port}")
    if max_episodes is not None and max_episodes < 1:
        bad_args(f"--max-episodes must be >= 1, got {max_episodes}")
    for flag, value in (("--episode-ttl", episode_ttl), ("--max-episodes-per-client", max_per_client), ("--max-body-bytes", max_body_bytes)):
        if value is not None and value <= 0:
            bad_args(f"{flag} must be > 0, got {value}")
    import uvicorn

    from navworld.server.app import create_app

    try:
        application = create_app(
            world=world, salt=salt, max_episodes=max_episodes, scoring=scoring, max_body_bytes=max_body_bytes,
            episode_ttl=episode_ttl, max_episodes_per_client=max_per_client,
        )
    except (ConfigError, ValueError) as exc:
        bad_args(str(exc))
    uvicorn.run(application, host=host, port=port, log_level=log_level.lower(), access_log=False)
