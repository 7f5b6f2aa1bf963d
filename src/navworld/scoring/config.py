"""Every tunable constant of the NAVWORLD scorer, under the seed's names (seed §3).

Nothing else in :mod:`navworld.scoring` hard-codes a score-shaping number; change a value here
and bump :data:`navworld.core.versions.SCORER_VERSION`. ``docs/scoring.md`` lists each constant
with its meaning.
"""

from __future__ import annotations

from typing import Final

# --------------------------------------------------------------------------- tools and types

TOOL_NAMES: Final = (
    "poi_search",
    "around_search",
    "direction",
    "weather",
    "search_flights",
    "search_train_tickets",
)
POI_TOOLS: Final = frozenset({"poi_search", "around_search"})
TRANSPORT_TOOLS: Final = frozenset({"search_flights", "search_train_tickets"})

TRANSPORT_PROBLEM_TYPES: Final = frozenset({"intercity", "hybrid", "business"})
"""Types whose answer is about intercity transport (tool_info_used hard fail, transport_grounded)."""

REQUIRED_TOOLS_BY_TYPE: Final[dict[str, tuple[str, ...]]] = {
    "intercity": ("poi_search", "direction", "weather", "search_flights", "search_train_tickets"),
    "multiday": ("poi_search", "around_search", "direction", "weather"),
    "hybrid": TOOL_NAMES,
    "single_poi": ("poi_search", "around_search", "direction", "weather"),
    "food_tour": ("poi_search", "around_search", "direction", "weather"),
    "business": ("poi_search", "direction", "weather", "search_flights", "search_train_tickets"),
    "family_study": ("poi_search", "around_search", "direction", "weather"),
}
"""Defaults when a :class:`~navworld.core.problem.Problem` carries no ``required_tools``."""

REQUIRED_TOOLS_THRESHOLD: Final[dict[str, float]] = dict.fromkeys(REQUIRED_TOOLS_BY_TYPE, 0.6)
CORE_TOOLS_BY_TYPE: Final[dict[str, frozenset[str]]] = {
    t: (frozenset() if t == "intercity" else frozenset({"poi_search"})) for t in REQUIRED_TOOLS_BY_TYPE
}
REQUIRED_TOOL_PARAMS: Final[dict[str, tuple[str, ...]]] = {
    "poi_search": ("address",),
    "around_search": ("location",),
    "direction": ("origin", "destination"),
    "weather": ("city",),
    "search_flights": ("date", "from_city", "to_city"),
    "search_train_tickets": ("date", "from_city", "to_city"),
}

OFF_TOPIC_CITY_ARGS: Final[dict[str, tuple[str, ...]]] = {
    "poi_search": ("region", "address"),
    "around_search": ("region", "location"),
    "weather": ("city",),
    "search_flights": ("from_city", "to_city"),
    "search_train_tickets": ("from_city", "to_city"),
    "direction": ("origin", "destination"),
}
"""Off-topic rule: the arguments read per tool. A call is **off-topic** when one of them clearly
names a catalog city (``navworld.world.catalog.resolve_city``) that is neither the problem's
origin nor its destination. ``address`` counts only when ``region`` names no city and the
address starts with a city name (not a road such as 北京路); ``direction`` endpoints count only
(and around_search ``location``) as ``lng,lat`` coordinates whose nearest catalog city is another city and which lie farther than
OFF_TOPIC_DIRECTION_MIN_KM from every problem city. Calls with no city argument stay on-topic.
Off-topic calls contribute no facts and do not count as called tools (coverage, diversity,
transport state), so results for another city never ground an answer."""
OFF_TOPIC_DIRECTION_MIN_KM: Final = 150.0
"""Coordinates this close to a problem city are on-topic (catalog centres can sit far from the
city seat: 黄山 centre ↔ 屯溪 ≈ 68 km)."""

