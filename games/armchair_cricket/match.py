"""The replayable match object the bot stores as a log of actions.

``ArmchairMatch`` wraps one frozen :class:`ArmchairState`; ``apply`` swaps it for the
next state, so a refused action changes nothing. The engine never draws random numbers:
:func:`chance_action` turns a random source the caller passes in into the logged
shuffle or toss action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.common.errors import IllegalAction
from games.common.match import shallow

from .legal import ToAct, legal_actions, may_declare, to_act
from .rules import apply
from .state import ArmchairSettings, ArmchairState, Outcome
from .view import View, view


class ArmchairMatch:
    """Армчер-крикет between seats 0 and 1; actions are described in ``actions.py``."""

    def __init__(self, settings: ArmchairSettings | Mapping[str, Any] | None = None) -> None:
        if settings is None:
            settings = ArmchairSettings()
        elif not isinstance(settings, ArmchairSettings):
            settings = ArmchairSettings.from_dict(settings)
        self.state = ArmchairState(settings=settings)

    @classmethod
    def from_state(cls, state: ArmchairState) -> ArmchairMatch:
        match = cls(state.settings)
        match.state = state
        return match

    def apply(self, action: dict[str, Any]) -> None:
        self.state = apply(self.state, action)

    def __replica__(self) -> ArmchairMatch:
        """An independent copy: the state is one frozen value, so a shallow copy is one."""
        return shallow(self)

    @property
    def finished(self) -> bool:
        return self.state.outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    @property
    def winner(self) -> int | None:
        """The winning seat; ``None`` while playing and for a tie or a draw."""
        return self.state.outcome.winner if self.state.outcome else None

    @property
    def to_act(self) -> ToAct | None:
        return to_act(self.state)

    def legal_actions(self, seat: int | None = None) -> list[dict[str, Any]]:
        return legal_actions(self.state, seat)

    def may_declare(self, seat: int) -> bool:
        """Whether ``seat`` may declare now (one of its :meth:`legal_actions`)."""
        return may_declare(self.state, seat)

    def view(self, seat: int | None = None) -> View:
        return view(self.state, seat)


def chance_action(state: ArmchairState, rng: random.Random) -> dict[str, Any]:
    """The shuffle or toss the state waits for, drawn from ``rng``."""
    turn = to_act(state)
    if turn is None or turn.seat is not None:
        raise IllegalAction("no_chance_action")
    if turn.kind == "toss":
        return {"type": "toss", "winner": rng.randrange(2)}
    order = list(range(turn.size))
    rng.shuffle(order)
    return {"type": "shuffle", "order": order}
