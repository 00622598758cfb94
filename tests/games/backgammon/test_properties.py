"""Properties of the legal plays over sampled positions; no oracle needed."""

from __future__ import annotations

import random

import pytest

from bench.backgammon import sample_pairs
from games.backgammon import Position, legal_plays, parse_play
from games.backgammon.plays import plays_of
from games.backgammon.position import CHECKERS


@pytest.fixture(scope="module")
def pairs() -> list[tuple[Position, tuple[int, int]]]:
    return [(Position.from_id(pid), dice) for pid, dice in sample_pairs(2000, seed=99)]


def test_plays_are_distinct_and_keep_every_checker(pairs: list) -> None:
    for position, dice in pairs:
        plays = plays_of(position, dice)
        assert len({play.after for play in plays}) == len(plays)
        assert len({play.notation for play in plays}) == len(plays)
        dice_used = {len(play.moves) for play in plays}
        assert len(dice_used) == 1  # every play uses the roll equally fully
        for play in plays:
            mover, other = play.after.opponent, play.after.player
            hits = sum(hit for _, _, hit in play.moves)
            assert sum(mover) + play.after.borne_off[1] == CHECKERS
            assert other[24] == position.opponent[24] + hits
            assert all(count >= 0 for count in mover + other)
            assert Position.from_id(play.after.id) == play.after


def test_every_notation_reads_back_as_the_same_play(pairs: list) -> None:
    rng = random.Random(7)
    for position, dice in rng.sample(pairs, 150):
        for play in plays_of(position, dice):
            assert parse_play(play.notation, position, dice) == play
            assert parse_play(play.notation, position.id, tuple(reversed(dice))).after == play.after


def test_string_api_matches_the_play_objects(pairs: list) -> None:
    for position, dice in pairs[::4]:
        plays = plays_of(position, dice)
        assert legal_plays(position.id, dice) == [play.notation for play in plays if play.moves]
