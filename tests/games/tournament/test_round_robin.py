from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.errors import IllegalAction
from games.tournament import round_robin, split_into_groups


def roles(rounds, player):
    """'F'/'S' per played game of the player, in round order (byes skipped)."""
    return "".join(
        "F" if a == player else "S"
        for rnd in rounds
        for a, b in rnd
        if b is not None and player in (a, b)
    )


def test_four_players_by_hand():
    assert round_robin([1, 2, 3, 4]) == [
        [(4, 1), (2, 3)],
        [(1, 2), (3, 4)],
        [(3, 1), (4, 2)],
    ]


def test_odd_field_has_one_bye_per_round_listed_last():
    rounds = round_robin(["a", "b", "c"])
    assert len(rounds) == 3
    assert all(rnd[-1][1] is None and len(rnd) == 2 for rnd in rounds)
    assert sorted(rnd[-1][0] for rnd in rounds) == ["a", "b", "c"]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 21), double=st.booleans())
def test_every_pair_meets_once_per_cycle_one_game_per_round(n, double):
    players = list(range(100, 100 + n))
    rounds = round_robin(players, double=double)
    cycles = 2 if double else 1
    assert len(rounds) == cycles * (n - 1 if n % 2 == 0 else n)

    meetings = Counter(frozenset(p) for rnd in rounds for p in rnd if p[1] is not None)
    assert set(meetings) == {frozenset(p) for p in combinations(players, 2)}
    assert set(meetings.values()) == {cycles}
    for rnd in rounds:
        seen = [p for pair in rnd for p in pair if p is not None]
        assert sorted(seen) == players
        assert sum(b is None for _, b in rnd) == n % 2
    byes = Counter(a for rnd in rounds for a, b in rnd if b is None)
    assert all(byes[p] == (cycles if n % 2 else 0) for p in players)

    ordered = Counter(pair for rnd in rounds for pair in rnd if pair[1] is not None)
    for p in players:
        sequence = roles(rounds, p)
        if double:
            assert sequence.count("F") == sequence.count("S")
            assert all(ordered[(a, b)] == 1 for a, b in ordered)
        else:
            assert abs(sequence.count("F") - sequence.count("S")) <= 1
            breaks = sum(x == y for x, y in zip(sequence, sequence[1:], strict=False))
            assert breaks <= 1, (p, sequence)


def test_double_round_robin_reverses_the_first_cycle():
    single = round_robin([1, 2, 3, 4, 5])
    double = round_robin([1, 2, 3, 4, 5], double=True)
    assert double[:5] == single
    assert double[5:] == [
        [(b, a) if b is not None else (a, None) for a, b in rnd] for rnd in single
    ]


@pytest.mark.parametrize("players", [[], [1], [1, 1, 2], [1, None, 2]])
def test_bad_fields_are_refused(players):
    with pytest.raises(IllegalAction):
        round_robin(players)


def test_snake_split():
    assert split_into_groups(list(range(1, 9)), 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert split_into_groups(list(range(1, 10)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    with pytest.raises(IllegalAction):
        split_into_groups([1, 2, 3], 2)
    with pytest.raises(IllegalAction):
        split_into_groups([1, 2, 3], 0)
