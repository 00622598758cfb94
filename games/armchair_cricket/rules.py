"""State transitions: ``apply(state, action)`` returns the next state or raises.

States are frozen, so a refused action can never leave a half-changed match behind.
Action shapes are listed in :mod:`.actions`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.common.errors import IllegalAction

from .actions import action_type, card_of, cards_of, order_of, seat_of, take
from .cards import PACK
from .delivery import outcome_of_codes
from .scoring import chase_won, close_innings, finish, settle
from .state import ArmchairState, Delivery, Hand, Innings, Outcome, changed

DEAL = 7
Handler = Callable[[ArmchairState, dict[str, Any]], ArmchairState]


def apply(state: ArmchairState, action: dict[str, Any]) -> ArmchairState:
    kind = action_type(action)
    if state.phase == "over":
        raise IllegalAction("finished")
    if any(state.owed) and kind != "shuffle":
        raise IllegalAction("shuffle_needed")
    return settle(changed(_HANDLERS[kind](state, action), step=state.step + 1))


def shuffle_size(state: ArmchairState) -> int:
    """How many cards the next shuffle orders: the pack, or the discards but the top."""
    return len(PACK) if state.phase == "deal" else len(state.discards) - 1


def _expect(state: ArmchairState, phase: str) -> None:
    if state.phase != phase:
        raise IllegalAction("wrong_phase", phase=state.phase)


def _actor(action: dict[str, Any], seat: int | None) -> int:
    player = seat_of(action)
    if player != seat:
        raise IllegalAction("not_your_turn", player=player)
    return player


def _hands_with(state: ArmchairState, seat: int, hand: tuple[int, ...]) -> tuple[Hand, Hand]:
    return (hand, state.hands[1]) if seat == 0 else (state.hands[0], hand)


def _play(state: ArmchairState, seat: int, cards: tuple[int, ...], **changes: Any) -> ArmchairState:
    """``seat`` puts ``cards`` from its hand on the discard pile, with other ``changes``."""
    hands = _hands_with(state, seat, take(state.hands[seat], cards))
    return changed(state, hands=hands, discards=state.discards + cards, **changes)


def _draw(state: ArmchairState, seat: int, count: int) -> ArmchairState:
    """Draw ``count`` cards; what the empty pile cannot give is owed until the shuffle."""
    drawn = state.pile[:count]
    hands = _hands_with(state, seat, tuple(sorted(state.hands[seat] + drawn)))
    owed = list(state.owed)
    owed[seat] += count - len(drawn)
    return changed(state, hands=hands, pile=state.pile[len(drawn) :], owed=(owed[0], owed[1]))


def _shuffle(state: ArmchairState, action: dict[str, Any]) -> ArmchairState:
    if state.phase != "deal" and not any(state.owed):
        raise IllegalAction("no_shuffle_needed")
    order = order_of(action, shuffle_size(state))
    if state.phase == "deal":
        cards = tuple(PACK[index] for index in order)
        hands = (tuple(sorted(cards[0 : 2 * DEAL : 2])), tuple(sorted(cards[1 : 2 * DEAL : 2])))
        return changed(state, phase="toss", hands=hands, pile=cards[2 * DEAL :])
    under = state.discards[:-1]
    pile = tuple(under[index] for index in order)
    owed = state.owed
    state = changed(
        state, pile=pile, discards=state.discards[-1:], deck=state.deck + 1, owed=(0, 0)
    )
    for seat in (0, 1):
        if owed[seat]:
            state = _draw(state, seat, owed[seat])
    return state


def _toss(state: ArmchairState, action: dict[str, Any]) -> ArmchairState:
    _expect(state, "toss")
    return changed(state, phase="choose", toss_winner=seat_of(action, "winner"))


def _choose(state: ArmchairState, action: dict[str, Any]) -> ArmchairState:
    _expect(state, "choose")
    _actor(action, state.toss_winner)
    batter = seat_of(action, "bat_first")
    innings = (Innings(1, batter, state.deck),)
    return changed(state, phase="discard", side_a=batter, innings=innings)


def discarding_seat(state: ArmchairState) -> int:
    """The bowler discards first, then the batter."""
    bowler = state.bowler
    assert bowler is not None
    return bowler if len(state.hands[bowler]) > DEAL - 1 else 1 - bowler


def _discard(state: ArmchairState, action: dict[str, Any]) -> ArmchairState:
    _expect(state, "discard")
    seat = _actor(action, discarding_seat(state))
    card = card_of(action.get("card"))
    return _play(state, seat, (card,), phase="bowl" if seat == state.batter else "discard")


def _bowl(state: ArmchairState, action: dict[str, Any]) -> ArmchairState:
    _expect(state, "bowl")
    seat = _actor(action, state.bowler)
    card = card_of(action.get("card"))
    return _draw(_play(state, seat, (card,), phase="bat", bowled=card), seat, 1)


def _bat(state: ArmchairState, action: dict[str, Any]) -> ArmchairState:
    _expect(state, "bat")
    seat = _actor(action, state.batter)
    card = card_of(action.get("card"))
    bowled = state.bowled
    assert bowled is not None
    result, runs = outcome_of_codes(bowled, card, state.settings.runs_table)
    innings = state.innings[-1]
    wickets = innings.wickets + (result == "wicket")
    innings = changed(innings, runs=innings.runs + runs, wickets=wickets, balls=innings.balls + 1)
    state = _play(
        state,
        seat,
        (card,),
        phase="exchange" if result == "wicket" else "bowl",
        innings=(*state.innings[:-1], innings),
        bowled=None,
        last=Delivery(innings.number, innings.balls, bowled, card, result, runs),
    )
    if chase_won(state):
        return finish(state, Outcome("win", seat, "chase"))
    if wickets >= state.settings.wickets:
        state = close_innings(state, declared=False)
    return state if state.outcome else _draw(state, seat, 1)


def _exchange(state: ArmchairState, action: dict[str, Any]) -> ArmchairState:
    _expect(state, "exchange")
    seat = _actor(action, state.batter)
    cards = cards_of(action)
    return _draw(_play(state, seat, cards, phase="bowl"), seat, len(cards))


def _declare(state: ArmchairState, action: dict[str, Any]) -> ArmchairState:
    seat = seat_of(action)
    if state.phase not in ("bowl", "bat", "exchange"):
        raise IllegalAction("wrong_phase", phase=state.phase)
    if seat != state.batter:
        raise IllegalAction("not_batting", player=seat)
    if state.phase == "bat":
        raise IllegalAction("ball_in_play")
    return close_innings(state, declared=True)


_HANDLERS: dict[str, Handler] = {
    "shuffle": _shuffle,
    "toss": _toss,
    "choose": _choose,
    "discard": _discard,
    "bowl": _bowl,
    "bat": _bat,
    "exchange": _exchange,
    "declare": _declare,
}
