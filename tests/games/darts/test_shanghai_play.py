"""ShanghaiLeg and ShanghaiMatch: legs, matches, boards, statistics, corrections."""

import pytest

from games.common.errors import IllegalAction
from games.darts.shanghai import ELEMENT_LABELS, TARGETS, ShanghaiLeg, ShanghaiMatch
from games.darts.turn import PlayerStats

SHANGHAI = [[f"S{n}", f"D{n}", f"T{n}"] for n in range(20, 14, -1)] + [["25", "25", "50"]]


def visit(game: ShanghaiLeg | ShanghaiMatch, *darts: str) -> None:
    for dart in darts:
        game.apply({"type": "dart", "dart": dart})
    game.apply({"type": "end_visit"})


def close_all(game: ShanghaiLeg | ShanghaiMatch) -> None:
    """The current player closes a target per visit; the opponent misses everything."""
    for number, darts in enumerate(SHANGHAI, start=1):
        visit(game, *darts)
        if number < len(SHANGHAI):
            visit(game)


def test_first_to_close_all_seven_wins_at_the_end_of_the_visit() -> None:
    leg = ShanghaiLeg(starter=1)
    for darts in SHANGHAI[:-1]:
        visit(leg, *darts)
        visit(leg, "S20")
    leg.throw("25")
    leg.throw("25")
    leg.throw("50")
    assert not leg.finished  # the board changes when the visit ends
    assert leg.preview["BULL"] == 3 and leg.board(1)["BULL"] == 0
    leg.end_turn()
    assert leg.finished and leg.winner == 1
    assert all(done == 3 for done in leg.board(1).values())
    assert leg.board(0) == {**dict.fromkeys(TARGETS, 0), "20": 1}
    with pytest.raises(IllegalAction) as error:
        leg.throw("S20")
    assert error.value.code == "finished"


def test_statistics() -> None:
    leg = ShanghaiLeg()
    visit(leg, "T20", "S20", "MISS")  # S only
    visit(leg)
    visit(leg, "D20", "T20", "S19")  # 20 closed, S19
    visit(leg)
    for darts in SHANGHAI[1:]:
        visit(leg, *darts[1:] if darts[0] == "S19" else darts)
        if not leg.finished:
            visit(leg)
    assert leg.winner == 0
    assert leg.closed_at(0) == {"20": 2, "19": 3, "18": 4, "17": 5, "16": 6, "15": 7, "BULL": 8}
    assert leg.visits_to_close(0) == 8 and leg.visits_to_close(1) is None
    assert leg.stats(0) == PlayerStats(darts=7 * 3 + 3, visits=8, marks=21)
    assert leg.stats(1) == PlayerStats(darts=21, visits=7, marks=0)
    assert leg.stats(0).per_visit == 21 / 8


def test_finishing_visit_counts_only_entered_darts() -> None:
    leg = ShanghaiLeg()
    for darts in SHANGHAI[:-1]:
        visit(leg, *darts)
        visit(leg)
    visit(leg, "25", "25")
    visit(leg)
    visit(leg, "50")
    assert leg.winner == 0
    assert leg.stats(0) == PlayerStats(darts=7 * 3 + 1, visits=8, marks=21)


def test_strict_bull_leg() -> None:
    leg = ShanghaiLeg(bull="strict")
    visit(leg, "50", "25", "25")
    assert leg.board(0)["BULL"] == 2
    with pytest.raises(IllegalAction):
        ShanghaiLeg(bull="any")


def test_element_labels_for_the_board() -> None:
    assert ELEMENT_LABELS["20"] == ("S", "D", "T")
    assert ELEMENT_LABELS["BULL"] == ("25", "25", "50")
    assert tuple(ELEMENT_LABELS) == TARGETS


def test_best_of_three_alternates_the_starter() -> None:
    match = ShanghaiMatch(legs=3, starter=1)
    assert match.current == 1
    close_all(match)  # player 1 wins leg 1
    assert match.legs_won == (0, 1) and not match.finished
    assert len(match.legs) == 2 and match.leg.starter == 0 and match.current == 0
    close_all(match)  # player 0 wins leg 2
    assert match.legs_won == (1, 1) and match.leg.starter == 1
    close_all(match)
    assert match.finished and match.winner == 1 and match.legs_won == (1, 2)
    assert len(match.legs) == 3
    with pytest.raises(IllegalAction) as error:
        match.apply({"type": "dart", "dart": "S20"})
    assert error.value.code == "finished"
    assert match.stats(1).visits == 7 + 6 + 7
    assert match.stats(1).marks == 21 * 2


def test_match_correction_reopens_a_leg() -> None:
    match = ShanghaiMatch(legs=3)
    close_all(match)
    assert match.legs_won == (1, 0) and len(match.legs) == 2
    # The organiser finds that the winning visit had 25, 25, miss: the leg goes on.
    match.apply({"type": "correct", "darts": ["25", "25"]})
    assert match.legs_won == (0, 0) and len(match.legs) == 1
    assert match.current == 1 and match.leg.board(0)["BULL"] == 2
    match.apply({"type": "correct", "leg": 0, "visit": -1, "darts": ["25", "25", "50"]})
    assert match.legs_won == (1, 0) and len(match.legs) == 2


def test_match_correction_refusals() -> None:
    match = ShanghaiMatch(legs=3)
    close_all(match)
    visit(match, "S20")
    with pytest.raises(IllegalAction) as error:  # leg 0 would be unfinished before leg 1
        match.apply({"type": "correct", "leg": 0, "visit": -1, "darts": []})
    assert error.value.code == "correction_unfinished_leg"
    assert error.value.params == {"leg": 1, "next": 2}  # as the board numbers them
    match.apply({"type": "dart", "dart": "S20"})
    with pytest.raises(IllegalAction) as error:
        match.apply({"type": "correct", "leg": 0, "visit": 0, "darts": []})
    assert error.value.code == "visit_in_progress"
    match.apply({"type": "undo"})
    for leg in (2, -1, "0"):
        with pytest.raises(IllegalAction) as error:
            match.apply({"type": "correct", "leg": leg, "visit": 0, "darts": []})
        assert error.value.code == "no_such_leg"
    assert match.legs_won == (1, 0) and match.leg.board(1)["20"] == 1


def test_bad_match_settings() -> None:
    for legs in (0, 2, -3, "3"):
        with pytest.raises(IllegalAction) as error:
            ShanghaiMatch(legs=legs)  # type: ignore[arg-type]
        assert error.value.code == "bad_setting"
    with pytest.raises(IllegalAction):
        ShanghaiMatch(bull="nope")
    with pytest.raises(IllegalAction):
        ShanghaiMatch(starter=3)


def test_the_preview_is_the_board_until_a_dart_is_entered_then_the_visit_scored() -> None:
    leg = ShanghaiLeg()
    visit(leg, "S20", "D20")
    assert leg.preview == leg.board(1) == dict.fromkeys(TARGETS, 0)
    leg.throw("S19")
    assert leg.preview == {**dict.fromkeys(TARGETS, 0), "19": 1}
    leg.undo()
    assert leg.preview == leg.board(1)
