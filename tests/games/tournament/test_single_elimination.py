import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.errors import IllegalAction
from games.tournament import Ref, round_count, single_elimination
from games.tournament.single_elimination import bracket_size, seed_positions

from .helpers import assert_consistent_places, play_out, played_losses


def test_seed_positions():
    assert seed_positions(2) == [1, 2]
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 64)] == [2, 4, 4, 8, 8, 16, 64]


@pytest.mark.parametrize("reentry", [False, True])
def test_round_count_is_the_brackets_without_building_it(reentry):
    for players in range(2, 140):
        bracket = single_elimination(list(range(1, players + 1)), third_place=True,
                                     reentry=reentry)
        assert round_count(players) == bracket.rounds, players


def test_five_players_by_hand():
    bracket = single_elimination([1, 2, 3, 4, 5], third_place=True)
    assert bracket.first_round == [(1, None), (4, 5), (2, None), (3, None)]
    assert [m.id for m in bracket.ready()] == ["W1-2", "W2-2"]
    assert bracket.match("W2-1").slots == (1, Ref("winner", "W1-2"))
    assert str(bracket.match("W2-1").slots[1]) == "winner of W1-2"
    assert bracket.match("3P").slots == (Ref("loser", "W2-1"), Ref("loser", "W2-2"))
    bracket.record("W1-2", 5)
    bracket.record("W2-1", 1)
    bracket.record("W2-2", 3)
    assert [m.id for m in bracket.ready()] == ["3P", "W3-1"]
    bracket.record("3P", 2, forfeit=True)
    assert bracket.match("3P").forfeit
    assert not bracket.finished and bracket.champion is None
    bracket.record("W3-1", 3)
    assert bracket.finished and bracket.champion == 3
    assert bracket.placings() == {3: 1, 1: 2, 2: 3, 5: 4, 4: 5}
    assert bracket.rounds == 3


@pytest.mark.parametrize("n", range(2, 65))
@pytest.mark.parametrize("third_place", [False, True])
def test_every_size_has_one_champion_and_byes_for_the_top_seeds(n, third_place):
    seeds = [f"p{i}" for i in range(1, n + 1)]
    bracket = single_elimination(seeds, third_place)
    size = bracket_size(n)
    first = bracket.first_round
    assert len(first) == size // 2
    expected = {s: seeds[s - 1] if s <= n else None for s in range(1, size + 1)}
    order = seed_positions(size)
    assert first == [
        (expected[a], expected[b]) for a, b in zip(order[::2], order[1::2], strict=True)
    ]
    byes = [a for a, b in first if b is None]
    assert len(byes) == size - n
    assert byes and sorted(byes, key=seeds.index) == seeds[: size - n] or size == n

    play_out(bracket, random.Random(n))
    losses = played_losses(bracket)
    unbeaten = [p for p in seeds if losses[p] == 0]
    assert unbeaten == [bracket.champion]
    places = bracket.placings()
    assert set(places) == set(seeds)
    assert places[bracket.champion] == 1
    assert_consistent_places(places)
    if third_place and n >= 4:
        assert sorted(places.values())[:4] == [1, 2, 3, 4]


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 10**6), third_place=st.booleans())
def test_replaying_the_log_rebuilds_the_state(n, seed, third_place):
    seeds = list(range(1, n + 1))
    bracket = single_elimination(seeds, third_place)
    rng = random.Random(seed)
    for _ in range(rng.randrange(n + 2)):
        if bracket.finished:
            break
        match = rng.choice(bracket.ready())
        bracket.record(match.id, rng.choice(match.slots))
    rebuilt = single_elimination(seeds, third_place)
    for event in bracket.log:
        rebuilt.apply(event)
    assert rebuilt.matches == bracket.matches
    assert rebuilt.placings() == bracket.placings()


