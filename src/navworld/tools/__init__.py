"""The six tools: one registry (schemas, handlers, rendering), budgets, the MCP server."""

from __future__ import annotations

from navworld.tools.budget import DEFAULT_LIMITS, ToolBudget
from navworld.tools.registry import TOOL_NAMES, ToolSpec, call_tool, get_tool, openai_tools
from navworld.tools.render import render, truncate

__all__ = [
    "DEFAULT_LIMITS",
    "TOOL_NAMES",
    "ToolBudget",
    "ToolSpec",
    "call_tool",
    "get_tool",
    "openai_tools",
    "render",
    "truncate",
]
