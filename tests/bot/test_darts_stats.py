"""The darts statistics of /export (the section ``darts_stats``), from replayed matches."""

from __future__ import annotations

from bot.features.darts.opening import Opening, starter_action
from bot.features.darts.stats import COLUMNS, _row, player_stats
from games.darts.fincricket import FinCricketMatch
from games.darts.shanghai import ShanghaiMatch
from storage.repositories.matches import MatchRow


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
    row = _line("shanghai", winner)
    assert row["visits_to_close"] == "8" and row["legs_won"] == 1 and row["darts"] == 23
    assert row["marks_per_round"] == row["points"] == "" and row["set_by_organiser"] == ""
    assert (row["match_id"], row["round"], row["game"], row["player_id"], row["name"],
            row["result"]) == (1, 2, "shanghai", 11, "Ann", "1:0")
    assert _line("shanghai", loser)["visits_to_close"] == ""


def test_fincricket_marks_per_round_and_points() -> None:
    match = Opening(lambda s: FinCricketMatch(legs=1, starter=s))
    match.apply(starter_action(1, "coin"))
    _visits(match, "T20 S20 50", "miss", "D19")
    numbers = player_stats(match, 1, "fincricket")
    assert numbers["visits"] == 2 and numbers["marks"] == 3 + 1 + 2 + 2
    assert numbers["marks_per_round"] == 4.0 and numbers["points"] == 20 + 50
    assert numbers["legs"][0]["points"] == 70 and numbers["legs_won"] == 0
    assert player_stats(match, 0, "fincricket")["marks_per_round"] == 0.0
    row = _line("fincricket", numbers, {"name": "Org", "by": 1, "reason": "Ben had to leave"})
    assert (row["marks_per_round"], row["points"], row["visits_to_close"]) == (4.0, 70, "")
    assert row["set_by_organiser"] == "Org: Ben had to leave"


def _line(kind: str, numbers: dict, settled: dict | None = None) -> dict:
    """Ann's line of the CSV table for match 1 of round 2, which she won, by column name."""
    match = MatchRow(id=1, tournament_id=1, stage="main", round=2, slot="1", kind=kind,
                     player_a=11, player_b=12, status="finished", winner=11, result={},
                     board_message_id=None)
    return dict(zip(COLUMNS, _row(match, 11, "Ann", numbers, settled), strict=True))
