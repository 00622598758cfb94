"""Who throws first: a darts match waits for its starter before leg 1.

The starter comes from the bull-off (its winner, entered by either player or an organiser)
or from a coin the bot tosses. Either way it is the first action of the match log,
``{"type": "starter", "player": p, "how": "bull" | "coin"}``, so a restart or a replay
rebuilds the same match and the coin is never tossed twice. :class:`Opening` wraps the pure
best-of-N engine (``games.darts.match.LegsMatch``) for this: until the starter is known the
darts are refused (``no_starter``); after it every action goes to a match whose first leg
that player starts (the legs alternate from there, as the engine does).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from games.common.errors import IllegalAction
from games.common.match import Action, shallow
from games.darts.match import LegsMatch
from games.darts.turn import check_player

STARTER = "starter"
HOW = ("bull", "coin")


def starter_action(player: int, how: str) -> Action:
    return {"type": STARTER, "player": player, "how": how}


def _forwarded(name: str) -> property:
    """The wrapped match's ``name`` as a property: the board reads these two dozen times an
    action, and a property costs a tenth of the :meth:`Opening.__getattr__` fallback (which
    a failed lookup precedes)."""
    return property(attrgetter(f"match.{name}"))


class Opening:
    """A :class:`LegsMatch` whose first action says who starts leg 1.

    Everything but :meth:`apply`, :attr:`starter`, :attr:`how` and :attr:`started` is the
    wrapped match's (before the start: a match that nobody has started, for the board)."""

    leg = _forwarded("leg")
    legs = _forwarded("legs")
    current = _forwarded("current")
    legs_won = _forwarded("legs_won")
    best_of = _forwarded("best_of")
    finished = _forwarded("finished")
    winner = _forwarded("winner")
    outcome = _forwarded("outcome")

    def __init__(self, build: Callable[[int], LegsMatch]) -> None:
        self._build = build
        self.match: LegsMatch = build(0)
        self.starter: int | None = None
        self.how: str | None = None

    def __replica__(self) -> Opening:
        """An independent copy: the wrapped match copied, the rest are plain values."""
        new = shallow(self)
        new.match = self.match.__replica__()
        return new

    @property
    def started(self) -> bool:
        return self.starter is not None

    def apply(self, action: Action) -> None:
        if isinstance(action, dict) and action.get("type") == STARTER:
            if self.started:
                raise IllegalAction("starter_known")
            player = check_player(action.get("player"), "player")
            how = action.get("how", "bull")
            if how not in HOW:
                raise IllegalAction("bad_action", action=action)
            self.match, self.starter, self.how = self._build(player), player, how
            return
        if not self.started:
            raise IllegalAction("no_starter")
        self.match.apply(action)

    def __getattr__(self, name: str) -> Any:
        match = self.__dict__.get("match")
        if match is None or name.startswith("_"):
            raise AttributeError(name)
        return getattr(match, name)


def at_oche(state: Opening, seat: int) -> bool:
    """Whether the match waits for the player in ``seat``: at the oche, or — before leg 1 —
    for either player's bull-off."""
    return not state.started or state.current == seat
