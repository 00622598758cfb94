"""Darts legs and matches under the engine contract: outcomes, listed actions, views."""

from __future__ import annotations

import json

from games.common.outcome import Outcome
from games.darts.fincricket import NUMBERS, FinCricket, FinCricketMatch
from games.darts.shanghai import TARGETS, ShanghaiLeg, ShanghaiMatch


def turn(game, *darts: str) -> None:  # type: ignore[no-untyped-def]
    for dart in darts:
        game.apply({"type": "dart", "dart": dart})
    game.apply({"type": "end_visit"})


def close_everything(game, bonus: tuple[str, ...] = ()) -> None:  # type: ignore[no-untyped-def]
    for number in NUMBERS:
        turn(game, f"T{number}", *bonus)
        turn(game, f"T{number}")


def close_shanghai(game, winner: int) -> None:  # type: ignore[no-untyped-def]
    """``winner`` closes one target per visit while the other player misses."""
    for target in TARGETS:
        chain = ("25", "25", "50") if target == "BULL" else (f"S{target}", f"D{target}",
                                                              f"T{target}")
        if game.current != winner:
            turn(game)
        turn(game, *chain)


def test_fincricket_level_leg_is_a_tie() -> None:
    game = FinCricket()
    close_everything(game)
    assert game.outcome == Outcome(None, "tie", (0, 0), "played")
    assert game.legal_actions() == []
    assert game.view()["outcome"]["result"] == "tie"


def test_fincricket_leg_win_is_scored_in_points() -> None:
    game = FinCricket()
    close_everything(game, bonus=("50",))
    assert game.outcome == Outcome(0, "win", (500, 0), "played")


def test_fincricket_match_counts_legs_and_never_ties() -> None:
    match = FinCricketMatch(legs=1)
    close_everything(match)  # a tied leg counts for nobody: a new leg starts
    assert match.outcome is None and len(match.legs) == 2
    assert match.view()["leg_outcomes"][0] == {
        "winner": None, "result": "tie", "score": [0, 0], "how": "played"}
    close_everything(match, bonus=("25",))
    # The second leg is started by player 1, who threw the bonus darts.
    assert match.outcome == Outcome(1, "win", (0, 1), "played")
    assert match.legal_actions() == []


def test_shanghai_leg_score_is_targets_closed() -> None:
    leg = ShanghaiLeg()
    close_shanghai(leg, winner=1)
    assert leg.outcome == Outcome(1, "win", (0, 7), "played")


def test_shanghai_match_outcome() -> None:
    match = ShanghaiMatch(legs=3)
    close_shanghai(match, winner=0)
    assert match.outcome is None and match.view()["legs_won"] == [1, 0]
    close_shanghai(match, winner=0)
    assert match.outcome == Outcome(0, "win", (2, 0), "played")


def test_listed_actions_follow_the_visit() -> None:
    leg = FinCricket(starter=1)
    assert leg.legal_actions(0) == []
    assert leg.legal_actions() == [{"type": "dart", "player": 1},
                                   {"type": "end_visit", "player": 1}]
    for dart in ("T20", "MISS"):
        leg.apply({"type": "dart", "dart": dart})
    assert [a["type"] for a in leg.legal_actions(1)] == ["dart", "undo", "end_visit"]
    leg.apply({"type": "dart", "player": 1, "dart": "25"})
    assert [a["type"] for a in leg.legal_actions(1)] == ["undo", "end_visit"]
    leg.apply({"type": "end_visit", "player": 1})
    assert [a["player"] for a in leg.legal_actions()] == [0, 0]


def test_views_show_the_board_in_notation() -> None:
    leg = FinCricket()
    turn(leg, "T20", "D20", "50")
    leg.apply({"type": "dart", "dart": "S19"})
    view = leg.view(None)
    assert json.loads(json.dumps(view)) == view
    assert view["history"] == [{"player": 0, "darts": ["T20", "D20", "50"], "marks": 7}]
    assert view["pending"] == ["S19"] and view["current"] == 1
    assert view["score"] == [90, 0]
    assert view["marks"][0][NUMBERS.index(20)] == 3 and view["marks"][1][NUMBERS.index(19)] == 1
    assert view == leg.view(0) == leg.view(1)

    shanghai = ShanghaiLeg(bull="strict")
    turn(shanghai, "S20", "T20", "D20")
    shanghai.apply({"type": "dart", "dart": "25"})
    view = shanghai.view(1)
    assert view["boards"][0]["20"] == 3 and view["preview"]["BULL"] == 1
    assert view["bull"] == "strict" and view["score"] == [1, 0]
