"""Reading plays as players type them, and why a play is refused."""

from __future__ import annotations

import pytest

from games.backgammon import Position, parse_play
from games.backgammon.parse import looks_like_play

from .helpers import assert_illegal, make

START = Position.start()
BAR_POSITION = make({6: 5, 8: 3, 13: 5, 24: 1}, {12: 5, 17: 3, 19: 5, 1: 2}, my_bar=1)
RUNNER = make({24: 1, 1: 14}, {13: 2, 8: 2})  # 6-5: only the six can be played


def notation(text: str, position: Position, dice: tuple[int, int]) -> str:
    return parse_play(text, position, dice).notation


@pytest.mark.parametrize("text", [
    "8/5 6/5", "6/5 8/5", "8-5 6-5", "8/5, 6/5", "  8/5   6/5 ", "8 / 5 6 - 5", "8/5* 6/5",
    "8–5 6–5", "8—5 6−5", "8/5 6/5.",
])
def test_spellings_of_one_play(text: str) -> None:
    assert notation(text, START, (3, 1)) == "8/5 6/5"


def test_one_checker_through_or_move_by_move() -> None:
    assert notation("24/20", START, (3, 1)) == "24/20"
    assert notation("24/21 21/20", START, (3, 1)) == "24/20"
    assert notation("21/20 24/21", START, (1, 3)) == "24/20"
    assert notation("24/23/20", START, (3, 1)) == "24/20"


def test_repeat_counts_and_doubles() -> None:
    for text in ("13/7(2) 24/18(2)", "24/18 24/18 13/7 13/7", "13/7 (2) 24-18 (2)"):
        assert notation(text, START, (6, 6)) == "24/18(2) 13/7(2)"
    for text in ("13/7(2)", "13/10(2) 10/7(2)", "13/10/7(2)", "13/10 10/7 13/10 10/7"):
        assert notation(text, START, (3, 3)) == "13/7(2)"


def test_bar_spellings() -> None:
    for text in ("bar/22 13/11", "b/22 13/11", "25/22 13/11", "13/11 bar/22", "BAR-22 13-11"):
        assert notation(text, BAR_POSITION, (3, 2)) == "bar/22 13/11"


def test_bear_off_spellings() -> None:
    position = make({6: 2, 5: 1}, {20: 2})
    for text in ("6/off(2) 5/off", "6/off 6/off 5/off", "5/o 6/0 6/off"):
        assert notation(text, position, (6, 6)) == "6/off(2) 5/off"


def test_russian_and_finnish_words() -> None:
    for text in ("бар/22 13/11", "Бар/22 13/11", "б/22 13/11", "Б-22 13-11", "bari/22 13/11"):
        assert notation(text, BAR_POSITION, (3, 2)) == "bar/22 13/11"
    position = make({6: 2, 5: 1}, {20: 2})
    for text in ("6/офф(2) 5/офф", "6/оф 6/о 5/офф", "6/pois x2 5/pois"):
        assert notation(text, position, (6, 6)) == "6/off(2) 5/off"


def test_x_marks_a_hit_and_counts_repeats() -> None:
    position = make({24: 1, 1: 14}, {21: 1, 8: 2})
    for text in ("24/21х/16", "24/21x/16", "24/21х 21/16"):  # Cyrillic and Latin x
        assert notation(text, position, (5, 3)) == "24/21*/16"
    for text in ("13/7х2 24/18х2", "13/7 x2 24/18 ×2", "13/7(2) 24/18х2"):
        assert notation(text, START, (6, 6)) == "24/18(2) 13/7(2)"


def test_the_roll_written_before_the_play() -> None:
    for text in ("64: 24/18 13/9", "46: 24/18 13/9", "6-4: 24/18 13/9"):
        assert notation(text, START, (6, 4)) == "24/18 13/9"
    assert_illegal("wrong_dice", parse_play, "64: 24/18 13/9", START, (5, 2))


def test_a_roll_typed_for_a_play_is_told_apart() -> None:
    for text in ("4-1", "1-4", " 6 – 2 "):
        error = assert_illegal("dice_not_move", parse_play, text, START, (5, 3))
        assert error.params == {"text": text.strip(), "dice": [5, 3]}
    assert notation("8-5 6-5", START, (3, 1)) == "8/5 6/5"  # a play that reads as one is played


