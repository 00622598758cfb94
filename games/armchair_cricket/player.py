"""The bot's own player: deterministic given the state (and an optional ``rng``).

It decides from ``view(state, seat)`` only: its own hand and what is public.

A hand's *risk* is the chance that a uniformly bowled card finds no answer in it. A card
answers a ball of its own suit whatever its value, and a ball of another suit up to its
value, so a hand missing ``k`` suits with highest value ``m`` loses a wicket to
``k × (11 − m)`` of the 55 faces. The batter plays the card whose loss raises that risk
least, valuing runs against it (a winning run always first); the bowler plays the card a
six-card hand is least likely to answer, less the runs it may give away; after a wicket
it exchanges low cards that neither cover a missing suit nor are its highest.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .actions import MAX_EXCHANGE
from .cards import CARDS, COPIES, HIGH, PACK, Suit, card_name, suit_of, value_of
from .delivery import RunsTable, outcome_of_codes, runs_for_excess
from .state import ArmchairState
from .view import View, view

FACES = len(CARDS)
SUITS = len(Suit)
WICKET_RUNS = 12  # what a wicket is worth in runs to both players
LAST_WICKET_RUNS = 25
HAND = 6
LOW = 5  # cards up to this value are exchanged when they do no other job
DECLARE_LEAD = 30


def choose_action(
    state: ArmchairState, seat: int, rng: random.Random | None = None
) -> dict[str, Any] | None:
    """The bot's action for ``seat``; ``None`` when ``seat`` has nothing to do now.

    When the bowler is to act, the batting seat is asked too: it may declare.
    """
    seen = view(state, seat)
    turn = seen.to_act
    if turn is None or turn.seat is None:
        return None
    if turn.seat != seat:
        return _declare(seen) if turn.kind == "bowl" and seat == seen.batter else None
    hand = tuple(card.code for card in seen.hand or ())
    kind = turn.kind
    if kind == "choose":
        return {"type": "choose", "player": seat, "bat_first": seat}
    if kind == "exchange":
        return _declare(seen) or _exchange(seat, hand)
    if kind == "bat":
        assert seen.bowled is not None
        card = _bat(seen, hand, seen.bowled.code, rng)
    elif kind == "bowl":
        card = _bowl(hand, seen.settings.runs_table, rng)
    else:
        card = _cheapest(hand, rng)
    return {"type": kind, "player": seat, "card": card_name(card)}


def risk(hand: Iterable[int]) -> float:
    """Chance that a uniformly drawn bowled card takes a wicket against ``hand``."""
    codes = tuple(hand)
    if not codes:
        return 1.0
    missing = SUITS - len({suit_of(code) for code in codes})
    return missing * (HIGH - max(value_of(code) for code in codes)) / FACES


def _without(hand: tuple[int, ...], code: int) -> tuple[int, ...]:
    index = hand.index(code)
    return hand[:index] + hand[index + 1 :]


def _best(scores: dict[int, Any], rng: random.Random | None) -> int:
    """The best-scoring card; ties go to the lowest code, or to ``rng`` when given."""
    top = max(scores.values())
    best = sorted(code for code, score in scores.items() if score == top)
    return rng.choice(best) if rng is not None else best[0]


def _cheapest(hand: tuple[int, ...], rng: random.Random | None) -> int:
    """The card whose loss leaves the safest hand, the lowest value among equals."""
    scores = {code: (-risk(_without(hand, code)), -value_of(code)) for code in set(hand)}
    return _best(scores, rng)


def _bat(seen: View, hand: tuple[int, ...], bowled: int, rng: random.Random | None) -> int:
    innings = seen.innings[-1]
    table = seen.settings.runs_table
    last_wicket = innings.wickets + 1 >= seen.settings.wickets
    wicket_cost = LAST_WICKET_RUNS if last_wicket else WICKET_RUNS
    needed = None if innings.target is None else innings.target - innings.runs
    scores: dict[int, float] = {}
    for code in set(hand):
        result, runs = outcome_of_codes(bowled, code, table)
        if result == "wicket":
            scores[code] = -FACES * wicket_cost - value_of(code)  # only when nothing is safe
        elif needed is not None and runs >= needed:
            scores[code] = FACES * wicket_cost  # the winning run
        else:
            scores[code] = runs - wicket_cost * risk(_without(hand, code))
    return _best(scores, rng)


def _bowl(hand: tuple[int, ...], table: RunsTable, rng: random.Random | None) -> int:
    return _best({code: _bowling_value(hand, code, table) for code in set(hand)}, rng)


def _bowling_value(hand: tuple[int, ...], code: int, table: RunsTable) -> float:
    """Expected wicket value less expected runs of bowling ``code`` at a six-card hand
    drawn from the cards the bowler cannot see, less a little for weakening its own hand
    (it bats with it next innings)."""
    unseen = len(PACK) - len(hand)
    suit, value = suit_of(code), value_of(code)
    losing = COPIES * (SUITS - 1) * (value - 1)
    losing -= sum(1 for own in hand if suit_of(own) != suit and value_of(own) < value)
    scoring = COPIES * (HIGH - value)
    scoring -= sum(1 for own in hand if suit_of(own) == suit and value_of(own) > value)
    wicket = (losing / unseen) ** HAND
    runs = (1 - (1 - scoring / unseen) ** HAND) * runs_for_excess(1, table) / 2
    return WICKET_RUNS * (wicket - risk(_without(hand, code)) / 4) - runs


def _exchange(seat: int, hand: tuple[int, ...]) -> dict[str, Any]:
    """Throw away up to two low cards whose loss does not make the hand riskier."""
    chosen: list[int] = []
    rest = hand
    for code in sorted(hand, key=value_of):
        if len(chosen) == MAX_EXCHANGE or value_of(code) > LOW:
            break
        if risk(_without(rest, code)) <= risk(rest):
            chosen.append(code)
            rest = _without(rest, code)
    cards = [card_name(code) for code in sorted(chosen)]
    return {"type": "exchange", "player": seat, "cards": cards}


def _declare(seen: View) -> dict[str, Any] | None:
    """Declare A's second innings when far ahead with the deck limit near: B must be
    bowled out before the limit, or the lead is only worth a draw."""
    innings = seen.innings[-1]
    if innings.number != 3 or seen.settings.deck_limit - seen.deck > 1:
        return None
    lead = seen.innings[0].runs + innings.runs - seen.innings[1].runs
    return {"type": "declare", "player": innings.batting} if lead >= DECLARE_LEAD else None