STATUS_VALIDITY: Final[dict[str, float]] = {
    "ok": 1.0,
    "error": 1.0,
    "trivial": 0.5,
    "off_topic": 0.0,
    "wrong_date": 0.0,
    "duplicate_id": 0.0,
    "orphan": 0.0,
}
"""s2 tool_quality: a call's validity (params present, result not an error) × this factor of its status."""
DATE_COVERAGE_WEIGHT: Final = 0.15
"""s2: the diversity multiplier loses 0.15 × (1 − coverage) for weather days of the trip not covered
by a forecast, and as much for outbound/return dates never searched (transport types)."""
TRIVIAL_DIRECTION_DEGREES: Final = 0.001
"""s2: a ``direction`` whose endpoints differ by less than this (|Δlng| + |Δlat|, ≈ 100 m) is trivial."""

# --------------------------------------------------------------------------- totals

TOTAL_CODE_SCORE: Final = 50.0
TOTAL_LLM_SCORE: Final = 50.0
INFO_CONSISTENCY_MAX: Final = 25.0
COMPLETENESS_MAX: Final = 25.0
LLM_DIMENSIONS: Final = ("practicality", "analysis_depth", "logic", "user_experience", "factual_grounding")
LLM_SCORE_WEIGHTS: Final[dict[str, float]] = dict.fromkeys(LLM_DIMENSIONS, 10.0)

# --------------------------------------------------------------------------- hard constraints

FORMAT_MIN_LENGTH: Final = 200
HARD_CONSTRAINT_PENALTIES: Final[dict[str, float]] = {
    "format_valid": 0.15,
    "tool_info_used": 0.0,
    "required_tools_called": 0.5,
    "poi_names_verified": 0.7,
    "transport_grounded": 0.3,
    "tool_quality": 0.5,
}
TOOL_INFO_USED_SOFT_PENALTY: Final = 0.05
"""tool_info_used failure multiplier for non-transport types (P1b, softened)."""
CODE_TOOL_USED_IC_THRESHOLD: Final = 6.0
CODE_TOOL_USED_IC_THRESHOLD_NONTRANSPORT: Final = 8.0
MIN_POI_MATCH_COUNT: Final = 2
TOOL_QUALITY_MIN_COVERAGE: Final = 0.5
TOOL_QUALITY_MIN_VALIDITY: Final = 0.5
TOOL_VALIDITY_ERROR_CREDIT: Final = 0.5
"""Credit of a call whose params are present but whose result is an error (never a valid call)."""
TOOL_ERROR_PREFIXES: Final = ("错误：", "错误:", "Error:", "ERROR:", "error:")

TRANSPORT_PRICE_TOLERANCE: Final = 0.15
TRANSPORT_MAX_FABRICATION: Final = 0.2
TRANSPORT_MIN_MULTIPLIER: Final = 0.3
TRANSPORT_CLAIM_WINDOW: Final = 80
"""Characters after a transport ID in which its times are read (same line, up to the next ID; the
rest of its row in a table)."""
ATTRIBUTION_WINDOW: Final = 60
"""An amount in prose belongs to the nearest entity at most this many characters before it on its
line (tables: the entity of its cell, else the row's single entity). One rule for IC prices,
fabrication and transport price claims."""
OPENING_WINDOW: Final = 12
"""s2: an opening word at most this many characters before a time makes it an opening-hours claim."""
ATTRIBUTION_MARK_WINDOW: Final = 8
"""Characters right before an amount read for a total/difference marker (``合计``, ``省``, ``+``)."""
ATTRIBUTION_MARK_LEAD: Final = 14
"""Characters read for a marker that must end right before the amount (``patterns.DERIVED_BEFORE``,
anchored: English markers are longer, ``leaving ¥``, ``which leaves``)."""
ATTRIBUTION_MODE_LOOKBACK: Final = 12
"""A taxi/metro word this close before the entity, in its clause, makes the amount the ride's fare."""
DERIVED_MAX_VALUES: Final = 12

"""Prices of one line/row combined when recognising a derived amount (sums of 2–4, differences)."""

# --------------------------------------------------------------------------- info consistency

