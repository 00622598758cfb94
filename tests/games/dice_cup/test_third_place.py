"""Choosing the 3rd-place format."""

from __future__ import annotations

import pytest

from games.dice_cup import MATCH_CLASSES, ThirdPlaceChoice

from .helpers import assert_illegal


def pick(choice: ThirdPlaceChoice, player: int, fmt: str) -> None:
    choice.apply({"type": "pick", "player": player, "format": fmt})


def test_same_pick_decides() -> None:
    choice = ThirdPlaceChoice()
    pick(choice, 0, "hp")
    assert choice.needs_organiser_pick
    assert choice.expecting == [(1, "pick")]
    assert_illegal(choice, {"type": "pick", "player": 0, "format": "drop"}, "already_chosen")
    pick(choice, 1, "hp")
    assert choice.finished and choice.result == "hp" and choice.winner is None
    assert not choice.needs_organiser_pick
    assert choice.result in MATCH_CLASSES


@pytest.mark.parametrize(
    ("success", "result", "winner"), [(True, "drop", 0), (False, "betting", 1)]
)
def test_different_picks_go_to_a_try(success: bool, result: str, winner: int) -> None:
    choice = ThirdPlaceChoice()
    assert_illegal(choice, {"type": "try", "player": 0, "success": True}, "not_in_tiebreak")
    pick(choice, 0, "drop")
    pick(choice, 1, "betting")
    assert choice.needs_try and not choice.needs_organiser_pick
    assert choice.expecting == [(0, "try")]
    assert_illegal(choice, {"type": "try", "player": 1, "success": True}, "not_your_turn")
    assert_illegal(choice, {"type": "try", "player": 0, "success": "yes"}, "bad_try")
    choice.apply({"type": "try", "player": 0, "success": success})
    assert (choice.result, choice.winner) == (result, winner)
    assert_illegal(choice, {"type": "pick", "player": 0, "format": "hp"}, "match_over")


def test_only_formats_already_played() -> None:
    choice = ThirdPlaceChoice(available=("group", "drop", "hp", "betting"))
    assert_illegal(choice, {"type": "pick", "player": 0, "format": "order"}, "bad_format")
    with pytest.raises(ValueError):
        ThirdPlaceChoice(available=("chess",))


def test_organiser_pick_fallback() -> None:
    choice = ThirdPlaceChoice()
    pick(choice, 1, "group")
    choice.apply({"type": "organiser_pick", "format": "order"})
    assert choice.result == "order" and choice.winner is None
    other = ThirdPlaceChoice()
    pick(other, 0, "group")
    pick(other, 1, "hp")
    assert_illegal(other, {"type": "organiser_pick", "format": "hp"}, "not_needed")
