"""The armchair last-ball lines are remembered by the delivery's (and, on the score card,
its innings') value: a line read again is the one written, and a new ball, a change of the
innings' score, the names or the language writes anew."""

from types import SimpleNamespace

from bot.features.armchair.texts import _last_ball_line, hand_ball_line, last_ball_line
from bot.i18n import Translator
from games.armchair_cricket import Delivery, Innings
from games.armchair_cricket.state import changed

NAMES = ("Анна", "Борис")
CODES = (3, 17)  # two cards' codes: the ball bowled and the card played


def _game(ball: Delivery, innings: Innings) -> SimpleNamespace:
    return SimpleNamespace(state=SimpleNamespace(last=ball, innings=(innings,)))


def test_the_score_card_line_follows_its_ball_innings_names_and_language() -> None:
    ru, en = Translator("ru"), Translator("en")
    ball, innings = Delivery(1, 9, *CODES, "runs", 4), Innings(1, 1, 1, runs=14, balls=9)
    first = last_ball_line(ru, NAMES, _game(ball, innings))
    assert last_ball_line(ru, NAMES, _game(ball, innings)) == first
    assert first == _last_ball_line.__wrapped__("ru", NAMES, ball, innings)
    wicket = Delivery(1, 10, *CODES, "wicket", 0)
    assert last_ball_line(ru, NAMES, _game(wicket, changed(innings, wickets=1))) != first
    assert "18" in last_ball_line(ru, NAMES, _game(ball, changed(innings, runs=18)))
    assert "Вера" in last_ball_line(ru, ("Анна", "Вера"), _game(ball, innings))
    assert last_ball_line(en, NAMES, _game(ball, innings)) != first


def test_the_hand_line_follows_its_ball_and_language() -> None:
    ball = Delivery(2, 3, *CODES, "safe", 0)
    for language in ("ru", "en", "fi"):
        remembered = hand_ball_line(language, ball)
        assert remembered == hand_ball_line.__wrapped__(language, ball)
        assert hand_ball_line(language, Delivery(2, 4, *CODES, "runs", 6)) != remembered
    assert hand_ball_line("ru", ball) != hand_ball_line("en", ball)
