import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.errors import IllegalAction
from games.tournament import SwissElimination

from .helpers import assert_consistent_places


def test_four_players_one_loss_by_hand():
    event = SwissElimination([1, 2, 3, 4], max_losses=1)
    assert event.round == 1
    assert event.pairings == [(1, 3), (2, 4)]
    event.record(1, 3, 1)
    assert event.pending == [(2, 4)]
    event.record(2, 4, 4)
    assert event.round == 2
    assert event.active == [1, 4]
    assert event.pairings == [(1, 4)]
    event.record(1, 4, 4)
    assert event.finished and event.champion == 4
    assert event.placings() == {4: 1, 1: 2, 2: 3, 3: 3}
    assert event.out_round(3) == 1 and event.out_round(4) is None


def test_last_two_replay_each_other_when_nothing_else_is_left():
    event = SwissElimination(["a", "b"], max_losses=2)
    event.record("a", "b", "a")
    assert event.pairings == [("a", "b")]
    event.record("a", "b", "a")
    assert event.champion == "a"


def test_byes_are_wins_and_ranked_by_exit_round_then_wins():
    event = SwissElimination([1, 2, 3], max_losses=1)
    assert event.pairings == [(1, 2), (3, None)]
    assert event.wins(3) == 1
    event.record(1, 2, 1)
    assert event.pairings == [(1, 3)]
    event.record(1, 3, 3)
    assert event.placings() == {3: 1, 1: 2, 2: 3}


def test_withdrawal_forfeits_the_pending_match():
    event = SwissElimination([1, 2, 3, 4], max_losses=2)
    event.withdraw(2)
    assert event.out_round(2) == 1
    assert event.results[-1].forfeit and event.results[-1].winner == 4
    with pytest.raises(IllegalAction, match="already_out"):
        event.withdraw(2)
    with pytest.raises(IllegalAction, match="not_a_pending_match"):
        event.record(2, 4, 4)
    assert event.pending == [(1, 3)]
    event.record(1, 3, 1)
    assert 2 not in [p for pair in event.pairings for p in pair]


def test_bad_settings():
    with pytest.raises(IllegalAction):
        SwissElimination([1, 2], max_losses=0)
    with pytest.raises(IllegalAction):
        SwissElimination([1], max_losses=1)
    with pytest.raises(IllegalAction, match="unknown_event"):
        SwissElimination([1, 2], max_losses=1).apply({"type": "bye"})


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 14),
    max_losses=st.integers(1, 3),
    seed=st.integers(0, 10**6),
    withdraw=st.booleans(),
)
def test_random_events_end_with_one_player(n, max_losses, seed, withdraw):
    rng = random.Random(seed)
    event = SwissElimination(list(range(n)), max_losses)
    while not event.finished:
        if withdraw and rng.random() < 0.05 and len(event.active) > 1:
            event.withdraw(rng.choice(event.active))
            continue
        seen = Counter(p for pair in event.pairings for p in pair if p is not None)
        assert set(seen.values()) == {1}
        a, b = rng.choice(event.pending)
        event.record(a, b, rng.choice((a, b)))

    champion = event.champion
    assert champion is not None and event.active == [champion]
    assert event.losses(champion) < max_losses
    places = event.placings()
    assert set(places) == set(range(n)) and places[champion] == 1
    assert_consistent_places(places)
    out = [p for p in range(n) if p != champion]
    for p, q in zip(out, out[1:], strict=False):
        key_p = (-event.out_round(p), -event.wins(p))
        key_q = (-event.out_round(q), -event.wins(q))
        assert (places[p] < places[q]) == (key_p < key_q)

    rebuilt = SwissElimination(list(range(n)), max_losses)
    for entry in event.log:
        rebuilt.apply(entry)
    assert rebuilt.results == event.results
    assert rebuilt.placings() == places
