"""A refused backgammon move says what was wrong with it in the player's words, with the
dice it had to fit (the reply stands under the typed move, away from the board's caption)."""

from __future__ import annotations

import pytest

from bot.features.backgammon.live.flow import explain
from bot.i18n import Translator
from games.backgammon.parse import parse_play
from games.backgammon.position import Position
from games.common.errors import IllegalAction


def refusal(text: str, dice: tuple[int, int]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        parse_play(text, Position.start(), dice)
    return caught.value


@pytest.mark.parametrize(("language", "words"), [
    ("en", "That move does not fit the dice rolled: 3-1."),
    ("ru", "Ход не соответствует выпавшим кубикам: 3-1."),
    ("fi", "Siirto ei sovi heitettyihin noppiin: 3-1."),
])
def test_a_move_off_the_dice_repeats_the_dice(language: str, words: str) -> None:
    error = refusal("24/18", (3, 1))
    assert error.code == "wrong_dice"
    assert explain(Translator(language), error) == words


def test_a_play_that_leaves_a_die_unplayed_names_the_dice() -> None:
    error = refusal("13/10", (3, 1))
    assert error.code == "must_use_both_dice"
    assert "3-1" in explain(Translator("en"), error)
