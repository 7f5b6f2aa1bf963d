"""The reference planner behind the OpenAI chat-completions protocol (model ``navworld-reference``).

A client (e.g. the agent loop with the real ``openai`` client) sends the conversation; the
adapter finds the task marker in the user messages (``任务编号：T<id>`` or ``Task ID: T<id>``),
plans that task with the server's world and salt (the same plan the in-process agent makes),
and answers with the next step of tool calls that the conversation has not answered yet, or —
once every scheduled call has a tool message (or tools are off) — with the final answer
(``finish_reason: "stop"``). Ids are deterministic (``call_<n>``), usage fields are zeros, and
the same conversation always gets the same reply.

The server's salt must match the client's (``navworld serve --salt`` and the client's
``--salt``; both default to the current ISO-week epoch): the plan and the answer are computed
from the server's world, while the tool results come from the client's world.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from navworld.agents.reference.agent import MODEL_NAME, Episode, ReferencePlanner
from navworld.agents.reference.planner import PlanningError
from navworld.core.errors import TaskError
from navworld.core.seeding import stable_hash

__all__ = ["TASK_MARKER", "ProtocolError", "ReferenceProtocol", "find_task", "stream_chunks"]

log = logging.getLogger(__name__)

TASK_MARKER = re.compile(r"(任务编号|Task ID)\s*[:：]\s*T(\d{1,10})\b")
"""The task marker line of generated prompts, in Chinese or English."""
CACHE_SIZE = 128


class ProtocolError(Exception):
    """A request the endpoint cannot serve: HTTP ``status`` with an OpenAI-style error body."""

    def __init__(self, status: int, message: str, kind: str = "invalid_request_error", code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind
        self.code = code

    def body(self) -> dict[str, Any]:
        """The OpenAI error JSON."""
        return {"error": {"message": self.message, "type": self.kind, "param": None, "code": self.code}}


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def find_task(messages: list[Any]) -> tuple[int, str] | None:
    """``(task_id, lang)`` from the first marker in the user messages, or None."""
    for m in messages:
        if isinstance(m, dict) and m.get("role") == "user":
            hit = TASK_MARKER.search(_text(m.get("content")))
            if hit:
                return int(hit.group(2)), ("zh" if hit.group(1) == "任务编号" else "en")
    return None


@dataclass(frozen=True)
class Reply:
    """One assistant turn: tool calls or the final text."""

    content: str | None
    tool_calls: list[dict[str, Any]]
    finish_reason: str
    task_id: int
    turn: int

    def completion(self, model: str) -> dict[str, Any]:
        """The ``chat.completion`` object."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = self.tool_calls
        return {
            "id": self.completion_id,
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": self.finish_reason, "logprobs": None}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }

    @property
    def completion_id(self) -> str:
        """A deterministic completion id."""
        return "chatcmpl-" + stable_hash("navworld-reference", self.task_id, self.turn, self.finish_reason)[:24]


def stream_chunks(reply: Reply, model: str, include_usage: bool) -> list[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects of a streamed reply (without the ``[DONE]`` line)."""
    base = {"id": reply.completion_id, "object": "chat.completion.chunk", "created": 0, "model": model}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        """One chunk with ``delta``."""
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    out = [chunk({"role": "assistant", "content": ""})]
    text = reply.content or ""
    for i in range(0, len(text), 400):
        out.append(chunk({"content": text[i : i + 400]}))
    for index, tc in enumerate(reply.tool_calls):
        out.append(chunk({"tool_calls": [{"index": index, **tc}]}))
    out.append(chunk({}, reply.finish_reason))
    if include_usage:
        out.append({**base, "choices": [], "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}})
    return out


class ReferenceProtocol:
    """Serves chat completions for ``navworld-reference`` from planned episodes (cached per task)."""

    def __init__(self, world: Any, generator: Any | None = None, model: str = MODEL_NAME) -> None:
        self.world = world
        self.model = model
        self._generator = generator
        self._planner = ReferencePlanner()
        self._cache: OrderedDict[tuple[int, str], Episode] = OrderedDict()
        self._lock = asyncio.Lock()

    @property
    def generator(self) -> Any:
        """The problem generator on the server's world (built on first use)."""
        if self._generator is None:
            from navworld.tasks.generator import ProblemGenerator

            self._generator = ProblemGenerator(self.world)
        return self._generator

    async def _episode(self, task_id: int, lang: str) -> Episode:
        key = (task_id, lang)
        async with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
            try:
                problem = self.generator.generate(task_id, lang=lang)
            except TaskError as exc:
                raise ProtocolError(400, f"{MODEL_NAME}: {exc}", code="bad_task") from None
            try:
                ep = await self._planner.episode(problem, self.world)
            except PlanningError as exc:
                raise ProtocolError(500, f"{MODEL_NAME}: {exc}", kind="server_error", code="planning_failed") from None
            self._cache[key] = ep
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
            return ep

    async def reply(self, body: dict[str, Any]) -> Reply:
        """The next assistant turn for a chat-completions request body."""
        model = body.get("model")
        if model != self.model:
            raise ProtocolError(404, f"The model '{model}' does not exist; this endpoint serves '{self.model}'.",
                                code="model_not_found")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise ProtocolError(400, "messages must be a non-empty list")
        found = find_task(messages)
        if found is None:
            raise ProtocolError(400, f"{MODEL_NAME} plans generated navworld tasks only: no task marker found in the user "
                                "messages (a line '任务编号：T<id>' or 'Task ID: T<id>')", code="no_task_marker")
        task_id, lang = found
        ep = await self._episode(task_id, lang)
        answered: dict[str, str] = {}
        for m in messages:
            if isinstance(m, dict) and m.get("role") == "tool" and isinstance(m.get("tool_call_id"), str):
                answered[m["tool_call_id"]] = _text(m.get("content"))
        tools_on = bool(body.get("tools")) and body.get("tool_choice") != "none"
        turn = 0
        if tools_on:
            for turn, step in enumerate(ep.steps):
                pending = [c for c in step if c.id not in answered]
                if pending:
                    return Reply(None, [c.message() for c in pending], "tool_calls", task_id, turn)
        self._check(ep, answered, task_id)
        return Reply(ep.answer, [], "stop", task_id, len(ep.steps) + turn)

    @staticmethod
    def _check(ep: Episode, answered: dict[str, str], task_id: int) -> None:
        differ = [cid for cid, res in ep.results.items() if cid in answered and answered[cid] != res.text]
        if differ:
            log.warning("task %s: %d tool result(s) differ from the server's world (is the client's salt the same as "
                        "`navworld serve --salt`?): %s", task_id, len(differ), ", ".join(differ[:5]))
