"""Which game a word that is no game's key meant: a typo of a key (``shangai``) or a word
people use for a game in one of the bot's languages («нарды», "darts", «tikka»).

Those words are language data, so they live in the catalogs (``game.words.<key>``: words
separated by spaces); a word is looked up in every language, since a Finnish group may well
type "darts". Only /new, /rules, /challenge and /practice ask, and only after the word was
no key: a suggestion, never a game chosen for the sender.
"""

from __future__ import annotations

import difflib

from bot import games
from bot.config import SUPPORTED_LANGUAGES
from bot.game_settings import CLOSE_ENOUGH
from bot.i18n import Translator, lines


def meant(word: str, keys: list[str] | None = None) -> list[str]:
    """The keys of the games ``word`` may have meant (among ``keys``, default every game),
    in the order the games are listed."""
    keys = games.keys() if keys is None else keys
    named: dict[str, set[str]] = {key: {key} for key in keys}
    for language in SUPPORTED_LANGUAGES:
        tr = Translator(language)
        for key in keys:
            if tr.has(f"game.words.{key}"):
                named[key] |= set(tr(f"game.words.{key}").split())
    close = set(difflib.get_close_matches(word.lower(), set().union(*named.values()),
                                          n=10, cutoff=CLOSE_ENOUGH))
    return [key for key in keys if named[key] & close]


def with_suggestion(tr: Translator, said: str, word: str, keys: list[str] | None = None) -> str:
    """``said`` (that ``word`` is no game), then on a line of its own the games it may have
    meant, when any."""
    return lines(said, did_you_mean(tr, word, keys))


def did_you_mean(tr: Translator, word: str, keys: list[str] | None = None) -> str | None:
    """"Did you mean shanghai?" (or one of several), or None when ``word`` looks like none."""
    found = meant(word, keys)
    if not found:
        return None
    if len(found) == 1:
        return tr("new.did_you_mean", game=found[0])
    return tr("new.did_you_mean_any", games=", ".join(found))
