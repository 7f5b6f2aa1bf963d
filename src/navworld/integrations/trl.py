"""GRPO training with TRL, driving navworld through the OpenEnv adapter (TRL is not a dependency).

TRL's ``GRPOTrainer(environment_factory=...)`` creates one environment object per generation,
calls ``reset(**dataset_row)``, exposes the object's public methods as tools, runs the model's
tool calls against them, and hands the objects to the reward functions. This module provides
the three pieces::

    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer
    from navworld.integrations.trl import dataset_rows, environment_factory, reward_func

    # server: python -m navworld.integrations.openenv --port 8001 --salt S
    trainer = GRPOTrainer(
        model="Qwen/Qwen3-0.6B",
        train_dataset=Dataset.from_list(dataset_rows("0:70", salt="S")),
        environment_factory=environment_factory("http://127.0.0.1:8001"),
        reward_funcs=reward_func,
        args=GRPOConfig(max_completion_length=8192),
    )

* :func:`dataset_rows` — one row per task: ``prompt`` (system + user messages), ``task_id``.
* :func:`environment_factory` — a class (no-argument constructor, as TRL requires) whose
  ``reset(task_id=…)`` opens an episode on the OpenEnv server over its WebSocket protocol and
  whose six public methods are navworld's tools, each sent as one ``step`` with one tool call.
* :func:`reward_func` — submits each rollout's final assistant message as the answer and returns
  the episode's final reward (navworld score / 100).

TRL executes the tool calls of one generation one at a time, so each call is one navworld step
(the episode allows 15, then asks for the final answer).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from navworld.integrations.common import task_list
from navworld.integrations.openenv import NavworldAction, NavworldEnvClient

__all__ = ["dataset_rows", "environment_factory", "final_text", "reward_func"]


def dataset_rows(tasks: str | Iterable[int] | None = None, *, salt: str | None = None,
                 lang: str = "zh") -> list[dict[str, Any]]:
    """One training row per task: ``{"prompt": [system, user], "task_id": id}`` (salt = the server's)."""
    from navworld.tasks.generator import ProblemGenerator
    from navworld.world.sandbox import SandboxWorld

    generator = ProblemGenerator(SandboxWorld(salt))
    rows = []
    for task_id in task_list(tasks if tasks is None or isinstance(tasks, str) else list(tasks)):
        problem = generator.generate(task_id, lang=lang)
        prompt = [{"role": "system", "content": problem.system_prompt}, {"role": "user", "content": problem.prompt}]
        rows.append({"prompt": prompt, "task_id": task_id})
    return rows


class _NavworldToolEnv:
    """Base of :func:`environment_factory`'s classes; public methods are the tools TRL exposes."""

    base_url: str = "http://127.0.0.1:8001"
    lang: str | None = None
    message_timeout_s: float = 300.0

    def __init__(self) -> None:
        self._client: Any = None
        self.reward = 0.0
        self.score: float | None = None
        self.done = False
        self.step_rewards: list[float] = []
        self._calls = 0

    def reset(self, **kwargs: Any) -> str | None:
        """Start the episode of the row's ``task_id`` (the prompt comes from the dataset row)."""
        if self._client is None:
            self._client = NavworldEnvClient(base_url=self.base_url, message_timeout_s=self.message_timeout_s).sync()
            self._client.connect()
        options: dict[str, Any] = {"task_id": kwargs.get("task_id")}
        if self.lang:
            options["lang"] = self.lang
        self._client.reset(**options)
        self.reward, self.score, self.done, self.step_rewards, self._calls = 0.0, None, False, [], 0
        return None

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self._client is None or self.done:
            raise ValueError("The episode is over: write the final answer.")
        self._calls += 1
        args = {k: v for k, v in arguments.items() if v is not None}
        call = {"id": f"call_{self._calls}", "type": "function",
                "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
        result = self._client.step(NavworldAction(tool_calls=[call]))
        self.step_rewards.append(float(result.reward or 0.0))
        if result.done:  # ended without an answer (tool calls past the step limit) or an infra error
            self.done = True
            self.score = result.observation.info.get("score")
            self.reward = float(result.reward or 0.0)
            raise ValueError(str(result.observation.info.get("error") or "The episode is over."))
        return "\n\n".join(str(m.get("content") or "") for m in result.observation.messages)

    def _finish(self, answer: str) -> float:
        """Submit ``answer`` as the final answer (once); return the final reward."""
        if self._client is not None and not self.done:
            result = self._client.step(NavworldAction(content=answer))
            self.done = True
            self.score = result.observation.info.get("score")
            self.reward = float(result.reward or 0.0)
        return self.reward

    def __del__(self) -> None:
        client, self._client = getattr(self, "_client", None), None
        if client is not None:
            try:
                client.close()
            except Exception:
                pass

    # ------------------------------------------------------------------------------ the six tools
    def poi_search(self, address: str, region: str | None = None) -> str:
        """Search places (attractions, restaurants, hotels, stations) by keyword.

        Args:
            address: Keywords: a place name, address or category, e.g. 西湖, 博物馆, 火锅, 酒店.
            region: City to search in, e.g. 杭州.

        Returns:
            The matching places with address, coordinates, rating, price and hours.
        """
        return self._call("poi_search", {"address": address, "region": region})

    def around_search(self, location: str, radius: int = 5000, keyword: str | None = None,
                      region: str | None = None) -> str:
        """Search places near a point.

        Args:
            location: Centre point as "lng,lat", e.g. 120.141200,30.258700.
            radius: Search radius in metres (default 5000).
            keyword: What to look for, e.g. 餐厅 or 酒店.
            region: City of the point.

        Returns:
            The places found with their distance from the point.
        """
        return self._call("around_search", {"location": location, "radius": radius, "keyword": keyword,
                                            "region": region})

    def direction(self, origin: str, destination: str, mode: str = "driving", waypoints: str | None = None) -> str:
        """Route between two points.

        Args:
            origin: Start point as "lng,lat".
            destination: End point as "lng,lat".
            mode: One of driving, walking, bicycling, transit.
            waypoints: Optional intermediate points "lng,lat;lng,lat".

        Returns:
            Distance, duration, steps, taxi cost or transit lines.
        """
        return self._call("direction", {"origin": origin, "destination": destination, "mode": mode,
                                        "waypoints": waypoints})

    def weather(self, city: str, date: str | None = None) -> str:
        """Four-day weather forecast of a city.

        Args:
            city: City name, e.g. 杭州.
            date: First day YYYY-MM-DD (default: the trip's date).

        Returns:
            Day and night weather, temperatures and wind per day.
        """
        return self._call("weather", {"city": city, "date": date})

    def search_flights(self, date: str, from_city: str, to_city: str) -> str:
        """Flights between two cities on a date.

        Args:
            date: Departure date YYYY-MM-DD.
            from_city: Departure city, e.g. 北京.
            to_city: Arrival city, e.g. 上海.

        Returns:
            Flight numbers, times, airports and prices per cabin.
        """
        return self._call("search_flights", {"date": date, "from_city": from_city, "to_city": to_city})

    def search_train_tickets(self, date: str, from_city: str, to_city: str) -> str:
        """Trains between two cities on a date.

        Args:
            date: Departure date YYYY-MM-DD.
            from_city: Departure city, e.g. 北京.
            to_city: Arrival city, e.g. 上海.

        Returns:
            Train numbers, times, stations and prices per seat class.
        """
        return self._call("search_train_tickets", {"date": date, "from_city": from_city, "to_city": to_city})


def environment_factory(base_url: str, *, lang: str | None = None, message_timeout_s: float = 300.0) -> type:
    """A TRL ``environment_factory`` class bound to the navworld OpenEnv server at ``base_url``."""
    return type("NavworldToolEnv", (_NavworldToolEnv,),
                {"base_url": base_url, "lang": lang, "message_timeout_s": message_timeout_s,
                 "__doc__": f"navworld episodes on the OpenEnv server {base_url} (one per TRL generation)."})


def final_text(completion: Any) -> str:
    """The final assistant text of a completion (a string, or a list of chat messages)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role") == "assistant" and not message.get("tool_calls"):
                content = message.get("content")
                return content if isinstance(content, str) else ""
    return ""


def reward_func(completions: list[Any], environments: list[Any], **kwargs: Any) -> list[float]:
    """TRL reward function: submit each completion's final text; the reward is navworld score / 100."""
    return [env._finish(final_text(c)) for c, env in zip(completions, environments, strict=True)]