@pytest.mark.parametrize(("text", "looks"), [
    ("24/18 13/10", True), ("бар/22", True), ("Б/22", True), ("64: 24/18", True), ("4-1", True),
    ("13 – 8", True), ("hello", False), ("12 apples", False), ("2026", False), ("бар", False),
])
def test_what_looks_like_a_play(text: str, looks: bool) -> None:
    assert looks_like_play(text) is looks


def test_hit_marks_are_optional_and_choose_the_route() -> None:
    position = make({24: 1, 1: 14}, {21: 1, 8: 2})
    assert notation("24/16", position, (5, 3)) == "24/16"
    assert notation("24/21*/16", position, (5, 3)) == "24/21*/16"
    assert notation("24/21 21/16", position, (5, 3)) == "24/21*/16"


def test_two_routes_that_both_hit_are_ambiguous() -> None:
    position = make({24: 1, 1: 14}, {22: 1, 20: 1, 8: 2})
    error = assert_illegal("ambiguous_play", parse_play, "24/18", position, (4, 2))
    assert sorted(error.params["options"]) == ["24/20*/18", "24/22*/18"]
    assert notation("24/22*/18", position, (4, 2)) == "24/22*/18"


def test_no_legal_move_is_the_empty_play() -> None:
    closed = make({6: 5}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, my_bar=1)
    play = parse_play("", closed, (6, 5))
    assert play.moves == () and play.after == closed.swapped()


@pytest.mark.parametrize(("code", "text", "position", "dice"), [
    ("bad_notation", "hello", START, (3, 1)),
    ("bad_notation", "24/", START, (3, 1)),
    ("bad_notation", "24/25", START, (3, 1)),
    ("bad_notation", "0/5", START, (3, 1)),
    ("bad_notation", "8/11", START, (3, 1)),
    ("bad_notation", "6/off/3", START, (3, 1)),
    ("bad_notation", "24/18(0)", START, (6, 6)),
    ("bad_notation", "24/18(5)", START, (6, 6)),
    ("wrong_dice", "24/17", START, (3, 1)),
    ("wrong_dice", "8/5 6/5 24/23", START, (3, 1)),
    ("wrong_dice", "24/18 13/10", START, (3, 2)),  # 9 pips for 5: not "19 is blocked" on the way
    ("wrong_dice", "24/18", START, (3, 2)),
    ("wrong_dice", "6/off", START, (3, 2)),  # 6 pips to bear off with 5: not "1 is blocked"
    ("no_checker_there", "20/17 6/5", START, (3, 1)),
    ("no_checker_on_bar", "bar/22 6/5", START, (3, 1)),
    ("blocked_point", "13/7 6/1", START, (6, 5)),
    ("blocked_point", "24/18 18/12", START, (6, 6)),
    ("must_enter_first", "13/10 6/4", BAR_POSITION, (3, 2)),
    ("cannot_bear_off_yet", "6/off 8/3", START, (6, 5)),
    ("higher_point_occupied", "2/off 6/3", make({6: 1, 2: 1}, {20: 2}), (4, 3)),
    ("must_use_both_dice", "8/5", START, (3, 1)),
    ("must_use_all_dice", "13/7", START, (6, 6)),
    ("must_use_larger_die", "24/19", RUNNER, (6, 5)),
    ("must_move", "", START, (3, 1)),
    ("bad_dice", "8/5 6/5", START, (3, 7)),
])
def test_refusals_say_why(code: str, text: str, position: Position, dice: tuple[int, int]) -> None:
    assert_illegal(code, parse_play, text, position, dice)


def test_moves_of_several_checkers_interleave() -> None:
    # Two on the bar with 4-4: both must enter before either moves on.
    position = make({1: 3, 2: 1, 6: 4, 13: 4, 24: 1}, {17: 1, 23: 1, 22: 2, 20: 3, 19: 3},
                    my_bar=2)
    assert notation("bar/17*(2)", position, (4, 4)) == "bar/17*(2)"
    assert notation("bar/21(2) 21/17*(2)", position, (4, 4)) == "bar/17*(2)"
