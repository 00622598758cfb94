import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import Ref, double_elimination, single_elimination

from .helpers import assert_consistent_places, play_out, played_losses


def test_eight_player_structure():
    bracket = double_elimination(list(range(1, 9)))
    sources = {m.id: m.slots for m in bracket.matches}
    assert list(sources) == [
        "W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1",
        "L1-1", "L1-2", "L2-1", "L2-2", "L3-1", "L4-1", "GF", "GF2",
    ]  # fmt: skip
    assert sources["L1-1"] == (Ref("loser", "W1-1"), Ref("loser", "W1-2"))
    # The first drop is reversed, so a W1 loser does not meet its W1 winner again at once.
    assert sources["L2-1"] == (Ref("winner", "L1-1"), Ref("loser", "W2-2"))
    assert sources["L4-1"] == (Ref("winner", "L3-1"), Ref("loser", "W3-1"))
    assert sources["GF"] == (Ref("winner", "W3-1"), Ref("winner", "L4-1"))
    assert sources["GF2"] == sources["GF"]
    assert bracket.first_round == single_elimination(list(range(1, 9))).first_round


def test_which_earlier_winner_takes_each_place():
    bracket = double_elimination(list(range(1, 9)))
    assert bracket.winners_into("W2-1") == ("W1-1", "W1-2")
    assert bracket.winners_into("L1-1") == (None, None)  # two losers dropping in
    assert bracket.winners_into("L2-1") == ("L1-1", None)
    assert bracket.winners_into("GF") == ("W3-1", "L4-1")
    assert bracket.winners_into("GF2") == ("GF", "GF")


def finals_of(n, reset, winners):
    """Play a bracket where ``winners`` picks each winner from the slots."""
    bracket = double_elimination(list(range(1, n + 1)), reset)
    while not bracket.finished:
        match = bracket.ready()[0]
        bracket.record(match.id, winners(match))
    return bracket


def test_grand_final_won_by_the_winners_champion_needs_no_reset():
    bracket = finals_of(4, True, lambda m: min(m.slots))
    assert bracket.match("GF").winner == 1
    assert bracket.match("GF2").status == "void"
    assert bracket.champion == 1
    assert bracket.placings() == {1: 1, 2: 2, 3: 3, 4: 4}


def test_grand_final_reset_is_played_when_the_losers_champion_wins():
    def pick(match):
        if match.id == "GF":
            return match.slots[1]
        return min(match.slots)

    bracket = finals_of(4, True, pick)
    assert bracket.match("GF").winner == 2
    assert bracket.match("GF2").slots == (1, 2)
    assert bracket.match("GF2").status == "done"
    assert bracket.champion == 1
    without_reset = finals_of(4, False, pick)
    assert without_reset.champion == 2
    assert without_reset.placings()[1] == 2


def test_places_in_a_sixteen_player_bracket():
    bracket = double_elimination(list(range(1, 17)))
    play_out(bracket, random.Random(7))
    assert sorted(bracket.placings().values()) == [1, 2, 3, 4, 5, 5, 7, 7] + [9] * 4 + [13] * 4


def test_losers_bracket_byes_with_five_players():
    bracket = double_elimination([1, 2, 3, 4, 5])
    assert bracket.match("L1-1").slots == (None, Ref("loser", "W1-2"))
    assert bracket.match("L1-2").status == "void"
    assert bracket.match("L2-2").slots == (None, Ref("loser", "W2-1"))


def check_losses(bracket, reset):
    losses = played_losses(bracket)
    champion = bracket.champion
    players = bracket.players
    assert champion is not None
    assert losses[champion] in (0, 1)
    gf = bracket.match("GF")
    runner_up = gf.loser if gf.winner == champion else gf.winner
    for p in players:
        if p == champion:
            continue
        if reset or p != runner_up:
            assert losses[p] == 2, (p, losses[p])
        else:
            assert losses[p] in (1, 2)
    if reset:
        reset_played = bracket.match("GF2").status == "done"
        assert reset_played == (gf.winner == gf.slots[1])
    places = bracket.placings()
    assert set(places) == set(players)
    assert places[champion] == 1
    assert_consistent_places(places)


@pytest.mark.parametrize("n", range(2, 65))
@pytest.mark.parametrize("reset", [True, False])
def test_every_size_everyone_but_the_champion_loses_twice(n, reset):
    bracket = double_elimination([f"p{i}" for i in range(n)], reset)
    play_out(bracket, random.Random(n * 2 + reset))
    check_losses(bracket, reset)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 24), seed=st.integers(0, 10**6), reset=st.booleans(), upset=st.booleans())
def test_random_double_elimination(n, seed, reset, upset):
    rng = random.Random(seed)
    bracket = double_elimination(list(range(n)), reset)
    while not bracket.finished:
        match = rng.choice(bracket.ready())
        winner = match.slots[1] if match.id == "GF" and upset else rng.choice(match.slots)
        bracket.record(match.id, winner)
    check_losses(bracket, reset)
    rebuilt = double_elimination(list(range(n)), reset)
    for event in bracket.log:
        rebuilt.apply(event)
    assert rebuilt.matches == bracket.matches


def test_withdrawn_player_forfeits_in_both_brackets():
    bracket = double_elimination([1, 2, 3, 4])
    bracket.withdraw(4)
    assert bracket.match("W1-1").winner == 1
    bracket.record("W1-2", 3)
    lb = bracket.match("L1-1")
    assert (lb.slots, lb.winner, lb.forfeit) == ((4, 2), 2, True)
    play_out(bracket, random.Random(1))
    assert bracket.placings()[4] == 4


def test_a_grand_final_that_decides_its_reset_cannot_change_its_winner():
    bracket = finals_of(4, True, lambda m: min(m.slots))
    assert not bracket.correctable("GF") and not bracket.correctable("GF2")
    without_reset = finals_of(4, False, lambda m: min(m.slots))
    without_reset.correct("GF", 2)
    assert without_reset.champion == 2
