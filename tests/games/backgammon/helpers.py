"""Positions built from the mover's point of view, and refusal checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.backgammon import Position
from games.common.errors import IllegalAction


def make(mine: dict[int, int], theirs: dict[int, int], my_bar: int = 0,
         their_bar: int = 0) -> Position:
    """``mine``: point → checkers of the player on roll; ``theirs``: the opponent's checkers,
    keyed by the ROLLER's point numbers (their 24-point is the roller's 1-point). Checkers not
    placed are borne off."""
    player = [0] * 25
    opponent = [0] * 25
    for point, count in mine.items():
        player[point - 1] = count
    for point, count in theirs.items():
        opponent[24 - point] = count
    player[24], opponent[24] = my_bar, their_bar
    return Position(tuple(player), tuple(opponent))


def assert_illegal(code: str, call: Callable[..., Any], *args: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        call(*args)
    assert caught.value.code == code, caught.value
    return caught.value
