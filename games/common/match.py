"""The shape every replayable match engine follows.

The bot stores a match as an append-only log of small JSON-able action dicts, e.g.
``{"type": "roll", "player": 0, "value": 5}``. State is rebuilt by creating the engine
object and calling :meth:`apply` for each logged action in order. ``apply`` either changes
the state or raises :class:`games.common.errors.IllegalAction` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

Action = dict[str, Any]


class ReplayableMatch(Protocol):
    def apply(self, action: Action) -> None: ...

    @property
    def finished(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...


M = TypeVar("M", bound=ReplayableMatch)


def replay(match: M, actions: Iterable[Action]) -> M:
    """Apply every action in order and return the same match object."""
    for action in actions:
        match.apply(action)
    return match
