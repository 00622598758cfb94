"""The final scores an organiser's /setresult (or a report) may enter, per game."""

import pytest

from bot.features.backgammon.settings import match_score_problem
from bot.features.darts.kinds import legs_score_problem
from bot.i18n import Translator
from bot.play.context import own_text


@pytest.mark.parametrize(("legs", "won", "lost"), [(3, 2, 0), (3, 2, 1), (1, 1, 0), (5, 3, 2)])
def test_a_best_of_ends_with_the_legs_that_win_it(legs: int, won: int, lost: int) -> None:
    assert legs_score_problem({"legs": legs}, won, lost) is None


@pytest.mark.parametrize(("legs", "won", "lost"), [(3, 3, 0), (3, 1, 0), (3, 99, 0),
                                                   (3, 2, 2), (5, 2, 0), (1, 1, 1)])
def test_other_leg_scores_are_refused_saying_what_wins(legs: int, won: int, lost: int) -> None:
    assert legs_score_problem({"legs": legs}, won, lost) == (
        "darts.error.bad_score", {"legs": legs, "needed": legs // 2 + 1})


@pytest.mark.parametrize(("language", "leg", "game"), [("en", "best of 3 ", "best of 3 games"),
                                                       ("ru", "в легах", "в играх"),
                                                       ("fi", "3 erän", "3 pelin")])
def test_fincricket_refuses_a_score_in_its_own_words(language: str, leg: str, game: str
                                                     ) -> None:
    """FinCricket counts games where Cricket-Shanghai counts legs (``formats.common
    .score_problem`` asks for the game's own text)."""
    tr = Translator(language)
    assert leg in own_text(tr, "darts.error.bad_score", "shanghai", legs=3, needed=2)
    assert game in own_text(tr, "darts.error.bad_score", "fincricket", legs=3, needed=2)


@pytest.mark.parametrize(("won", "lost", "valid"), [(5, 0, True), (5, 4, True), (7, 0, False),
                                                    (4, 0, False), (5, 5, False)])
def test_a_backgammon_match_ends_at_its_length(won: int, lost: int, valid: bool) -> None:
    problem = match_score_problem({"length": 5}, won, lost)
    assert (problem is None) == valid
    assert valid or problem == ("backgammon.error.bad_score", {"length": 5})
