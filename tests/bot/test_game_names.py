"""A game's key or a word of that one game names it; a word of several games is answered
with them; any other word is matched to the games it may have meant."""

from __future__ import annotations

import pytest

from bot import catalogue
from bot.features.game_names import did_you_mean, game_named, meant, not_a_game
from bot.i18n import Translator

catalogue.install()


@pytest.mark.parametrize(("word", "games"), [
    ("shangai", ["shanghai"]),          # a typo of a key
    ("Bakgammon", ["backgammon"]),
    ("darts", ["shanghai", "fincricket"]),  # a word for two games
    ("tikka", ["shanghai", "fincricket"]),  # in any language, whatever the chat's
    ("НАРДЫ", ["backgammon"]),
    ("кубок", ["cup"]),
    ("kriketti", ["shanghai", "fincricket", "armchair"]),
    ("chess", []),
    ("poker", []),
])
def test_the_games_a_word_may_mean(word: str, games: list[str]) -> None:
    assert meant(word) == games


@pytest.mark.parametrize(("word", "key"), [
    ("backgammon", "backgammon"), ("НАРДЫ", "backgammon"), ("tavla", "backgammon"),
    ("шанхай", "shanghai"), ("армчер", "armchair"),
    ("кубок", None), ("карты", None), ("битва", None),  # may begin a title: «Кубок клуба»
    ("darts", None), ("tikka", None), ("kriketti", None),  # words of several games
    ("shangai", None), ("chess", None),  # a typo is suggested, never chosen
])
def test_a_word_of_one_game_names_it(word: str, key: str | None) -> None:
    game = game_named(word)
    assert (game.key if game else None) == key


def test_only_the_games_offered_are_suggested() -> None:
    assert meant("darts", ["cup", "backgammon", "armchair"]) == []
    assert meant("kriketti", ["cup", "backgammon", "armchair"]) == ["armchair"]


def test_the_suggestion_in_words() -> None:
    assert did_you_mean(Translator("en"), "нарды") == "Did you mean backgammon?"
    assert did_you_mean(Translator("ru"), "darts") == (
        "Может быть, одна из этих: shanghai, fincricket?")
    assert did_you_mean(Translator("fi"), "chess") is None


def test_a_word_of_several_games_is_said_to_name_them() -> None:
    """«tikka» is darts: not "there is no such game, did you mean shanghai, fincricket?"."""
    fi = Translator("fi")
    assert not_a_game(fi, "Peliä ei ole.", "Tikka") == (
        "”Tikka” voi tarkoittaa useaa peliä: shanghai, fincricket.")
    assert not_a_game(Translator("en"), "No such game.", "kriketti", ["cup", "armchair"]) == (
        "No such game.\nDid you mean armchair?")  # one of them offered: suggested
    assert not_a_game(fi, "Ei ole.", "tikka", ["cup"], named_among=["shanghai", "fincricket"]
                      ) == "”tikka” voi tarkoittaa useaa peliä: shanghai, fincricket."
    assert not_a_game(fi, "Ei ole.", "shangai") == "Ei ole.\nTarkoititko shanghai?"
