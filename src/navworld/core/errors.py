"""Exception hierarchy.

NavworldError
├── ConfigError          bad configuration or CLI arguments (exit status 2)
├── TaskError            a task id that cannot be generated (negative, not an int, too large)
├── WorldError           a world/backend failure that is not the agent's fault (infra)
│   └── BackendUnavailable   e.g. every AMap key exhausted
├── ToolInputError       bad tool arguments; shown to the agent as a tool error result
├── DSLError             constraint-program errors (syntax, forbidden construct, budget)
└── PlanParseError       an answer whose plan JSON is missing or malformed
"""

from __future__ import annotations

__all__ = [
    "BackendUnavailable",
    "ConfigError",
    "DSLError",
    "NavworldError",
    "PlanParseError",
    "TaskError",
    "ToolInputError",
    "WorldError",
]


class NavworldError(Exception):
    """Base class of every navworld error."""


class ConfigError(NavworldError):
    """Bad configuration or command-line arguments."""


class TaskError(NavworldError, ValueError):
    """A task id that cannot be generated."""


class WorldError(NavworldError):
    """A world backend failure that is not the agent's fault."""


class BackendUnavailable(WorldError):
    """The backend cannot serve any request (e.g. all API keys exhausted)."""


class ToolInputError(NavworldError, ValueError):
    """Invalid tool arguments; rendered as a readable tool error result."""


class DSLError(NavworldError):
    """A constraint program that is invalid or exceeded its budget."""


class PlanParseError(NavworldError, ValueError):
    """An answer whose structured plan is missing or malformed."""
