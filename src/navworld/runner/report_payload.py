"""The per-task drill-downs of the HTML report, pre-rendered and stored compressed.

Each row's drill-down (trace as chat bubbles, failed checks, the score tree, the answer) is
rendered to an HTML fragment by jinja2 (autoescaped: model and tool text can never become
markup). Fragments are grouped into chunks of about :data:`CHUNK_BYTES` and each chunk is stored
as an LZMA-alone stream (Python's :mod:`lzma`) in base64 inside a ``<script type="text/plain">``.
The page decompresses a chunk only when one of its rows is opened (LZMA-JS, vendored), so the
page opens fast however many rows it holds. LZMA's window spans the whole chunk, so the tool
output shared between tasks compresses away.
"""

from __future__ import annotations

import base64
import json
import lzma
from dataclasses import dataclass, field
from typing import Any

from navworld.tools.json_args import load_arguments

__all__ = ["CHUNK_BYTES", "MAX_MESSAGE_CHARS", "Packed", "bubbles", "pack"]

MAX_MESSAGE_CHARS = 20_000
"""Each trace message is cut to this many characters in the report (results.jsonl keeps all)."""
CHUNK_BYTES = 400_000
"""Uncompressed size of a chunk of drill-downs (about 0.1 s to decompress in a browser)."""
_FILTERS = [{"id": lzma.FILTER_LZMA1, "preset": 6, "dict_size": 1 << 20}]


def cut(text: Any, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` as a string, cut to ``limit`` characters with a note saying how much is left out."""
    text = "" if text is None else (text if isinstance(text, str) else json.dumps(text, ensure_ascii=False))
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… ({len(text) - limit} more characters in results.jsonl)"


def bubbles(
    trace: list[dict[str, Any]], system_prompts: dict[str, int], answer: str = "", limit: int = MAX_MESSAGE_CHARS
) -> list[dict[str, Any]]:
    """Trace messages prepared for the template (text cut, tool calls unpacked).

    System prompts are shown once in the report (section "System prompts") and referred to by
    number; the final assistant message equal to the answer refers to the answer panel.
    """
    names: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for message in trace:
        if not isinstance(message, dict):
            continue
        role = str(message.get("role", "unknown"))
        content = message.get("content")
        if role == "system" and isinstance(content, str):
            number = system_prompts.setdefault(content, len(system_prompts) + 1)
            out.append({"role": role, "system_ref": number, "calls": []})
            continue
        calls = []
        for call in message.get("tool_calls") or []:
            fn = (call or {}).get("function") or {}
            names[str(call.get("id"))] = str(fn.get("name", ""))
            args = fn.get("arguments", "")
            try:
                args = json.dumps(load_arguments(args), ensure_ascii=False, indent=1)
            except (AttributeError, TypeError, ValueError):  # not text, or not loadable (bounded)
                pass
            calls.append({"name": fn.get("name"), "arguments": cut(args, limit)})
        is_answer = role == "assistant" and bool(answer) and content == answer and not calls
        out.append(
            {
                "role": role,
                "content": "" if is_answer else cut(content, limit),
                "answer_ref": is_answer,
                "calls": calls,
                "tool_name": names.get(str(message.get("tool_call_id")), message.get("name", "")) if role == "tool" else "",
            }
        )
    return out


@dataclass
class Packed:
    """Compressed chunks and where each fragment lives."""

    chunks: list[str] = field(default_factory=list)
    """Base64 of each chunk's LZMA stream (a JSON list of HTML fragments)."""
    where: list[tuple[int, int]] = field(default_factory=list)
    """(chunk, position) of fragment i."""
    raw_bytes: int = 0
    """Uncompressed size of all fragments (UTF-8)."""


def _compress(items: list[str]) -> str:
    data = json.dumps(items, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(lzma.compress(data, format=lzma.FORMAT_ALONE, filters=_FILTERS)).decode("ascii")


def pack(fragments: list[str], chunk_bytes: int = CHUNK_BYTES) -> Packed:
    """Group ``fragments`` (in order) into compressed chunks of about ``chunk_bytes``."""
    packed = Packed()
    current: list[str] = []
    size = 0
    for fragment in fragments:
        n = len(fragment.encode("utf-8"))
        if current and size + n > chunk_bytes:
            packed.chunks.append(_compress(current))
            current, size = [], 0
        packed.where.append((len(packed.chunks), len(current)))
        current.append(fragment)
        size += n
        packed.raw_bytes += n
    if current:
        packed.chunks.append(_compress(current))
    return packed
