"""Which game a word names: its key, or a word people use for one game only in one of the
bot's languages («нарды» is backgammon) — and, for a word that names none, the games it may
have meant: a typo of a key (``shangai``) or a word of several games ("darts", «tikka»).

Those words are language data, so they live in the catalogs (``game.key_words.<key>``: the
game's names, taken as its key; ``game.words.<key>``: words that may mean it, suggested only;
words separated by spaces); a word is looked up in every language, since a Finnish group may
well type "darts". /new, /rules, /challenge and /practice take a game's name as its key; a
typo, a word of several games or a word that may begin a title («Кубок клуба») gets a
suggestion, never a game chosen for the sender.
"""

from __future__ import annotations

import difflib

from bot import games
from bot.config import SUPPORTED_LANGUAGES
from bot.game_settings import CLOSE_ENOUGH
from bot.i18n import Translator, lines


def game_named(word: str) -> games.Game | None:
    """The game ``word`` names: its key, or a name of that one game in any language
    («нарды», "tavla": ``game.key_words.<key>``, not the words that may also begin a title,
    such as «кубок»); None for no game and for a word of several."""
    if (game := games.get(word.lower())) is not None:
        return game
    found = [key for key, words in _words(games.keys(), "game.key_words").items()
             if word.lower() in words]
    return games.get(found[0]) if len(found) == 1 else None


def meant(word: str, keys: list[str] | None = None) -> list[str]:
    """The keys of the games ``word`` may have meant (among ``keys``, default every game),
    in the order the games are listed."""
    keys = games.keys() if keys is None else keys
    named = _words(keys)
    close = set(difflib.get_close_matches(word.lower(), set().union(*named.values()),
                                          n=10, cutoff=CLOSE_ENOUGH))
    return [key for key in keys if named[key] & close]


def _words(keys: list[str], entry: str = "game.words") -> dict[str, set[str]]:
    """Each game's key and its words (catalog ``entry.<key>``) in every language, lower
    case."""
    named: dict[str, set[str]] = {key: {key} for key in keys}
    for language in SUPPORTED_LANGUAGES:
        tr = Translator(language)
        for key in keys:
            if tr.has(f"{entry}.{key}"):
                named[key] |= set(tr(f"{entry}.{key}").lower().split())
    return named


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
