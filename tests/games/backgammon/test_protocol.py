"""The over-the-board match protocol: reports, checks, corrections, penalties, forfeits."""

from __future__ import annotations

import copy

import pytest

from games.backgammon.protocol import BoardMatch
from games.common.errors import IllegalAction
from games.common.match import replay


def report(player: int, value: str = "single", cube: int = 1, how: str = "played") -> dict:
    return {"type": "report", "player": player, "winner": player, "value": value,
            "cube": cube, "how": how}


def confirm(player: int) -> dict:
    return {"type": "confirm", "player": player}


def refused(match: BoardMatch, action: dict) -> str:
    before = copy.deepcopy(match.view())
    with pytest.raises(IllegalAction) as error:
        match.apply(action)
    assert match.view() == before  # a refusal changes nothing
    return error.value.code


def test_a_game_counts_once_the_opponent_confirms() -> None:
    match = BoardMatch(5)
    match.apply(report(0, "gammon", 2))
    assert match.score == (0, 0) and match.view()["pending"]["value"] == "gammon"
    match.apply(confirm(1))
    assert match.score == (4, 0) and match.crawford  # 4-away: the next game is Crawford
    assert match.view()["games"][0] == {"kind": "game", "winner": 0, "value": "gammon",
                                        "cube": 2, "how": "played"}


@pytest.mark.parametrize(("action", "code"), [
    (report(0, cube=3), "bad_cube"),
    (report(0, cube=128), "bad_cube"),
    (report(0, cube=64, how="passed"), "bad_cube"),
    (report(0, "gammon", 2, "passed"), "passed_gammon"),
    (report(0, "backgammon", how="passed"), "passed_gammon"),
    (report(0, "double"), "bad_value"),
    (report(0, how="walked"), "bad_how"),
    ({**report(0), "player": None}, "not_in_match"),
    ({**report(0), "winner": 1}, "winner_reports"),
    (confirm(1), "nothing_to_confirm"),
    ({"type": "shuffle"}, "unknown_action"),
])
def test_impossible_reports_are_refused(action: dict, code: str) -> None:
    assert refused(BoardMatch(5), action) == code


def test_a_report_confirmed_again_says_it_is_already_confirmed() -> None:
    """A second Confirm of a settled game names that game; a penalty point after it is no
    report: nothing to confirm."""
    match = replay(BoardMatch(5), [report(0, "gammon"), confirm(1)])
    with pytest.raises(IllegalAction) as error:
        match.apply(confirm(1))
    assert error.value.code == "already_confirmed" and error.value.params == {"game": 1}
    match.apply({"type": "penalty", "player": 1, "kind": "point"})
    assert refused(match, {"type": "dispute", "player": 1}) == "nothing_to_confirm"


def test_checks_of_a_waiting_report() -> None:
    match = BoardMatch(5)
    match.apply(report(0))
    assert refused(match, report(0)) == "already_reported"
    assert refused(match, report(1)) == "report_pending"
    assert refused(match, confirm(0)) == "own_report"
    assert refused(match, {"type": "confirm", "player": None}) == "not_in_match"
    match.apply({"type": "dispute", "player": 1})
    assert refused(match, confirm(1)) == "with_organisers"
    # a disputed report waits for the organisers: neither player reports anything else
    for player in (0, 1):
        assert refused(match, report(player)) == "with_organisers"
        assert refused(match, {"type": "final", "player": player, "score": [5, 0]}) \
            == "with_organisers"
    assert match.legal_actions() == []
    match.apply({"type": "correct", "winner": 1, "value": "single", "cube": 2, "how": "played"})
    assert match.score == (0, 2) and not match.disputed and match.pending is None
    assert match.view()["games"][0]["corrected"] is True


def test_the_crawford_game_has_no_cube_and_doubling_resumes_after_it() -> None:
    match = replay(BoardMatch(5), [report(0, "single", 4), confirm(1)])
    assert match.crawford
    assert refused(match, report(1, cube=2)) == "crawford_cube"
    assert refused(match, report(1, how="passed")) == "crawford_cube"
    assert all(a["cube"] == 1 and a["how"] != "passed"
               for a in match.legal_actions(1) if a["type"] == "report")
    replay(match, [report(1), confirm(0)])
    assert not match.crawford
    replay(match, [report(1, "single", 2, "passed"), confirm(0)])
    assert match.score == (4, 3)


def test_a_one_point_match_has_a_dead_cube() -> None:
    match = BoardMatch(1)
    assert match.no_cube and not match.crawford
    assert refused(match, report(0, cube=2)) == "dead_cube"
    assert refused(match, report(0, how="passed")) == "dead_cube"
    assert all(a["cube"] == 1 and a["how"] != "passed"
               for a in match.legal_actions(0) if a["type"] == "report")
    replay(match, [report(0, "gammon", 1, "resigned")])
    assert refused(match, {"type": "correct", "winner": 0, "value": "single", "cube": 2,
                           "how": "played"}) == "dead_cube"
    replay(match, [confirm(1)])
    assert match.score == (1, 0) and match.winner == 0


