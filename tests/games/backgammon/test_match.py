"""Match score: cube values, passed doubles, Crawford, points beyond the length, forfeits."""

from __future__ import annotations

import pytest

from games.backgammon import Match


@pytest.mark.parametrize("length", [0, 2, 4, 16, 17, -1, 3.0, "5"])
def test_length_must_be_odd_up_to_fifteen(length: object) -> None:
    with pytest.raises(ValueError):
        Match(length)  # type: ignore[arg-type]


@pytest.mark.parametrize("length", [1, 3, 5, 7, 9, 11, 13, 15])
def test_valid_lengths(length: int) -> None:
    match = Match(length)
    assert match.score == (0, 0) and match.winner is None and not match.crawford


def test_points_are_type_times_cube() -> None:
    match = Match(15)
    assert match.record_game(0, 1, 1) == 1
    assert match.record_game(1, 2, 2) == 4
    assert match.record_game(0, 3, 4) == 12
    assert match.score == (13, 4)


@pytest.mark.parametrize("cube", [0, 3, 6, 128, -2, True])
def test_cube_must_be_a_power_of_two_up_to_64(cube: object) -> None:
    match = Match(7)
    with pytest.raises(ValueError):
        match.record_game(0, 1, cube)  # type: ignore[arg-type]
    assert match.score == (0, 0) and match.games == []


@pytest.mark.parametrize(("winner", "points"), [(2, 1), (-1, 1), (0, 0), (0, 4)])
def test_bad_winner_or_points(winner: int, points: int) -> None:
    with pytest.raises(ValueError):
        Match(7).record_game(winner, points, 1)


def test_passed_double_scores_the_pre_double_value_and_never_a_gammon() -> None:
    match = Match(7)
    assert match.record_game(0, 1, 1, passed=True) == 1  # centred cube refused: 1 point
    assert match.record_game(1, 1, 4, passed=True) == 4  # redouble to 8 refused: 4 points
    assert match.score == (1, 4)
    with pytest.raises(ValueError):
        match.record_game(0, 2, 2, passed=True)
    with pytest.raises(ValueError):
        match.record_game(0, 1, 64, passed=True)  # nothing beyond 64 to refuse
    assert match.score == (1, 4)


def test_crawford_game_after_first_reaching_match_point() -> None:
    match = Match(5)
    match.record_game(0, 2, 2)  # 4-0: player 0 is one away
    assert match.crawford
    with pytest.raises(ValueError):
        match.record_game(1, 1, 2)  # no cube in the Crawford game; nothing changes
    with pytest.raises(ValueError):
        match.record_game(1, 1, 1, passed=True)
    assert match.score == (4, 0) and match.crawford
    match.record_game(1, 2, 1)  # a gammon is fine in the Crawford game
    assert not match.crawford and match.score == (4, 2)
    assert match.games[-1].crawford
    match.record_game(1, 1, 2)  # post-Crawford: doubling is back
    assert match.score == (4, 4) and not match.crawford  # only one Crawford game a match
    match.record_game(1, 1, 1)
    assert match.winner == 1 and match.finished


def test_crawford_can_be_switched_off() -> None:
    match = Match(5, crawford=False)
    match.record_game(0, 2, 2)
    assert not match.crawford
    match.record_game(1, 1, 4)
    assert match.score == (4, 4)


def test_no_crawford_when_the_match_is_won_outright() -> None:
    match = Match(3)
    match.record_game(1, 3, 1)
    assert match.winner == 1 and not match.crawford


def test_points_beyond_the_length_are_ignored() -> None:
    match = Match(7)
    match.record_game(0, 3, 8)
    assert match.score == (7, 0) and match.winner == 0
    with pytest.raises(ValueError):
        match.record_game(1, 1, 1)


def test_forfeit_resignation_and_timeout() -> None:
    forfeit = Match(5)
    forfeit.forfeit(1)
    assert forfeit.winner == 1 and forfeit.forfeited and forfeit.score == (0, 0)
    resigned = Match(5)
    resigned.record_game(0, 1, 2)
    resigned.resign_match(0)
    assert resigned.score == (2, 5) and resigned.winner == 1 and not resigned.forfeited
    timeout = Match(9)
    timeout.record_game(1, 1, 1)
    timeout.timeout(1)
    assert timeout.score == (9, 1) and timeout.winner == 0
    with pytest.raises(ValueError):
        timeout.forfeit(0)


def test_one_point_match() -> None:
    match = Match(1)
    assert not match.crawford
    match.record_game(0, 2, 1)
    assert match.score == (1, 0) and match.winner == 0


@pytest.mark.parametrize(("length", "a", "b", "ok"), [
    (5, 5, 0, True), (5, 4, 5, True), (1, 0, 1, True), (15, 15, 14, True),
    (5, 5, 5, False), (5, 4, 4, False), (5, 6, 2, False), (5, -1, 5, False),
    (4, 4, 0, False), (17, 17, 3, False), (5, 5.0, 1, False),
])
def test_reachable_final_scores(length: int, a: int, b: int, ok: bool) -> None:
    assert Match.is_reachable_final(length, a, b) is ok
