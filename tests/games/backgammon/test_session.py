"""The match played in the bot as one action log (games/backgammon/session.py) and plays
built die by die (games/backgammon/steps.py)."""

from __future__ import annotations

import copy
import random

import pytest

from games.backgammon.bot import choose_play
from games.backgammon.plays import plays_of
from games.backgammon.position import Position
from games.backgammon.session import LiveMatch, after_moves
from games.backgammon.steps import next_steps, play_of, step, steps_notation
from games.common.errors import IllegalAction


def refused(match: LiveMatch, action: dict, code: str) -> None:
    """``action`` is refused with ``code`` and changes nothing."""
    before = copy.deepcopy(match.view())
    with pytest.raises(IllegalAction) as error:
        match.apply(action)
    assert error.value.code == code
    assert match.view() == before


def opened(length: int = 3) -> LiveMatch:
    """Player 0 opens with 3-1 and makes the 5-point; player 1 is on roll."""
    match = LiveMatch(length, bank_seconds=300)
    match.apply({"type": "opening_roll", "dice": [4, 4]})  # equal: rolled again
    assert match.phase == "opening"
    match.apply({"type": "opening_roll", "dice": [3, 1]})
    match.apply({"type": "move", "player": 0, "play": "8/5 6/5"})
    return match


def test_opening_roll_and_no_double_before_the_first_move() -> None:
    match = LiveMatch(3)
    refused(match, {"type": "double", "player": 0}, "wrong_phase")
    match.apply({"type": "opening_roll", "dice": [2, 6]})
    assert match.to_act == 1 and match.phase == "move"
    refused(match, {"type": "move", "player": 0, "play": "13/7"}, "not_your_turn")
    refused(match, {"type": "move", "player": 1, "play": "13/4"}, "wrong_dice")


def test_double_taken_then_only_the_owner_redoubles() -> None:
    match = opened()
    match.apply({"type": "double", "player": 1})
    refused(match, {"type": "roll", "player": 1, "dice": [1, 2]}, "wrong_phase")
    match.apply({"type": "take", "player": 0})
    assert (match.game.cube, match.game.cube_owner) == (2, 0)
    match.apply({"type": "roll", "player": 1, "dice": [6, 5]})
    match.apply({"type": "move", "player": 1, "play": "24/13"})
    match.apply({"type": "roll", "player": 0, "dice": [2, 1]})
    match.apply({"type": "move", "player": 0, "play": "13/11 6/5"})
    refused(match, {"type": "double", "player": 1}, "not_cube_owner")


def test_a_passed_double_scores_the_value_before_it_and_starts_a_new_game() -> None:
    match = opened()
    match.apply({"type": "double", "player": 1})
    match.apply({"type": "pass", "player": 0})
    assert match.score == (0, 1) and len(match.games) == 1 and match.phase == "opening"


def passed_game(match: LiveMatch) -> None:
    """Player 0 opens, player 1 doubles, player 0 passes: a point to player 1."""
    match.apply({"type": "opening_roll", "dice": [3, 1]})
    match.apply({"type": "move", "player": 0, "play": "8/5 6/5"})
    match.apply({"type": "double", "player": 1})
    match.apply({"type": "pass", "player": 0})


def test_crawford_game_has_no_cube_then_doubling_resumes() -> None:
    match = LiveMatch(5)
    for _ in range(4):
        assert not match.game.crawford
        passed_game(match)
    assert match.score == (0, 4) and match.game.crawford
    match.apply({"type": "opening_roll", "dice": [3, 1]})
    match.apply({"type": "move", "player": 0, "play": "8/5 6/5"})
    refused(match, {"type": "double", "player": 1}, "no_cube_in_crawford_game")
    match.apply({"type": "resign", "player": 1})  # a backgammon as the board stands: 3
    assert match.score == (3, 4) and not match.game.crawford
    match.apply({"type": "opening_roll", "dice": [3, 1]})
    match.apply({"type": "move", "player": 0, "play": "8/5 6/5"})
    match.apply({"type": "double", "player": 1})  # allowed again after the Crawford game


def test_one_point_match_has_a_dead_cube() -> None:
    """Any win wins a 1-point match: no game of it may be doubled, the Crawford rule aside."""
    match = opened(1)
    assert not match.may_double() and not match.game.crawford
    assert {"type": "double", "player": 1} not in match.legal_actions(1)
    refused(match, {"type": "double", "player": 1}, "dead_cube")
    match.apply({"type": "resign", "player": 1})
    assert match.finished and match.score == (1, 0)
    assert LiveMatch(3).game.dead_cube is False


def test_resignation_is_scored_by_the_position() -> None:
    position = Position.start()
    assert position.pips == (167, 167)
    match = opened(5)
    match.apply({"type": "resign", "player": 1})  # nothing borne off, checkers back: 3
    assert match.score == (3, 0)


