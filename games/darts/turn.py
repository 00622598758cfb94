"""The turn model shared by the darts games.

Two players alternate visits of three darts, entered dart by dart. Darts of the visit being
entered can be undone; "end visit" commits it, darts not entered counting as misses. A
committed visit changes only through an organiser's correction, which replaces its darts and
recomputes the leg from its log of visits. A game plugs in its board through three hooks:
the initial board, the effect of a committed visit and the outcome after it.

Contract (``games.common.match``): ``outcome`` is a win, or a tie when a game's leg can end
level (FinCricket), with ``how="played"`` and the game's table score. ``legal_actions``
lists, for the player to throw, the template ``{"type": "dart", "player": p}`` (any
``"dart"`` notation on a sector in play, or a miss) while the visit has room, ``undo``
while it has darts and ``end_visit``; an organiser's ``correct`` is not listed. Nothing is
hidden, so ``view`` is the same for every seat.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from games.common.errors import IllegalAction
from games.common.match import Action, seats, shallow
from games.common.outcome import Outcome
from games.common.views import jsonable
from games.darts.notation import MISS, Dart, parse_dart

DARTS_PER_VISIT = 3
ACTION_TYPES = frozenset({"dart", "undo", "end_visit", "correct"})

G = TypeVar("G")


@dataclass(frozen=True, slots=True)
class Visit:
    """A committed visit: the darts as entered (0-3) and the marks they made."""

    player: int
    darts: tuple[Dart, ...]
    marks: int

    @property
    def padded(self) -> tuple[Dart, ...]:
        return padded(self.darts)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Darts thrown, visits committed and marks made (what a mark is, the game says).

    Every visit counts three darts except the one that ends the leg, which counts the darts
    entered: the usual way to count a finish.
    """

    darts: int = 0
    visits: int = 0
    marks: int = 0

    @property
    def per_visit(self) -> float:
        """Marks per visit (in cricket: marks per round, MPR)."""
        return self.marks / self.visits if self.visits else 0.0

    def __add__(self, other: PlayerStats) -> PlayerStats:
        return PlayerStats(
            self.darts + other.darts, self.visits + other.visits, self.marks + other.marks
        )


@dataclass(frozen=True)
class _LegState(Generic[G]):
    game: G
    history: tuple[Visit, ...] = ()
    pending: tuple[Dart, ...] = ()
    finished: bool = False
    winner: int | None = None

    def entering(self, pending: tuple[Dart, ...]) -> _LegState[G]:
        """This state with ``pending`` as the visit's darts entered (what
        ``dataclasses.replace`` makes, at a fraction of its cost: a dart or undo each)."""
        return _LegState(self.game, self.history, pending, self.finished, self.winner)


def _stats_view(stats: PlayerStats) -> dict[str, Any]:
    return jsonable(stats) | {"per_visit": stats.per_visit}


def padded(darts: tuple[Dart, ...]) -> tuple[Dart, ...]:
    """The three darts of a visit, the ones not entered being misses."""
    return darts + (MISS,) * (DARTS_PER_VISIT - len(darts))


def _same_visit(new: tuple[Dart, ...], old: tuple[Dart, ...], *, last: bool) -> bool:
    """Whether a corrected visit is the visit it replaces: the same three darts, a dart
    left out being a miss — except in a leg's last visit, whose darts entered are counted
    (it may be the visit that finished the leg)."""
    return new == old if last else padded(new) == padded(old)


def check_player(value: Any, name: str) -> int:
    if type(value) is not int or value not in (0, 1):
        raise IllegalAction("bad_setting", name=name, value=value)
    return value


def action_type(action: Action) -> str:
    kind = action.get("type") if isinstance(action, dict) else None
    if kind not in ACTION_TYPES:
        raise IllegalAction("bad_action", action=action)
    return kind


