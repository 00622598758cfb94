"""How many points per cube a game is worth: single 1, gammon 2, backgammon 3 (the seed's §6).

The loser is gammoned when they have borne off no checker, and backgammoned when, besides,
they still have a checker on the bar or in the winner's home board. A resigned game is scored
the same way from the position at the resignation, as if the winner had finished.
"""

from __future__ import annotations

from games.backgammon.position import BAR, CHECKERS, Position

SINGLE, GAMMON, BACKGAMMON = 1, 2, 3


def game_result(position: Position, winner: int | None = None) -> int:
    """Points per cube: 1, 2 or 3.

    ``winner`` is 0 for the player on roll in ``position`` and 1 for the opponent; None means
    the side that has borne off all fifteen checkers (ValueError if neither has, or both).
    """
    player_done = not any(position.player)
    opponent_done = not any(position.opponent)
    if winner is None:
        if player_done == opponent_done:
            raise ValueError("no side has borne off all its checkers")
        winner = 0 if player_done else 1
    elif winner not in (0, 1):
        raise ValueError(f"winner must be 0 or 1, not {winner!r}")
    loser = position.opponent if winner == 0 else position.player
    if not any(loser):
        raise ValueError("the loser has borne off all its checkers")
    return _points(loser)


def _points(loser: tuple[int, ...]) -> int:
    if sum(loser) < CHECKERS:
        return SINGLE
    # The winner's home board is the loser's points 19-24 (index 18-23).
    if loser[BAR] or any(loser[18:24]):
        return BACKGAMMON
    return GAMMON