def test_refusals_change_nothing():
    bracket = single_elimination([1, 2, 3])
    with pytest.raises(IllegalAction, match="unknown_match"):
        bracket.record("W9-9", 1)
    with pytest.raises(IllegalAction, match="match_decided"):
        bracket.record("W1-1", 1)  # a bye
    with pytest.raises(IllegalAction, match="match_waiting"):
        bracket.record("W2-1", 1)
    with pytest.raises(IllegalAction, match="not_in_match"):
        bracket.record("W1-2", 1)
    with pytest.raises(IllegalAction, match="reentry_not_allowed"):
        bracket.reenter(2)
    with pytest.raises(IllegalAction, match="unknown_event"):
        bracket.apply({"type": "nope"})
    assert bracket.log == []
    bracket.record("W1-2", 3)
    with pytest.raises(IllegalAction, match="match_decided"):
        bracket.record("W1-2", 2)
    with pytest.raises(IllegalAction):
        single_elimination([1])


def test_withdrawal_forfeits_the_next_match_and_keeps_the_player_placed():
    bracket = single_elimination([1, 2, 3, 4])
    bracket.record("W1-1", 1)
    bracket.withdraw(3)
    w2 = bracket.match("W1-2")
    assert (w2.status, w2.winner, w2.forfeit) == ("done", 2, True)
    assert [m.id for m in bracket.ready()] == ["W2-1"]
    bracket.record("W2-1", 2)
    assert bracket.champion == 2
    assert bracket.placings() == {2: 1, 1: 2, 3: 3, 4: 3}
    with pytest.raises(IllegalAction, match="already_out"):
        bracket.withdraw(3)
    with pytest.raises(IllegalAction, match="unknown_player"):
        bracket.withdraw(99)


def test_a_player_who_left_first_lost_to_one_who_leaves_later():
    # 4 and 2 withdraw in the semi-finals (1 and 3 go through), then 3 withdraws from the
    # final: 3 keeps the semi-final won against 2 and is the runner-up.
    bracket = single_elimination([1, 2, 3, 4])
    bracket.withdraw(4)
    bracket.withdraw(2)
    bracket.withdraw(3)
    assert bracket.match("W1-2").winner == 3
    assert bracket.placings() == {1: 1, 3: 2, 2: 3, 4: 3}


def test_disqualified_player_forfeits_and_gets_no_place():
    bracket = single_elimination([1, 2, 3, 4])
    bracket.record("W1-1", 4)
    bracket.withdraw(4)
    bracket.disqualify(4)
    bracket.record("W1-2", 2)
    final = bracket.match("W2-1")
    assert (final.winner, final.forfeit) == (2, True)
    assert bracket.placings() == {2: 1, 1: 3, 3: 3}
    assert [e["type"] for e in bracket.log] == ["result", "withdraw", "disqualify", "result"]


def test_reentry_into_an_open_first_round_place():
    bracket = single_elimination([1, 2, 3, 4, 5, 6], reentry=True)
    assert bracket.first_round == [(1, None), (4, 5), (2, None), (3, 6)]
    assert [m.id for m in bracket.ready()] == ["W1-2", "W1-4"]
    assert bracket.reentry_candidates() == []
    bracket.record("W1-2", 4)
    assert bracket.reentry_candidates() == [5]
    assert bracket.reenter(5) == "W1-3"  # the other half: 4, who beat 5, only in the final
    assert bracket.match("W1-3").slots == (2, 5)
    with pytest.raises(IllegalAction, match="cannot_reenter"):
        bracket.reenter(5)
    bracket.record("W1-3", 5)
    bracket.record("W1-4", 3)
    assert bracket.reentry_candidates() == [2, 6]
    bracket.close_entries()
    assert bracket.match("W1-1").status == "walkover"
    with pytest.raises(IllegalAction, match="entries_closed"):
        bracket.reenter(6)
    with pytest.raises(IllegalAction, match="entries_closed"):
        bracket.close_entries()
    play_out(bracket, random.Random(0))
    places = bracket.placings()
    assert places[2] == places[6] == 5
    assert places[5] < 5
    assert_consistent_places(places)

    rebuilt = single_elimination([1, 2, 3, 4, 5, 6], reentry=True)
    for event in bracket.log:
        rebuilt.apply(event)
    assert rebuilt.matches == bracket.matches


