"""Compile a problem skeleton into DSL constraint programs, glosses and preference programs.

Programs follow ChinaTravel's style (reference chinatravel-study §4.2): statements over ``plan``
and the concept functions (``allactivities``, ``activity_type``, ``activity_cost``,
``restaurant_type`` …) that leave a boolean in ``result``. Preferences are
``maximize X`` / ``minimize X`` followed by code computing ``X``. Each requirement is rendered
into its program, its gloss (``hard_logic_nl``) and its prompt phrase from the same parameters;
the program templates themselves live in :mod:`navworld.tasks.compile_programs`.
"""

from __future__ import annotations

from dataclasses import dataclass

from navworld.tasks.compile_programs import INTERCITY as INTERCITY
from navworld.tasks.compile_programs import MEALS as MEALS
from navworld.tasks.compile_programs import (
    PREFERENCE_PROGRAMS,
    arrival_program,
    budget_program,
    cuisine_program,
    finish_by_program,
    hotel_feature_program,
    landmark_visits_program,
    literal_set,
    max_attractions_program,
    max_hotel_price_program,
    mode_program,
    must_visit_program,
    no_red_eye_program,
    public_transport_program,
    vegetarian_program,
)
from navworld.tasks.spec import Skeleton
from navworld.tasks.vocab import requirement_phrases, vocab

__all__ = [
    "PREFERENCE_PROGRAMS",
    "CompiledRequirement",
    "compile_hard",
    "compile_preferences",
    "literal_set",
    "soft_phrase",
]


@dataclass(frozen=True, slots=True)
class CompiledRequirement:
    """One hard requirement: its key, DSL program, gloss and prompt phrase per language."""

    code: str
    program: str
    gloss_zh: str
    gloss_en: str
    prompt_zh: str | None
    prompt_en: str | None

    def gloss(self, lang: str) -> str:
        """The gloss in ``lang``."""
        return self.gloss_zh if lang == "zh" else self.gloss_en

    def prompt(self, lang: str) -> str | None:
        """The prompt phrase in ``lang`` (``None`` when the opening already states it)."""
        return self.prompt_zh if lang == "zh" else self.prompt_en


def _req(code: str, program: str, lang_params: dict[str, dict[str, object]]) -> CompiledRequirement:
    phrases = requirement_phrases()["hard"][code]
    zh, en = lang_params["zh"], lang_params["en"]
    pz, pe = phrases["prompt_zh"], phrases["prompt_en"]
    return CompiledRequirement(
        code=code,
        program=program,
        gloss_zh=phrases["gloss_zh"].format(**zh),
        gloss_en=phrases["gloss_en"].format(**en),
        prompt_zh=pz.format(**zh) if pz else None,
        prompt_en=pe.format(**en) if pe else None,
    )


def _same(**params: object) -> dict[str, dict[str, object]]:
    return {"zh": params, "en": params}


def compile_hard(sk: Skeleton, city_zh: str, city_en: str) -> list[CompiledRequirement]:
    """The hard requirements of ``sk`` in a fixed order: budget, days, people, then the rest."""
    h = sk.hard
    out = [
        _req("budget", budget_program(sk.budget), _same(budget=sk.budget)),
        _req("days", f"result = day_count(plan) == {sk.num_days}", _same(days=sk.num_days)),
        _req("people", f"result = people_count(plan) == {sk.group_size}", _same(people=sk.group_size)),
    ]
    if h.arrival_before:
        out.append(
            _req(
                "arrival_before",
                arrival_program(h.arrival_before),
                {"zh": {"time": h.arrival_before, "dest": city_zh}, "en": {"time": h.arrival_before, "dest": city_en}},
            )
        )
    if h.no_red_eye:
        out.append(_req("no_red_eye", no_red_eye_program(), _same()))
    if h.intercity_mode:
        out.append(_req(f"intercity_mode_{h.intercity_mode}", mode_program(h.intercity_mode), _same()))
    for name in h.must_visit:
        out.append(_req("must_visit", must_visit_program([name]), _same(landmark=name)))
    if h.cuisines:
        out.append(
            _req(
                "cuisine",
                cuisine_program(h.cuisines),
                {"zh": {"cuisines": "或".join(h.cuisines)}, "en": {"cuisines": " or ".join(h.cuisines)}},
            )
        )
    if h.hotel_features:
        feats = requirement_phrases()["hotel_features"]
        zh_f = "”“".join(h.hotel_features)
        en_f = " and ".join(feats.get(f, f) for f in h.hotel_features)
        out.append(
            _req(
                "hotel_feature",
                hotel_feature_program(h.hotel_features),
                {"zh": {"feature": zh_f}, "en": {"feature": zh_f, "feature_en": en_f}},
            )
        )
    if h.max_hotel_price is not None:
        out.append(_req("max_hotel_price", max_hotel_price_program(h.max_hotel_price), _same(price=h.max_hotel_price)))
    if h.public_transport_only:
        out.append(_req("public_transport_only", public_transport_program(), _same()))
    if h.vegetarian_meals > 0:
        veg = vocab().vegetarian_cuisine
        out.append(_req("vegetarian", vegetarian_program(h.vegetarian_meals, veg), _same(n=h.vegetarian_meals)))
    if h.max_attractions_per_day is not None:
        n = h.max_attractions_per_day
        code = "max_attractions_one_day" if sk.num_days == 1 else "max_attractions_per_day"
        out.append(_req(code, max_attractions_program(n), _same(n=n)))
    if h.finish_by:
        code = "finish_by_one_day" if sk.num_days == 1 else "finish_by"
        out.append(_req(code, finish_by_program(h.finish_by), _same(time=h.finish_by)))
    return out



def compile_preferences(names: list[str], landmarks: list[str]) -> list[str]:
    """Programs of the named preferences (unknown or inapplicable names are skipped)."""
    out: list[str] = []
    for name in names:
        if name == "landmark_visits":
            if landmarks:
                out.append(landmark_visits_program(landmarks))
        elif name in PREFERENCE_PROGRAMS:
            out.append(PREFERENCE_PROGRAMS[name])
    return out


def soft_phrase(item: str, lang: str) -> str | None:
    """The wish phrase of a soft item in ``lang`` (``None`` when it has none)."""
    entry = requirement_phrases()["soft"].get(item)
    if entry is None:
        return None
    return str(entry[lang])
