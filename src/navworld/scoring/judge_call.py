"""One judge request over an OpenAI-compatible endpoint, with its failure named by class.

The judge is asked with streaming where the endpoint supports it, so that a judge timeout (or
Ctrl-C) closes the connection and a one-slot local server stops generating instead of finishing
a reply nobody reads while the next episodes wait behind it. An endpoint that rejects or ignores
streaming is asked plainly (remembered per base URL for the process).

A failure is a :class:`JudgeCallError` whose ``text`` reads ``"<class>: <detail>"`` with one of
:data:`FAILURE_CLASSES` (``timeout``, ``http 500``, ``connection``, ...), so that a display can
count "judge failed on N of M rows: timeout". ``retryable`` says whether asking again may help:
never after a timeout once tokens arrived or without streaming (the server may still be busy
with the first request), never for a request the server finds invalid, an auth error or 4xx.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from navworld.core.urls import public_url

__all__ = ["FAILURE_CLASSES", "JudgeCallError", "JudgeReply", "call_judge", "failure_class"]

FAILURE_CLASSES = (
    "unparseable reply",
    "timeout",
    "connection",
    "invalid request",
    "no API key",
    "http",  # "http 500", "http 429", "http 401", ...
    "error",
)
"""The classes a judge failure text starts with (``http`` is followed by the status)."""

MAX_DETAIL_CHARS = 1000
"""A server's error body is kept up to this size in a judge failure (the row keeps it)."""

_PLAIN: set[str] = set()
_VALIDATION = ("validation error", "input should be", "field required", "extra inputs are not permitted",
               "unsupported parameter", "is not of type", "failed to deserialize", "invalid type: null")  # fmt: skip


def failure_class(text: str | None) -> str | None:
    """The class of a judge failure text (``"http 500: …"`` → ``"http 500"``), None for None."""
    if not text:
        return None
    return text.split(":", 1)[0].strip()


@dataclass(frozen=True)
class JudgeReply:
    """A judge's reply: its text and how it ended."""

    content: str | None
    finish_reason: str | None


class JudgeCallError(Exception):
    """A judge request that failed: ``text`` is ``"<class>: <detail>"``."""

    def __init__(self, cls: str, detail: str, *, retryable: bool) -> None:
        super().__init__(f"{cls}: {detail}")
        self.cls = cls
        self.detail = detail
        self.retryable = retryable

    @property
    def text(self) -> str:
        """``"<class>: <detail>"``."""
        return str(self)


