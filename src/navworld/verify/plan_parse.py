"""Find the structured plan in an agent's answer and explain precisely what is wrong with it.

The plan is the **last** fenced code block (```` ```json ```` or an untagged fence) whose JSON
object has an ``itinerary`` key; when no fence holds one, the last bare JSON object with an
``itinerary`` key in the text. A ``{"plan": {...}}`` wrapper is unwrapped. Errors say what is
missing (no JSON at all, no ``itinerary``), where the JSON syntax breaks (line/column inside the
block) or which field is wrong (``itinerary[1].activities[3].start_time: expected HH:MM, got
"9点"``). A well-formed plan with an empty itinerary, or with no activity at all, is not delivered
either (:func:`~navworld.core.plan.undelivered_reason`). :func:`extract_plan` raises only
:class:`PlanParseError`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from navworld.core.errors import PlanParseError
from navworld.core.plan import Plan, undelivered_reason

__all__ = ["MAX_ANSWER_CHARS", "extract_plan", "format_validation_error", "parse_plan"]

MAX_ANSWER_CHARS = 1_000_000
"""Longest answer searched for a plan."""

_FENCE_RE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:\n[ \t]*```|\Z)", re.DOTALL)
_MAX_ERRORS_SHOWN = 5


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and ("[" in part or "function" in part or part in ("str", "int", "float", "none")):
            continue  # union-member tags that pydantic adds to locations
        else:
            out += ("." if out else "") + str(part)
    return out or "(plan)"


def _show(value: Any) -> str:
    if isinstance(value, str):
        return '"' + (value if len(value) <= 40 else value[:40] + "…") + '"'
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = json.dumps(value) if value is None or isinstance(value, (bool, int, float)) else repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _message(err: dict[str, Any]) -> str:
    kind = err.get("type", "")
    msg = str(err.get("msg", ""))
    if kind == "missing":
        return "missing required field"
    if msg.startswith("Value error, "):
        return msg[len("Value error, ") :]
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"expected an object, got {_show(err.get('input'))}"
    if kind == "list_type":
        return f"expected a list, got {_show(err.get('input'))}"
    if kind == "too_long":
        return msg[0].lower() + msg[1:] if msg else "too many items"
    return f"{msg}, got {_show(err.get('input'))}"


def format_validation_error(exc: ValidationError) -> str:
    """One readable line per problem: ``path: reason`` (first few problems, then a count)."""
    seen: list[str] = []
    for err in exc.errors(include_url=False):
        line = f"{_path(tuple(err.get('loc', ())))}: {_message(err)}"
        if line not in seen:
            seen.append(line)
    shown = "; ".join(seen[:_MAX_ERRORS_SHOWN])
    if len(seen) > _MAX_ERRORS_SHOWN:
        extra = len(seen) - _MAX_ERRORS_SHOWN
        shown += f"; … and {extra} more problem{'s' if extra > 1 else ''}"
    return shown


def parse_plan(data: Any) -> Plan:
    """Validate already-decoded JSON as a delivered :class:`Plan` (raises :class:`PlanParseError`).

    ``data`` is valid exactly when it is valid under :meth:`Plan.json_schema` (after unwrapping
    a ``{"plan": {...}}`` wrapper).
    """
    if isinstance(data, Plan):
        plan = data
    else:
        if not isinstance(data, dict):
            raise PlanParseError(f"the plan must be a JSON object, got {_show(data)}")
        if "itinerary" not in data and isinstance(data.get("plan"), dict):
            data = data["plan"]
        try:
            plan = Plan.model_validate(data)
        except ValidationError as exc:
            raise PlanParseError(f"invalid plan: {format_validation_error(exc)}") from None
        except RecursionError:
            raise PlanParseError("invalid plan: nested too deeply") from None
    reason = undelivered_reason(plan)
    if reason is not None:
        raise PlanParseError(f"no plan delivered: {reason}")
    return plan


def _looks_like_plan(obj: Any) -> bool:
    return isinstance(obj, dict) and (
        "itinerary" in obj or (isinstance(obj.get("plan"), dict) and "itinerary" in obj["plan"])
    )


def _decode(text: str) -> Any:
    return json.loads(text)


def _syntax_error(where: str, exc: json.JSONDecodeError) -> PlanParseError:
    return PlanParseError(f"JSON syntax error in {where} at line {exc.lineno}, column {exc.colno}: {exc.msg}")


def _from_fences(answer: str) -> Plan | None:
    blocks = [(m.group(1).lower(), m.group(2)) for m in _FENCE_RE.finditer(answer)]
    candidates = [(tag, body) for tag, body in blocks if tag in ("", "json", "jsonc", "json5", "javascript")]
    first_error: PlanParseError | None = None
    for tag, body in reversed(candidates):
        try:
            obj = _decode(body)
        except json.JSONDecodeError as exc:
            if "itinerary" in body and first_error is None:
                first_error = _syntax_error(f"the ```{tag or ''} block", exc)
            continue
        except RecursionError:
            if first_error is None:
                first_error = PlanParseError("the JSON block is nested too deeply")
            continue
        if _looks_like_plan(obj):
            return parse_plan(obj)
    if first_error is not None:
        raise first_error
    return None


def _from_bare(answer: str) -> Plan | None:
    decoder = json.JSONDecoder()
    stripped = answer.strip()
    if stripped.startswith("{"):
        try:
            obj = _decode(stripped)
        except json.JSONDecodeError as exc:
            if "itinerary" in stripped:
                raise _syntax_error("the answer", exc) from None
            obj = None
        if _looks_like_plan(obj):
            return parse_plan(obj)
    anchor = answer.rfind('"itinerary"')
    for _attempt in range(5):
        if anchor == -1:
            break
        pos = anchor
        for _ in range(30):
            pos = answer.rfind("{", 0, pos)
            if pos == -1:
                break
            try:
                obj, _end = decoder.raw_decode(answer, pos)
            except json.JSONDecodeError:
                continue
            if _looks_like_plan(obj):
                return parse_plan(obj)
        anchor = answer.rfind('"itinerary"', 0, anchor)
    return None


def extract_plan(answer: str) -> Plan:
    """The plan of an answer (the last fenced JSON block with an ``itinerary``, else bare JSON).

    Raises :class:`PlanParseError` with a precise reason, and nothing else.
    """
    try:
        if not isinstance(answer, str):
            raise PlanParseError(f"the answer must be text, got {type(answer).__name__}")
        if not answer.strip():
            raise PlanParseError("no JSON plan found: the answer is empty")
        if len(answer) > MAX_ANSWER_CHARS:
            raise PlanParseError(f"the answer is too long to search for a plan (more than {MAX_ANSWER_CHARS} characters)")
        plan = _from_fences(answer)
        if plan is None:
            plan = _from_bare(answer)
        if plan is None:
            if "itinerary" in answer:
                raise PlanParseError('no JSON plan found: "itinerary" appears but not inside a valid JSON object')
            raise PlanParseError(
                'no JSON plan found: expected a ```json block with "people_number", "start_city", "target_city" and "itinerary"'
            )
        return plan
    except PlanParseError:
        raise
    except RecursionError:
        raise PlanParseError("the plan JSON is nested too deeply") from None
    except Exception as exc:  # defensive: the contract is "only PlanParseError"
        raise PlanParseError(f"could not read the plan: {type(exc).__name__}: {exc}") from None