INFO_CONSISTENCY_RATIO_DIVISOR: Final = 0.6
"""60 % overlap gives a category full credit (seed §3.3.2)."""
IC_MIN_QUANTITY_THRESHOLD: Final = 5
IC_MIN_QUANTITY_RATIO: Final = 0.2
IC_MIN_QUANTITY_CAP: Final = 3
IC_BELOW_MINIMUM_SCALE: Final = 0.65
IC_OUT_OF_CONTEXT_WEIGHT: Final = 0.5
IC_CONTEXT_WINDOW: Final = 200
INFO_CONSISTENCY_MIN_BREADTH_TOTAL: Final = 4
IC_BREADTH_PENALTY_MULTIPLIER: Final = 0.5
IC_NO_FACTS_CREDIT: Final = 0.5
"""Tools answered without extractable facts → IC = 25 × 0.5. Error-only traces get 0."""
IC_CATEGORIES: Final = (
    "flights",
    "trains",
    "pois",
    "weather",
    "distances",
    "times",
    "prices",
    "wind_info",
    "travel_durations",
    "road_names",
)
MIN_DISTANCE_METRES: Final = 100.0
DISTANCE_MATCH_TOLERANCE: Final = 0.05
DURATION_MATCH_TOLERANCE_MIN: Final = 1.0
PRICE_MATCH_ABS_TOLERANCE: Final = 0.5

# --------------------------------------------------------------------------- completeness

TIER2_PROXIMITY_DISTANCE: Final = 500
TIER_FULL: Final = 1.0
TIER_PROXIMATE: Final = 0.5
TIER_DISTANT: Final = 0.2
STRUCTURAL_CREDIT_RATIO: Final = 0.1
VERIFIED_MIN_SCALE: Final = 0.25
DAY_GROUNDING_MIN_TARGET: Final = 2
DAY_GROUNDING_MAX_TARGET: Final = 4

ECHO_MIN_LINE_CHARS: Final = 8
ECHO_SHARE_START: Final = 0.3
ECHO_SHARE_FULL: Final = 0.8
ECHO_MIN_MULTIPLIER: Final = 0.3
"""Anti-echo: share of answer characters on lines copied verbatim from tool results; between
START and FULL the completeness multiplier falls linearly from 1.0 to MIN."""

ECHO_TOTAL_START: Final = 0.3
ECHO_TOTAL_FULL: Final = 0.7
ECHO_TOTAL_MIN: Final = 0.2
"""s2: the echo share also scales the whole score (``echo.echo_total_factor``): 1.0 to 0.3, 0.2 from
0.7 (honest answers measured ≤ 0.18, the calibration suite ≤ 0.13; tool dumps and answers said
twice ≥ 0.5)."""
ECHO_SHINGLE_CHARS: Final = 10
"""s2: echo is measured on normalised text (letters, digits and CJK only): the share of the answer's
10-character blocks that occur in the normalised tool results (bullets, punctuation, reordered
lines and fields of a tool dump do not hide it)."""
RELAXED_PACE_CONSTRAINTS: Final = frozenset({"轻松休闲"})
"""s2: constraints that ask for fewer sights a day (completeness targets follow them)."""
TRANSPORT_MIN_MATCHES: Final = 2
"""s2: an answer citing 2 correct flights (trains) is not "below the minimum quantity" however many
the tool listed — the request asks for 2–3 options."""

# --------------------------------------------------------------------------- tool diversity

DIVERSITY_SHOULD_CALL_PENALTY: Final = 0.25
DIVERSITY_ATTEMPTED_RECOVERY: Final = 0.15
DIVERSITY_NICE_TO_HAVE_BONUS: Final = 0.05
DIVERSITY_FLOOR: Final = 0.3
DIVERSITY_CEILING: Final = 1.1
NICE_TO_HAVE_BY_TYPE: Final[dict[str, frozenset[str]]] = {
    "intercity": frozenset({"around_search"}),
    "business": frozenset({"around_search"}),
}

# --------------------------------------------------------------------------- fabrication

FABRICATION_PENALTY_MAX: Final = -12.5
FABRICATION_MIN_LENGTH: Final = 200
PRICE_FABRICATION_TOLERANCE: Final = 0.10
PRICE_FABRICATION_PENALTY: Final = -3.0
WEATHER_FABRICATION_PENALTY: Final = -2.0
TRANSPORT_FABRICATION_TRIGGER: Final = 0.1
TRANSPORT_FABRICATION_SCALE: Final = -5.0
INFO_CONSISTENCY_MIN_RATIO: Final = 0.4
LOW_IC_AMPLIFY_TRIGGER: Final = -3.0
LOW_IC_AMPLIFIED_PENALTY: Final = -10.0