def test_resign_match_and_timeout_give_the_points_needed() -> None:
    match = opened(5)
    match.apply({"type": "resign_match", "player": 0})
    assert match.finished and match.score == (0, 5) and match.outcome.how == "resign_match"
    refused(match, {"type": "roll", "player": 1, "dice": [1, 1]}, "match_over")
    timed = opened(5)
    timed.apply({"type": "clock", "player": 1, "bank": 0})
    timed.apply({"type": "timeout", "player": 1})
    assert timed.winner == 0 and timed.outcome.how == "timeout" and timed.banks == [300, 0]


def test_banks_and_refused_clock_entries() -> None:
    match = opened()
    match.apply({"type": "addtime", "player": 0, "seconds": 120})
    assert match.banks == [420, 300]
    refused(match, {"type": "clock", "player": 0, "bank": -1}, "bad_seconds")
    refused(match, {"type": "clock", "player": 2, "bank": 10}, "not_a_player")
    refused(match, {"type": "teleport"}, "unknown_action")


def test_position_after_a_move_replays_only_up_to_it() -> None:
    log = [{"type": "opening_roll", "dice": [3, 1]},
           {"type": "move", "player": 0, "play": "8/5 6/5"},
           {"type": "roll", "player": 1, "dice": [6, 4]},
           {"type": "move", "player": 1, "play": "24/14"}]
    assert after_moves(log, 3, 0).game.position == Position.start()
    first = after_moves(log, 3, 1)
    assert first.moves == 1 and first.phase == "turn" and first.game.turn == 1
    with pytest.raises(IllegalAction):
        after_moves(log, 3, 3)


def test_steps_offer_only_what_ends_in_a_legal_play() -> None:
    start = Position.start()
    assert (13, 1) not in next_steps(start, (3, 1), [])  # 12 is the opponent's 13-point
    assert set(next_steps(start, (3, 1), [(8, 3)])) == {(24, 1), (8, 1), (6, 1), (5, 1)}
    assert play_of(start, (3, 1), [(8, 3), (6, 1)]).notation == "8/5 6/5"
    assert play_of(start, (3, 1), [(8, 3)]) is None
    assert next_steps(start, (3, 1), [(8, 3), (6, 1)]) == []


def test_every_legal_play_is_found_from_its_steps() -> None:
    """Over rolls of games the bot plays against itself, each legal play's own moves, picked
    as steps, make that play (found by its result's key, hits told apart)."""
    rng = random.Random(5)
    position, checked = Position.start(), 0
    while checked < 120:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        for play in plays_of(position, dice):
            assert play_of(position, dice, _steps_of(play.moves, dice)) == play
        checked += 1
        position = choose_play(position, dice, rng).after
        if max(position.borne_off) == 15:
            position = Position.start()


def _steps_of(moves: tuple, dice: tuple[int, int]) -> list[tuple[int, int]]:
    """A play's moves as steps: a checker borne off with the smallest die left that does."""
    left, steps = [dice[0]] * 4 if dice[0] == dice[1] else list(dice), []
    for source, target, _ in moves:
        die = source - target if target else min(d for d in left if d >= source)
        left.remove(die)
        steps.append((source, die))
    return steps


def test_steps_picked_so_far_are_written_as_a_play() -> None:
    start = Position.start()
    assert steps_notation(start, []) == ""
    assert steps_notation(start, [(8, 3)]) == "8/5"
    assert steps_notation(start, [(8, 3), (6, 1)]) == "8/5 6/5"
    assert steps_notation(start, [(24, 4), (20, 4)]) == "24/16"  # one checker, both dice
    assert steps_notation(start, [(5, 3)]) == ""  # no checker there


def _reaches(position: Position, left: list[int], needed: int, targets: set) -> bool:
    """Whether some steps from ``position`` with dice ``left`` end, after ``needed`` more,
    in one of ``targets``: every point 1–25 tried with every die (the test's reference)."""
    if needed == 0:
        return (position.player, position.opponent) in targets
    for die in set(left):
        for source in range(1, 26):
            moved = step(position, source, die)
            if moved is not None and _reaches(moved, _without(left, die), needed - 1, targets):
                return True
    return False


def _without(left: list[int], die: int) -> list[int]:
    rest = list(left)
    rest.remove(die)
    return rest


def test_the_first_steps_offered_are_those_that_end_in_a_legal_play() -> None:
    """Over rolls of games the bot plays against itself, the picker's first steps are
    exactly the steps from which some steps end in a legal play's position."""
    rng = random.Random(3)
    position, checked = Position.start(), 0
    while checked < 120:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = plays_of(position, dice)
        left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
        targets = {(p.after.swapped().player, p.after.swapped().opponent) for p in plays}
        needed = len(plays[0].moves)
        expected = [] if needed == 0 else [
            (source, die) for die in sorted(set(left), reverse=True)
            for source in range(25, 0, -1)
            if (moved := step(position, source, die)) is not None
            and _reaches(moved, _without(left, die), needed - 1, targets)]
        assert next_steps(position, dice, []) == expected
        checked += 1
        position = choose_play(position, dice, rng).after
        if max(position.borne_off) == 15:
            position = Position.start()
