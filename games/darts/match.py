"""Best-of-N legs, shared by the darts games.

The starter alternates by leg (the first leg's starter comes from the bull-off or a coin).
A drawn leg (possible in FinCricket) counts for nobody, so legs go on until a player has won
the majority of ``legs``. A new leg starts as soon as the previous one ends.

Contract (``games.common.match``): a match always ends in a win, ``how="played"``, legs won
as the score; ``legal_actions`` and ``view`` delegate to the current leg (see ``turn``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

from games.common.errors import IllegalAction
from games.common.match import Action, seats, shallow
from games.common.outcome import Outcome
from games.common.views import jsonable
from games.darts.turn import DartsLeg, PlayerStats, action_type, check_player

L = TypeVar("L", bound=DartsLeg)


class LegsMatch(ABC, Generic[L]):
    """Best of ``legs`` (odd) legs; ``starter`` throws first in the first leg."""

    def __init__(self, legs: int = 1, starter: int = 0) -> None:
        if type(legs) is not int or legs < 1 or legs % 2 == 0:
            raise IllegalAction("bad_setting", name="legs", value=legs)
        self.best_of = legs
        self.starter = check_player(starter, "starter")
        self._legs: list[L] = [self._new_leg(starter)]

    def __replica__(self) -> LegsMatch[L]:
        """An independent copy without a replay: the list of legs and the current leg copied;
        an earlier leg changes only by a correction, which copies it, so they are shared."""
        new = shallow(self)
        new._legs = [*self._legs[:-1], self.leg.__replica__()]
        return new

    @abstractmethod
    def _new_leg(self, starter: int) -> L:
        """A fresh leg with the match's settings."""

    @property
    def legs(self) -> tuple[L, ...]:
        """Every leg so far, the last one being the current one."""
        return tuple(self._legs)

    @property
    def leg(self) -> L:
        """The current leg (the last one, finished when the match is)."""
        return self._legs[-1]

    @property
    def current(self) -> int:
        return self.leg.current

    @property
    def legs_won(self) -> tuple[int, int]:
        return _tally(self._legs)

    @property
    def finished(self) -> bool:
        """A majority of legs won; counted only once the current leg is over, as no leg
        follows the one that decided the match (asked about ten times an action)."""
        return self._legs[-1].finished and max(self.legs_won) > self.best_of // 2

    @property
    def winner(self) -> int | None:
        won = self.legs_won
        return won.index(max(won)) if self.finished else None

    @property
    def outcome(self) -> Outcome | None:
        winner = self.winner
        return None if winner is None else Outcome.win(winner, self.legs_won, "played")

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The current leg's legal actions (see :meth:`DartsLeg.legal_actions`)."""
        seats(seat)
        return [] if self.finished else self.leg.legal_actions(seat)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The public match state: settings, legs won, each leg's outcome, the current leg."""
        seats(seat)
        return {
            "best_of": self.best_of,
            "starter": self.starter,
            "legs_won": list(self.legs_won),
            "leg_number": len(self._legs),
            "leg_outcomes": [jsonable(leg.outcome) for leg in self._legs],
            "leg": self.leg.view(seat),
            "finished": self.finished,
            "outcome": jsonable(self.outcome),
        }

    def stats(self, player: int) -> PlayerStats:
        """Statistics over every leg of the match."""
        return sum((leg.stats(player) for leg in self._legs), PlayerStats())

    def apply(self, action: Action) -> None:
        """The leg's actions; ``"correct"`` may also name a ``"leg"`` (index into legs).

        Without ``"leg"`` a correction goes to the last leg with a committed visit.
        """
        if action_type(action) == "correct":
            self._correct(action)
            return
        if self.finished:
            raise IllegalAction("finished")
        self.leg.apply(action)
        self._start_next_leg()

    def _start_next_leg(self) -> None:
        if self.leg.finished and not self.finished:
            self._legs.append(self._new_leg(self.starter ^ (len(self._legs) % 2)))

    def corrected_leg(self, action: Action) -> int:
        """The index of the leg a ``correct`` action is about: its ``"leg"``, else the last
        leg with a committed visit."""
        played = [number for number, leg in enumerate(self._legs) if leg.history]
        number = action.get("leg", played[-1] if played else 0)
        if type(number) is not int or not 0 <= number < len(self._legs):
            raise IllegalAction("no_such_leg", leg=number)
        return number

    def _correct(self, action: Action) -> None:
        if self.leg.pending:
            raise IllegalAction("visit_in_progress")
        number = self.corrected_leg(action)
        legs = list(self._legs)
        if number < len(legs) - 1 and not legs[-1].history:
            legs.pop()  # an unstarted leg is started again below if it is still needed
        fixed = legs[number].__replica__()
        fixed.apply(action)
        legs[number] = fixed
        self._check_sequence(legs)
        self._legs = legs
        self._start_next_leg()

    def _check_sequence(self, legs: list[L]) -> None:
        """Refuse a history where a leg was played after the match was decided, or where a
        leg other than the last one is unfinished (``leg`` and the ``next`` one started,
        numbered from 1 as the board numbers them)."""
        for number, leg in enumerate(legs):
            if max(_tally(legs[:number])) > self.best_of // 2:
                raise IllegalAction("correction_conflict", leg=number)
            if number < len(legs) - 1 and not leg.finished:
                raise IllegalAction("correction_unfinished_leg", leg=number + 1,
                                    next=number + 2)


def _tally(legs: list[L]) -> tuple[int, int]:
    wins = [0, 0]
    for leg in legs:
        if leg.winner is not None:
            wins[leg.winner] += 1
    return wins[0], wins[1]
