"""Match results and point systems shared by every tournament format.

Players are any hashable ids (ints in practice). A :class:`Result` is one finished pairing:
a played match, a forfeit ("+"/"−": a win or loss without a played score) or a bye (a win
without play). Results are plain, JSON-able values so the bot can store them and rebuild
standings or a Swiss round from the stored list at any time.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, TypeAlias

from games.common.errors import IllegalAction

Player: TypeAlias = Hashable
Pair: TypeAlias = tuple[Player, Player | None]
"""A pairing in a round: the first-named player starts; a second player of None is a bye."""

Outcome: TypeAlias = Literal["win", "draw", "loss"]


def as_fraction(value: float) -> Fraction:
    """Exact value of a configured number (0.5 stays 1/2, 0.1 stays 1/10)."""
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def as_number(value: Fraction) -> int | float:
    """A JSON-friendly number: an int when whole."""
    return int(value) if value.denominator == 1 else float(value)


@dataclass(frozen=True)
class Points:
    """Match points for a win, a draw and a loss (a bye and a forfeit win score as a win)."""

    win: float = 1
    draw: float = 0
    loss: float = 0

    def __getitem__(self, outcome: Outcome) -> Fraction:
        return as_fraction(getattr(self, outcome))


DEFAULT_POINTS = Points()
DICE_CUP_POINTS = Points(win=3, draw=1, loss=0)
BACKGAMMON_POINTS = Points(win=1, draw=0, loss=0)


@dataclass(frozen=True)
class Result:
    """One finished pairing.

    ``winner`` is ``a``, ``b`` or None. None means a draw, except with ``forfeit=True``,
    where it means a double forfeit (nobody showed up: a loss for both). ``b`` None is a bye;
    its winner is always ``a``. ``score`` is (a's, b's) games, rounds or points of a played
    match; forfeits and byes have none.
    """

    a: Player
    b: Player | None = None
    winner: Player | None = None
    score: tuple[int, int] | None = None
    forfeit: bool = False
    round: int = 0

    def __post_init__(self) -> None:
        if self.b is None:
            if self.winner not in (None, self.a) or self.score is not None or self.forfeit:
                raise IllegalAction("bad_result", reason="a bye is a plain win for its player")
            object.__setattr__(self, "winner", self.a)
            return
        if self.a == self.b:
            raise IllegalAction("bad_result", reason="a player cannot meet themselves")
        if self.winner is not None and self.winner not in (self.a, self.b):
            raise IllegalAction("bad_result", reason="the winner must be one of the players")
        if self.score is not None:
            if self.forfeit:
                raise IllegalAction("bad_result", reason="a forfeit has no played score")
            object.__setattr__(self, "score", (int(self.score[0]), int(self.score[1])))

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def players(self) -> tuple[Player, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    def opponent(self, player: Player) -> Player | None:
        return self.b if player == self.a else self.a

    def outcome(self, player: Player) -> Outcome:
        if self.winner is None:
            return "loss" if self.forfeit else "draw"
        return "win" if self.winner == player else "loss"

    def own_and_opponent_score(self, player: Player) -> tuple[int, int] | None:
        if self.score is None:
            return None
        return self.score if player == self.a else (self.score[1], self.score[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "winner": self.winner,
            "score": list(self.score) if self.score is not None else None,
            "forfeit": self.forfeit,
            "round": self.round,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        score = data.get("score")
        return cls(
            a=data["a"],
            b=data.get("b"),
            winner=data.get("winner"),
            score=(score[0], score[1]) if score is not None else None,
            forfeit=bool(data.get("forfeit", False)),
            round=int(data.get("round", 0)),
        )


def check_players(players: list[Player], minimum: int = 2) -> None:
    """Refuse a field that is too small, holds duplicates or uses None (None means a bye)."""
    if any(p is None for p in players):
        raise IllegalAction("bad_player", reason="None is reserved for a bye")
    if len(set(players)) != len(players):
        raise IllegalAction("duplicate_players")
    if len(players) < minimum:
        raise IllegalAction("not_enough_players", count=len(players), minimum=minimum)