LOCAL_FAB_SHOULD_CALL_SCALES: Final = ((3, 0.95), (6, 0.85), (10, 0.75))
LOCAL_FAB_SHOULD_CALL_FLOOR: Final = 0.65
LOCAL_FAB_SINGLE_POI_SCALES: Final = ((2, 0.85), (4, 0.7), (7, 0.55))
LOCAL_FAB_SINGLE_POI_FLOOR: Final = 0.4
"""Unsourced distance/time claims when ``direction`` was never called (non-transport types):
(max claims, multiplier) steps, then the floor. 0 claims → 1.0."""

# --------------------------------------------------------------------------- coupling and total

LLM_CODE_RATIO_FACTOR: Final = 0.6
"""LLM gets full credit when code ≥ 50 × 0.6 = 30."""
CODE_LLM_RATIO_FACTOR: Final = 0.4
"""Code gets full credit when LLM ≥ 50 × 0.4 = 20."""
CODE_COUPLING_BASE: Final = 0.7
CODE_COUPLING_SLOPE: Final = 0.3
MONOTONICITY_FLOOR: Final = 0.5
FG_DEFENSE_THRESHOLD: Final = 4.0
FG_DEFENSE_BASE: Final = 0.3
FG_DEFENSE_SLOPE: Final = 0.7
SUCCESS_THRESHOLD: Final = 60.0

# --------------------------------------------------------------------------- s2: the plan factor

