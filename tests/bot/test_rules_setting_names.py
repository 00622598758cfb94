"""A game's /rules names its settings as the chat's language types them and its settings
line shows them (``wicketit`` and ``pakat`` in Finnish, not ``wickets`` and ``deck_limit``)."""

from __future__ import annotations

import re

import pytest

from bot.catalogue import builtin_games
from bot.game_settings import key_said
from bot.i18n import Translator

LANGUAGES = ("ru", "en", "fi")
_NAMED = re.compile(r"<code>([^<\s=]+)[^<]*</code>|(\w+)=")
"""A word the rules show as typed (``<code>wickets</code>``) or a setting's pair (``play=bot``)."""


def _setting_words() -> dict[str, set[str]]:
    """Every built-in setting's key with the words each language shows it as."""
    keys = {key for game in builtin_games() for key in game.all_parsers()}
    return {key: {key, *(key_said(Translator(language), key) for language in LANGUAGES)}
            for key in keys}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", builtin_games(), ids=lambda game: game.key)
def test_rules_name_settings_in_the_chats_language(game, language: str) -> None:
    tr = Translator(language)
    named = {code or pair for code, pair in _NAMED.findall(tr(game.rules_key))}
    for key, words in _setting_words().items():
        assert not named & (words - {key_said(tr, key)}), (key, named & words)
