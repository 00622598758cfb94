"""Which game a word names: its key, or a word people use for one game only in one of the
bot's languages («нарды» is backgammon) — and, for a word that names none, the games it may
have meant: a typo of a key (``shangai``) or a word of several games ("darts", «tikka»).

Those words are language data, so they live in the catalogs (``game.key_words.<key>``: the
game's names, taken as its key; ``game.words.<key>``: words that may mean it, suggested only;
words separated by spaces); a word is looked up in every language, since a Finnish group may
well type "darts". /new, /rules, /challenge and /practice take a game's name as its key; a
word of several games is answered that it names them (:func:`not_a_game`), a typo or a word
that may begin a title («Кубок клуба») gets a suggestion: never a game chosen for the
sender.
"""

from __future__ import annotations

import difflib

from bot import games
from bot.config import SUPPORTED_LANGUAGES
from bot.game_settings import CLOSE_ENOUGH
from bot.i18n import Translator, clip, lines


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


def not_a_game(tr: Translator, said: str, word: str, keys: list[str] | None = None, *,
               named_among: list[str] | None = None) -> str:
    """What a command answers for a ``word`` that names no one game: that it is a word of
    several games (among ``named_among``, default ``keys``) and which ("darts", «tikka»:
    Shanghai and FinCricket), else ``said`` (that ``word`` is no game) and the games among
    ``keys`` it may have meant."""
    several = games_of_word(word, keys if named_among is None else named_among)
    if len(several) > 1:
        return tr("game.several", word=clip(word), games=", ".join(several))
    return with_suggestion(tr, said, word, keys)


def games_of_word(word: str, keys: list[str] | None = None) -> list[str]:
    """The games (among ``keys``, default every game) whose words in any language include
    ``word`` itself (``game.words.<key>``), in the order the games are listed."""
    keys = games.keys() if keys is None else keys
    return [key for key, words in _words(keys).items() if word.lower() in words]


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
