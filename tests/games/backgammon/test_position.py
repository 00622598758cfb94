"""Position IDs, pip counts and the starting position."""

from __future__ import annotations

import pytest

from games.backgammon import Position, legal_plays
from games.backgammon.position import CHECKERS
from games.common.errors import IllegalAction

from .helpers import make

START_ID = "4HPwATDgc/ABMA"


def test_start_position_id() -> None:
    start = Position.start()
    assert start.id == START_ID
    assert Position.from_id(START_ID) == start
    assert start.pips == (167, 167)
    assert start.borne_off == (0, 0)
    assert str(start) == START_ID


def test_the_player_on_roll_is_encoded_second() -> None:
    # GNU Backgammon writes the side NOT on roll first: here the opponent keeps the starting
    # layout (the ID starts as the start ID does) and the roller has two checkers on its
    # 2-point and one on the bar. gnubg-nn moves exactly that checker for 6-1 (bar/24/18).
    roller = make({2: 2}, {}, my_bar=1).player
    position = Position(roller, Position.start().opponent)
    assert position.id == "4HPwATAGAAAEAA"
    assert Position.from_id("4HPwATAGAAAEAA") == position
    assert position.swapped().id == "BgAABD4HHwADAA"
    assert legal_plays(position.id, (6, 1)) == ["bar/18"]


@pytest.mark.parametrize("position", [
    make({1: 2}, {24: 3}, my_bar=1, their_bar=2),
    make({}, {}),
    make({6: 15}, {19: 15}),
    make({24: 15}, {1: 15}),
    make({p: 1 for p in range(1, 16)}, {p: 1 for p in range(16, 25)}, their_bar=6),
])
def test_round_trip(position: Position) -> None:
    assert Position.from_id(position.id) == position
    assert len(position.id) == 14


@pytest.mark.parametrize("bad", [
    "", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB!A", "4HPwATDgc/ABMB",
    "//////////////", "4HPw ATDgc/ABM", 12345678901234,
])
def test_bad_position_ids_are_refused(bad: object) -> None:
    with pytest.raises(IllegalAction) as caught:
        Position.from_id(bad)  # type: ignore[arg-type]
    assert caught.value.code == "bad_position_id"
    assert isinstance(caught.value, ValueError)


def test_sixteen_checkers_are_refused() -> None:
    too_many = Position((16, *([0] * 24)), (0,) * 25)
    with pytest.raises(IllegalAction, match="bad_position_id"):
        Position.from_id(too_many.id)


def test_both_sides_on_one_point_is_refused() -> None:
    shared = make({6: 2}, {}, their_bar=0)
    shared = Position(shared.player, tuple(1 if i == 18 else 0 for i in range(25)))
    with pytest.raises(IllegalAction, match="shared_point"):
        Position.from_id(shared.id)


def test_swapped_and_pips() -> None:
    position = make({1: 2, 24: 1}, {6: 1}, my_bar=1, their_bar=1)
    assert position.pips == (2 + 24 + 25, 19 + 25)
    assert position.swapped().swapped() == position
    assert position.swapped().pips == (44, 51)
    assert position.borne_off == (CHECKERS - 4, CHECKERS - 2)
