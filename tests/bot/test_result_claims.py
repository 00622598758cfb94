"""How a player's ``/result`` is read: the score as people type it on a phone, the words of
each language, and what is no result at all."""

from __future__ import annotations

import pytest

from bot.features.formats.common import Claim, parse_claim


@pytest.mark.parametrize("text", ["3:1", "3-1", "3–1", "3—1", "3 : 1", " 3 -1 "])
def test_a_score_reads_the_same_however_it_is_typed(text: str) -> None:
    assert parse_claim(text) == Claim("win", (3, 1))


@pytest.mark.parametrize(("text", "outcome"), [("won", "win"), ("W", "win"), ("проиграл", "loss"),
                                                ("tasapeli", "draw"), ("2:2", "draw")])
def test_words_and_a_level_score(text: str, outcome: str) -> None:
    assert parse_claim(text).outcome == outcome


@pytest.mark.parametrize("text", ["", "3", "3:1:2", "3 1", "1000:1", "3:x", "+:-", "won 3:1"])
def test_what_is_no_result(text: str) -> None:
    assert parse_claim(text) is None


def test_only_an_organiser_names_a_forfeit() -> None:
    assert parse_claim("+:-", forfeits=True) == Claim("win", forfeit=True)
