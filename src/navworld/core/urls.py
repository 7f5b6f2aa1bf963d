"""Endpoint URLs as they may be shown: in results, reports and error texts."""

from __future__ import annotations

from typing import overload
from urllib.parse import urlsplit, urlunsplit

__all__ = ["public_url"]


@overload
def public_url(url: str) -> str: ...
@overload
def public_url(url: None) -> None: ...
def public_url(url: str | None) -> str | None:
    """Return ``url`` without user info, query string or fragment (they may carry secrets).

    Empty and ``None`` come back unchanged; a URL that cannot be parsed becomes ``<invalid url>``.

    >>> public_url("https://user:pw@host:8000/v1?key=abc")
    'https://host:8000/v1'
    """
    if not url:
        return url
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "<invalid url>"
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    if port is not None:
        host = f"{host}:{port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))