def _clip(text: str, limit: int = MAX_DETAIL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


def _classify(exc: BaseException, where: str, key: str | None) -> JudgeCallError:
    import openai

    def scrub(text: str) -> str:
        return text.replace(key, "***") if key and key != "EMPTY" and len(key) >= 4 else text

    if isinstance(exc, openai.APITimeoutError):
        return JudgeCallError("timeout", f"no reply from {where} in time", retryable=False)
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        text = (str(cause) or type(cause).__name__) if cause is not None else ""
        detail = f"cannot reach {where}" + (f" ({scrub(text)[:200]})" if text else "")
        return JudgeCallError("connection", detail, retryable=True)
    if isinstance(exc, openai.APIStatusError):
        try:
            body = exc.response.text
        except Exception:
            body = str(exc.body or exc)
        body = _clip(scrub(body or str(exc)))
        status = exc.status_code
        if status not in (401, 403, 404, 429) and any(m in body.lower() for m in _VALIDATION):
            return JudgeCallError("invalid request", f"HTTP {status} from {where}: {body}", retryable=False)
        retryable = status == 429 or status >= 500 or status in (408, 409)
        return JudgeCallError(f"http {status}", f"{where}: {body}", retryable=retryable)
    return JudgeCallError("error", f"{type(exc).__name__}: {_clip(scrub(str(exc)), 300)}", retryable=False)


async def _stream(client: Any, params: dict[str, Any], state: dict[str, int]) -> JudgeReply:
    """Stream one reply, counting chunks and characters in ``state`` (read after a timeout).

    Raises ``_NotStreamed`` when the endpoint answered with a JSON body (``body`` set) or sent an
    empty or broken stream before any chunk (``body`` None); ``_Produced`` when it broke later.
    """
    parts: list[str] = []
    finish: str | None = None
    stream = await client.chat.completions.create(**params, stream=True)
    async with stream:  # closes the connection on every exit, a timeout included
        ctype = stream.response.headers.get("content-type", "")
        if "json" in ctype and "event-stream" not in ctype:
            raise _NotStreamed(json.loads(await stream.response.aread()))
        try:
            async for chunk in stream:
                state["chunks"] += 1
                for choice in chunk.choices or []:
                    if choice.delta is not None and choice.delta.content:
                        parts.append(choice.delta.content)
                        state["chars"] += len(choice.delta.content)
                    if choice.finish_reason:
                        finish = choice.finish_reason
        except Exception as exc:
            if state["chars"] == 0:  # broke before any text: asked plainly, the server says why
                raise _NotStreamed(None) from exc
            raise _Produced(exc) from exc
        if state["chunks"] == 0:
            raise _NotStreamed(None)
    return JudgeReply("".join(parts), finish)


class _NotStreamed(Exception):
    def __init__(self, body: Any) -> None:
        super().__init__("not streamed")
        self.body = body


class _Produced(Exception):
    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


async def call_judge(
    model: str,
    base_url: str | None,
    api_key: str,
    messages: list[dict[str, str]],
    *,
    timeout: float,
    max_tokens: int,
    temperature: float,
) -> JudgeReply:
    """Ask one judge model once (streamed where possible); raises :class:`JudgeCallError`."""
    from openai import AsyncOpenAI

    where = public_url(base_url) or "the OpenAI API"
    params: dict[str, Any] = {"model": model, "messages": messages, "temperature": temperature, "max_tokens": max_tokens}
    key = (base_url or "").rstrip("/")
    client = AsyncOpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)
    streaming = key not in _PLAIN
    state = {"chunks": 0, "chars": 0}
    plain = not streaming
    try:
        async with asyncio.timeout(timeout):
            if streaming:
                try:
                    return await _stream(client, params, state)
                except _NotStreamed as ns:
                    if ns.body is not None:
                        _PLAIN.add(key)
                        return _reply_from(ns.body, where)
                except _Produced as cut:
                    raise cut.cause from None
                except Exception as exc:
                    err = _classify(exc, where, api_key)
                    if "stream" not in err.detail.lower() or err.cls == "connection":
                        raise
                    _PLAIN.add(key)
                plain = True
                # a fresh connection: the server may have dropped the one the broken stream used
                await client.close()
                client = AsyncOpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)
            completion = await client.chat.completions.create(**params)
            return _reply_from(completion, where)
    except TimeoutError:
        if plain:
            detail = f"no reply from {where} within {timeout:.0f}s (asked without streaming: not retried)"
            raise JudgeCallError("timeout", detail, retryable=False) from None
        if state["chars"]:
            detail = (
                f"the judge at {where} was still writing after {timeout:.0f}s ({state['chars']} characters; "
                "not retried: a second try would take as long)"
            )
            raise JudgeCallError("timeout", detail, retryable=False) from None
        raise JudgeCallError("timeout", f"no tokens from {where} within {timeout:.0f}s", retryable=True) from None
    except JudgeCallError:
        raise
    except Exception as exc:
        raise _classify(exc, where, api_key) from None
    finally:
        try:
            await client.close()
        except Exception:  # closing must not mask the outcome
            pass


def _reply_from(completion: Any, where: str) -> JudgeReply:
    if isinstance(completion, dict):
        choices = completion.get("choices") or []
        if not choices:
            raise JudgeCallError("error", f"{where} returned no choices", retryable=True)
        message = choices[0].get("message") or {}
        return JudgeReply(message.get("content"), choices[0].get("finish_reason"))
    choices = getattr(completion, "choices", None) or []
    if not choices:
        raise JudgeCallError("error", f"{where} returned no choices", retryable=True)
    return JudgeReply(choices[0].message.content, choices[0].finish_reason)