PLAN_MISSING_FACTOR: Final = 0.2
"""s2: the factor of an answer without a usable plan (missing, unparsable, empty) — and the floor of
any plan's factor, so a bad plan never beats no plan by much."""
PLAN_CHECK_WEIGHTS: Final[dict[str, float]] = {
    # the plan is for this task
    "itinerary_days": 0.6,
    "task_match": 0.6,
    "activity_fields": 0.5,
    # intercity
    "intercity_endpoints": 0.5,
    "intercity_exists": 0.6,
    "intercity_stations": 0.2,
    "intercity_times": 0.4,
    "intercity_price": 0.2,
    "intercity_cost": 0.1,
    # inner-city transport
    "transport_shape": 0.3,
    "transport_route": 0.4,
    "transport_price": 0.15,
    "transport_cost": 0.1,
    # attractions
    "attraction_exists": 0.6,
    "attraction_open": 0.4,
    "attraction_price": 0.25,
    "attraction_cost": 0.15,
    "attraction_unique": 0.3,
    # restaurants
    "restaurant_exists": 0.5,
    "restaurant_open": 0.3,
    "restaurant_price": 0.25,
    "restaurant_cost": 0.15,
    "restaurant_unique": 0.3,
    "meal_window": 0.2,
    "meals_per_day": 0.2,
    # hotels
    "hotel_exists": 0.6,
    "hotel_price": 0.25,
    "hotel_room_type": 0.1,
    "hotel_cost": 0.15,
    "hotel_nights": 0.5,
    # time and space
    "time_valid": 0.4,
    "time_sequence": 0.6,
    "transport_timing": 0.2,
    "space_connected": 0.6,
    # capacity
    "capacity_tickets": 0.15,
    "capacity_cars": 0.1,
    "capacity_rooms": 0.1,
    # grounding in this episode's tool results
    "grounding": 0.8,
}
"""s2 severity of each environment check: the factor loses ``weight × share`` where share is the
part of the plan the check finds wrong (violations / items it applies to)."""
PLAN_DEFAULT_CHECK_WEIGHT: Final = 0.3
"""Weight of a check not listed above (a check added later)."""
PLAN_PROGRAM_WEIGHT: Final = 0.5
"""s2: each failed constraint program (the user's hard requirements) multiplies by (1 − 0.5·severity)."""
PLAN_BUDGET_GRACE: Final = 0.2
PLAN_BUDGET_MIN_SEVERITY: Final = 0.1
"""A failed budget cap is graded by the overrun: severity = overrun / (20 % of the budget), at least
0.1, at most 1 (a plan 2 % over loses a tenth of what a plan 20 % over loses)."""
PLAN_AGREEMENT_UNNAMED_WEIGHT: Final = 0.3
"""s2: share of the plan's places/trains/flights the prose never names × 0.3."""
PLAN_AGREEMENT_EXTRA_WEIGHT: Final = 1.0
PLAN_AGREEMENT_EXTRA_CONVEXITY: Final = 1.0
"""s2: s = share of what the prose schedules or recommends that the plan lacks — sights, hotels,
flights and trains with a verb such as 游览/入住/乘坐/推荐 right before the name, and the sight or
restaurant that is the slot of a timed line (``09:00–11:00 X``), with no alternative offered before it
on its line; a sight or restaurant the prose puts on day k that the plan books only on other days
counts too. The agreement loses 1.0 · s · (1 + 1.0 · s): one item of eight costs 14 %, half of them
75 % (prose describing a trip the plan does not book)."""
PLAN_CONTENT_ASKS: Final[dict[str, dict[str, tuple[float, float]]]] = {
    "multiday": {"sights": (2.0, 0.0), "meals": (2.0, 0.0)},
    "hybrid": {"sights": (2.0, 0.0), "meals": (1.5, 0.0)},
    "family_study": {"sights": (2.0, 0.0), "meals": (1.5, 0.0)},
    "food_tour": {"meals": (2.0, 0.0)},
    "single_poi": {"sights": (0.0, 1.0), "meals": (0.0, 1.0)},
    "intercity": {"sights": (0.0, 1.0)},
    "business": {"meals": (0.0, 1.0)},
}
"""s2 plan content: what each type's prompt asks the plan to book — ``(per destination day, at least
per trip)`` — sights (``每天安排2-3个景点``, the landmark and its neighbours, the sights after arriving)
and lunches/dinners (``每餐推荐具体的餐厅``, ``推荐至少{2d}家餐厅``). A day with a train/flight counts half."""
PLAN_CONTENT_FULL_SHARE_BY_TYPE: Final[dict[str, float]] = {"food_tour": 0.75}
"""A food tour's meals are its point: 75 % of the asked restaurants cover the ask."""
PLAN_CONTENT_FULL_SHARE: Final = 0.65
"""An ask is fully covered when the plan books 65 % of it (the reference planner's long trips run
out of open sights; honest answers leave a meal free)."""
PLAN_CONTENT_EXPONENT: Final = 1.0
"""The content factor is Π coverage: a plan booking half of the asked sights and of the asked meals
keeps ~0.5."""
PLAN_RELAXED_SIGHTS_PER_DAY: Final = 1.0
FEWER_SIGHTS_CONSTRAINTS: Final = frozenset({"轻松休闲", "深度体验"})
FEWER_SIGHTS_GROUPS: Final = frozenset({"elderly"})
"""Travellers a good plan gives a lighter pace (``4位老人出行``): asked the relaxed pace's sights a day."""
"""Sights a day asked under a relaxed pace or an in-depth visit (fewer, longer visits)."""
PLAN_CONTENT_MIN_COVER: Final = 0.25
"""A coverage counts at least this (an ask entirely missing halves the factor, two quarter it)."""
PLAN_CONTENT_MIN_STAY_HOURS: Final[dict[str, float]] = {"sights": 2.0, "meals": 4.0}
"""A day trip is asked a sight when it stays 2 h between arrival and departure, a meal from 4 h."""
MAX_OTHER_PLANS: Final = 3
"""s2: an answer with several distinct JSON plans is read by the worst of them (the prompt asks for
exactly one; hedging across plans gets nothing); at most this many others are verified."""
PLAN_AGREEMENT_VERB_WINDOW: Final = 8
"""Characters before a name searched for the scheduling verb (within the clause)."""

