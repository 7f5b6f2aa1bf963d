"""The fact records of the scorer: POI and transport entries, per-text facts, merged tool facts."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["AnswerFacts", "PoiEntry", "TextFacts", "ToolFacts", "TransportClaim", "TransportEntry"]


@dataclass(frozen=True, slots=True)
class PoiEntry:
    """A POI returned by a POI tool; ``variants`` are the strings searched for in answers."""

    name: str
    kind: str
    variants: tuple[str, ...]
    cost: float | None = None
    opentime: str = ""
    district: str = ""
    halves: tuple[str, ...] = ()
    """The variants that are name halves (never counted inside a carrier or longer entity name)."""
    city: str = ""
    """The ``cityname`` the tool gave (s2 drops POIs of other cities)."""
    location: str = ""
    """The ``lng,lat`` the tool gave."""


@dataclass(frozen=True, slots=True)
class TransportEntry:
    """A flight or train line of a transport tool result."""

    id: str
    mode: str
    dep: str | None
    arr: str | None
    prices: tuple[float, ...]
    duration_min: int | None


@dataclass(frozen=True, slots=True)
class TextFacts:
    """Facts of one tool result text (immutable, cached)."""

    tool: str
    transports: tuple[TransportEntry, ...] = ()
    pois: tuple[PoiEntry, ...] = ()
    conditions: frozenset[str] = frozenset()
    temps: frozenset[int] = frozenset()
    wind: frozenset[str] = frozenset()
    distances: frozenset[float] = frozenset()
    times: frozenset[str] = frozenset()
    prices: frozenset[tuple[str, float]] = frozenset()
    durations: frozenset[int] = frozenset()
    roads: frozenset[str] = frozenset()
    address_roads: frozenset[str] = frozenset()
    """Roads of the POI addresses the result gave (s2: an answer quoting an address claims no road)."""
    admin_names: frozenset[str] = frozenset()
    lines: frozenset[str] = frozenset()
    weather_days: tuple[str, ...] = ()
    entity_names: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()
    """Other names the result returned (addresses, dishes, roads, lines, stations, carriers, airports):
    a POI name inside one of them in an answer is not a mention of that POI."""


@dataclass(slots=True)
class ToolFacts:
    """The union of the facts of every non-error tool result of a trace."""

    called: frozenset[str] = frozenset()
    succeeded: frozenset[str] = frozenset()
    failed_only: frozenset[str] = frozenset()
    n_calls: int = 0
    n_ok: int = 0
    transports: dict[str, TransportEntry] = field(default_factory=dict)
    """The first run the tools returned for each flight/train ID."""
    runs: dict[str, list[TransportEntry]] = field(default_factory=dict)
    """Every run of each ID (a number can serve the outbound and the return run on other times)."""
    pois: dict[str, PoiEntry] = field(default_factory=dict)
    conditions: set[str] = field(default_factory=set)
    temps: set[int] = field(default_factory=set)
    wind: set[str] = field(default_factory=set)
    distances: set[float] = field(default_factory=set)
    times: set[str] = field(default_factory=set)
    prices: dict[str, set[float]] = field(default_factory=dict)
    durations: set[int] = field(default_factory=set)
    roads: set[str] = field(default_factory=set)
    address_roads: set[str] = field(default_factory=set)
    admin_names: set[str] = field(default_factory=set)
    lines: set[str] = field(default_factory=set)
    weather_days: list[str] = field(default_factory=list)
    entity_names: set[str] = field(default_factory=set)
    """Carrier, airport and station names of the transport results (no POI half matches inside)."""
    blocked: set[str] = field(default_factory=set)
    """Every non-POI name the tools returned (see :attr:`TextFacts.blocked`)."""
    off_topic: list[str] = field(default_factory=list)
    """``tool(city, …)`` of every off-topic call (no facts, not counted as called)."""
    off_topic_called: frozenset[str] = frozenset()
    relevant: frozenset[str] = frozenset()
    """Tools with at least one successful call a planner would make (s2; else = succeeded)."""
    statuses: list[tuple[str, str]] = field(default_factory=list)
    """s2: ``(tool, status)`` of every call (see :mod:`navworld.scoring.trajectory`)."""
    poi_sources: dict[str, set[str]] = field(default_factory=dict)
    """POI name → the tools that returned it."""
    route_distances: set[float] = field(default_factory=set)
    route_durations: set[int] = field(default_factory=set)
    """Distances/durations that ``direction`` returned."""
    texts: list[str] = field(default_factory=list)
    """The result texts that ground facts (the plan's grounding check reads exactly these)."""
    weather_call_days: set[str] = field(default_factory=set)
    transport_dates: set[str] = field(default_factory=set)

    def runs_of(self, tid: str) -> list[TransportEntry]:
        """Every run the tools returned for flight/train ``tid`` (empty when none)."""
        runs = self.runs.get(tid)
        if runs:
            return runs
        entry = self.transports.get(tid)
        return [entry] if entry is not None else []

    @property
    def flights(self) -> set[str]:
        """Flight numbers returned by the tools."""
        return {k for k, v in self.transports.items() if v.mode == "flight"}

    @property
    def trains(self) -> set[str]:
        """Train numbers returned by the tools."""
        return {k for k, v in self.transports.items() if v.mode == "train"}

    @property
    def weather(self) -> set[str]:
        """Weather facts as strings: conditions and ``N℃`` temperatures."""
        return self.conditions | {f"{t}℃" for t in self.temps}

    @property
    def price_pairs(self) -> set[tuple[str, float]]:
        """Every ``(key, value)`` price fact."""
        return {(k, v) for k, vals in self.prices.items() for v in vals}

    def category_sizes(self) -> dict[str, int]:
        """Number of tool facts per IC category."""
        return {
            "flights": len(self.flights),
            "trains": len(self.trains),
            "pois": len(self.pois),
            "weather": len(self.weather),
            "distances": len(self.distances),
            "times": len(self.times),
            "prices": len(self.price_pairs),
            "wind_info": len(self.wind),
            "travel_durations": len(self.durations),
            "road_names": len(self.roads),
        }

    def is_empty(self) -> bool:
        """Whether no category holds any fact."""
        return not any(self.category_sizes().values())


@dataclass(frozen=True, slots=True)
class TransportClaim:
    """A claim about a flight/train: its ID alone, or the ID with a price or a time."""

    id: str
    mode: str
    kind: str
    value: str = ""


@dataclass(slots=True)
class AnswerFacts:
    """Facts found in an answer, each with its position(s)."""

    flights: list[tuple[str, int]] = field(default_factory=list)
    trains: list[tuple[str, int]] = field(default_factory=list)
    highway_codes: list[str] = field(default_factory=list)
    pois: dict[str, list[int]] = field(default_factory=dict)
    ungrounded_places: list[str] = field(default_factory=list)
    times: list[tuple[str, int]] = field(default_factory=list)
    fact_times: list[tuple[str, int]] = field(default_factory=list)
    prices: list[tuple[str | None, float, int]] = field(default_factory=list)
    distances: list[tuple[float, int]] = field(default_factory=list)
    durations: list[tuple[int, int]] = field(default_factory=list)
    conditions: list[tuple[str, int]] = field(default_factory=list)
    temps: list[tuple[int, int]] = field(default_factory=list)
    wind: list[tuple[str, int]] = field(default_factory=list)
    roads: list[tuple[str, int]] = field(default_factory=list)
    matched_roads: dict[str, int] = field(default_factory=dict)
    claims: set[TransportClaim] = field(default_factory=set)
    derived: list[tuple[float, int]] = field(default_factory=list)
    """Amounts that are totals, multiples, differences or budgets (never fabrications, never matches)."""
    plan_prices: dict[str, set[float]] = field(default_factory=dict)
    """Prices and costs the JSON plan states per entity (prose amounts equal to them are consistent)."""
    opening_times: list[tuple[str, int]] = field(default_factory=list)
    """Scorer s2: the times stated as opening hours (checked against the tools' opening hours)."""
    opening_owner: dict[int, str] = field(default_factory=dict)
    """Scorer s2: position of an opening-hours time → the tool POI whose hours it states (the POI
    named last before it on its line, reference points ``距X`` skipped)."""
    bound_times: list[tuple[str, int]] = field(default_factory=list)
    """Times that are bounds from the request (``15:00前``), not claims."""
    party_multiple: int = 1

    @property
    def flight_ids(self) -> set[str]:
        """Distinct flight numbers in the answer."""
        return {f for f, _ in self.flights}

    @property
    def train_ids(self) -> set[str]:
        """Distinct train numbers in the answer (highway codes excluded)."""
        return {t for t, _ in self.trains}

    @property
    def weather(self) -> set[str]:
        """Weather strings (conditions and ``N℃``) found in weather-context lines."""
        return {c for c, _ in self.conditions} | {f"{t}℃" for t, _ in self.temps}
