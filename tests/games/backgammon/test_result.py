"""Single, gammon and backgammon by position, for finished and resigned games."""

from __future__ import annotations

import pytest

from games.backgammon import Position, game_result

from .helpers import make


def finished(loser: dict[int, int], loser_bar: int = 0) -> Position:
    """The loser is on roll after the winner bore off its last checker."""
    return make(loser, {}, my_bar=loser_bar)


def test_single_when_the_loser_bore_off_one() -> None:
    assert game_result(finished({6: 14})) == 1


def test_gammon_when_the_loser_bore_off_none() -> None:
    assert game_result(finished({6: 10, 13: 5})) == 2


def test_backgammon_with_a_checker_in_the_winners_home_board() -> None:
    assert game_result(finished({6: 14, 19: 1})) == 3
    assert game_result(finished({6: 14, 24: 1})) == 3


def test_backgammon_with_a_checker_on_the_bar() -> None:
    assert game_result(finished({6: 14}, loser_bar=1)) == 3


def test_a_checker_in_the_winners_outfield_is_only_a_gammon() -> None:
    assert game_result(finished({6: 14, 18: 1})) == 2


def test_winner_can_be_either_side() -> None:
    position = finished({6: 10, 13: 5})
    assert game_result(position.swapped()) == 2


def test_resigned_games_are_scored_by_position() -> None:
    # Nobody has finished; the opponent (1) resigns / the roller (0) resigns.
    position = make({6: 5, 8: 3}, {1: 14, 13: 1})
    assert game_result(position, winner=0) == 3  # opponent has 15 on board, 14 in our home
    assert game_result(position, winner=1) == 1  # we have borne off seven
    assert game_result(make({6: 15}, {12: 15}), winner=0) == 2


def test_unfinished_game_without_a_winner_is_refused() -> None:
    with pytest.raises(ValueError):
        game_result(Position.start())
    with pytest.raises(ValueError):
        game_result(make({}, {}))
    with pytest.raises(ValueError):
        game_result(Position.start(), winner=2)
    with pytest.raises(ValueError):
        game_result(make({}, {6: 3}), winner=1)
