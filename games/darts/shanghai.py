"""Cricket-Shanghai (NDL №50, SPEC §4).

Targets 20-15 close through the elements S → D → T, the bull through 25 → 25 → 50; no
points. At the end of a visit each target's chain is extended from where it stood as far as
the next element needed is among the visit's darts, whatever their throw order; one dart
makes at most one element. With ``bull="strict"`` the bull's elements must come dart by dart
in throw order. The first player to close all seven targets at the end of a visit wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.common.errors import IllegalAction
from games.darts.match import LegsMatch
from games.darts.notation import BULL, Dart, parse_dart
from games.darts.turn import DARTS_PER_VISIT, DartsLeg

TARGETS = ("20", "19", "18", "17", "16", "15", "BULL")
CHAINS: dict[str, tuple[Dart, Dart, Dart]] = {
    **{t: (Dart(1, int(t)), Dart(2, int(t)), Dart(3, int(t))) for t in TARGETS[:-1]},
    "BULL": (Dart(1, BULL), Dart(1, BULL), Dart(2, BULL)),
}
# The names of each target's elements in closing order, for the board `20: S✅ D✅ T⬜`.
ELEMENT_LABELS: dict[str, tuple[str, str, str]] = {
    **{t: ("S", "D", "T") for t in TARGETS[:-1]},
    "BULL": ("25", "25", "50"),
}
SECTORS = frozenset({15, 16, 17, 18, 19, 20, BULL})
BULL_RULES = ("visit", "strict")

Progress = dict[str, int]  # elements done (0-3) per target of TARGETS
Board = tuple[int, ...]
"""A leg's stored progress: elements done per target, in the order of TARGETS (a tuple: a
live match keeps its state in memory, and a dict of seven costs four times as much)."""


def score_visit(
    progress: Mapping[str, int], darts: Sequence[str | Dart], bull: str = "visit"
) -> Progress:
    """The progress after one visit of up to three darts; ``progress`` is not mutated.

    Targets missing from ``progress`` count as 0 done; the result has all seven.
    """
    _check_bull_rule(bull)
    before = _read_progress(progress)
    if len(darts) > DARTS_PER_VISIT:
        raise IllegalAction("visit_full")
    visit = [parse_dart(dart, SECTORS) for dart in darts]
    return dict(zip(TARGETS, _advanced(tuple(before.values()), visit, bull), strict=True))


def _advanced(before: Board, visit: Sequence[Dart], bull: str) -> Board:
    """The board after a visit of darts read and checked (the engine's own board and darts
    go straight here: :func:`score_visit` checks what it is given)."""
    hit = {dart.sector for dart in visit}  # a target no dart of the visit hit stays as it was
    return tuple(
        _extend(done, CHAINS[target], visit, target == "BULL" and bull == "strict")
        if CHAINS[target][0].sector in hit else done
        for target, done in zip(TARGETS, before, strict=True)
    )


def _extend(done: int, chain: tuple[Dart, ...], darts: Sequence[Dart],
            in_throw_order: bool) -> int:
    if in_throw_order:
        for dart in darts:
            if done < len(chain) and dart == chain[done]:
                done += 1
        return done
    unused = list(darts)  # a visit's three darts: a list is searched faster than counted
    while done < len(chain) and chain[done] in unused:
        unused.remove(chain[done])
        done += 1
    return done


def _read_progress(progress: Mapping[str, int]) -> Progress:
    if not isinstance(progress, Mapping):
        raise IllegalAction("bad_progress", progress=progress)
    read = dict.fromkeys(TARGETS, 0)
    for key, done in progress.items():
        target = str(key).upper()
        if target not in read or type(done) is not int or not 0 <= done <= 3:
            raise IllegalAction("bad_progress", target=key, done=done)
        read[target] = done
    return read


def _check_bull_rule(bull: str) -> None:
    if bull not in BULL_RULES:
        raise IllegalAction("bad_setting", name="bull", value=bull)


class ShanghaiLeg(DartsLeg[tuple[Board, Board]]):
    """One leg; a visit's marks are the elements it made.

    A leg always has a winner (``how="played"``); its table score is the targets closed.
    """

    sectors = SECTORS

    def __init__(self, starter: int = 0, bull: str = "visit") -> None:
        _check_bull_rule(bull)
        self.bull = bull
        super().__init__(starter)

    def _initial(self) -> tuple[Board, Board]:
        empty = (0,) * len(TARGETS)
        return empty, empty

    def _commit(
        self, game: tuple[Board, Board], player: int, darts: tuple[Dart, ...]
    ) -> tuple[tuple[Board, Board], int]:
        before = game[player]
        after = _advanced(before, darts, self.bull)
        boards = (after, game[1]) if player == 0 else (game[0], after)
        return boards, sum(after) - sum(before)

    def _outcome(self, game: tuple[Board, Board], player: int) -> tuple[bool, int | None]:
        closed = all(done == 3 for done in game[player])
        return closed, player if closed else None

    @property
    def table_score(self) -> tuple[int, int]:
        """Targets closed by each player, as committed."""
        closed = [sum(done == 3 for done in board) for board in self._state.game]
        return closed[0], closed[1]

    def _board_view(self) -> dict[str, Any]:
        return {
            "bull": self.bull,
            "boards": [self.board(0), self.board(1)],
            "preview": None if self.finished else self.preview,
        }

    def board(self, player: int) -> Progress:
        """Elements done per target, as committed."""
        return dict(zip(TARGETS, self.progress(player), strict=True))

    def progress(self, player: int) -> Board:
        """:meth:`board` as the engine keeps it, in the order of TARGETS."""
        return self._state.game[player]

    @property
    def preview(self) -> Progress:
        """The current player's board if the visit being entered ended now (as committed
        while no dart is entered)."""
        return dict(zip(TARGETS, self.preview_progress, strict=True))

    @property
    def preview_progress(self) -> Board:
        """:attr:`preview` in the order of TARGETS, scored from the engine's own board and
        darts (read and checked when entered), not through :func:`score_visit`'s checks."""
        board = self._state.game[self.current]
        return _advanced(board, self.pending, self.bull) if self.pending else board

    def closed_at(self, player: int) -> dict[str, int]:
        """For each closed target, the number of the player's visit (1-based) that closed it."""
        progress: Progress = dict.fromkeys(TARGETS, 0)
        closed: dict[str, int] = {}
        visits = [visit for visit in self.history if visit.player == player]
        for number, visit in enumerate(visits, start=1):
            progress = score_visit(progress, visit.padded, self.bull)
            for target, done in progress.items():
                if done == 3:
                    closed.setdefault(target, number)
        return closed

    def visits_to_close(self, player: int) -> int | None:
        """Visits the player needed to close everything; None unless they won the leg."""
        return self.stats(player).visits if self.winner == player else None


class ShanghaiMatch(LegsMatch[ShanghaiLeg]):
    """Best of ``legs`` legs under one ``bull`` rule; ``starter`` throws first in leg one."""

    def __init__(self, legs: int = 1, starter: int = 0, bull: str = "visit") -> None:
        _check_bull_rule(bull)
        self.bull = bull
        super().__init__(legs, starter)

    def _new_leg(self, starter: int) -> ShanghaiLeg:
        return ShanghaiLeg(starter, self.bull)
