"""The armchair innings line is remembered by its innings' value: a line read again is
the one written, and any change of the innings, the names or the language writes anew."""

from dataclasses import replace

from bot.features.armchair.texts import _innings_line, innings_line
from bot.i18n import Translator
from games.armchair_cricket import Innings

NAMES = ("Анна", "Борис")


def test_a_line_follows_its_innings_names_and_language() -> None:
    ru, en = Translator("ru"), Translator("en")
    innings = Innings(2, 1, 1, runs=14, wickets=1, balls=9)
    first = innings_line(ru, NAMES, innings)
    assert innings_line(ru, NAMES, innings) == first
    after_a_ball = replace(innings, runs=18, balls=10)
    assert innings_line(ru, NAMES, after_a_ball) != first
    assert "18/1" in innings_line(ru, NAMES, after_a_ball)
    assert "Вера" in innings_line(ru, ("Анна", "Вера"), innings)  # seat 1 bats
    assert innings_line(en, NAMES, innings) != first
    declared = replace(innings, declared=True, closed=True)
    assert innings_line(ru, NAMES, declared) != first


def test_a_remembered_line_is_the_line_written_anew() -> None:
    innings = Innings(4, 0, 2, runs=7, wickets=2, balls=15, target=12)
    for language in ("ru", "en", "fi"):
        remembered = innings_line(Translator(language), NAMES, innings)
        assert remembered == _innings_line.__wrapped__(language, NAMES, innings)
