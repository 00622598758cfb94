"""Hand-picked rules cases; every expected list was checked against GNU Backgammon."""

from __future__ import annotations

import pytest

from games.backgammon import Position, legal_plays
from games.backgammon.parse import apply_play
from games.backgammon.plays import plays_of
from games.common.errors import IllegalAction

from .helpers import make

START = "4HPwATDgc/ABMA"


def test_opening_three_one_has_sixteen_plays() -> None:
    plays = legal_plays(START, (3, 1))
    assert len(plays) == 16 == len(set(plays))
    assert "8/5 6/5" in plays
    assert legal_plays(START, (1, 3)) == plays


def test_opening_six_six_has_eleven_plays() -> None:
    plays = legal_plays(START, (6, 6))
    assert sorted(plays) == sorted([
        "24/18(2) 13/7(2)", "24/18(2) 13/7 8/2", "24/18(2) 8/2(2)", "24/18 13/7(3)",
        "24/18 13/7(2) 8/2", "24/18 13/7 8/2(2)", "24/18 8/2(3)", "13/7(4)", "13/7(3) 8/2",
        "13/7(2) 8/2(2)", "13/7 8/2(3)",
    ])


def test_opening_six_five_includes_running_a_back_checker() -> None:
    assert sorted(legal_plays(START, (6, 5))) == sorted(
        ["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"])


@pytest.mark.parametrize(("blocks", "expected"), [
    ({13: 2, 8: 2}, ["24/18"]),   # either die alone, not both: the larger one
    ({13: 2, 18: 2}, ["24/19"]),  # the larger cannot be played at all: the smaller
    ({18: 2, 8: 2}, ["24/13"]),   # one checker, both dice, through the open 19-point
    ({18: 2, 19: 2}, []),         # both intermediate points blocked: no move
])
def test_one_checker_free(blocks: dict[int, int], expected: list[str]) -> None:
    # Fourteen checkers on the ace point cannot move (no bear-off with one checker outside).
    position = make({24: 1, 1: 14}, blocks)
    assert legal_plays(position.id, (6, 5)) == expected


def test_two_on_the_bar_with_one_open_point_enters_one_and_loses_the_rest() -> None:
    closed = {19: 2, 20: 2, 21: 2, 22: 2, 24: 2}
    position = make({6: 5, 8: 3}, closed, my_bar=2)
    assert legal_plays(position.id, (4, 2)) == ["bar/23"]
    assert sorted(legal_plays(position.id, (2, 2))) == [
        "bar/23(2) 6/2", "bar/23(2) 6/4(2)", "bar/23(2) 8/4", "bar/23(2) 8/6(2)"]


def test_entry_blocked_loses_the_whole_roll() -> None:
    closed = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}
    position = make({6: 5}, closed, my_bar=1)
    assert legal_plays(position.id, (6, 5)) == []
    only = plays_of(position, (6, 5))
    assert len(only) == 1 and only[0].moves == () and only[0].notation == ""
    assert only[0].after == position.swapped()


def test_bear_off_with_a_higher_die_from_the_highest_point() -> None:
    assert legal_plays(make({3: 1, 2: 1}, {20: 2}).id, (6, 5)) == ["3/off 2/off"]


def test_higher_die_needs_no_checker_above() -> None:
    # 4 cannot bear off the 2 while the 6-point is occupied: the 6 moves 4 and 3 and goes off.
    assert legal_plays(make({6: 1, 2: 1}, {20: 2}).id, (4, 3)) == ["6/off"]


def test_fifteen_on_the_four_point_with_one_one() -> None:
    plays = legal_plays(make({4: 15}, {20: 15}).id, (1, 1))
    assert sorted(plays) == ["4/2(2)", "4/3 4/1", "4/3(2) 4/2", "4/3(4)", "4/off"]


def test_doubles_bear_off_with_repeat_count() -> None:
    assert legal_plays(make({6: 2, 5: 1}, {20: 2}).id, (6, 6)) == ["6/off(2) 5/off"]


def test_a_hit_checker_must_come_home_before_bearing_off_again() -> None:
    position = make({5: 3, 3: 4}, {20: 2, 23: 2, 24: 2}, my_bar=1)
    assert sorted(legal_plays(position.id, (6, 2))) == ["bar/17", "bar/19 3/1", "bar/19 5/3"]


def test_hits_on_the_way_are_written_and_several_hits_in_one_play() -> None:
    position = make({24: 2, 13: 5, 8: 3, 6: 5}, {21: 1, 18: 1, 1: 2})
    plays = legal_plays(position.id, (3, 3))
    assert len(plays) == len(set(plays)) == 74
    assert "24/21*/18*/15 8/5" in plays
    assert "24/21*/18*/12" in plays
    assert "24/21*(2) 13/7" in plays
    results = [play.after for play in plays_of(position, (3, 3))]
    assert len(set(results)) == len(results)
    twice = next(p for p in plays_of(position, (3, 3)) if p.notation == "24/21*/18*/12")
    assert twice.after.player[24] == 2  # both blots are on the opponent's bar


def test_hit_through_the_middle_with_non_doubles() -> None:
    position = make({24: 1, 1: 14}, {21: 1, 8: 2})
    assert sorted(legal_plays(position.id, (3, 5))) == ["24/16", "24/21*/16"]


def test_play_objects_apply_and_know_their_moves() -> None:
    start = Position.start()
    play = next(p for p in plays_of(start, (3, 1)) if p.notation == "8/5 6/5")
    assert sorted(play.moves) == [(6, 5, False), (8, 5, False)]
    after = apply_play(start, play)
    assert after == play.after
    assert after.opponent[4] == 2 and after.opponent[7] == 2 and after.opponent[5] == 4
    assert after.player == start.player  # the opponent, now on roll, is untouched
    assert apply_play(start, "6/5 8/5", (1, 3)) == after


def test_apply_refuses_a_play_of_another_position() -> None:
    other = plays_of(make({6: 2}, {20: 2}), (1, 2))[0]
    with pytest.raises(IllegalAction) as caught:
        apply_play(Position.start(), other)
    assert caught.value.code == "illegal_play"


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (1,), (1, 2, 3), (1.0, 2), ("1", 2)])
def test_bad_dice(dice: tuple) -> None:
    with pytest.raises(IllegalAction) as caught:
        legal_plays(START, dice)
    assert caught.value.code == "bad_dice"


def test_no_checkers_left_means_no_play() -> None:
    assert legal_plays(make({}, {6: 3}).id, (6, 6)) == []
