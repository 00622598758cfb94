"""Typed backgammon game reports."""

import pytest

from bot.features.backgammon.words import parse_game, typed_game


def words(text: str) -> list[str]:
    return text.split()


def test_typed_reports() -> None:
    assert parse_game(words("gammon cube 2")) == (
        {"value": "gammon", "cube": 2, "how": "played"}, [])
    assert parse_game(words("single passed")) == (
        {"value": "single", "cube": 1, "how": "passed"}, [])
    assert parse_game(words("backgammon resigned cube 4")) == (
        {"value": "backgammon", "cube": 4, "how": "resigned"}, [])
    assert parse_game(words("марс куб 8 сдача")) == (
        {"value": "gammon", "cube": 8, "how": "resigned"}, [])
    assert parse_game(words("yksinkertainen hylätty")) == (
        {"value": "single", "cube": 1, "how": "passed"}, [])
    assert parse_game(words("gammon luovutettu kuutio 4")) == (
        {"value": "gammon", "cube": 4, "how": "resigned"}, [])
    assert parse_game(words("cube 2 passed")) is None


def test_the_reason_follows_the_game_and_may_use_its_words() -> None:
    game, rest = parse_game(words("single cube 2 both agree it was played out"))
    assert game == {"value": "single", "cube": 2, "how": "played"}
    assert rest == words("both agree it was played out")


@pytest.mark.parametrize(("language", "typed"), [
    ("en", "gammon resigned cube 4"), ("ru", "марс сдача куб 4"),
    ("fi", "gammon luovutettu kuutio 4")])
def test_a_game_written_in_a_language_reads_back_as_itself(language: str, typed: str) -> None:
    game = {"value": "gammon", "cube": 4, "how": "resigned"}
    assert typed_game(language, game) == typed
    assert parse_game(words(typed)) == (game, [])


def test_a_game_played_out_says_nothing_of_its_ending() -> None:
    assert typed_game("en", {"value": "single", "cube": 1, "how": "played"}) == "single cube 1"
