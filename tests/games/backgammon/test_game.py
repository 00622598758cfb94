"""One game driven by action dicts: opening roll, turns, cube, resignations, replay."""

from __future__ import annotations

import json
import random

import pytest

from games.backgammon import Game, Match, Position, legal_plays
from games.backgammon.game import Played
from games.common.match import replay

from .helpers import assert_illegal, make


def opened(dice: tuple[int, int] = (3, 1)) -> Game:
    game = Game()
    game.apply({"type": "opening_roll", "dice": list(dice)})
    return game


def test_opening_roll_ties_are_rolled_again_and_the_higher_die_plays_both() -> None:
    game = Game()
    assert game.legal_actions() == [{"type": "opening_roll"}]
    game.apply({"type": "opening_roll", "dice": [4, 4]})
    assert game.phase == "opening" and game.tied_openings == (4,)
    game.apply({"type": "opening_roll", "dice": [2, 5]})
    assert game.phase == "move" and game.turn == 1 and game.dice == (2, 5)
    assert game.tied_openings == (4,)  # the board tells them with the deciding roll
    moves = [a for a in game.legal_actions() if a["type"] == "move"]
    assert [a["play"] for a in moves] == legal_plays(Position.start().id, (5, 2))
    assert {"type": "resign", "player": 1} in game.legal_actions()


def test_turns_alternate_and_the_board_turns_with_them() -> None:
    game = opened()
    game.apply({"type": "move", "player": 0, "play": "8/5 6/5"})
    assert game.phase == "turn" and game.turn == 1
    assert game.position.opponent[4] == 2  # player 0's new 5-point, seen by player 1
    game.apply({"type": "roll", "player": 1, "dice": [6, 4]})
    game.apply({"type": "move", "player": 1, "play": "24/14"})
    assert game.turn == 0 and game.moves_played == 2


def test_the_last_move_is_kept_in_notation_as_played_by_whom_with_which_dice() -> None:
    game = opened()
    assert game.last_played is None
    game.apply({"type": "move", "player": 0, "play": "6/5 8/5"})  # any order, normalised
    assert game.last_played == Played(0, (3, 1), "8/5 6/5")
    game.apply({"type": "roll", "player": 1, "dice": [6, 4]})
    assert_illegal("bad_notation", game.apply, {"type": "move", "player": 1, "play": "24/x"})
    assert game.last_played == Played(0, (3, 1), "8/5 6/5")  # a refused move keeps it
    game.apply({"type": "move", "player": 1, "play": "24/14"})
    assert game.last_played == Played(1, (6, 4), "24/14")


def test_no_double_before_the_first_move_then_centred_cube_for_both() -> None:
    game = opened()
    game.apply({"type": "move", "player": 0, "play": "8/5 6/5"})
    assert game.may_double(1) and not game.may_double(0)
    assert {"type": "double", "player": 1} in game.legal_actions()


def test_double_take_gives_the_cube_to_the_taker() -> None:
    game = Game.from_position(Position.start(), turn=0)
    game.apply({"type": "double", "player": 0})
    assert game.phase == "doubled"
    assert game.legal_actions() == [{"type": "take", "player": 1}, {"type": "pass", "player": 1}]
    assert_illegal("not_your_turn", game.apply, {"type": "take", "player": 0})
    game.apply({"type": "take", "player": 1})
    assert (game.cube, game.cube_owner, game.phase, game.turn) == (2, 1, "turn", 0)
    assert not game.may_double(0)
    assert_illegal("not_cube_owner", game.apply, {"type": "double", "player": 0})


def test_pass_loses_the_value_before_the_double() -> None:
    game = Game.from_position(Position.start(), turn=1, cube=4, cube_owner=1)
    game.apply({"type": "double", "player": 1})
    game.apply({"type": "pass", "player": 0})
    outcome = game.outcome
    assert outcome is not None and game.finished and game.winner == 1
    assert (outcome.points, outcome.points_per_cube, outcome.cube) == (4, 1, 4)
    assert outcome.passed and outcome.reason == "passed"
    assert_illegal("game_over", game.apply, {"type": "roll", "player": 0, "dice": [1, 2]})
    assert game.legal_actions() == []


def test_no_cube_when_it_is_dead() -> None:
    game = Game.from_position(Position.start())
    game.dead_cube = True  # a game of a 1-point match
    assert not game.may_double(0)
    assert {"type": "double", "player": 0} not in game.legal_actions()
    assert_illegal("dead_cube", game.apply, {"type": "double", "player": 0})


def test_no_cube_in_the_crawford_game_and_never_past_64() -> None:
    crawford = Game.from_position(Position.start(), crawford=True)
    assert_illegal("no_cube_in_crawford_game", crawford.apply, {"type": "double", "player": 0})
    top = Game.from_position(Position.start(), cube=64, cube_owner=0)
    assert not top.may_double(0)
    assert_illegal("cube_at_maximum", top.apply, {"type": "double", "player": 0})


