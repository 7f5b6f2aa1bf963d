"""The fast timetable generator is exact: same draws as ``random.Random``, same timetables as before.

The generator replaces ``randint``/``uniform``/``choices`` by inlined equivalents and renders rows
instead of validated models; these tests pin that nothing observable changed.
"""

from __future__ import annotations

import hashlib
import random
from datetime import date, timedelta

import pytest

from navworld.core.models import Flight, Train
from navworld.world.catalog import Catalog
from navworld.world.gen_transport import (
    _Draws,
    _main_first,
    _weighted,
    flight_rows,
    generate_flights,
    generate_trains,
    train_rows,
)
from navworld.world.sandbox import SandboxWorld

# sha256 over model_dump_json of every flight and train of the sample below, computed with the
# generator as it was before the speed-up (WORLD_VERSION unchanged): the output is byte-identical.
GOLDEN = "1c8ddf9ca39a88ed5e85db6d0148ef2a3d43bf4edcf82598c4acf9c8e6ebc0e8"


@pytest.mark.parametrize("seed", range(40))
def test_draws_match_random_random(seed: int) -> None:
    fast_rng, ref = random.Random(seed), random.Random(seed)
    fast = _Draws(fast_rng)
    population = ["a", "b", "c", "d"]
    table = _weighted(population, [5.0, 1.5, 2.0, 0.5])
    main = _main_first(("x", "y", "z"))
    single = _main_first(("only",))
    for lo, hi in ((8, 15), (1, 2), (1000, 9999), (100, 999), (1, 9999), (0, 0), (360, 1350)):
        assert fast.randint(lo, hi) == ref.randint(lo, hi)
        assert fast.uniform(0.95, 1.05) == ref.uniform(0.95, 1.05)
        assert fast.uniform(30, 40) == ref.uniform(30, 40)
        assert fast.pick(table) == ref.choices(population, weights=[5.0, 1.5, 2.0, 0.5])[0]
        assert fast.pick(main) == ref.choices(["x", "y", "z"], weights=[2.0, 1.0, 1.0])[0]
        assert fast.pick(single) == ref.choices(["only"], weights=[2.0])[0]  # still one draw
    assert fast_rng.getstate() == ref.getstate()


def _digest(catalog: Catalog) -> tuple[int, str]:
    cities = catalog.all_cities()
    h = hashlib.sha256()
    n = 0
    start = date(2025, 1, 1)
    for i, a in enumerate(cities):
        for j, b in enumerate(cities):
            if (i * 7 + j * 3) % 11:
                continue
            day = (start + timedelta(days=(i + j) % 365)).isoformat()
            for item in [*generate_flights(day, a, b, "golden"), *generate_trains(day, a, b, "golden")]:
                h.update(item.model_dump_json(by_alias=True).encode())
                n += 1
    return n, h.hexdigest()


def test_timetables_byte_identical_to_before(real_catalog: Catalog) -> None:
    n, digest = _digest(real_catalog)
    assert n > 5000
    assert digest == GOLDEN


def test_rows_and_models_agree(real_catalog: Catalog) -> None:
    world = SandboxWorld(salt="rows", catalog=real_catalog)
    for a, b in (("北京", "上海"), ("成都", "重庆"), ("广州", "乌鲁木齐"), ("杭州", "苏州")):
        ca, cb = real_catalog.get_city(a), real_catalog.get_city(b)
        flights = world.flight_list("2025-05-01", a, b)
        trains = world.train_list("2025-05-01", a, b)
        assert all(isinstance(f, Flight) for f in flights) and all(isinstance(t, Train) for t in trains)
        assert [f.model_dump() for f in flights] == [Flight(**r._asdict()).model_dump() for r in flight_rows("2025-05-01", ca, cb, "rows")]
        assert [(t.train_no, [(s.seat_class, s.price) for s in t.seats]) for t in trains] == [
            (r.train_no, [(s.seat_class, s.price) for s in r.seats]) for r in train_rows("2025-05-01", ca, cb, "rows")
        ]
        assert world.flight_list("2025-05-01", a, b) is flights  # cached


def test_tool_data_comes_from_the_same_rows(real_catalog: Catalog) -> None:
    import asyncio

    world = SandboxWorld(salt="rows", catalog=real_catalog)
    bj, sh = real_catalog.get_city("北京"), real_catalog.get_city("上海")
    data = asyncio.run(world.trains("2025-05-02", bj, sh))
    models = world.train_list("2025-05-02", "北京", "上海")
    assert [t["train_no"] for t in data["trains"]] == [t.train_no for t in models]
    assert [t["seats"] for t in data["trains"]] == [
        [{"class": s.seat_class, "price": int(s.price)} for s in t.seats] for t in models
    ]
    fdata = asyncio.run(world.flights("2025-05-02", bj, sh))
    assert [f["flight_no"] for f in fdata["flights"]] == [f.flight_no for f in world.flight_list("2025-05-02", "北京", "上海")]
