"""The darts statistics of /export (the section ``darts_stats``), from replayed matches."""

from __future__ import annotations

from bot.features.darts.opening import Opening, starter_action
from bot.features.darts.stats import COLUMNS, _row, player_stats
from games.darts.fincricket import FinCricketMatch
from games.darts.shanghai import ShanghaiMatch


def _visits(match: Opening, *lines: str) -> None:
    for line in lines:
        for dart in line.split():
            match.apply({"type": "dart", "dart": dart})
        match.apply({"type": "end_visit"})


def test_shanghai_visits_to_close_and_legs_won() -> None:
    match = Opening(lambda s: ShanghaiMatch(legs=1, starter=s))
    match.apply(starter_action(0, "bull"))
    _visits(match, "T20 S20 D20", "S19 miss", "S19 D19 T19", "miss miss miss", "S18 D18 T18",
            "miss", "S17 D17 T17", "miss", "S16 D16 T16", "miss", "S15 D15 T15", "miss",
            "25 50")
    assert not match.finished
    _visits(match, "25", "25 50")
    assert match.finished and match.winner == 0
    winner, loser = player_stats(match, 0, "shanghai"), player_stats(match, 1, "shanghai")
    assert winner["legs_won"] == 1 and winner["visits"] == 8 and winner["marks"] == 21
    assert winner["visits_to_close"] == [8] and winner["darts"] == 7 * 3 + 2
    assert loser["visits_to_close"] == [] and loser["marks"] == 2 and loser["visits"] == 7
    row = _row(1, 1, "shanghai", 11, "Ann", winner, "1:0", False)
    assert len(row) == len(COLUMNS) and row[-3] == "8" and row[-5:-3] == ["", ""]
    assert row[-2:] == ["1:0", False]


def test_fincricket_marks_per_round_and_points() -> None:
    match = Opening(lambda s: FinCricketMatch(legs=1, starter=s))
    match.apply(starter_action(1, "coin"))
    _visits(match, "T20 S20 50", "miss", "D19")
    numbers = player_stats(match, 1, "fincricket")
    assert numbers["visits"] == 2 and numbers["marks"] == 3 + 1 + 2 + 2
    assert numbers["marks_per_round"] == 4.0 and numbers["points"] == 20 + 50
    assert numbers["legs"][0]["points"] == 70 and numbers["legs_won"] == 0
    assert player_stats(match, 0, "fincricket")["marks_per_round"] == 0.0
