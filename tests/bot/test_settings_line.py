"""The settings line of ``/new`` and ``/settings``: a Swiss tournament names its round count
next to the format, given or not; another format does not carry a round count it ignores."""

from __future__ import annotations

from bot.catalogue import builtin_games
from bot.game_settings import SWISS_ROUNDS, shown_settings


def test_a_swiss_format_names_its_default_round_count_next_to_it() -> None:
    shown = shown_settings({"approval": "off", "format": "swiss", "length": 5})
    assert list(shown.items()) == [("approval", "off"), ("format", "swiss"),
                                   ("rounds", SWISS_ROUNDS), ("length", 5)]


def test_a_given_round_count_is_read_next_to_the_format() -> None:
    shown = shown_settings({"format": "swiss", "length": 3, "rounds": 3})
    assert list(shown) == ["format", "rounds", "length"]
    assert shown["rounds"] == 3


def test_other_formats_are_shown_as_they_are() -> None:
    settings = {"format": "round_robin", "length": 5}
    assert shown_settings(settings) == settings
    assert shown_settings({"legs": 3}) == {"legs": 3}


def test_no_game_defaults_to_a_round_count() -> None:
    """A default ``rounds`` would be shown for a round robin or a bracket too."""
    assert [game.key for game in builtin_games() if "rounds" in game.defaults] == []