def test_reentry_into_a_named_place():
    bracket = single_elimination([1, 2, 3, 4, 5], reentry=True)
    bracket.record("W1-2", 5)
    with pytest.raises(IllegalAction, match="no_open_place"):
        bracket.reenter(4, "W1-2")
    assert bracket.reenter(4, "W1-4") == "W1-4"
    assert bracket.match("W1-4").slots == (3, 4)


def test_only_a_match_no_later_match_was_built_on_may_change_its_winner():
    """The final and the 3rd-place match place both their players: their winners may be
    corrected (logged as a ``correct`` event, replayed alike); a semi-final's may not once
    the final and the 3rd-place match were made from it."""
    bracket = single_elimination([1, 2, 3, 4], third_place=True)
    for match, winner in (("W1-1", 1), ("W1-2", 2), ("3P", 4), ("W2-1", 1)):
        bracket.record(match, winner)
    assert [bracket.correctable(m) for m in ("W1-1", "W1-2", "3P", "W2-1")] == [
        False, False, True, True]
    with pytest.raises(IllegalAction, match="match_decided"):
        bracket.correct("W1-1", 4)
    with pytest.raises(IllegalAction, match="not_in_match"):
        bracket.correct("W2-1", 3)
    bracket.correct("W2-1", 2)
    bracket.correct("3P", 3, forfeit=True)
    assert bracket.finished and bracket.placings() == {2: 1, 1: 2, 3: 3, 4: 4}
    again = single_elimination([1, 2, 3, 4], third_place=True)
    for event in bracket.log:
        again.apply(event)
    assert again.placings() == bracket.placings() and again.match("3P").forfeit


def test_a_semi_final_is_corrected_while_the_matches_it_feeds_wait():
    """Until the other semi-final is decided, the final and the 3rd-place match wait for a
    player: the corrected winner and loser take the waiting places; made, they may still
    take them until one of them has a result."""
    bracket = single_elimination([1, 2, 3, 4], third_place=True)
    bracket.record("W1-1", 4)
    assert bracket.correctable("W1-1")
    bracket.correct("W1-1", 1)
    assert bracket.match("W2-1").slots[0] == 1 and bracket.match("3P").slots[0] == 4
    bracket.record("W1-2", 2)
    assert bracket.correctable("W1-1") and bracket.correctable("W1-2")
    assert bracket.match("W2-1").slots == (1, 2)
    bracket.record("3P", 4)
    assert not bracket.correctable("W1-1") and not bracket.correctable("W1-2")


def test_a_match_names_the_matches_its_places_come_from():
    bracket = single_elimination([1, 2, 3, 4], third_place=True)
    assert bracket.feeders("W2-1") == bracket.feeders("3P") == ["W1-1", "W1-2"]
    assert bracket.feeders("W1-1") == []


def test_a_winner_may_change_while_the_match_made_from_it_has_no_result():
    """A semi-final's winner corrected once the final was made from it (both finalists
    known, no result yet): the corrected winner takes the old one's place in the final,
    replayed alike from the log; once the final has its result, no more."""
    bracket = single_elimination([1, 2, 3, 4])
    bracket.record("W1-1", 1)
    bracket.record("W1-2", 2)
    assert bracket.match("W2-1").status == "ready" and bracket.correctable("W1-1")
    bracket.correct("W1-1", 4)
    assert bracket.match("W2-1").slots == (4, 2)
    again = single_elimination([1, 2, 3, 4])
    for event in bracket.log:
        again.apply(event)
    assert again.match("W2-1").slots == (4, 2)
    bracket.record("W2-1", 2)
    assert not bracket.correctable("W1-1")
