"""Typed backgammon game reports."""

from bot.features.backgammon.words import parse_game


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
    assert parse_game(words("cube 2 passed")) is None


def test_the_reason_follows_the_game_and_may_use_its_words() -> None:
    game, rest = parse_game(words("single cube 2 both agree it was played out"))
    assert game == {"value": "single", "cube": 2, "how": "played"}
    assert rest == words("both agree it was played out")
