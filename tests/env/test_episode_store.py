"""The episode store: cap, TTL, freeing, environment configuration."""

from __future__ import annotations

import time

import pytest

from navworld.core.problem import Problem
from navworld.env.episodes import (
    DEFAULT_EPISODE_TTL,
    DEFAULT_MAX_EPISODES,
    Episode,
    EpisodeNotFound,
    EpisodeStore,
    EpisodeStoreFull,
)


def episode() -> Episode:
    p = Problem(task_id=1, problem_type="multiday", destination_city="杭州", travel_date="2025-05-01", num_days=2)
    return Episode(p, world=object(), salt="s")


def test_cap_gives_a_clear_error_and_frees_on_discard() -> None:
    store = EpisodeStore(max_episodes=2, ttl=60)
    a, b = store.add(episode()), store.add(episode())
    with pytest.raises(EpisodeStoreFull, match="NAVWORLD_MAX_EPISODES"):
        store.add(episode())
    assert store.discard(a.id) is a and a.done
    store.add(episode())
    assert len(store) == 2 and b.id in store


def test_unknown_and_finished_episodes() -> None:
    store = EpisodeStore(max_episodes=4, ttl=60)
    e = store.add(episode())
    assert store.get(e.id) is e
    store.discard(e.id)
    with pytest.raises(EpisodeNotFound, match="unknown episode"):
        store.get(e.id)
    with pytest.raises(KeyError):  # EpisodeNotFound is also a KeyError
        store.get("nope")


def test_ttl_purges_idle_episodes_and_frees_room() -> None:
    store = EpisodeStore(max_episodes=2, ttl=10)
    old, fresh = store.add(episode()), store.add(episode())
    old.touched -= 11  # idle longer than the TTL
    with pytest.raises(EpisodeNotFound):
        store.get(old.id)
    assert old.done and len(store) == 1 and store.expired == 1
    store.add(episode())  # room again
    fresh.touched -= 11
    assert store.purge_expired(time.monotonic()) == 1 and len(store) == 1


def test_get_refreshes_idle_time() -> None:
    store = EpisodeStore(max_episodes=2, ttl=10)
    e = store.add(episode())
    e.touched -= 9
    store.get(e.id)
    assert time.monotonic() - e.touched < 1


def test_environment_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NAVWORLD_MAX_EPISODES", "7")
    monkeypatch.setenv("NAVWORLD_EPISODE_TTL", "12.5")
    store = EpisodeStore()
    assert (store.max_episodes, store.ttl) == (7, 12.5)
    monkeypatch.setenv("NAVWORLD_MAX_EPISODES", "not-a-number")
    assert EpisodeStore().max_episodes == DEFAULT_MAX_EPISODES
    monkeypatch.delenv("NAVWORLD_EPISODE_TTL")
    assert EpisodeStore(max_episodes=3).ttl == DEFAULT_EPISODE_TTL
