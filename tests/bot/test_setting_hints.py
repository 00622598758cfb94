"""A refused setting is answered with what it allows (``legs=1|3|5…21``): every value a hint
names must be one the setting accepts, so the hint reads the same in every language (no
word of English in a Russian answer) and never offers a value the bot would refuse."""

from __future__ import annotations

import re

import pytest

from bot.catalogue import builtin_games

PARSERS = sorted({(game.key, key): parse for game in builtin_games()
                  for key, parse in game.all_parsers().items()}.items())


def named_values(hint: str) -> list[str]:
    """The values a hint names: ``a|b``, ``a,b``, both ends of ``1–21`` and of ``5…21``."""
    return [end for item in re.split(r"[|,]", hint) for end in re.split(r"–|…", item)]


@pytest.mark.parametrize(("where", "parse"), PARSERS,
                         ids=[".".join(where) for where, _ in PARSERS])
def test_a_hint_names_only_values_its_setting_accepts(where, parse) -> None:
    for value in named_values(parse.hint):
        parse(value)  # raises ValueError for a value the setting refuses


def test_an_odd_setting_lists_its_first_values_and_its_last() -> None:
    parsers = next(game for game in builtin_games() if game.key == "shanghai").parsers
    assert parsers["legs"].hint == "1|3|5…21"