def test_the_match_ends_at_the_length_and_never_in_a_draw() -> None:
    match = replay(BoardMatch(3), [report(1, "backgammon", 1, "resigned"), confirm(0)])
    assert match.finished and match.winner == 1
    assert match.outcome.to_dict() == {"winner": 1, "result": "win", "score": [0, 3],
                                       "how": "played"}
    assert refused(match, report(0)) == "match_over"
    assert match.legal_actions() == []


def test_a_wrong_entry_is_corrected_until_the_next_game_is_confirmed() -> None:
    correct = {"type": "correct", "winner": 0, "value": "single", "cube": 1, "how": "played"}
    match = replay(BoardMatch(7), [report(0, "gammon"), confirm(1)])
    match.apply(correct)
    assert match.score == (1, 0)
    replay(match, [report(1), confirm(0), {"type": "penalty", "player": 0, "kind": "warning"}])
    match.apply({**correct, "winner": 1, "value": "gammon"})  # the last game still
    assert match.score == (1, 2)
    match.apply({"type": "penalty", "player": 1, "kind": "point"})
    assert refused(match, correct) == "nothing_to_correct"  # a point came after it


def test_penalties() -> None:
    match = BoardMatch(5)
    match.apply({"type": "penalty", "player": 0, "kind": "warning"})
    match.apply({"type": "penalty", "player": 0, "kind": "point"})
    assert match.score == (0, 1)
    match.apply(report(0))
    match.apply({"type": "penalty", "player": 0, "kind": "game", "cube": 2})
    assert match.score == (0, 3) and match.pending is None  # the game went to the opponent
    assert [p["kind"] for p in match.view()["penalties"]] == ["warning", "point", "game"]
    assert refused(match, {"type": "penalty", "player": 0, "kind": "jail"}) == "bad_penalty"
    match.apply({"type": "penalty", "player": 0, "kind": "point"})  # 4-away: Crawford next
    assert match.crawford
    assert refused(match, {"type": "penalty", "player": 0, "kind": "game", "cube": 2}) \
        == "crawford_cube"
    match.apply({"type": "penalty", "player": 0, "kind": "point"})
    assert match.finished and match.score == (0, 5)


def test_a_penalty_point_waits_for_the_report_in_hand() -> None:
    """A point would change the score the report was checked against (here: make its game
    the Crawford game, where its cube 2 cannot be): refused until the report is settled."""
    match = replay(BoardMatch(3), [report(0), confirm(1), report(1, cube=2)])
    point = {"type": "penalty", "player": 1, "kind": "point"}
    assert refused(match, point) == "point_while_pending"
    match.apply(confirm(0))
    match.apply(point)
    assert match.score == (2, 2)
    match.apply({"type": "final", "player": 0, "score": [3, 2]})
    assert refused(match, point) == "point_while_pending"


def test_a_final_score_in_one_step() -> None:
    match = replay(BoardMatch(5), [report(1, "gammon"), confirm(0)])
    for score in ([5, 5], [4, 3], [5, 1], [7, 2], [3, 5, 1]):
        assert refused(match, {"type": "final", "player": 0, "score": score}) == "bad_score"
    match.apply({"type": "final", "player": 0, "score": [5, 3]})
    assert refused(match, confirm(0)) == "own_report"
    match.apply(confirm(1))
    assert match.outcome.to_dict() == {"winner": 0, "result": "win", "score": [5, 3],
                                       "how": "reported"}


def test_a_forfeit() -> None:
    match = BoardMatch(9)
    match.apply({"type": "forfeit", "winner": 1})
    assert match.outcome.how == "forfeit" and match.winner == 1
    assert refused(BoardMatch(9), {"type": "forfeit", "winner": 2}) == "not_in_match"


def test_legal_actions_follow_the_protocol() -> None:
    match = BoardMatch(5)
    reports = [a for a in match.legal_actions(0) if a["type"] == "report"]
    assert len(reports) == 3 * 7 * 3 - 2 * 7 - 1  # no passed gammons, no passed 64
    for action in reports:
        copy.deepcopy(match).apply(action)
    match.apply(report(0))
    assert match.legal_actions() == [{"type": "confirm", "player": 1},
                                     {"type": "dispute", "player": 1}]


def test_the_late_start_grace() -> None:
    match = BoardMatch(5)
    assert match.silent and not match.late
    match.apply({"type": "grace_over"})
    assert match.view()["late"] and match.silent
    match.apply(report(1))
    assert not match.silent
