"""Vocabularies and prompt templates of the generator, loaded once from ``tasks/data/*.json``.

Keys are canonical Chinese labels (what :class:`~navworld.core.problem.Problem` fields hold);
English renderings sit next to them. Nothing here depends on the world.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "Vocab",
    "contradicts",
    "display",
    "load_json",
    "prompts",
    "requirement_phrases",
    "vocab",
]


@cache
def load_json(name: str) -> dict[str, Any]:
    """Load ``navworld/tasks/data/<name>`` (cached)."""
    text = resources.files("navworld.tasks").joinpath("data", name).read_text(encoding="utf-8")
    data = json.loads(text)
    data.pop("_comment", None)
    return data


class Vocab:
    """Typed access to ``vocab.json`` with a few derived indexes."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.interests: dict[str, dict[str, Any]] = raw["interests"]
        self.generic_interests: tuple[str, ...] = tuple(raw["generic_interests"])
        self.food_themes: dict[str, dict[str, Any]] = raw["food_themes"]
        self.vegetarian_cuisine: str = raw["vegetarian_cuisine"]
        self.constraints: dict[str, dict[str, Any]] = raw["constraints"]
        self.selectable_constraints: tuple[str, ...] = tuple(raw["selectable_constraints"])
        self.hotel_feature_of: dict[str, str] = raw["hotel_feature_of"]
        self.family_hotel_feature: str = raw["family_hotel_feature"]
        self.intercity_preferences: dict[str, dict[str, Any]] = raw["intercity_preferences"]
        self.conflict_pairs: list[dict[str, Any]] = raw["conflict_pairs"]
        self.group_types: dict[str, dict[str, Any]] = raw["group_types"]
        self.budget_levels: dict[str, dict[str, Any]] = raw["budget_levels"]
        self.study_themes: dict[str, dict[str, Any]] = raw["study_themes"]
        self.business_purposes: dict[str, dict[str, Any]] = raw["business_purposes"]
        self.arrival_options: list[dict[str, Any]] = raw["arrival_options"]
        self.single_poi_focus: tuple[str, ...] = tuple(raw["single_poi_focus"])
        self.food_tour_extras: tuple[str, ...] = tuple(raw["food_tour_extras"])
        self.days: dict[str, dict[str, list[int]]] = raw["days"]
        self.groups: dict[str, list[str]] = raw["groups"]
        self.levels: dict[str, list[str]] = raw["levels"]
        self.contradictions: frozenset[frozenset[str]] = frozenset(
            frozenset(p) for p in raw["contradictions"]
        )
        self.synonyms: frozenset[frozenset[str]] = frozenset(frozenset(p) for p in raw["synonyms"])
        self.conflict_label: dict[frozenset[str], str] = {
            frozenset((p["first"], p["second"])): p["label"] for p in self.conflict_pairs
        }
        missing = [sorted(p) for p in self.contradictions if p not in self.conflict_label]
        if missing:  # every contradiction must be presentable as a labelled trade-off
            raise ValueError(f"contradictions without a conflict label: {missing}")


@cache
def vocab() -> Vocab:
    """The generator vocabularies (cached)."""
    return Vocab(load_json("vocab.json"))


@cache
def prompts(lang: str) -> dict[str, Any]:
    """Prompt templates for ``lang`` (``zh`` or ``en``)."""
    return load_json(f"prompts_{lang}.json")


@cache
def requirement_phrases() -> dict[str, Any]:
    """Phrases of compiled requirements (``requirements.json``)."""
    return load_json("requirements.json")


@cache
def contradicts(a: str, b: str) -> bool:
    """Whether two items contradict each other (or are redundant synonyms)."""
    pair = frozenset((a, b))
    v = vocab()
    return pair in v.contradictions or pair in v.synonyms


def display(item: str, lang: str) -> str:
    """The rendering of a vocabulary item in ``lang`` (the item itself for ``zh``)."""
    if lang == "zh":
        return item
    v = vocab()
    for table in (
        v.interests,
        v.constraints,
        v.intercity_preferences,
        v.food_themes,
        v.study_themes,
        v.business_purposes,
    ):
        entry = table.get(item)
        if entry is not None:
            return str(entry["en"])
    return item
