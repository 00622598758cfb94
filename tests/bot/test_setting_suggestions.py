"""A refused ``key=value`` is answered with the pair as it was probably meant."""

from __future__ import annotations

import pytest

from bot.game_settings import COMMON_SETTINGS, FORMAT_SETTINGS, parse_settings, refused_key

PARSERS = COMMON_SETTINGS | FORMAT_SETTINGS


def _refused(pair: str) -> ValueError:
    with pytest.raises(ValueError) as caught:
        parse_settings(PARSERS, [pair], {})
    return caught.value


@pytest.mark.parametrize(("pair", "meant"), [
    ("format=swis", "format=swiss"),
    ("format=Doubel_elim", "format=double_elim"),
    ("fromat=swiss", "format=swiss"),
    ("aproval=off", "approval=off"),
    ("tiebreaks=buchholtz,wins", "tiebreaks=buchholz,wins"),
    ("third_place=of", "third_place=off"),
])
def test_a_near_miss_is_put_right(pair: str, meant: str) -> None:
    error = _refused(pair)
    assert error.args[2] == meant
    assert refused_key(error) == meant.partition("=")[0]


@pytest.mark.parametrize("pair", [
    "format=league",  # no format is close
    "colour=red",  # no key is close
    "fromat=",  # a key put right, but no value to go with it
    "rounds=40",  # a number out of range: nothing to guess
    "tiebreaks=wins,chess",  # one word of the list is not close to any
])
def test_nothing_is_guessed_when_nothing_is_close(pair: str) -> None:
    error = _refused(pair)
    assert error.args[2] is None
    assert refused_key(error) == pair.partition("=")[0]
