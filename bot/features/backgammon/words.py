"""Reading a typed game report: ``gammon cube 2``, ``single passed``, ``backgammon resigned
cube 4`` (the words of any of the bot's languages, in any order); the words after them are
an organiser's reason. :func:`typed_game` writes a game back in one language's words (the
command an organiser is offered to settle a dispute)."""

from __future__ import annotations

from typing import Any

from games.backgammon.protocol import HOWS, VALUES

_WORDS: dict[str, dict[str, str]] = {
    "en": {"single": "single", "gammon": "gammon", "backgammon": "backgammon",
           "played": "played", "resigned": "resigned", "passed": "passed", "cube": "cube"},
    "ru": {"single": "простая", "gammon": "марс", "backgammon": "кокс",
           "played": "сыграна", "resigned": "сдача", "passed": "отказ", "cube": "куб"},
    "fi": {"single": "yksinkertainen", "gammon": "gammon", "backgammon": "backgammon",
           "played": "pelattu", "resigned": "luovutettu", "passed": "hylätty",
           "cube": "kuutio"},
}
"""Each language's word for a game's value, its ending and the cube (as the report card's
buttons name them)."""
_ALSO = {"оин": "single"}
"""More words people type for a value («оин», said for a single game)."""
VALUE_WORDS = {words[v]: v for words in _WORDS.values() for v in VALUES} | _ALSO
HOW_WORDS = {words[h]: h for words in _WORDS.values() for h in HOWS}
CUBE_WORDS = {words["cube"] for words in _WORDS.values()}


def parse_game(words: list[str]) -> tuple[dict[str, Any], list[str]] | None:
    """(``{"value", "cube", "how"}``, the words after them) or None without a value word.
    The game is read up to the first other word, so a reason may say "played" freely. The
    cube is taken as typed (the engine refuses 3 or 128 with its own reason)."""
    game: dict[str, Any] = {"cube": 1, "how": "played"}
    index = 0
    while index < len(words):
        word = words[index].lower()
        if word in VALUE_WORDS and "value" not in game:
            game["value"] = VALUE_WORDS[word]
        elif word in HOW_WORDS:
            game["how"] = HOW_WORDS[word]
        elif word in CUBE_WORDS and index + 1 < len(words) and words[index + 1].isdecimal():
            game["cube"] = int(words[index + 1])
            index += 1
        else:
            break
        index += 1
    return (game, words[index:]) if "value" in game else None


def typed_game(language: str, game: dict[str, Any]) -> str:
    """``game`` (its value, ending and cube) as typed in ``language``: ``gammon resigned
    cube 4``; a game played out says nothing of its ending."""
    words = _WORDS.get(language, _WORDS["en"])
    ending = [] if game["how"] == "played" else [words[game["how"]]]
    return " ".join([words[game["value"]], *ending, words["cube"], str(game["cube"])])
