"""A table's text rows start with the place and its dot (``2.``); a player without a place
(disqualified, or whose withdrawal removed their results) gets a bare dash, no dot after it,
in the Cup's group table and in the other games' tables alike."""

from __future__ import annotations

import pytest

from bot.features.cup.stage import render_table
from bot.features.formats.tables import _text_row
from bot.i18n import Translator
from games.tournament import Row


def _row(player: int, place: int | None) -> Row:
    return Row(player=player, place=place, status="active" if place else "disqualified",
               played=1, wins=1 if place else 0, draws=0, losses=0 if place else 1,
               points=3 if place else 0, buchholz=0, median_buchholz=0,
               sonneborn_berger=0, diff=0, scored=0)


LABEL = {1: "Анна_Ли", 2: "Денис_Котов"}


@pytest.mark.parametrize("language", ["ru", "en", "fi"])
def test_a_disqualified_player_is_a_dash_without_a_dot(language: str) -> None:
    tr = Translator(language)
    rows = [_row(1, 1), _row(2, None)]
    cup = render_table(tr, rows, LABEL).splitlines()
    other = [_text_row(tr, "armchair", row, LABEL, None) for row in rows]
    for first, second in (cup, other):
        assert first.startswith("1. Анна_Ли — ")
        assert second.startswith("— Денис_Котов — ") and "—." not in second
