import math
import string
from fractions import Fraction

import pytest

from games.common.errors import IllegalAction
from games.tournament import cross_seeded, single_elimination
from games.tournament.single_elimination import bracket_size, seed_positions


def groups_of(count, size):
    return [[f"{string.ascii_uppercase[g]}{k}" for k in range(1, size + 1)] for g in range(count)]


def test_two_groups_cross_over():
    seeds = cross_seeded(groups_of(2, 4), 2)
    assert single_elimination(seeds).first_round == [("A1", "B2"), ("B1", "A2")]
    seeds = cross_seeded(groups_of(2, 4), 4)
    assert single_elimination(seeds).first_round == [
        ("A1", "B4"),
        ("B2", "A3"),
        ("B1", "A4"),
        ("A2", "B3"),
    ]


def test_four_groups_send_winner_and_runner_up_to_opposite_halves():
    first = single_elimination(cross_seeded(groups_of(4, 3), 2)).first_round
    assert first == [("A1", "C2"), ("D1", "B2"), ("B1", "D2"), ("C1", "A2")]


def meeting_rounds(seeds, group):
    """The round in which each two of ``group`` could first meet in the seeded bracket."""
    order = seed_positions(bracket_size(len(seeds)))
    leaf = {p: order.index(i) for i, p in enumerate(seeds, start=1)}
    return [(leaf[a] ^ leaf[b]).bit_length() for a in group for b in group if a < b]


@pytest.mark.parametrize("count", range(2, 17))
@pytest.mark.parametrize("top", range(1, 9))
def test_group_mates_meet_as_late_as_the_bracket_allows(count, top):
    groups = groups_of(count, top)
    seeds = cross_seeded(groups, top)
    rounds = bracket_size(len(seeds)).bit_length() - 1
    assert [seeds.index(g[0]) < count for g in groups] == [True] * count  # winners first
    for group in groups:
        met = meeting_rounds(seeds, group)
        assert not met or min(met) > 1
        if top == 2:
            assert met == [rounds]  # opposite halves: only the final
        if top <= 6:  # three or four in different quarters, five to eight in eighths
            assert not met or min(met) == rounds - math.ceil(math.log2(top)) + 1


def test_group_winners_take_the_byes():
    seeds = cross_seeded(groups_of(3, 4), 2)
    first = single_elimination(seeds).first_round
    assert [a for a, b in first if b is None] == ["A1", "B1"]


@pytest.mark.parametrize("count", range(2, 9))
@pytest.mark.parametrize("top", range(1, 5))
def test_group_mates_never_meet_in_round_one(count, top):
    groups = groups_of(count, 5)
    seeds = cross_seeded(groups, top)
    assert sorted(seeds) == sorted(g[k] for g in groups for k in range(top))
    for a, b in single_elimination(seeds).first_round:
        assert b is None or a[0] != b[0]


def test_a_thinned_group_moves_the_bye_to_the_other_winner():
    # Group A lost two players to withdrawals: A1, B1 and B2 go through to a bracket of
    # four. A1 keeping the bye would leave B1 v B2 in round one; B1 takes it instead.
    first = single_elimination(cross_seeded([["A1"], ["B1", "B2"]], 2)).first_round
    assert sorted(first, key=str) == sorted([("B1", None), ("A1", "B2")], key=str)


def test_bad_playoff():
    with pytest.raises(IllegalAction):
        cross_seeded(groups_of(2, 3), 0)
    with pytest.raises(IllegalAction):
        cross_seeded([["A1"]], 1)


def test_players_left_out_are_placed_by_group_finish_after_the_playoff():
    from games.tournament import Result, placed_outside_playoff, standings

    groups = [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"], ["C1", "C2", "C3"]]
    beats = [("A1", "A2"), ("A1", "A3"), ("A1", "A4"), ("A2", "A3"), ("A2", "A4"),
             ("A3", "A4"), ("B1", "B2"), ("B1", "B3"), ("B1", "B4"), ("B2", "B3"),
             ("B2", "B4"), ("B4", "B3"), ("C1", "C2"), ("C2", "C3"), ("C3", "C1")]
    tables = [standings(group, [Result(a, b, a) for a, b in beats
                                if a in group], round_robin=True, disqualified=["A4"])
              for group in groups]
    through = [p for table in tables for p in [r.player for r in table][:2]]
    # The 3rds first: C3 (level with C1 and C2 across the line, left out by seeding) and
    # B4 on one point share 7th, A3 (its win over the disqualified A4 annulled) is 9th;
    # B3 is the only 4th; A4, disqualified, has no place.
    assert placed_outside_playoff(tables, through, 2) == {
        "C3": 7, "B4": 7, "A3": 9, "B3": 10}


def test_players_left_out_are_compared_by_the_statistic_only_when_they_all_have_it():
    from games.tournament import Result, placed_outside_playoff, standings

    tables = [standings([w, lo], [Result(w, lo, w)]) for w, lo in
              [("X1", "X2"), ("Y1", "Y2"), ("Z1", "Z2")]]
    through = ["X1", "Y1", "Z1"]
    marks = {"X2": Fraction(1), "Y2": Fraction(2)}
    # Z2 lost a walkover and threw no darts: the runners-up share 4th.
    assert placed_outside_playoff(tables, through, 1, ["stat"], marks) == {
        "X2": 4, "Y2": 4, "Z2": 4}
    assert placed_outside_playoff(tables, through, 1, ["stat"], marks | {"Z2": Fraction(0)}) \
        == {"Y2": 4, "X2": 5, "Z2": 6}
