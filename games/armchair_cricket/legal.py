"""Who acts now and what they may do.

:func:`to_act` names the next action's kind and seat; ``seat`` is ``None`` for the
bot's random draws ("shuffle" with the number of cards to order, "toss"). The batting
side may also declare between deliveries while the bowler is to act, so
:func:`legal_actions` answers for any seat, not only the one in :func:`to_act`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .actions import MAX_EXCHANGE
from .cards import card_name
from .rules import discarding_seat, shuffle_size
from .state import ArmchairState


@dataclass(frozen=True, slots=True)
class ToAct:
    kind: str
    seat: int | None
    size: int = 0  # cards to order, for a "shuffle"


def to_act(state: ArmchairState) -> ToAct | None:
    phase = state.phase
    if phase == "over":
        return None
    if phase == "deal" or any(state.owed):
        return ToAct("shuffle", None, shuffle_size(state))
    if phase == "toss":
        return ToAct("toss", None)
    if phase == "choose":
        return ToAct("choose", state.toss_winner)
    if phase == "discard":
        return ToAct("discard", discarding_seat(state))
    return ToAct(phase, state.bowler if phase == "bowl" else state.batter)


def legal_actions(state: ArmchairState, seat: int | None = None) -> list[dict[str, Any]]:
    """Every action ``seat`` (default: the seat to act) may take now, as action dicts;
    empty for the bot's draws and for a seat that must wait."""
    turn = to_act(state)
    if turn is None or turn.seat is None:
        return []
    seat = turn.seat if seat is None else seat
    actions: list[dict[str, Any]] = []
    if seat == turn.seat:
        actions = _own_turn(state, turn.kind, seat)
    if _may_declare(state, turn, seat):
        actions.append({"type": "declare", "player": seat})
    return actions


def may_declare(state: ArmchairState, seat: int) -> bool:
    """Whether ``seat`` may declare now: what a hand's declare button asks, answered without
    listing the seat's other actions (an exchange's every choice of cards)."""
    return _may_declare(state, to_act(state), seat)


def _may_declare(state: ArmchairState, turn: ToAct | None, seat: int) -> bool:
    return turn is not None and turn.seat is not None and turn.kind in ("bowl", "exchange") \
        and seat == state.batter


def _own_turn(state: ArmchairState, kind: str, seat: int) -> list[dict[str, Any]]:
    if kind == "choose":
        return [{"type": "choose", "player": seat, "bat_first": first} for first in (0, 1)]
    hand = state.hands[seat]
    if kind == "exchange":
        options = {
            tuple(sorted(chosen))
            for size in range(MAX_EXCHANGE + 1)
            for chosen in combinations(hand, size)
        }
        return [
            {"type": "exchange", "player": seat, "cards": [card_name(code) for code in chosen]}
            for chosen in sorted(options, key=lambda chosen: (len(chosen), chosen))
        ]
    return [{"type": kind, "player": seat, "card": card_name(code)} for code in sorted(set(hand))]
