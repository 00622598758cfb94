"""The move generator and Position IDs against GNU Backgammon (``gnubg-nn``, test-only: GPL).

The (position, roll) pairs come from seeded random games (``bench.backgammon.sample_pairs``),
so they include many positions with a checker on the bar and many bear-offs. Properties that
need no oracle (notation read back, no duplicates) are in ``test_properties.py``.
"""

from __future__ import annotations

import pytest

from bench.backgammon import sample_pairs
from games.backgammon import Position, legal_plays
from games.backgammon.plays import plays_of

gnubg = pytest.importorskip(
    "gnubg_nn", reason="gnubg-nn is not installed (pip install -e '.[dev]'): oracle tests skipped")

PAIRS = 10_000
Board = tuple[tuple[int, ...], tuple[int, ...]]


@pytest.fixture(scope="module")
def pairs() -> list[tuple[Position, tuple[int, int]]]:
    return [(Position.from_id(pid), dice) for pid, dice in sample_pairs(PAIRS, seed=20260501)]


def gnubg_results(position: Position, dice: tuple[int, int]) -> set[Board]:
    """Boards after each of gnubg's plays, as (opponent, mover) like gnubg-nn itself."""
    board = [list(position.opponent), list(position.player)]
    keys = gnubg.moves(board, *dice)
    return {tuple(map(tuple, gnubg.board_from_position_key(key))) for key in keys}


def test_the_sample_has_plenty_of_bar_and_bear_off_positions(pairs: list) -> None:
    on_bar = sum(position.player[24] > 0 for position, _ in pairs)
    home = sum(not any(position.player[6:]) for position, _ in pairs)
    doubles = sum(d1 == d2 for _, (d1, d2) in pairs)
    assert len(pairs) == PAIRS
    assert on_bar >= 800 and home >= 1500 and doubles >= 1300


def test_same_resulting_positions_as_gnubg(pairs: list) -> None:
    mismatches = []
    for position, dice in pairs:
        plays = plays_of(position, dice)
        ours = [(play.after.player, play.after.opponent) for play in plays]
        theirs = gnubg_results(position, dice) or {(position.opponent, position.player)}
        if len(set(ours)) != len(ours) or set(ours) != theirs:
            mismatches.append((position.id, dice))
        notations = legal_plays(position.id, dice)
        assert notations == [play.notation for play in plays if play.moves]
        assert len(set(notations)) == len(notations)
    assert mismatches == []


def test_position_ids_agree_with_gnubg(pairs: list) -> None:
    for position, _ in pairs[::5]:
        board = [list(position.opponent), list(position.player)]
        assert gnubg.position_id(board) == position.id
        assert gnubg.board_from_position_id(position.id) == board
