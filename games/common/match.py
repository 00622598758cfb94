"""The shape every replayable match engine follows: the engine contract.

The bot stores a match as an append-only log of small JSON-able action dicts, e.g.
``{"type": "roll", "player": 0, "value": 5}``. State is rebuilt by creating the engine
object and calling :meth:`apply` for each logged action in order. The contract:

``apply(action)``
    Changes the state, or raises :class:`games.common.errors.IllegalAction` and changes
    nothing. The engine never draws a random number: a die value, a dart or a ``/try``
    result arrives inside the action.
``finished`` / ``winner``
    Whether the match is over; the winning seat (0 or 1), else None.
``outcome``
    None while the match is running; once finished a :class:`games.common.outcome.Outcome`
    with ``winner``, ``result`` (``"win"``, ``"tie"`` or ``"draw"``: a tie is a completed
    game with equal sides, a draw an undecided ending), ``score`` and the ``how`` code.
``legal_actions(seat=None)``
    The actions ``apply`` accepts right now from ``seat``, or from both seats with None,
    as action dicts in the order a keyboard would show them ([] once finished). Choices a
    player makes are listed in full (every declared order, every raise amount). A value the
    player does not choose, such as a die value, a ``/try`` result or a dart, is left out:
    the dict is a template, and ``apply`` accepts it with any valid value filled in. Each
    engine names its templates (e.g. ``{"type": "roll", "player": 0}`` means "with any
    ``value`` 1–6"). Organiser actions (corrections, an organiser's pick) are not listed:
    the bot offers them only to organisers.
``view(seat=None)``
    A JSON-able dict of what ``seat`` may see; None is what anyone may see (a group
    message, an export). Hidden information, such as an HP-battle choice before both are
    in, appears only in its owner's view until the rules reveal it.
``__replica__()`` (optional)
    An independent copy of the state, equal to replaying its log on a fresh engine: applying
    to one never changes the other. An engine whose state is frozen values under a small
    mutable top copies only that top, far cheaper than replaying its last action; the bot
    uses it through :func:`replica` (``bot.match_service``) and replays where it is absent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from games.common.outcome import Outcome

Action = dict[str, Any]


class ReplayableMatch(Protocol):
    def apply(self, action: Action) -> None: ...

    @property
    def finished(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def legal_actions(self, seat: int | None = None) -> list[Action]: ...

    def view(self, seat: int | None = None) -> dict[str, Any]: ...


M = TypeVar("M", bound=ReplayableMatch)
T = TypeVar("T")


def replay(match: M, actions: Iterable[Action]) -> M:
    """Apply every action in order and return the same match object."""
    for action in actions:
        match.apply(action)
    return match


def replica(match: M) -> M | None:
    """The engine's own independent copy of ``match`` (its class's ``__replica__``), or None
    when the engine has none. Looked up on the class, as Python's special methods are, so a
    wrapper forwarding attributes to an inner engine never hands out the inner one's copy."""
    return type(match).__replica__(match) if copies_itself(match) else None


def copies_itself(match: ReplayableMatch) -> bool:
    """Whether ``match``'s engine makes its own copy (:func:`replica`)."""
    return hasattr(type(match), "__replica__")


def shallow(obj: T) -> T:
    """A new object of ``obj``'s class with the same attributes: what ``copy.copy`` makes
    of a plain object, without the pickle protocol it goes through (a fifth of its cost)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def seats(seat: int | None) -> tuple[int, ...]:
    """The seats a ``legal_actions(seat)`` call asks about: one, or both for None."""
    if seat is None:
        return (0, 1)
    if type(seat) is not int or seat not in (0, 1):
        raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
    return (seat,)
