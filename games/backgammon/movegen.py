"""Every legal play of one roll, once per distinct resulting position.

A play is a tuple of single-die moves ``(source, target, hit)`` in the mover's numbering
(25 the bar, 0 "off"); its result is keyed by one int (``games.backgammon.keys``).

Duplicate orderings are avoided as GNU Backgammon does: for doubles each move starts on a point
no higher than the previous move's source (every play can be reordered that way). Non-doubles
with no checker on the bar and none able to bear off are enumerated without moving anything
(:meth:`Search._free`); otherwise both die orders are searched on the board and the plays both
orders reach are merged by their resulting position.

The roll must be used as fully as the rules allow (the seed's §3): only plays using the most
dice are kept, and when only one die of a non-double can be played, the larger one if it can.
"""

from __future__ import annotations

from functools import lru_cache

from games.backgammon.keys import BAR, Move, board_code
from games.backgammon.search import Search


@lru_cache(maxsize=4096)
def opponent_masks(opponent: tuple[int, ...]) -> tuple[int, int]:
    """(blocked, blots) bit masks of the opponent's checkers in the roller's numbering."""
    blocked = blots = 0
    for index in range(24):
        count = opponent[index]
        if count >= 2:
            blocked |= 1 << (24 - index)
        elif count:
            blots |= 1 << (24 - index)
    return blocked, blots


def generate(
    player: tuple[int, ...], opponent: tuple[int, ...], die1: int, die2: int
) -> dict[int, tuple[Move, ...]]:
    """Key of every legal play's result mapped to one move sequence reaching it.

    No legal move gives one entry: the unchanged position and the empty play.
    """
    blocked, blots = opponent_masks(opponent)
    state = Search(player, blocked, blots)
    code = board_code(player)
    if die1 == die2:
        state.doubles(die1, 0, BAR, code, 0)
    else:
        high, low = (die1, die2) if die1 > die2 else (die2, die1)
        state.non_doubles(high, low, code)
    if not state.found:
        state.found[code] = ()
    return state.found
