"""The match state: small frozen values that the rules replace, never mutate.

Cards are codes (see :mod:`.cards`). Seats are 0 and 1; side A is the seat that bats
first, so innings 1 and 3 are A's and innings 2 and 4 are B's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from games.common.errors import IllegalAction

from .cards import CARDS
from .delivery import DEFAULT_RUNS_TABLE, Result, RunsTable, check_runs_table

BALLS_PER_OVER = 6
INNINGS_PER_MATCH = 4
Hand = tuple[int, ...]
Phase = Literal["deal", "toss", "choose", "discard", "bowl", "bat", "exchange", "over"]
Ending = Literal["innings", "chase", "totals", "deck_limit"]
Value = TypeVar("Value", "Innings", "ArmchairState")


@dataclass(frozen=True, slots=True)
class ArmchairSettings:
    """``wickets``: wickets that end an innings (four batters → 3); ``deck_limit``: the
    deck after whose use the current over is finished and an undecided match is drawn."""

    deck_limit: int = 27
    wickets: int = 3
    runs_table: RunsTable = DEFAULT_RUNS_TABLE

    def __post_init__(self) -> None:
        for name in ("deck_limit", "wickets"):
            value = getattr(self, name)
            if type(value) is not int or not 1 <= value <= 1000:
                raise IllegalAction("bad_setting", name=name, value=value)
        try:
            table = check_runs_table(self.runs_table)
        except (TypeError, ValueError) as error:
            raise IllegalAction("bad_setting", name="runs_table", value=self.runs_table) from error
        object.__setattr__(self, "runs_table", table)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ArmchairSettings:
        unknown = set(data) - {"deck_limit", "wickets", "runs_table"}
        if unknown:
            raise IllegalAction("bad_setting", name=sorted(unknown)[0], value=None)
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck_limit": self.deck_limit,
            "wickets": self.wickets,
            "runs_table": [list(band) for band in self.runs_table],
        }


@dataclass(frozen=True, slots=True)
class Innings:
    """One innings' scorecard. ``target`` (4th innings only) is the total B needs in it to
    win; ``last_deck`` is set when the innings is over."""

    number: int
    batting: int
    first_deck: int
    runs: int = 0
    wickets: int = 0
    balls: int = 0
    declared: bool = False
    closed: bool = False
    last_deck: int | None = None
    target: int | None = None

    @property
    def side(self) -> str:
        return "A" if self.number % 2 else "B"

    @property
    def overs(self) -> str:
        """Completed overs and balls of the current one: 27 balls → ``"4.3"``."""
        return f"{self.balls // BALLS_PER_OVER}.{self.balls % BALLS_PER_OVER}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "side": self.side,
            "batting": self.batting,
            "runs": self.runs,
            "wickets": self.wickets,
            "balls": self.balls,
            "overs": self.overs,
            "declared": self.declared,
            "closed": self.closed,
            "target": self.target,
            "first_deck": self.first_deck,
            "last_deck": self.last_deck,
        }


@dataclass(frozen=True, slots=True)
class Delivery:
    """A completed delivery; ``ball`` counts from 1 within its innings."""

    innings: int
    ball: int
    bowled: int
    played: int
    result: Result
    runs: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "innings": self.innings,
            "ball": self.ball,
            "bowled": str(CARDS[self.bowled]),
            "played": str(CARDS[self.played]),
            "result": self.result,
            "runs": self.runs,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the match ended. ``result`` "win" has a ``winner`` seat; "tie" (both sides
    completed two innings with equal totals) and "draw" (the deck limit) have none.

    ``ending``: "innings" (B won without batting again), "chase" (B passed A's total in its
    second innings), "totals" (both sides completed two innings), "deck_limit".
    """

    result: Literal["win", "tie", "draw"]
    winner: int | None
    ending: Ending

    def to_dict(self) -> dict[str, Any]:
        return {"result": self.result, "winner": self.winner, "ending": self.ending}


@dataclass(frozen=True, slots=True)
class ArmchairState:
    """Everything about a match. ``pile`` is the draw pile, next card first; ``discards``
    has its top card last; ``owed`` counts cards a seat must still draw once the empty
    pile is reshuffled; ``bowled`` is the card of the delivery in progress."""

    settings: ArmchairSettings = field(default_factory=ArmchairSettings)
    phase: Phase = "deal"
    hands: tuple[Hand, Hand] = ((), ())
    pile: Hand = ()
    discards: Hand = ()
    deck: int = 1
    toss_winner: int | None = None
    side_a: int | None = None
    innings: tuple[Innings, ...] = ()
    bowled: int | None = None
    owed: tuple[int, int] = (0, 0)
    last: Delivery | None = None
    outcome: Outcome | None = None
    step: int = 0  # accepted actions so far: the position a player's buttons were drawn at

    @property
    def batter(self) -> int | None:
        return self.innings[-1].batting if self.innings else None

    @property
    def bowler(self) -> int | None:
        return None if not self.innings else 1 - self.innings[-1].batting

    @property
    def totals(self) -> tuple[int, int]:
        """Runs per seat over all innings so far."""
        runs = [0, 0]
        for innings in self.innings:
            runs[innings.batting] += innings.runs
        return runs[0], runs[1]

    @property
    def deck_limit_reached(self) -> bool:
        """The ``deck_limit``-th deck has been used up (its draw pile ran out)."""
        limit = self.settings.deck_limit
        if self.phase == "deal":
            return False
        return self.deck > limit or (self.deck == limit and not self.pile)


_put = object.__setattr__  # how a frozen dataclass's own __init__ fills its fields


def changed(value: Value, **changes: Any) -> Value:
    """``dataclasses.replace`` for an innings or a state, whose ``__init__`` checks nothing:
    each field copied into a new object, without replace's pass over the fields' kinds and
    the frozen ``__init__`` (half its cost; an action replaces the state three to five
    times). A name that is not a field is refused as replace refuses it."""
    names = type(value).__slots__
    if not changes.keys() <= set(names):
        raise TypeError(f"not fields of {type(value).__name__}: {sorted(changes)}")
    new = object.__new__(type(value))
    for name in names:
        _put(new, name, changes[name] if name in changes else getattr(value, name))
    return new
