"""The settings line of ``/new`` and ``/settings``: a Swiss tournament names its round count
next to the format, given or not; another format does not carry a round count it ignores.
The line speaks the chat's language in pairs /settings takes back."""

from __future__ import annotations

import pytest

from bot.catalogue import builtin_games
from bot.features.backgammon.settings import setup_note
from bot.game_settings import SWISS_ROUNDS, settings_line, shown_settings, value_words
from bot.i18n import Translator
from tests.bot.test_setting_hints import named_values


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


def _values(parse) -> set[str]:
    """Values a setting takes, as typed: those its hint names, each value word's, and a
    list of every option at once."""
    typed = {*named_values(parse.hint), *value_words(parse).values(),
             ",".join(value_words(parse).values())}
    return {text for text in typed if text and _takes(parse, text)}


def _takes(parse, text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


CASES = [(game, key, text) for game in builtin_games()
         for key, parse in game.all_parsers().items() for text in sorted(_values(parse))]


@pytest.mark.parametrize("language", ["ru", "en", "fi"])
@pytest.mark.parametrize(("game", "key", "text"), CASES,
                         ids=[f"{game.key}.{key}={text}" for game, key, text in CASES])
def test_every_pair_shown_is_taken_back_as_the_same_value(game, key, text, language) -> None:
    """An organiser may copy a pair of the line, change it and send it with /settings."""
    settings = game.parse_settings([f"{key}={text}"], game.defaults)
    pairs = settings_line(Translator(language), game.all_parsers(), settings).split(", ")
    assert all(" " not in pair for pair in pairs)  # /settings reads pairs between spaces
    assert game.parse_settings(pairs, {}) == shown_settings(settings)


@pytest.mark.parametrize(("language", "line"), [
    ("ru", "макс_игроков=без_лимита, одобрение=нет, отметка=нет, формат=круговая, леги=3, "
           "булл=по_подходу"),
    ("en", "max_players=no_limit, approval=off, checkin=off, format=round_robin, legs=3, "
           "bull=visit"),
    ("fi", "maks_pelaajia=rajaton, hyväksyntä=ei, paikallaolo=ei, muoto=sarja, legit=3, "
           "bulli=vuoro"),
], ids=["ru", "en", "fi"])
def test_the_line_speaks_the_chats_language(language: str, line: str) -> None:
    """A 0 meaning none reads as a word; a key or value without words of its own would be
    shown as kept."""
    shanghai = next(game for game in builtin_games() if game.key == "shanghai")
    assert settings_line(Translator(language), shanghai.all_parsers(),
                         shanghai.defaults) == line


def test_a_value_with_no_words_is_shown_as_kept() -> None:
    formats = next(game for game in builtin_games() if game.key == "shanghai")
    line = settings_line(Translator("ru"), formats.all_parsers(),
                         {"tiebreaks": ["h2h", "wins"], "checkin": 30})
    assert line == "тай-брейки=h2h,wins, отметка=30"


@pytest.mark.parametrize(("language", "pair"), [("ru", "опоздание=нет"), ("en", "grace=off"),
                                                ("fi", "odotus=ei")])
def test_the_backgammon_note_names_no_grace_as_settings_takes_it(language: str,
                                                                 pair: str) -> None:
    note = setup_note(Translator(language), {"play": "board", "grace": 0, "length": 5})
    assert f"({pair})" in note
