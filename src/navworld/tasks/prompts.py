"""Render a problem skeleton into its user prompt and the system prompt, in Chinese or English.

Both languages are rendered from the same :class:`~navworld.tasks.spec.Skeleton` and the same
compiled requirements, so they carry the same facts: numbers, dates, times and city names (the
English prompt writes cities as ``Hangzhou (杭州)``; POI and cuisine names stay in Chinese because
that is how the tools return them).
"""

from __future__ import annotations

from functools import cache

from navworld.tasks.compile import CompiledRequirement, soft_phrase
from navworld.tasks.knowledge import profile
from navworld.tasks.spec import Skeleton
from navworld.tasks.vocab import display, prompts, vocab

__all__ = ["LANGS", "TASK_MARKER", "city_label", "render_prompt", "system_prompt", "travellers"]

LANGS: tuple[str, ...] = ("zh", "en")


TASK_MARKER: dict[str, str] = {"zh": "任务编号：T{task_id}", "en": "Task ID: T{task_id}"}
"""Last line of every user prompt; lets an OpenAI-protocol agent (the reference planner) name the task."""


@cache
def system_prompt(lang: str) -> str:
    """The system prompt in ``lang``: tools, workflow, no-fabrication rule, output format."""
    return "\n".join(prompts(lang)["system"])


def city_label(name: str, lang: str) -> str:
    """How a city is written in ``lang`` (``杭州`` / ``Hangzhou (杭州)``)."""
    if not name:
        return ""
    p = profile(name)
    return prompts(lang)["city"].format(zh=p.name, en=p.name_en)


def travellers(group_type: str, size: int, lang: str) -> str:
    """The group phrase, e.g. ``一家4口出行`` / ``a family of 4``."""
    entry = vocab().group_types[group_type]
    return str(entry[lang]).format(n=size)


def _transport_key(modes: tuple[str, ...]) -> str:
    if "airplane" in modes and "train" in modes:
        return "both"
    return "flight" if "airplane" in modes else "train"


def _fields(sk: Skeleton, lang: str) -> dict[str, object]:
    t = prompts(lang)
    transport = t["transport"][_transport_key(sk.modes)] if sk.modes else {"what": "", "ids": ""}
    theme = sk.food_theme or sk.study_theme
    return {
        "origin": city_label(sk.origin, lang),
        "dest": city_label(sk.destination, lang),
        "date": sk.travel_date,
        "return_date": sk.return_date,
        "days": sk.num_days,
        "people": sk.group_size,
        "budget": sk.budget,
        "travellers": travellers(sk.group_type, sk.group_size, lang),
        "transport": transport["what"],
        "transport_ids": transport["ids"],
        "landmark": sk.landmark,
        "theme": display(theme, lang) if theme else "",
        "purpose": display(sk.purpose, lang) if sk.purpose else "",
        "restaurants": 2 * sk.num_days,
    }


def render_prompt(sk: Skeleton, requirements: list[CompiledRequirement], lang: str) -> str:
    """The user prompt: opening facts, interests, requirements, wishes, trade-offs, requests."""
    t = prompts(lang)
    facts = t["facts"]
    sep = t["list_sep"]
    values = _fields(sk, lang)
    tpl = t["types"][sk.problem_type]
    lines = [tpl["opening"].format(**values)]

    shown_interests = [display(i, lang) for i in sk.interests]
    if shown_interests:
        key = "focus" if sk.problem_type == "single_poi" else "interests"
        lines.append(facts[key].format(items=sep.join(shown_interests)))
    if sk.preference:
        lines.append(facts["preference"].format(item=display(sk.preference, lang)))

    hard = [p for p in (r.prompt(lang) for r in requirements) if p]
    if hard:
        lines.append(facts["requirements"])
        lines.extend(f"- {p}" for p in hard)

    wishes = []
    for item in sk.soft:
        phrase = soft_phrase(item, lang)
        if phrase:
            wishes.append(phrase)
    if wishes:
        lines.append(facts["wishes"])
        lines.extend(f"- {w}" for w in wishes)

    if sk.conflicts:
        lines.append(facts["tradeoffs"])
        for c in sk.conflicts:
            first, second = display(c.first, lang), display(c.second, lang)
            lines.append("- " + facts["tradeoff_item"].format(first=first, second=second))

    lines.append(facts["ask"])
    for i, req in enumerate(tpl["requests"], start=1):
        lines.append(f"{i}. {req.format(**values)}")
    lines.append(facts["closing"])
    lines.append(TASK_MARKER[lang].format(task_id=sk.task_id))
    return "\n".join(lines)
