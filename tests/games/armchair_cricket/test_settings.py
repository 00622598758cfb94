from __future__ import annotations

from typing import Any

import pytest

from games.armchair_cricket import ArmchairMatch, ArmchairSettings
from games.common.errors import IllegalAction

from .helpers import ball, started


def test_defaults() -> None:
    settings = ArmchairSettings()
    assert (settings.deck_limit, settings.wickets) == (27, 3)
    assert settings.runs_table == ((3, 1), (5, 2), (7, 3), (9, 4), (10, 6))


def test_settings_round_trip_through_json_shapes() -> None:
    settings = ArmchairSettings(deck_limit=5, wickets=2, runs_table=((5, 1), (10, 2)))
    data = settings.to_dict()
    assert data == {"deck_limit": 5, "wickets": 2, "runs_table": [[5, 1], [10, 2]]}
    assert ArmchairSettings.from_dict(data) == settings
    assert ArmchairMatch(data).state.settings == settings


@pytest.mark.parametrize(
    "data",
    [
        {"deck_limit": 0},
        {"deck_limit": "27"},
        {"deck_limit": True},
        {"wickets": 0},
        {"runs_table": [[9, 4]]},
        {"runs_table": "none"},
        {"runs_table": [[3, "x"], [10, 6]]},
        {"overs": 20},
    ],
)
def test_bad_settings_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as caught:
        ArmchairSettings.from_dict(data)
    assert caught.value.code == "bad_setting"


def test_two_wickets_end_an_innings_when_set() -> None:
    hand = ["BAT 8", "BALL 9", "PADS 3", "GLOVES 2", "STUMPS 4", "BAT 1"]
    other = ["BAT 5", "BAT 6", "BALL 7", "STUMPS 8", "GLOVES 10", "PADS 11"]
    match = started(hand, other, settings=ArmchairSettings(wickets=2))
    ball(match, "PADS 11", "BAT 1")
    match.apply({"type": "exchange", "player": 0, "cards": []})
    ball(match, "GLOVES 10", "PADS 3")
    assert match.view().innings[0].closed and len(match.view().innings) == 2