def test_no_double_on_the_first_move_even_if_asked() -> None:
    game = Game()
    game.apply({"type": "opening_roll", "dice": [6, 1]})
    assert_illegal("wrong_phase", game.apply, {"type": "double", "player": 0})


def test_resignation_is_scored_by_position_times_cube() -> None:
    game = Game.from_position(Position.start(), turn=0, cube=2, cube_owner=0)
    game.apply({"type": "resign", "player": 0})
    # Nothing borne off and two checkers in the winner's home board: a backgammon.
    assert game.outcome is not None
    assert (game.winner, game.outcome.points_per_cube, game.outcome.points) == (1, 3, 6)
    # Player 1 has three checkers left; player 0 has borne off none and resigns: a gammon.
    late = Game.from_position(make({13: 15}, {1: 3}), turn=0)
    late.apply({"type": "resign", "player": 0})
    assert late.winner == 1 and late.outcome is not None and late.outcome.points == 2
    assert late.outcome.reason == "resigned"


def test_a_game_lost_by_inactivity_is_scored_as_a_resignation_and_says_so() -> None:
    game = Game.from_position(Position.start(), turn=0, cube=2, cube_owner=0)
    game.apply({"type": "resign", "player": 0, "idle": True})
    assert game.outcome is not None
    assert (game.winner, game.outcome.points, game.outcome.reason) == (1, 6, "idle")


def test_bearing_off_the_last_checker_wins() -> None:
    game = Game.from_position(make({2: 1, 1: 1}, {20: 2, 13: 13}), turn=0)
    game.apply({"type": "roll", "player": 0, "dice": [2, 1]})
    game.apply({"type": "move", "player": 0, "play": "2/off 1/off"})
    assert game.outcome is not None
    assert (game.winner, game.outcome.points_per_cube, game.outcome.reason) == (0, 2, "borne_off")


def test_a_roll_that_cannot_be_played_is_the_empty_move() -> None:
    closed = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}
    game = Game.from_position(make({6: 5}, closed, my_bar=1), turn=0)
    game.apply({"type": "roll", "player": 0, "dice": [6, 5]})
    assert [a for a in game.legal_actions() if a["type"] == "move"] == [
        {"type": "move", "player": 0, "play": ""}]
    assert_illegal("blocked_point", game.apply, {"type": "move", "player": 0, "play": "bar/20"})
    game.apply({"type": "move", "player": 0, "play": ""})
    assert game.turn == 1


@pytest.mark.parametrize(("action", "code"), [
    ({"type": "roll", "player": 1, "dice": [1, 2]}, "not_your_turn"),
    ({"type": "roll", "player": 0, "dice": [1, 7]}, "bad_dice"),
    ({"type": "roll", "player": 0}, "bad_dice"),
    ({"type": "move", "player": 0, "play": "8/5 6/5"}, "wrong_phase"),
    ({"type": "take", "player": 1}, "wrong_phase"),
    ({"type": "fly", "player": 0}, "unknown_action"),
    ({"player": 0}, "unknown_action"),
    ({"type": "opening_roll", "dice": [1, 2]}, "wrong_phase"),
])
def test_refused_actions_change_nothing(action: dict, code: str) -> None:
    game = Game.from_position(Position.start(), turn=0)
    before = vars_of(game)
    assert_illegal(code, game.apply, action)
    assert vars_of(game) == before


def test_illegal_plays_are_refused_with_the_reason() -> None:
    game = opened((3, 1))
    assert_illegal("must_use_both_dice", game.apply, {"type": "move", "player": 0, "play": "8/5"})
    assert_illegal("bad_notation", game.apply, {"type": "move", "player": 0, "play": 85})
    assert game.phase == "move" and game.position == Position.start()


def vars_of(game: Game) -> dict:
    return dict(vars(game))


def random_game(rng: random.Random, crawford: bool = False) -> list[dict]:
    """Play one game with random legal actions; returns its log."""
    game = Game(crawford)
    log: list[dict] = []
    while not game.finished:
        action = dict(rng.choice(game.legal_actions()))
        if action["type"] in ("opening_roll", "roll"):
            action["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
        if action["type"] == "resign" and rng.random() < 0.98:
            continue
        if action["type"] == "double" and rng.random() < 0.8:
            continue
        game.apply(action)
        log.append(action)
    return log


def test_random_games_finish_and_replay_from_their_json_log() -> None:
    rng = random.Random(11)
    match = Match(7)
    while not match.finished:
        log = random_game(rng, crawford=match.crawford)
        game = replay(Game(match.crawford), json.loads(json.dumps(log)))
        outcome = game.outcome
        assert outcome is not None
        match.record_game(outcome.winner, outcome.points_per_cube, outcome.cube, outcome.passed)
    assert match.winner in (0, 1) and max(match.score) == 7
