"""What a seat may see: the public match plus that seat's own hand.

The bowled card and every completed delivery are face up. The opponent's hand, the draw
pile's order and the cards discarded face down (before the first ball and in exchanges)
are never in a view; ``view(state, None)`` is the spectators' and the export's view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CARDS, Card
from .legal import ToAct, to_act
from .state import ArmchairSettings, ArmchairState, Delivery, Innings, Outcome, Phase


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    settings: ArmchairSettings
    phase: Phase
    to_act: ToAct | None
    toss_winner: int | None
    side_a: int | None
    innings: tuple[Innings, ...]
    totals: tuple[int, int]
    deck: int
    pile_size: int
    discard_size: int
    hand_sizes: tuple[int, int]
    bowled: Card | None
    last: Delivery | None
    outcome: Outcome | None
    hand: tuple[Card, ...] | None

    @property
    def batter(self) -> int | None:
        return self.innings[-1].batting if self.innings else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able copy (cards as ``"BAT 8"``)."""
        turn = self.to_act
        return {
            "seat": self.seat,
            "settings": self.settings.to_dict(),
            "phase": self.phase,
            "to_act": None if turn is None else {"kind": turn.kind, "seat": turn.seat},
            "toss_winner": self.toss_winner,
            "side_a": self.side_a,
            "innings": [innings.to_dict() for innings in self.innings],
            "totals": list(self.totals),
            "deck": self.deck,
            "pile_size": self.pile_size,
            "discard_size": self.discard_size,
            "hand_sizes": list(self.hand_sizes),
            "bowled": None if self.bowled is None else str(self.bowled),
            "last": None if self.last is None else self.last.to_dict(),
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "hand": None if self.hand is None else [str(card) for card in self.hand],
        }


def view(state: ArmchairState, seat: int | None = None) -> View:
    if seat not in (None, 0, 1):
        raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
    return View(
        seat=seat,
        settings=state.settings,
        phase=state.phase,
        to_act=to_act(state),
        toss_winner=state.toss_winner,
        side_a=state.side_a,
        innings=state.innings,
        totals=state.totals,
        deck=state.deck,
        pile_size=len(state.pile),
        discard_size=len(state.discards),
        hand_sizes=(len(state.hands[0]), len(state.hands[1])),
        bowled=None if state.bowled is None else CARDS[state.bowled],
        last=state.last,
        outcome=state.outcome,
        hand=None if seat is None else tuple(CARDS[code] for code in state.hands[seat]),
    )