class DartsLeg(ABC, Generic[G]):
    """One leg between players 0 and 1; ``starter`` throws the first visit."""

    sectors: ClassVar[frozenset[int]]
    """Sectors in play (25 is the bull); a hit elsewhere must be entered as a miss."""

    def __init__(self, starter: int = 0) -> None:
        self.starter = check_player(starter, "starter")
        self._state: _LegState[G] = _LegState(self._initial())

    @abstractmethod
    def _initial(self) -> G:
        """The board before the first visit."""

    @abstractmethod
    def _commit(self, game: G, player: int, darts: tuple[Dart, ...]) -> tuple[G, int]:
        """The board after ``player``'s three ``darts`` and the marks the visit made."""

    @abstractmethod
    def _outcome(self, game: G, player: int) -> tuple[bool, int | None]:
        """``(finished, winner)`` once ``player``'s visit is committed."""

    @property
    @abstractmethod
    def table_score(self) -> tuple[int, int]:
        """What a results table shows for the leg (the outcome's ``score``)."""

    @abstractmethod
    def _board_view(self) -> dict[str, Any]:
        """The game's board as JSON-able fields of :meth:`view`."""

    def __replica__(self) -> DartsLeg[G]:
        """An independent copy: the leg's state is one frozen value, so a shallow copy is one."""
        return shallow(self)

    # --- views -------------------------------------------------------------------------

    @property
    def current(self) -> int:
        """The player to throw (0 or 1)."""
        return self._to_throw(self._state)

    @property
    def pending(self) -> tuple[Dart, ...]:
        """Darts of the visit being entered."""
        return self._state.pending

    @property
    def history(self) -> tuple[Visit, ...]:
        """Committed visits in order."""
        return self._state.history

    def visits_of(self, player: int) -> int:
        """How many visits ``player`` has committed (visits alternate from the starter, so
        this is counted, not searched for: it costs the same however long the leg)."""
        played = len(self._state.history)
        return (played + (player == self.starter)) // 2

    @property
    def finished(self) -> bool:
        return self._state.finished

    @property
    def winner(self) -> int | None:
        return self._state.winner

    @property
    def outcome(self) -> Outcome | None:
        if not self.finished:
            return None
        if self.winner is None:
            return Outcome(None, "tie", self.table_score, "played")
        return Outcome.win(self.winner, self.table_score, "played")

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The thrower's actions; a dart is a template: any notation in :attr:`sectors`."""
        asked = seats(seat)
        player = self.current
        if self.finished or player not in asked:
            return []
        actions: list[Action] = []
        if len(self.pending) < DARTS_PER_VISIT:
            actions.append({"type": "dart", "player": player})
        if self.pending:
            actions.append({"type": "undo", "player": player})
        actions.append({"type": "end_visit", "player": player})
        return actions

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The public state, darts in notation (``"T20"``, ``"25"``, ``"MISS"``)."""
        seats(seat)
        return {
            "starter": self.starter,
            "current": None if self.finished else self.current,
            "pending": [str(dart) for dart in self.pending],
            "history": [
                {"player": v.player, "darts": [str(d) for d in v.darts], "marks": v.marks}
                for v in self.history
            ],
            "stats": [_stats_view(self.stats(p)) for p in (0, 1)],
            "score": list(self.table_score),
            "finished": self.finished,
            "outcome": jsonable(self.outcome),
            **self._board_view(),
        }

    def stats(self, player: int) -> PlayerStats:
        check_player(player, "player")
        total = PlayerStats()
        for number, visit in enumerate(self.history, start=1):
            if visit.player == player:
                last = self.finished and number == len(self.history)
                darts = len(visit.darts) if last else DARTS_PER_VISIT
                total += PlayerStats(darts, 1, visit.marks)
        return total

    # --- actions -----------------------------------------------------------------------

    def throw(self, dart: str | Dart) -> Dart:
        """Enter the next dart of the current visit; returns it parsed."""
        self._check_open()
        if len(self.pending) == DARTS_PER_VISIT:
            raise IllegalAction("visit_full", turn=self.current)
        parsed = parse_dart(dart, self.sectors)
        self._state = self._state.entering(self.pending + (parsed,))
        return parsed

    def undo(self) -> Dart:
        """Remove the newest dart of the current visit; returns it."""
        self._check_open()
        if not self.pending:
            raise IllegalAction("nothing_to_undo")
        *kept, removed = self.pending
        self._state = self._state.entering(tuple(kept))
        return removed

    def end_turn(self) -> Visit:
        """Commit the current visit; darts not entered count as misses."""
        self._check_open()
        self._state = self._committed(self._state, self.pending)
        return self.history[-1]

    def correct(self, visit: int, darts: Sequence[str | Dart]) -> None:
        """Organiser correction: replace the darts of committed visit ``visit``.

        ``visit`` indexes :attr:`history` (negative counts from the end). The leg is
        recomputed from its visits; the correction is refused while a visit is being
        entered, when the leg would now end before a visit that was already played, and
        when it changes nothing (``correction_unchanged``).
        """
        if self.pending:
            raise IllegalAction("visit_in_progress")
        if type(visit) is not int or not -len(self.history) <= visit < len(self.history):
            raise IllegalAction("no_such_visit", visit=visit)
        if not isinstance(darts, list | tuple):
            raise IllegalAction("bad_action", darts=darts)
        if len(darts) > DARTS_PER_VISIT:
            raise IllegalAction("visit_full", turn=self.history[visit].player)
        visits = [entry.darts for entry in self.history]
        visits[visit] = tuple(parse_dart(dart, self.sectors) for dart in darts)
        last = visit in (-1, len(visits) - 1)
        if _same_visit(visits[visit], self.history[visit].darts, last=last):
            raise IllegalAction("correction_unchanged")
        state: _LegState[G] = _LegState(self._initial())
        for number, entered in enumerate(visits):
            if state.finished:
                raise IllegalAction("correction_conflict", visit=number)
            state = self._committed(state, entered)
        self._state = state

    def apply(self, action: Action) -> None:
        """Replayable entry point.

        ``{"type": "dart", "dart": "T20"}``, ``{"type": "undo"}``, ``{"type": "end_visit"}``
        (each may carry ``"player"``, checked against the player to throw) and
        ``{"type": "correct", "visit": i, "darts": [...]}`` (organiser; no player check).
        """
        kind = action_type(action)
        if kind == "correct":
            self.correct(action.get("visit", -1), action.get("darts"))
            return
        if "player" in action and action["player"] != self.current:
            raise IllegalAction("not_your_turn", player=action["player"], turn=self.current)
        if kind == "dart":
            self.throw(action.get("dart"))
        elif kind == "undo":
            self.undo()
        else:
            self.end_turn()

    # --- internals ---------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.finished:
            raise IllegalAction("finished")

    def _to_throw(self, state: _LegState[G]) -> int:
        return self.starter ^ (len(state.history) % 2)

    def _committed(self, state: _LegState[G], darts: tuple[Dart, ...]) -> _LegState[G]:
        player = self._to_throw(state)
        game, marks = self._commit(state.game, player, padded(darts))
        finished, winner = self._outcome(game, player)
        history = state.history + (Visit(player, darts, marks),)
        return _LegState(game, history, (), finished, winner)
