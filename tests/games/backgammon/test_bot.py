"""The heuristic bot player (docs/backgammon.md, "The bot player"): it beats random play,
makes the obvious plays, decides quickly, and takes and doubles by the race and the score."""

from __future__ import annotations

import random
import time

from games.backgammon import Game, Match, Position
from games.backgammon.bot import choose_play, evaluate, should_double, should_take
from games.backgammon.game import DOUBLED, TURN
from games.backgammon.plays import plays_of
from tests.games.backgammon.helpers import make


def _opening(game: Game, rng: random.Random, starter: int) -> None:
    """Roll one die each from ``rng`` (equal dice are logged and rolled again); the higher
    die goes to ``starter`` so that the games alternate who starts."""
    while True:
        first, second = rng.randint(1, 6), rng.randint(1, 6)
        if first == second:
            game.apply({"type": "opening_roll", "dice": [first, second]})
            continue
        high, low = max(first, second), min(first, second)
        game.apply({"type": "opening_roll", "dice": [high, low] if starter == 0 else [low, high]})
        return


def _play_game(rng: random.Random, bot_seat: int, starter: int) -> int:
    """One game of the bot against uniformly random legal plays; returns the winner."""
    game = Game()
    _opening(game, rng, starter)
    while not game.finished:
        if game.phase == TURN:
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            game.apply({"type": "roll", "player": game.turn, "dice": dice})
        if game.turn == bot_seat:
            play = choose_play(game.position, game.dice, rng).notation
        else:
            play = rng.choice(plays_of(game.position, game.dice)).notation
        game.apply({"type": "move", "player": game.turn, "play": play})
    assert game.outcome is not None
    return game.outcome.winner


def test_beats_random_play_in_at_least_80_percent_of_200_games() -> None:
    rng = random.Random(20261201)
    wins = 0
    for number in range(200):
        match = Match(1)
        bot_seat, starter = number % 2, (number // 2) % 2
        winner = _play_game(rng, bot_seat, starter)
        match.record_game(winner, 1)
        wins += match.winner == bot_seat
    assert wins >= 160, wins


def test_hits_and_makes_points() -> None:
    # Opening 3-1: make the 5-point.
    assert choose_play(Position.start(), (3, 1)).notation == "8/5 6/5"
    # Opening 6-1: make the bar point.
    assert choose_play(Position.start(), (6, 1)).notation == "13/7 8/7"
    # A blot on my 5-point within reach of my 6- and 8-points, nothing of theirs behind it but
    # the checker on the bar: point on it.
    position = make({6: 5, 8: 3, 13: 5, 24: 2}, {5: 1, 19: 5, 17: 3, 12: 5}, their_bar=1)
    assert choose_play(position, (3, 1)).notation == "8/5* 6/5"


def test_runs_when_ahead_and_bears_off_in_a_race() -> None:
    # Far ahead with one back checker left: run it.
    position = make({24: 1, 6: 4, 5: 4, 4: 3, 3: 1, 2: 2}, {22: 2, 21: 2, 20: 3, 16: 4, 15: 4})
    assert choose_play(position, (6, 5)).notation == "24/13"
    # Bearing off in a race: take two checkers off rather than move inside.
    race = make({6: 2, 5: 3, 4: 2, 1: 1}, {24: 3, 23: 3})
    assert choose_play(race, (6, 5)).notation == "6/off 5/off"


def test_avoids_a_blot_in_direct_range() -> None:
    # 6-5 from the start: running a back checker (24/13) leaves no blot within direct range.
    play = choose_play(Position.start(), (6, 5))
    assert play.notation == "24/13"
    # The evaluation sees the shots: the same blot is worse in direct range than far away.
    near = make({6: 5, 8: 2, 13: 5, 10: 1, 24: 2}, {12: 5, 17: 3, 19: 5, 24: 1, 15: 1})
    far = make({6: 5, 8: 2, 13: 5, 10: 1, 24: 2}, {12: 5, 17: 3, 19: 5, 24: 1, 3: 1})
    assert evaluate(near.swapped()) < evaluate(far.swapped())


def test_every_roll_gives_a_legal_play_quickly() -> None:
    rng = random.Random(7)
    position = Position.start()
    started = time.perf_counter()
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    for dice in rolls:
        assert choose_play(position, dice, rng) in plays_of(position, dice)
    elapsed = (time.perf_counter() - started) / len(rolls)
    assert elapsed < 0.05, elapsed  # a few ms here; generous for a loaded machine


def _game(position: Position, cube: int = 1, owner: int | None = None) -> Game:
    return Game.from_position(position, turn=0, cube=cube, cube_owner=owner)


def test_doubles_and_takes_by_the_race() -> None:
    match = Match(7)
    even = make({6: 5, 5: 5, 4: 5}, {19: 5, 20: 5, 21: 5})  # 75 pips each, on roll
    ahead = make({6: 4, 5: 4, 4: 4}, {19: 5, 20: 5, 21: 5})  # 60 against 75: 25 %
    slight = make({6: 5, 5: 5, 4: 4}, {19: 5, 20: 5, 21: 5})  # 71 against 75: 5.6 %
    close = make({6: 5, 5: 4, 4: 4, 3: 1}, {19: 5, 20: 5, 21: 5})  # 69 against 75: 8.7 %
    assert not should_double(_game(even), match)
    assert not should_double(_game(slight), match)
    assert should_double(_game(close), match)
    assert not should_double(_game(close, cube=2, owner=0), match)  # a redouble needs 9 %
    assert should_double(_game(ahead), match)
    for position, take in ((close, True), (ahead, False)):
        game = _game(position)
        game.apply({"type": "double", "player": 0})
        assert game.phase == DOUBLED
        assert should_take(game, match) is take


def test_cube_and_the_match_score() -> None:
    ahead = make({6: 4, 5: 4, 4: 4}, {19: 5, 20: 5, 21: 5})
    even = make({6: 5, 5: 5, 4: 5}, {19: 5, 20: 5, 21: 5})
    two_away = Match(3)
    two_away.record_game(0, 1)  # 1-0 in a 3-point match: seat 0 needs 2
    # winning a 2-cube already wins the match: no redouble even far ahead
    assert not should_double(_game(ahead, cube=2, owner=0), two_away)
    post_crawford = Match(3)
    post_crawford.record_game(1, 2)  # seat 1 is 1-away: the next game is the Crawford game
    post_crawford.record_game(0, 1)  # the Crawford game: 1-2, seat 0 trails
    assert not post_crawford.crawford and post_crawford.away(1) == 1
    assert should_double(_game(even), post_crawford)  # the trailer doubles at once
    game = _game(ahead)
    game.apply({"type": "double", "player": 0})
    assert should_take(game, post_crawford)  # the leader takes whatever the race
    doubler_needs_one = Match(3)
    doubler_needs_one.record_game(0, 2)
    doubler_needs_one.record_game(1, 1)  # Crawford game, won by seat 1: 2-1
    assert should_take(game, doubler_needs_one)  # a pass would lose the match anyway
