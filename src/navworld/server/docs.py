"""Interactive API docs that work offline: Swagger UI at ``/docs`` and ReDoc at ``/redoc``.

FastAPI's default docs pages load Swagger UI and ReDoc from a CDN, so they are blank on a
machine without internet access. :func:`new_app` builds the FastAPI application with the same
pages served from local copies of the assets (the ``fastapi-offline`` package, a dependency),
under ``/static-offline-docs``. If that package is missing, the pages are replaced by a short
note that points to ``/openapi.json`` (which always works) instead of a blank page.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

__all__ = ["OFFLINE_DOCS", "new_app"]

try:
    from fastapi_offline import FastAPIOffline

    OFFLINE_DOCS = True
except ImportError:  # pragma: no cover - only without the dependency
    FastAPIOffline = None
    OFFLINE_DOCS = False

_NOTE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>navworld API</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 2em auto">
<h1>navworld API</h1><p>The interactive docs need the <code>fastapi-offline</code> package
(<code>pip install fastapi-offline</code>), which serves Swagger UI and ReDoc without a CDN.
The OpenAPI document is always at <a href="/openapi.json">/openapi.json</a>.</p></body></html>"""


def new_app(**kwargs: Any) -> FastAPI:
    """A FastAPI app (``kwargs`` as for ``FastAPI``) whose ``/docs`` and ``/redoc`` work offline."""
    if FastAPIOffline is not None:
        app: FastAPI = FastAPIOffline(**kwargs)
        return app
    app = FastAPI(docs_url=None, redoc_url=None, **kwargs)

    async def note() -> HTMLResponse:
        """The docs note (no assets to load)."""
        return HTMLResponse(_NOTE)

    app.add_api_route("/docs", note, include_in_schema=False)
    app.add_api_route("/redoc", note, include_in_schema=False)
    return app
