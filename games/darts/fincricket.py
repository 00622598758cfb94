"""FinCricket (SPEC §5).

Sectors 11-20 and the bulls. Three marks (S=1, D=2, T=3) open a sector for a player; every
further mark scores sector × marks until the sector is permanently closed, which happens
for both players when both have three marks on it, at the end of the turn in which that
happened. Bull (25) and D-Bull (50) always score and never close. The game ends when all of
11-20 are closed; the higher score wins. A game completed with equal scores is a *tie* in
the sense of ``games.common.outcome`` (played to its end, sides level, as opposed to a draw
that stops a game undecided): ``outcome.result == "tie"``, ``winner`` None, the points as
the score.

Scores and marks include the darts of the turn being entered; closing waits for its end.
A visit's marks (for marks per round) are the marks of its darts that could count: every
bull mark and every mark on a sector that was not yet closed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.common.errors import IllegalAction
from games.darts.match import LegsMatch
from games.darts.notation import BULL, Dart
from games.darts.turn import DartsLeg, check_player

NUMBERS = tuple(range(11, 21))
TO_OPEN = 3
MARK_SYMBOLS = ("", "/", "X", "Ⓧ")  # how 0-3 marks are shown


@dataclass(frozen=True, slots=True)
class Board:
    marks: tuple[tuple[int, ...], tuple[int, ...]]  # per player, per sector 11-20, up to 3
    scores: tuple[int, int] = (0, 0)
    closed: frozenset[int] = frozenset()


def _hit(board: Board, player: int, dart: Dart) -> tuple[Board, int]:
    """The board after one dart and the marks it counts."""
    if dart.is_miss or dart.sector in board.closed:
        return board, 0
    if dart.is_bull:
        return _scored(board, player, dart.points), dart.multiplier
    own = list(board.marks[player])
    index = dart.sector - NUMBERS[0]
    opening = min(TO_OPEN - own[index], dart.multiplier)
    own[index] += opening
    marks = (tuple(own), board.marks[1]) if player == 0 else (board.marks[0], tuple(own))
    opened = Board(marks, board.scores, board.closed)
    return _scored(opened, player, dart.sector * (dart.multiplier - opening)), dart.multiplier


def _scored(board: Board, player: int, points: int) -> Board:
    scores = list(board.scores)
    scores[player] += points
    return Board(board.marks, (scores[0], scores[1]), board.closed)


def _thrown(board: Board, player: int, darts: tuple[Dart, ...]) -> tuple[Board, int]:
    total = 0
    for dart in darts:
        board, marks = _hit(board, player, dart)
        total += marks
    return board, total


class FinCricket(DartsLeg[Board]):
    """One FinCricket game (a leg); ``starter`` throws first."""

    sectors = frozenset(NUMBERS) | {BULL}

    def _initial(self) -> Board:
        return Board(((0,) * len(NUMBERS), (0,) * len(NUMBERS)))

    def _commit(self, game: Board, player: int, darts: tuple[Dart, ...]) -> tuple[Board, int]:
        board, marks = _thrown(game, player, darts)
        both_open = {
            sector
            for sector, a, b in zip(NUMBERS, *board.marks, strict=True)
            if min(a, b) >= TO_OPEN
        }
        return Board(board.marks, board.scores, board.closed | both_open), marks

    def _outcome(self, game: Board, player: int) -> tuple[bool, int | None]:
        if len(game.closed) < len(NUMBERS):
            return False, None
        first, second = game.scores
        return True, None if first == second else int(second > first)

    @property
    def _live(self) -> Board:
        return _thrown(self._state.game, self.current, self.pending)[0]

    @property
    def scores(self) -> tuple[int, int]:
        return self._live.scores

    def marks(self, player: int, sector: int) -> int:
        """Marks towards opening ``sector`` (0-3; further marks are points)."""
        check_player(player, "player")
        if sector not in NUMBERS:
            raise IllegalAction("sector_not_in_play", sector=sector)
        return self._live.marks[player][sector - NUMBERS[0]]

    @property
    def closed(self) -> frozenset[int]:
        """Permanently closed sectors (as of the last committed turn)."""
        return self._state.game.closed

    @property
    def table_score(self) -> tuple[int, int]:
        """Points, with the darts of the turn being entered."""
        return self.scores

    def _board_view(self) -> dict[str, Any]:
        """Marks per player on 11-20 in that order, live; the points are the view's score."""
        live = self._live
        return {
            "sectors": list(NUMBERS),
            "marks": [list(live.marks[0]), list(live.marks[1])],
            "closed": sorted(self.closed),
        }


class FinCricketMatch(LegsMatch[FinCricket]):
    """Best of ``legs`` games; a tied game counts for nobody."""

    def _new_leg(self, starter: int) -> FinCricket:
        return FinCricket(starter)
