"""Helpers shared by the runtime tests (agents, env, server): a failing backend and an episode driver."""

from __future__ import annotations

from typing import Any

__all__ = ["FailingWorld", "city_list", "drive"]


class FailingWorld:
    """A backend whose every call fails for infrastructure reasons (e.g. an exhausted key pool)."""

    name = "failing"
    salt = "s"

    async def _fail(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        from navworld.core.errors import WorldError

        raise WorldError("quota exhausted")

    poi_search = around_search = direction = weather = flights = trains = _fail

    async def aclose(self) -> None:
        return None


def city_list() -> list[str]:
    """City names the scripted models may use: the catalog's."""
    from navworld.world.catalog import city_names

    return list(city_names())


async def drive(reset: Any, step: Any, task_id: int, script: Any, max_turns: int = 40) -> dict[str, Any]:
    """Play one episode through ``reset(task_id)`` / ``step(action, episode_id, tool_calls)``.

    ``script`` is a scripted model (:mod:`navworld.agents.fake`); the client-side transcript is
    kept exactly like the server's (assistant turn + observation), so the script sees what the
    episode holds. Returns ``{"reset", "steps": [step results], "messages"}``.
    """
    from navworld.agents.fake import ChatRequest, Reply

    opened = await reset(task_id)
    episode_id = opened["episode_id"]
    messages = list(opened["observation"])
    tools = opened["info"]["tools"]
    tools_on = True
    steps: list[dict[str, Any]] = []
    for _ in range(max_turns):
        out = script(ChatRequest("scripted", messages, tools=tools if tools_on else None))
        assert isinstance(out, Reply), out
        calls = [dict(c) for c in out.tool_calls] or None
        result = await step(out.content or "", episode_id, calls)
        steps.append(result)
        turn: dict[str, Any] = {"role": "assistant", "content": out.content or ("" if not calls else None)}
        if calls:
            turn["tool_calls"] = calls
        messages.append(turn)
        messages.extend(result["observation"])
        if result["done"]:
            return {"reset": opened, "steps": steps, "messages": messages}
        tools_on = bool(result["info"].get("tools_enabled", True))
    raise AssertionError("episode did not finish")
