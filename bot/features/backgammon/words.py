"""Reading a typed game report: ``gammon cube 2``, ``single passed``, ``backgammon resigned
cube 4`` (English or Russian words, in any order); the words after them are an organiser's
reason."""

from __future__ import annotations

from typing import Any

VALUE_WORDS = {"single": "single", "gammon": "gammon", "backgammon": "backgammon",
               "простая": "single", "оин": "single", "марс": "gammon", "кокс": "backgammon"}
HOW_WORDS = {"played": "played", "resigned": "resigned", "passed": "passed",
             "сыграна": "played", "сдача": "resigned", "отказ": "passed"}
CUBE_WORDS = {"cube", "куб"}


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
        elif word in CUBE_WORDS and index + 1 < len(words) and words[index + 1].isdigit():
            game["cube"] = int(words[index + 1])
            index += 1
        else:
            break
        index += 1
    return (game, words[index:]) if "value" in game else None
