"""Judges that answer the way small local models do, served over real HTTP (streaming and plain).

Model name → behaviour (see :data:`BEHAVIOURS`). The server records every request body and
counts streamed generations that stopped because the client went away (``aborted``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from navworld.agents.fake_server import ServerThread

DIMS = ("practicality", "analysis_depth", "logic", "user_experience", "factual_grounding")
VERDICT = {d: {"score": 6, "reason": f"{d} 说明"} for d in DIMS}
GOOD = json.dumps(VERDICT, ensure_ascii=False)
EXAMPLE = "{" + ", ".join(f'"{d}": {{"score": <0-10>, "reason": "<一句话>"}}' for d in DIMS) + "}"


def _user_prompt(body: dict[str, Any]) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def _corrected(body: dict[str, Any]) -> bool:
    return len(body["messages"]) > 2


BEHAVIOURS: dict[str, Any] = {
    "entities": lambda b: "```json\n" + GOOD.replace('"', "&quot;") + "\n```",
    "trailing": lambda b: "评分如下：{'practicality': {'score': 6, 'reason': '可行',},"
    + ", ".join(f"'{d}': {{'score': 6, 'reason': '好',}}" for d in DIMS[1:])
    + ",}",
    "example-then-verdict": lambda b: f"输出格式是 {EXAMPLE}。\n我的评审：\n{GOOD}",
    "two-objects": lambda b: json.dumps({d: {"score": 2} for d in DIMS}) + "\n更正：\n" + GOOD,
    "echo-then-ok": lambda b: GOOD if _corrected(b) else _user_prompt(b),
    "echo": lambda b: _user_prompt(b),
    "slow": None,  # streams without end (a judge that keeps writing)
    "invalid": "invalid",  # a 500 with a pydantic validation body
}


class MessyJudges:
    """The judges of :data:`BEHAVIOURS` on a free 127.0.0.1 port (use as a context manager)."""

    def __init__(self, token_delay: float = 0.05) -> None:
        self.requests: list[dict[str, Any]] = []
        self.aborted = 0
        self.token_delay = token_delay
        self._thread = ServerThread(self._app())

    def __enter__(self) -> MessyJudges:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._thread.stop()

    @property
    def base_url(self) -> str:
        """The OpenAI base URL."""
        return self._thread.url + "/v1"

    def bodies(self, model: str) -> list[dict[str, Any]]:
        """The request bodies sent to ``model``."""
        return [b for b in self.requests if b["model"] == model]

    def _app(self) -> FastAPI:
        app = FastAPI()
        judges = self

        @app.post("/v1/chat/completions")
        async def chat(raw: Request) -> Any:
            body = await raw.json()
            judges.requests.append(body)
            behaviour = BEHAVIOURS[body["model"]]
            if behaviour == "invalid":
                message = (
                    "1 validation error:\n  {'type': 'less_than_equal', 'loc': ('body', 'max_tokens'), "
                    "'msg': 'Input should be less than or equal to 2048', 'input': 4000}"
                )
                return JSONResponse({"error": {"message": message, "type": "internal_server_error"}}, 500)
            if behaviour is None:
                return StreamingResponse(judges._forever(raw, body), media_type="text/event-stream")
            content = behaviour(body)
            if body.get("stream"):
                return StreamingResponse(judges._stream(body, content), media_type="text/event-stream")
            return {
                "id": "j", "object": "chat.completion", "created": int(time.time()), "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                             "finish_reason": "stop"}],
            }  # fmt: skip

        return app

    @staticmethod
    def _chunk(body: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> bytes:
        chunk = {"id": "j", "object": "chat.completion.chunk", "created": 0, "model": body["model"],
                 "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip
        return f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode()

    async def _stream(self, body: dict[str, Any], content: str) -> AsyncIterator[bytes]:
        for i in range(0, len(content), 40):
            yield self._chunk(body, {"content": content[i : i + 40]})
        yield self._chunk(body, {}, "stop")
        yield b"data: [DONE]\n\n"

    async def _forever(self, raw: Request, body: dict[str, Any]) -> AsyncIterator[bytes]:
        done = False
        try:
            for _ in range(100_000):
                await asyncio.sleep(self.token_delay)
                if await raw.is_disconnected():
                    return
                yield self._chunk(body, {"content": "嗯"})
            done = True
        finally:
            if not done:
                self.aborted += 1