S2_COMPLETENESS_SOURCES: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "intercity": {"recommendations": ("pois", "flights", "trains")},
}
"""s2: fact sources of a completeness dimension that differ from the seed's — an intercity answer's
recommendation is as often the train or flight to take (``G1447 … ← pick``, ``✅ 去程：MF1502 选这个``)
as a place."""

MODE_SEARCH_TOOL: Final[dict[str, str]] = {"airplane": "search_flights", "train": "search_train_tickets"}
"""The search tool of each intercity mode (a program fixing the mode makes the other one optional)."""

FAITH_KINDS: Final = ("prices", "transport", "opening", "weather")
FAITH_PRIOR: Final = 4
FAITH_FARE_REL: Final = 0.02
FAITH_FARE_ABS: Final = 5.0
"""A prose fare within the seed's ±15 % but off by more than max(2 %, 5 元) of every fare the tools
gave for that ID (and no multiple of one) contradicts the tools under s2 (a rounding ``约550元`` for
548 or ``150元`` for 154 is fine; 580 for 548 is not)."""
FAITH_EXPONENT: Final = 1.0
"""s2 faithfulness (``scoring/faithful.py``): per kind of claim (prices and fares; flight/train IDs
and times; opening hours; weather) with f of n contradicting the tools, the factor is
Π (1 − f / (n + 4)): one slip among ten prices costs ~7 %, an unsupported weather word 20 %, every
price made up more than half of the score."""

# --------------------------------------------------------------------------- LLM judge

CROSS_VALIDATION_THRESHOLD: Final = 36.0
"""Judge total (of 50) above which a second model re-evaluates; the per-dimension min is kept."""
JUDGE_TEMPERATURE: Final = 0.0
JUDGE_MAX_TOKENS: Final = 4000
JUDGE_TIMEOUT_S: Final = 180.0
JUDGE_RETRIES: Final = 2
JUDGE_RETRY_BACKOFF_S: Final = 1.0
JUDGE_FG_CAP_TRIGGER: Final = 3.0
JUDGE_FG_CAP_MARGIN: Final = 2.0
"""fg ≤ 3 → logic and analysis_depth capped at fg + 2 (judge-side coupling)."""
LLM_RUBRIC_PENALTY_RANGES: Final[dict[str, tuple[int, int]]] = {
    "no_transport_mode": (2, 4),
    "no_time_slots": (1, 3),
    "time_conflict": (3, 5),
    "cross_city_no_transport": (3, 5),
    "cross_district": (2, 4),
    "backtracking": (1, 3),
    "no_order_reason": (1, 3),
    "bad_geography": (3, 5),
    "ungrounded_transport": (3, 5),
    "ungrounded_time_distance": (2, 4),
    "fabricated_price": (2, 4),
    "ungrounded_poi": (1, 3),
    "ungrounded_poi_logic": (2, 4),
}
JUDGE_SIGNAL_CAP: Final = 10
"""s2: analysis-signal counts shown to the judge stop at this (and at one per 200 characters)."""
JUDGE_SUMMARY_MAX_ITEM_CHARS: Final = 40
JUDGE_SUMMARY_MAX_ITEMS: Final = 15
JUDGE_PRICE_SUMMARY_TOLERANCE: Final = 0.15

# --------------------------------------------------------------------------- safe dict

# SCORE_BANDS = very_low/low/medium/high/very_high; BAND_EDGES = (10, 20, 30, 40) are the exclusive
# upper edges of the first four bands on 0–50; NOISE_SIGMA = 2.0. They live with the report model
# (core may not import scoring) and are re-exported here so this module lists every constant.

# --------------------------------------------------------------------------- limits

ANSWER_MAX_CHARS: Final = 60_000
ANSWER_MAX_AMOUNTS: Final = 600
"""Amounts of an answer read as prices (in order; the rest are ignored): attribution looks at each
amount's line, so a line of 30,000 amounts would cost minutes. Honest answers hold < 200."""
"""Answer characters examined (longer answers are cut; no real plan is that long)."""
TOOL_TEXT_CACHE_SIZE: Final = 4096
POI_MENTIONS_MAX: Final = 40
"""Mentions of one POI name read per answer (a plan names its hotel every day)."""

__all__ = sorted(name for name in globals() if name.isupper())
