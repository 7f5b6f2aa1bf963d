"""A scripted OpenAI-compatible judge served by a real uvicorn on 127.0.0.1 (tests only)."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

DIMS = ("practicality", "analysis_depth", "logic", "user_experience", "factual_grounding")

# model name → score given on every dimension (None: HTTP 500; "garbage": unparseable reply)
SCRIPT: dict[str, Any] = {
    "judge-a": 8,
    "judge-b": 6,
    "judge-c": 9,
    "judge-cross": 5,
    "judge-low-fg": {
        "practicality": 8,
        "analysis_depth": 8,
        "logic": 8,
        "user_experience": 8,
        "factual_grounding": 2,
    },
    "broken": None,
    "garbage": "garbage",
}


def make_app(requests: list[dict[str, Any]]) -> FastAPI:
    """The app; every request body is appended to ``requests``."""
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def completions(request: Request) -> JSONResponse:
        body = await request.json()
        requests.append({"body": body, "auth": request.headers.get("authorization", "")})
        model = body.get("model", "")
        spec = SCRIPT.get(model, 7)
        if spec is None:
            return JSONResponse({"error": {"message": "scripted failure"}}, status_code=500)
        if spec == "garbage":
            content = "I think this plan is quite good overall."
        else:
            per = spec if isinstance(spec, dict) else dict.fromkeys(DIMS, spec)
            verdict = {d: {"score": per[d], "reason": f"{model} on {d}"} for d in DIMS}
            content = "<think>scoring…</think>\n```json\n" + json.dumps(verdict) + "\n```"
        return JSONResponse(
            {
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
            }
        )

    return app


class JudgeServer:
    """uvicorn in a daemon thread on a free loopback port."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        config = uvicorn.Config(
            make_app(self.requests), host="127.0.0.1", port=self.port, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base_url(self) -> str:
        """The OpenAI base URL of the server."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> JudgeServer:
        """Start and wait until it accepts connections (≤ 10 s)."""
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("judge server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        """Stop the server and join its thread."""
        self.server.should_exit = True
        self.thread.join(timeout=10)
