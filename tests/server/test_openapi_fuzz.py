"""Bounded schemathesis run against ``/openapi.json`` (in-process ASGI).

Every operation must answer without a 5xx. The env routes must also conform to their documented
responses; routes mounted through the router hook (the reference agent's ``/v1/...``) belong to
their own module and are held to "no 5xx" here.

The operations are driven through schemathesis's strategies with hypothesis directly (not its
pytest plugin), so the test does not depend on pytest internals.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings

from navworld.env.actor import Actor
from navworld.server.app import create_app

MAX_EXAMPLES = 25


def _schema() -> Any:
    actor = Actor(salt="fuzz", max_episodes=256)

    async def no_network_evaluate(model: str, base_url: str, task_id: int, **kw: Any) -> dict[str, Any]:
        # /evaluate would call the generated base_url: validate the request layer only.
        actor.problem(task_id)
        return {"task_name": "navworld", "score": 0.0, "success": False, "time_taken": 0.0, "error": None, "extra": {}}

    actor.evaluate = no_network_evaluate  # type: ignore[method-assign]
    return schemathesis.openapi.from_asgi("/openapi.json", create_app(actor))


def test_api_has_no_server_errors() -> None:
    schema = _schema()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 7
    for operation in operations:

        @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def check(case: Any) -> None:
            response = case.call()
            assert response.status_code < 500, f"{case.operation.label}: {response.text}"
            if not case.operation.path.startswith("/v1/"):
                case.validate_response(response)

        check()
