"""Coherent selection helpers: dates, groups, interests, constraints and conflict pairs.

Rules enforced here (DESIGN §6):

* interests come only from what the destination offers (its specialties, plus the generic
  美食探店), never a coastal-only one inland, never one unsuited to the group (elderly hiking);
* constraints are never interests, never contradict (or duplicate the meaning of) another item
  or the preference, and only appear when the world can satisfy them (a vegetarian request
  needs vegetarian restaurants, 宠物友好 a pet-friendly hotel, no-red-eye a flight option);
* conflicts are injected as whole pairs from the labelled table; every contradictory pair
  among the final items is one of the labelled conflicts, and nothing else contradicts.
"""

from __future__ import annotations

import calendar
import datetime as dt
import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from navworld.core.problem import ConflictPair
from navworld.tasks.knowledge import CityFacts, CityProfile
from navworld.tasks.spec import Skeleton
from navworld.tasks.vocab import contradicts, vocab

__all__ = [
    "ANCHOR_YEAR",
    "inject_conflicts",
    "pick_constraints",
    "pick_date",
    "pick_group",
    "pick_interests",
    "vegetarian_needed",
]

ANCHOR_YEAR = 2027
"""Travel dates fall in this year (fixed, so generation never depends on today's date)."""


def pick_date(r: random.Random, prof: CityProfile, days: int) -> tuple[str, str]:
    """A start date in :data:`ANCHOR_YEAR` whose whole trip avoids the city's bad months."""
    allowed = prof.allowed_months
    month = r.choice(allowed)
    dim = calendar.monthrange(ANCHOR_YEAR, month)[1]
    start = dt.date(ANCHOR_YEAR, month, r.randint(1, dim))
    end = start + dt.timedelta(days=days - 1)
    if end.month not in allowed or end.year != ANCHOR_YEAR:
        start = dt.date(ANCHOR_YEAR, month, 1)  # trips are ≤ 7 days: the 1st keeps them in the month
        end = start + dt.timedelta(days=days - 1)
    return start.isoformat(), end.isoformat()


def pick_group(r: random.Random, problem_type: str) -> tuple[str, int]:
    """A group type allowed for the problem type and its size."""
    v = vocab()
    group = r.choice(v.groups[problem_type])
    lo, hi = v.group_types[group]["size"]
    return group, r.randint(lo, hi)


def _allowed_for_group(item: str, group: str) -> bool:
    entry = vocab().interests.get(item, {})
    only = entry.get("only_groups")
    if only is not None and group not in only:
        return False
    return group not in entry.get("exclude_groups", ())


def pick_interests(
    r: random.Random,
    prof: CityProfile,
    group: str,
    count: int,
    *,
    first: Sequence[str] = (),
    pool: Sequence[str] | None = None,
) -> list[str]:
    """Up to ``count`` interests the city supports; ``first`` ones lead when supported.

    Without ``first``, the leading interest is one of the city's specialties.
    """
    candidates = [i for i in (pool if pool is not None else prof.interests) if prof.supports(i)]
    candidates = [i for i in candidates if _allowed_for_group(i, group)]
    chosen = [i for i in first if i in candidates][:count]
    if not chosen:
        lead = [i for i in prof.specialties if i in candidates]
        if lead:
            chosen.append(r.choice(lead))
    rest = [i for i in candidates if i not in chosen]
    need = max(0, min(count - len(chosen), len(rest)))
    chosen.extend(r.sample(rest, need))
    return chosen


def vegetarian_needed(days: int) -> int:
    """Vegetarian meals asked for by a hard vegetarian request."""
    return 1 if days <= 2 else 2


def constraint_applicable(item: str, sk: Skeleton, facts: CityFacts) -> bool:
    """Whether the world can honour ``item`` for this skeleton (as a hard request when it is one)."""
    v = vocab()
    if item == "不乘坐红眼航班":
        return "airplane" in sk.modes
    if item == "素食要求":
        return sk.food_theme != "素食禅意料理" and facts.cuisine_count(v.vegetarian_cuisine) >= vegetarian_needed(
            sk.num_days
        )
    feature = v.hotel_feature_of.get(item)
    if feature is not None and sk.nights > 0:
        wanted = {v.hotel_feature_of[c] for c in sk.constraints if c in v.hotel_feature_of}
        wanted |= set(sk.hard.hotel_features)
        wanted.add(feature)
        return bool(facts.hotels_with(frozenset(wanted)))
    return True


def _compatible(item: str, present: Sequence[str]) -> bool:
    return item not in present and not any(contradicts(item, other) for other in present)


def pick_constraints(
    r: random.Random,
    sk: Skeleton,
    facts: CityFacts,
    count: int,
    pool: Sequence[str] | None = None,
) -> None:
    """Add up to ``count`` compatible, applicable constraints from ``pool`` to ``sk.constraints``."""
    candidates = list(pool if pool is not None else vocab().selectable_constraints)
    r.shuffle(candidates)
    added = 0
    for item in candidates:
        if added >= count:
            break
        if _compatible(item, sk.all_items()) and constraint_applicable(item, sk, facts):
            sk.constraints.append(item)
            added += 1


@cache
def _type_pairs(problem_type: str, flights: bool) -> tuple[dict[str, Any], ...]:
    """Conflict pairs applicable to a problem type (with or without flight options)."""
    return tuple(
        p
        for p in vocab().conflict_pairs
        if problem_type in p["types"] and (flights or not p.get("needs_flights"))
    )


def _new_edges(items: Sequence[str], new: Sequence[str]) -> list[frozenset[str]]:
    """Contradictions that adding ``new`` to ``items`` creates."""
    out: list[frozenset[str]] = []
    for i, a in enumerate(new):
        for b in [*items, *new[:i]]:
            if contradicts(a, b):
                out.append(frozenset((a, b)))
    return out


def inject_conflicts(
    r: random.Random,
    sk: Skeleton,
    count: int,
    usable: Callable[[str], bool] = lambda item: True,
) -> None:
    """Inject up to ``count`` labelled conflict pairs suitable for the problem type.

    A pair is accepted only if every contradiction it creates with the items already present is
    a labelled pair and the number of labelled conflicts stays within ``count``. Interest items
    (美食探店) join ``interests``; others join ``constraints`` unless one is already the
    preference. Items already present never contradict each other unlabelled (invariant).
    """
    v = vocab()
    pairs = [p for p in _type_pairs(sk.problem_type, "airplane" in sk.modes) if usable(p["first"]) and usable(p["second"])]
    r.shuffle(pairs)
    labelled = [frozenset((c.first, c.second)) for c in sk.conflicts]
    for p in pairs:
        if len(labelled) >= count:
            break
        items = sk.all_items()
        new = [x for x in (p["first"], p["second"]) if x not in items]
        if not new:
            continue
        edges = _new_edges(items, new)
        if frozenset((p["first"], p["second"])) not in edges:
            continue
        if any(e not in v.conflict_label for e in edges) or len(labelled) + len(edges) > count:
            continue
        for x in new:
            if x in v.interests:
                sk.interests.append(x)
            else:
                sk.constraints.append(x)
        for e in edges:
            labelled.append(e)
            first, second = _ordered(e)
            sk.conflicts.append(ConflictPair(first=first, second=second, label=v.conflict_label[e]))


def _ordered(edge: frozenset[str]) -> tuple[str, str]:
    for p in vocab().conflict_pairs:
        if frozenset((p["first"], p["second"])) == edge:
            return p["first"], p["second"]
    a, b = sorted(edge)
    return a, b
