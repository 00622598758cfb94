"""How a finished match ended, in one value every engine returns the same way.

``result`` separates three endings that tournaments score differently:

* ``"win"``: ``winner`` is the seat (0 or 1) that won.
* ``"tie"``: the game was played to its end and the sides finished equal; ``winner`` is None.
  A FinCricket leg that closes every sector with equal scores is a tie, so is a third-place
  format choice where both players picked the same format.
* ``"draw"``: the game ended without being decided on the board, by agreement or by a rule
  that stops it; ``winner`` is None. The Cup group match that both players end with «ничья»
  at 2:2 is a draw (``how="agreed_draw"``); the armchair card game's match that runs out of
  decks is a draw while its equal totals after four innings are a tie (``docs/rules.md``).

``score`` is what a results table shows for the match, seat 0 first: round wins in the Cup's
rolling formats, HP in the HP battle, hand wins in the betting final, legs in a darts match,
closed targets in a Cricket-Shanghai leg, points in a FinCricket leg. ``how`` is a stable,
machine-readable code for the ending that the bot turns into words; each engine documents
the codes it uses (for example ``"played"``, ``"agreed_draw"``, ``"knockout"``,
``"fold"``, ``"ante"``, ``"try"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Result = Literal["win", "tie", "draw"]
RESULTS: tuple[Result, ...] = ("win", "tie", "draw")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The ending of a finished match; see the module docstring for tie versus draw."""

    winner: int | None
    result: Result
    score: tuple[int, int]
    how: str

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {self.result!r}")
        if (self.result == "win") != (self.winner in (0, 1)):
            raise ValueError(f"a {self.result!r} cannot have winner {self.winner!r}")
        if self.winner is not None and type(self.winner) is not int:
            raise ValueError(f"winner must be a seat 0 or 1, not {self.winner!r}")
        if len(self.score) != 2 or not all(type(s) is int for s in self.score):
            raise ValueError(f"score must be two ints, not {self.score!r}")
        if not self.how:
            raise ValueError("how must name the ending")

    @classmethod
    def win(cls, winner: int, score: tuple[int, int], how: str) -> Outcome:
        return cls(winner, "win", score, how)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-able form used in views and exports."""
        return {
            "winner": self.winner,
            "result": self.result,
            "score": list(self.score),
            "how": self.how,
        }
